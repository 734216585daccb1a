//! The model's reply checked: exactly one JSON object of scores, every
//! dimension present, known, unique and in range, with each problem named
//! ([`ReplyProblem`]) and a quote not found in the answer only a warning.

use crate::content::Rubric;
use crate::rubric::{RubricScore, MAX_SCORE};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt;
use ttft_latency::small_map::SmallMap;

/// How the JSON object was found in the reply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Extraction {
    /// The reply was the object and nothing else, as asked.
    Whole,
    /// The object came inside a code fence or with prose around it, which
    /// was ignored because exactly one object was present.
    Surrounded,
}

/// One dimension of the AI's grade, checked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AiDimension {
    pub dimension: String,
    pub score: u8,
    pub evidence: String,
    pub feedback: String,
    /// True when the evidence was found in the answer (ignoring case,
    /// spacing, quote style and a trailing ellipsis).
    pub evidence_found: bool,
}

/// A doubt about an accepted grade, shown beside it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum ReplyWarning {
    /// The quote is not in the answer.
    EvidenceNotFound { dimension: String, evidence: String },
    /// A score above 0 with no quote to support it.
    NoEvidence { dimension: String },
    /// Prose or a fence around the JSON was ignored.
    Surrounded,
}

impl fmt::Display for ReplyWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplyWarning::EvidenceNotFound { dimension, evidence } => write!(
                f,
                "{dimension}: the quoted evidence \"{evidence}\" is not in your answer; the model may have paraphrased or invented it"
            ),
            ReplyWarning::NoEvidence { dimension } => write!(f, "{dimension}: the model gave a score but quoted nothing to support it"),
            ReplyWarning::Surrounded => f.write_str("the model wrapped its JSON in other text, which was ignored"),
        }
    }
}

/// The AI's grade on every dimension, in rubric order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AiGrade {
    pub dimensions: Vec<AiDimension>,
    pub extraction: Extraction,
    pub warnings: Vec<ReplyWarning>,
}

impl AiGrade {
    /// The AI's score on `dimension`.
    pub fn get(&self, dimension: &str) -> Option<&AiDimension> {
        self.dimensions.iter().find(|d| d.dimension == dimension)
    }

    /// The grade as a [`RubricScore`], for readiness and saving.
    pub fn as_rubric_score(&self) -> RubricScore {
        // Inserted one by one rather than collected: collecting into a map
        // sorts first, a few kilobytes of wasm for five entries.
        let mut scores = SmallMap::new();
        for d in &self.dimensions {
            scores.insert(d.dimension.clone(), d.score);
        }
        RubricScore { scores }
    }
}

/// A reason the reply cannot be shown as a grade.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum ReplyProblem {
    /// Nothing came back.
    Empty,
    /// No JSON object in the reply.
    NotJson,
    /// More than one JSON object, so which one is meant is a guess.
    SeveralObjects { count: usize },
    /// The object has no `scores` list.
    NoScores,
    /// Entry `index` of `scores` is not an object or lacks a field.
    BadEntry { index: usize, field: String },
    /// A rubric dimension the reply does not score.
    MissingDimension { dimension: String },
    /// A dimension the rubric does not have.
    UnknownDimension { dimension: String },
    /// A dimension scored twice.
    Duplicate { dimension: String },
    /// A whole number outside 0..=2.
    OutOfRange { dimension: String, score: String },
    /// A score that is not a whole number (a fraction, a string, …).
    NotInteger { dimension: String, value: String },
    /// No feedback sentence.
    EmptyFeedback { dimension: String },
}

impl fmt::Display for ReplyProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplyProblem::Empty => f.write_str("the model sent back nothing"),
            ReplyProblem::NotJson => {
                f.write_str("the reply is not JSON, so it cannot be read as scores")
            }
            ReplyProblem::SeveralObjects { count } => {
                write!(f, "the reply holds {count} JSON objects where one was asked for, so none is trusted")
            }
            ReplyProblem::NoScores => f.write_str("the reply has no \"scores\" list"),
            ReplyProblem::BadEntry { index, field } => {
                write!(f, "score entry {} has no usable \"{field}\"", index + 1)
            }
            ReplyProblem::MissingDimension { dimension } => {
                write!(f, "the reply gives no score for {dimension}")
            }
            ReplyProblem::UnknownDimension { dimension } => write!(
                f,
                "the reply scores \"{dimension}\", which is not a rubric dimension"
            ),
            ReplyProblem::Duplicate { dimension } => {
                write!(f, "the reply scores {dimension} more than once")
            }
            ReplyProblem::OutOfRange { dimension, score } => {
                write!(
                    f,
                    "the reply scores {dimension} {score}; a dimension scores 0, 1 or 2"
                )
            }
            ReplyProblem::NotInteger { dimension, value } => {
                write!(
                    f,
                    "the reply scores {dimension} {value}, which is not a whole number 0, 1 or 2"
                )
            }
            ReplyProblem::EmptyFeedback { dimension } => {
                write!(f, "the reply gives {dimension} no feedback sentence")
            }
        }
    }
}

/// Every top-level `{…}` span in `text` that parses as a JSON object.
fn json_objects(text: &str) -> Vec<Value> {
    let mut found = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    // Each failed start costs a scan to the end; a bound on them keeps a
    // reply full of stray braces linear instead of quadratic.
    let mut failed_starts = 0;
    while i < bytes.len() && failed_starts < 64 {
        if bytes.get(i) != Some(&b'{') {
            i += 1;
            continue;
        }
        // Find the matching close brace, skipping braces inside strings.
        let (mut depth, mut in_string, mut escaped, mut end) = (0usize, false, false, None);
        for (j, &b) in bytes.iter().enumerate().skip(i) {
            if in_string {
                match (escaped, b) {
                    (true, _) => escaped = false,
                    (false, b'\\') => escaped = true,
                    (false, b'"') => in_string = false,
                    _ => {}
                }
                continue;
            }
            match b {
                b'"' => in_string = true,
                b'{' => depth += 1,
                b'}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        end = Some(j);
                        break;
                    }
                }
                _ => {}
            }
        }
        match end.and_then(|e| text.get(i..=e)) {
            Some(span) => match serde_json::from_str::<Value>(span) {
                Ok(v @ Value::Object(_)) => {
                    found.push(v);
                    i += span.len();
                }
                // Balanced but not JSON (a trailing comma, a brace in
                // prose): whatever lies inside is nested in it, not a reply
                // of its own, so the scan goes on after its close.
                _ => {
                    failed_starts += 1;
                    i += span.len();
                }
            },
            // Never closed, as in a reply cut off by a token limit: every
            // later brace is nested inside it, so the complete entries in a
            // truncated reply must not pass for replies of their own.
            None => break,
        }
    }
    found
}

/// Lower case, straight quotes, single spaces, no surrounding quotes or
/// ellipsis: the form in which evidence is looked for in the answer.
fn normalise(text: &str) -> String {
    let mapped: String = text
        .chars()
        .map(|c| match c {
            '\u{2018}' | '\u{2019}' | '`' => '\'',
            '\u{201C}' | '\u{201D}' => '"',
            '\u{2013}' | '\u{2014}' => '-',
            c => c,
        })
        .flat_map(char::to_lowercase)
        .collect();
    let words: Vec<&str> = mapped.split_whitespace().collect();
    let joined = words.join(" ");
    joined
        .trim_matches(|c: char| c == '"' || c == '\'' || c == '.' || c == '…' || c.is_whitespace())
        .to_owned()
}

/// True when `evidence` (or each part of it around an ellipsis) occurs in
/// `answer`, after [`normalise`].
fn evidence_in(answer: &str, evidence: &str) -> bool {
    let answer = normalise(answer);
    let parts: Vec<String> = evidence
        .split(['…'])
        .flat_map(|p| p.split("..."))
        .map(normalise)
        .filter(|p| !p.is_empty())
        .collect();
    !parts.is_empty() && parts.iter().all(|p| answer.contains(p.as_str()))
}

/// Reads the assembled reply text against `rubric`, looking for each quote
/// in `answer`. Returns the grade, or every problem that keeps it from
/// being shown.
pub fn parse_reply(
    text: &str,
    rubric: &Rubric,
    answer: &str,
) -> Result<AiGrade, Vec<ReplyProblem>> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(vec![ReplyProblem::Empty]);
    }
    let (value, extraction) = match serde_json::from_str::<Value>(trimmed) {
        Ok(v @ Value::Object(_)) => (v, Extraction::Whole),
        _ => {
            let mut objects = json_objects(trimmed);
            match objects.len() {
                0 => return Err(vec![ReplyProblem::NotJson]),
                1 => (objects.remove(0), Extraction::Surrounded),
                count => return Err(vec![ReplyProblem::SeveralObjects { count }]),
            }
        }
    };
    let Some(entries) = value.get("scores").and_then(Value::as_array) else {
        return Err(vec![ReplyProblem::NoScores]);
    };
    let mut problems = Vec::new();
    let mut accepted: Vec<AiDimension> = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    for (index, entry) in entries.iter().enumerate() {
        let Some(dimension) = entry
            .get("dimension")
            .and_then(Value::as_str)
            .map(str::trim)
        else {
            problems.push(ReplyProblem::BadEntry {
                index,
                field: "dimension".into(),
            });
            continue;
        };
        let dimension = dimension.to_owned();
        if !rubric.dimensions.iter().any(|d| d.id == dimension) {
            problems.push(ReplyProblem::UnknownDimension { dimension });
            continue;
        }
        if seen.contains(&dimension) {
            if !problems.contains(&ReplyProblem::Duplicate {
                dimension: dimension.clone(),
            }) {
                problems.push(ReplyProblem::Duplicate { dimension });
            }
            continue;
        }
        seen.push(dimension.clone());
        let score = match entry.get("score") {
            None | Some(Value::Null) => {
                problems.push(ReplyProblem::BadEntry {
                    index,
                    field: "score".into(),
                });
                None
            }
            Some(Value::Number(n)) => {
                // A whole number written as 2.0 is accepted: it is exactly 2.
                let whole = n.as_i64().or_else(|| {
                    n.as_f64()
                        .filter(|f| f.fract() == 0.0 && f.abs() < 1e15)
                        .map(|f| f as i64)
                });
                match whole {
                    Some(s) if (0..=i64::from(MAX_SCORE)).contains(&s) => u8::try_from(s).ok(),
                    Some(_) => {
                        problems.push(ReplyProblem::OutOfRange {
                            dimension: dimension.clone(),
                            score: n.to_string(),
                        });
                        None
                    }
                    // Beyond i64 or 1e15: whole, and far out of range.
                    None if n.as_u64().is_some()
                        || n.as_f64().is_some_and(|f| f.fract() == 0.0) =>
                    {
                        problems.push(ReplyProblem::OutOfRange {
                            dimension: dimension.clone(),
                            score: n.to_string(),
                        });
                        None
                    }
                    None => {
                        problems.push(ReplyProblem::NotInteger {
                            dimension: dimension.clone(),
                            value: n.to_string(),
                        });
                        None
                    }
                }
            }
            Some(other) => {
                problems.push(ReplyProblem::NotInteger {
                    dimension: dimension.clone(),
                    value: other.to_string(),
                });
                None
            }
        };
        let evidence = entry
            .get("evidence")
            .and_then(Value::as_str)
            .unwrap_or("")
            .trim()
            .to_owned();
        let feedback = entry
            .get("feedback")
            .and_then(Value::as_str)
            .unwrap_or("")
            .trim()
            .to_owned();
        if feedback.is_empty() {
            problems.push(ReplyProblem::EmptyFeedback {
                dimension: dimension.clone(),
            });
        }
        if let Some(score) = score {
            let evidence_found = !evidence.is_empty() && evidence_in(answer, &evidence);
            accepted.push(AiDimension {
                dimension,
                score,
                evidence,
                feedback,
                evidence_found,
            });
        }
    }
    for d in &rubric.dimensions {
        if !seen.contains(&d.id) {
            problems.push(ReplyProblem::MissingDimension {
                dimension: d.id.clone(),
            });
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    // Rubric order, whatever order the model used.
    let dimensions: Vec<AiDimension> = rubric
        .dimensions
        .iter()
        .filter_map(|d| accepted.iter().find(|a| a.dimension == d.id).cloned())
        .collect();
    let mut warnings = Vec::new();
    if extraction == Extraction::Surrounded {
        warnings.push(ReplyWarning::Surrounded);
    }
    for d in &dimensions {
        if d.evidence.is_empty() {
            if d.score > 0 {
                warnings.push(ReplyWarning::NoEvidence {
                    dimension: d.dimension.clone(),
                });
            }
        } else if !d.evidence_found {
            warnings.push(ReplyWarning::EvidenceNotFound {
                dimension: d.dimension.clone(),
                evidence: d.evidence.clone(),
            });
        }
    }
    Ok(AiGrade {
        dimensions,
        extraction,
        warnings,
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::rubric::tests::rubric;

    pub(crate) const ANSWER: &str =
        "First I split TTFT into queue wait, prefill and emit from the trace. \
        The p95 is 2,400 ms; queue wait is 97% of it, so admission is the bottleneck. \
        I'd cap concurrency and shed load with a deadline.";

    pub(crate) fn reply(scores: &[(&str, &str)]) -> String {
        let entries: Vec<String> = scores
            .iter()
            .map(|(d, s)| format!(r#"{{"dimension":"{d}","score":{s},"evidence":"queue wait is 97%","feedback":"Good."}}"#))
            .collect();
        format!(r#"{{"scores":[{}]}}"#, entries.join(","))
    }

    pub(crate) fn five(score: &str) -> Vec<(&'static str, String)> {
        ["latency_metrics", "clocks", "changes", "memory", "overload"]
            .iter()
            .map(|d| (*d, score.to_owned()))
            .collect()
    }

    fn check(text: &str, expected: Result<Vec<u8>, Vec<ReplyProblem>>) {
        let got = parse_reply(text, &rubric(), ANSWER)
            .map(|g| g.dimensions.iter().map(|d| d.score).collect::<Vec<_>>());
        assert_eq!(got, expected, "{text}");
    }

    pub(crate) fn owned<'a>(v: &'a [(&'static str, String)]) -> Vec<(&'static str, &'a str)> {
        v.iter().map(|(d, s)| (*d, s.as_str())).collect()
    }

    #[test]
    fn a_good_reply_in_any_wrapping() {
        let good = reply(&owned(&five("2")));
        check(&good, Ok(vec![2; 5]));
        let fenced = format!("Here is the grade:\n```json\n{good}\n```\nHope that helps!");
        check(&fenced, Ok(vec![2; 5]));
        let g = parse_reply(&fenced, &rubric(), ANSWER).unwrap();
        assert_eq!(g.extraction, Extraction::Surrounded);
        assert_eq!(g.warnings, vec![ReplyWarning::Surrounded]);
        // Order follows the rubric, not the reply.
        let mut shuffled = five("1");
        shuffled.reverse();
        shuffled[0].1 = "0".into();
        check(&reply(&owned(&shuffled)), Ok(vec![1, 1, 1, 1, 0]));
        check(&reply(&owned(&five("2.0"))), Ok(vec![2; 5]));
    }

    #[test]
    fn every_problem_is_named() {
        check("", Err(vec![ReplyProblem::Empty]));
        check(
            "I think the answer is good.",
            Err(vec![ReplyProblem::NotJson]),
        );
        check("{\"scores\": [", Err(vec![ReplyProblem::NotJson]));
        // Cut off after two complete entries: not JSON, not "two objects".
        check(
            "{\"scores\": [{\"dimension\": \"a\", \"score\": 2}, {\"dimension\": \"b\", \"score\": 1}",
            Err(vec![ReplyProblem::NotJson]),
        );
        // A trailing comma spoils the whole object, inner entries and all.
        check(
            "{\"scores\": [{\"dimension\": \"a\"},]}",
            Err(vec![ReplyProblem::NotJson]),
        );
        let good = reply(&owned(&five("2")));
        check(
            &format!("{good}\n{good}"),
            Err(vec![ReplyProblem::SeveralObjects { count: 2 }]),
        );
        check(r#"{"grades": []}"#, Err(vec![ReplyProblem::NoScores]));
        let mut v = five("2");
        v[1].1 = "3".into();
        v[2].1 = "1.5".into();
        v[3].1 = "\"2\"".into();
        v[4].1 = "-1".into();
        check(
            &reply(&owned(&v)),
            Err(vec![
                ReplyProblem::OutOfRange {
                    dimension: "clocks".into(),
                    score: "3".into(),
                },
                ReplyProblem::NotInteger {
                    dimension: "changes".into(),
                    value: "1.5".into(),
                },
                ReplyProblem::NotInteger {
                    dimension: "memory".into(),
                    value: "\"2\"".into(),
                },
                ReplyProblem::OutOfRange {
                    dimension: "overload".into(),
                    score: "-1".into(),
                },
            ]),
        );
        let mut v = five("1");
        v[0].0 = "clocks";
        v.push(("vibes", "2".into()));
        check(
            &reply(&owned(&v)),
            Err(vec![
                ReplyProblem::Duplicate {
                    dimension: "clocks".into(),
                },
                ReplyProblem::UnknownDimension {
                    dimension: "vibes".into(),
                },
                ReplyProblem::MissingDimension {
                    dimension: "latency_metrics".into(),
                },
            ]),
        );
        let no_feedback = reply(&owned(&five("1"))).replacen("\"Good.\"", "\"  \"", 1);
        check(
            &no_feedback,
            Err(vec![ReplyProblem::EmptyFeedback {
                dimension: "latency_metrics".into(),
            }]),
        );
        check(
            r#"{"scores":[7]}"#,
            Err(vec![
                ReplyProblem::BadEntry {
                    index: 0,
                    field: "dimension".into(),
                },
                ReplyProblem::MissingDimension {
                    dimension: "latency_metrics".into(),
                },
                ReplyProblem::MissingDimension {
                    dimension: "clocks".into(),
                },
                ReplyProblem::MissingDimension {
                    dimension: "changes".into(),
                },
                ReplyProblem::MissingDimension {
                    dimension: "memory".into(),
                },
                ReplyProblem::MissingDimension {
                    dimension: "overload".into(),
                },
            ]),
        );
        assert_eq!(
            ReplyProblem::OutOfRange {
                dimension: "clocks".into(),
                score: "3".into()
            }
            .to_string(),
            "the reply scores clocks 3; a dimension scores 0, 1 or 2"
        );
    }

    #[test]
    fn evidence_is_a_warning_not_a_rejection() {
        assert!(evidence_in(ANSWER, "“QUEUE   wait is 97% of it…”"));
        assert!(evidence_in(
            ANSWER,
            "I'd cap concurrency ... with a deadline"
        ));
        assert!(!evidence_in(ANSWER, "uses speculative decoding"));
        assert!(!evidence_in(ANSWER, "..."));
        let text = reply(&owned(&five("2")))
            .replacen("queue wait is 97%", "speculative decoding", 1)
            .replacen("\"evidence\":\"queue wait is 97%\"", "\"evidence\":\"\"", 1);
        let g = parse_reply(&text, &rubric(), ANSWER).unwrap();
        assert_eq!(
            g.warnings,
            vec![
                ReplyWarning::EvidenceNotFound {
                    dimension: "latency_metrics".into(),
                    evidence: "speculative decoding".into()
                },
                ReplyWarning::NoEvidence {
                    dimension: "clocks".into()
                },
            ]
        );
        assert!(!g.dimensions[0].evidence_found && g.dimensions[2].evidence_found);
    }

    proptest::proptest! {
        #[test]
        fn no_reply_panics(text in "\\PC{0,200}") {
            let _ = parse_reply(&text, &rubric(), ANSWER);
        }

        #[test]
        fn no_braces_panic(text in "[{}\"\\\\a: ,\\[\\]0-9]{0,80}") {
            let _ = json_objects(&text);
            let _ = parse_reply(&text, &rubric(), &text);
        }
    }
}
