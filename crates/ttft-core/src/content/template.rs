//! Placeholders in course prose, filled from the course data through the core.
//!
//! The numbers rule: every computed figure the page shows (a share, a sum, a
//! time to finish) comes from the core, never from a sentence someone typed.
//! So prose that cites such a figure writes a placeholder, and [`fill`]
//! replaces it with what the core computes from the same course data. If a
//! trace row changes, the prose follows.
//!
//! This module does not parse markup, does not check stated answers (that is
//! `validate`'s job) and does no arithmetic of its own: times use
//! [`Micros`]'s display, shares use [`Share`](ttft_latency::split::Share)'s, batch
//! times come from `config_choice::plan`; it only adds a unit (`tokens/s`, `s`).
//!
//! # Grammar
//!
//! ```text
//! text        = { literal | "{{" | "}}" | placeholder }
//! placeholder = "{" subject "." key [ "." argument ] "}"
//! ```
//!
//! `{{` and `}}` write a literal brace; any other lone `}` is an error, so a
//! typo cannot slip through as text. The subject is `worked` (the lesson's
//! worked timeline), a trace row's id (`H2`) or a workload's id
//! (`overnight-drafts`). Keys:
//!
//! | subject | key | example result |
//! |---|---|---|
//! | `worked`, row | `queue_wait`, `prefill`, `emit`, `ttft` | `2,400 ms` |
//! | `worked`, row | `share.<part>` (`queue_wait`, `prefill`, `emit`) | `96.9%` |
//! | `worked`, row | `dominant`, `dominant_share` | `queue wait`, `96.9%` |
//! | `worked`, row | `vllm_prefill` (prefill + emit, vLLM's convention) | `75 ms` |
//! | row | `over`, `margin` (against the exercise's target) | `1,400 ms` |
//! | `worked` | `decode`, `end_to_end`, `unseen`, `time_per_token` | `12,000 ms` |
//! | `worked` | `tokens_after_first`, `rate` | `480`, `40 tokens/s` |
//! | `worked` | `prompt_tokens` (as the timeline states it) | `3,000` |
//! | batch workload | `total_tokens`, `time.<config>` (to the nearest second) | `4,000,000`, `1,667 s` |
//!
//! `over` and `margin` are errors when they do not apply (a row within its
//! target has no `over`), so prose cannot state a comparison that is false.

use crate::content::{
    ConfigExercise, Course, ServingConfig, TraceExercise, WorkedTimeline, Workload,
};
use crate::exercises::config_choice::{plan, ChoiceError, WorkloadPlan};
use std::fmt;
use ttft_latency::split::{
    format_tenths, split_request, unseen_by_server, Dominant, Part, RequestSplit, TargetVerdict,
};
use ttft_latency::time::{group_thousands, Micros};
use ttft_latency::timing::TimingError;

/// Why a string could not be filled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TemplateError {
    /// A `{` at this byte offset has no closing `}`.
    Unclosed { at: usize },
    /// A `}` at this byte offset closes nothing (write `}}` for a brace).
    StrayClose { at: usize },
    /// The subject names nothing in the course.
    UnknownSubject { placeholder: String },
    /// The subject names more than one thing in the course.
    AmbiguousSubject { placeholder: String },
    /// The subject exists but has no such key (or the argument is wrong).
    UnknownKey { placeholder: String },
    /// The subject's timings cannot be split.
    Timing {
        placeholder: String,
        error: TimingError,
    },
    /// The key exists but does not apply to this subject's data.
    NotApplicable {
        placeholder: String,
        why: &'static str,
    },
}

impl fmt::Display for TemplateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TemplateError::Unclosed { at } => {
                write!(
                    f,
                    "the `{{` at byte {at} is never closed (write `{{{{` for a literal brace)"
                )
            }
            TemplateError::StrayClose { at } => {
                write!(
                    f,
                    "the `}}` at byte {at} closes nothing (write `}}}}` for a literal brace)"
                )
            }
            TemplateError::UnknownSubject { placeholder } => write!(
                f,
                "{{{placeholder}}}: the subject is not `worked`, a trace row id or a workload id"
            ),
            TemplateError::AmbiguousSubject { placeholder } => {
                write!(
                    f,
                    "{{{placeholder}}}: the subject names more than one thing in the course"
                )
            }
            TemplateError::UnknownKey { placeholder } => {
                write!(f, "{{{placeholder}}}: no such value for this subject")
            }
            TemplateError::Timing { placeholder, error } => write!(f, "{{{placeholder}}}: {error}"),
            TemplateError::NotApplicable { placeholder, why } => {
                write!(f, "{{{placeholder}}}: {why}")
            }
        }
    }
}

impl std::error::Error for TemplateError {}

/// What placeholders may name: the parts of a course a text belongs with.
/// The built-in course offers all three; an instructor's authored file
/// offers only its own exercises, so its prose is filled from that file and
/// can never cite the built-in course's figures.
#[derive(Clone, Copy, Debug, Default)]
pub struct Sources<'a> {
    /// The worked timeline (`worked`).
    pub worked: Option<&'a WorkedTimeline>,
    /// The trace exercise, whose rows are subjects and whose target gives
    /// `over` and `margin`.
    pub trace: Option<&'a TraceExercise>,
    /// The configuration exercise, whose workloads are subjects.
    pub config: Option<&'a ConfigExercise>,
}

impl<'a> Sources<'a> {
    /// Everything in the course.
    pub fn course(course: &'a Course) -> Sources<'a> {
        Sources {
            worked: Some(&course.worked_timeline),
            trace: Some(&course.trace_exercise),
            config: Some(&course.config_exercise),
        }
    }
}

/// Replaces every placeholder in `text` with the value the core computes
/// from `course`. Text without placeholders comes back unchanged.
pub fn fill(text: &str, course: &Course) -> Result<String, TemplateError> {
    fill_from(text, &Sources::course(course))
}

/// Replaces every placeholder in `text` with the value the core computes
/// from `sources` alone; a subject outside them is unknown.
pub fn fill_from(text: &str, sources: &Sources<'_>) -> Result<String, TemplateError> {
    let course = sources;
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    let mut offset = 0;
    while let Some(pos) = rest.find(['{', '}']) {
        out.push_str(&rest[..pos]);
        let tail = &rest[pos..];
        let at = offset + pos;
        let consumed = if tail.starts_with("{{") {
            out.push('{');
            2
        } else if tail.starts_with("}}") {
            out.push('}');
            2
        } else if tail.starts_with('}') {
            return Err(TemplateError::StrayClose { at });
        } else {
            let Some(end) = tail.find('}') else {
                return Err(TemplateError::Unclosed { at });
            };
            let inner = &tail[1..end];
            if inner.contains('{') {
                return Err(TemplateError::Unclosed { at });
            }
            out.push_str(&value(inner, course)?);
            end + 1
        };
        rest = &tail[consumed..];
        offset = at + consumed;
    }
    out.push_str(rest);
    Ok(out)
}

/// What a placeholder's subject names.
enum Subject<'a> {
    Worked(&'a WorkedTimeline),
    /// A trace row and its exercise's target in ms.
    Row(&'a crate::content::TraceRow, i64),
    /// A workload and the configurations it is planned on.
    Workload(&'a Workload, &'a [ServingConfig]),
}

fn value(placeholder: &str, course: &Sources<'_>) -> Result<String, TemplateError> {
    let unknown_key = || TemplateError::UnknownKey {
        placeholder: placeholder.to_owned(),
    };
    let mut segments = placeholder.split('.');
    let subject_name = segments.next().unwrap_or_default();
    let key = segments.next().ok_or_else(unknown_key)?;
    let argument = segments.next();
    if segments.next().is_some() {
        return Err(unknown_key());
    }

    let mut found = Vec::new();
    if let Some(worked) = course.worked.filter(|_| subject_name == "worked") {
        found.push(Subject::Worked(worked));
    }
    if let Some(x) = course.trace {
        found.extend(
            x.requests
                .iter()
                .filter(|r| r.id == subject_name)
                .map(|r| Subject::Row(r, x.target_ms)),
        );
    }
    if let Some(x) = course.config {
        found.extend(
            x.workloads
                .iter()
                .filter(|w| w.id == subject_name)
                .map(|w| Subject::Workload(w, &x.configs)),
        );
    }
    if found.len() > 1 {
        return Err(TemplateError::AmbiguousSubject {
            placeholder: placeholder.to_owned(),
        });
    }
    let Some(subject) = found.pop() else {
        return Err(TemplateError::UnknownSubject {
            placeholder: placeholder.to_owned(),
        });
    };

    let split = |trace| {
        split_request(&trace).map_err(|error| TemplateError::Timing {
            placeholder: placeholder.to_owned(),
            error,
        })
    };
    match subject {
        Subject::Worked(worked) => {
            let s = split(worked.request_trace())?;
            if let Some(v) = split_value(&s, key, argument) {
                return v.ok_or_else(unknown_key);
            }
            if (key, argument) == ("prompt_tokens", None) {
                return Ok(group_thousands(worked.prompt_tokens));
            }
            worked_value(placeholder, &s, worked.browser_first_text_ms, key, argument)
        }
        Subject::Row(row, target_ms) => {
            let s = split(row.request_trace())?;
            if let Some(v) = split_value(&s, key, argument) {
                return v.ok_or_else(unknown_key);
            }
            let verdict = s.split.verdict(Micros::from_ms(target_ms));
            match (key, argument, verdict) {
                ("over", None, TargetVerdict::Over { by }) => Ok(by.to_string()),
                ("over", None, _) => Err(not_applicable(
                    placeholder,
                    "this request is within its target",
                )),
                ("margin", None, TargetVerdict::Within { margin }) => Ok(margin.to_string()),
                ("margin", None, _) => Err(not_applicable(
                    placeholder,
                    "this request is over its target",
                )),
                _ => Err(unknown_key()),
            }
        }
        Subject::Workload(w, configs) => workload_value(placeholder, w, configs, key, argument),
    }
}

fn not_applicable(placeholder: &str, why: &'static str) -> TemplateError {
    TemplateError::NotApplicable {
        placeholder: placeholder.to_owned(),
        why,
    }
}

/// Values every split request has. `None` when `key` is not one of them;
/// `Some(None)` when it is but its argument is wrong.
fn split_value(s: &RequestSplit, key: &str, argument: Option<&str>) -> Option<Option<String>> {
    let t = &s.split;
    let plain = |v: String| Some(argument.is_none().then_some(v));
    match key {
        "queue_wait" => plain(t.queue_wait.to_string()),
        "prefill" => plain(t.prefill.to_string()),
        "emit" => plain(t.emit.to_string()),
        "ttft" => plain(t.ttft().to_string()),
        "vllm_prefill" => plain(t.vllm().prefill_with_emit.to_string()),
        "dominant" => plain(t.dominant().to_string()),
        "dominant_share" => {
            let part = match t.dominant() {
                Dominant::Single(p) => p,
                Dominant::Tie(ps) => ps.first().copied().unwrap_or(Part::QueueWait),
            };
            plain(t.share(part).to_string())
        }
        "share" => {
            let part = match argument {
                Some("queue_wait") => Part::QueueWait,
                Some("prefill") => Part::Prefill,
                Some("emit") => Part::Emit,
                _ => return Some(None),
            };
            Some(Some(t.share(part).to_string()))
        }
        _ => None,
    }
}

fn worked_value(
    placeholder: &str,
    s: &RequestSplit,
    browser_first_text_ms: i64,
    key: &str,
    argument: Option<&str>,
) -> Result<String, TemplateError> {
    if argument.is_some() {
        return Err(TemplateError::UnknownKey {
            placeholder: placeholder.to_owned(),
        });
    }
    let no_decode = || {
        not_applicable(
            placeholder,
            "the worked timeline records no tokens after the first",
        )
    };
    match key {
        "decode" => s
            .decode
            .map(|d| d.duration.to_string())
            .ok_or_else(no_decode),
        "tokens_after_first" => s
            .decode
            .map(|d| group_thousands(d.tokens_after_first))
            .ok_or_else(no_decode),
        "time_per_token" => s
            .decode
            .and_then(|d| d.time_per_token())
            .map(|t| t.to_string())
            .ok_or_else(no_decode),
        "rate" => s
            .decode
            .and_then(|d| d.output_rate_tenths())
            .map(|tenths| format!("{} tokens/s", format_tenths(tenths)))
            .ok_or_else(no_decode),
        "end_to_end" => s.end_to_end.map(|t| t.to_string()).ok_or_else(|| {
            not_applicable(placeholder, "the worked timeline records no last token")
        }),
        "unseen" => {
            Ok(unseen_by_server(s.ttft(), Micros::from_ms(browser_first_text_ms)).to_string())
        }
        _ => Err(TemplateError::UnknownKey {
            placeholder: placeholder.to_owned(),
        }),
    }
}

fn workload_value(
    placeholder: &str,
    w: &Workload,
    configs: &[ServingConfig],
    key: &str,
    argument: Option<&str>,
) -> Result<String, TemplateError> {
    let unknown_key = || TemplateError::UnknownKey {
        placeholder: placeholder.to_owned(),
    };
    let batch = match plan(w, configs) {
        Ok(WorkloadPlan::Batch(batch)) => batch,
        Ok(WorkloadPlan::Interactive { .. }) => return Err(unknown_key()),
        Err(ChoiceError::TotalOverflows { .. }) => {
            return Err(not_applicable(
                placeholder,
                "the workload's token count is too large",
            ))
        }
        Err(ChoiceError::NegativeWindow { .. }) => {
            return Err(not_applicable(placeholder, "the window is below zero"))
        }
    };
    match (key, argument) {
        ("total_tokens", None) => Ok(group_thousands(batch.total_tokens)),
        ("time", Some(id)) => {
            let fit = batch
                .configs
                .iter()
                .find(|f| f.config == id)
                .ok_or_else(unknown_key)?;
            let secs = fit.seconds.ok_or_else(|| {
                not_applicable(placeholder, "the configuration's throughput is zero")
            })?;
            Ok(format!("{} s", group_thousands(secs)))
        }
        _ => Err(unknown_key()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::*;

    fn course() -> Course {
        let row = |id: &str, q: i64, p: i64, e: i64| TraceRow {
            id: id.into(),
            prompt_tokens: 700,
            prompt_note: None,
            queued_at_arrival: 0,
            queue_wait_ms: q,
            prefill_ms: p,
            emit_ms: e,
            ttft_ms: q + p + e,
            output_rate_tps: 40,
            answer: RowAnswer {
                dominant: Part::Prefill,
                share_percent: 0.0,
                investigate: CauseClass::Prefill,
                reasoning: String::new(),
            },
        };
        let config = |id: &str, tps: u64, p95: i64| ServingConfig {
            id: id.into(),
            weights: String::new(),
            max_sequences_per_batch: 16,
            throughput_tps: tps,
            p95_ttft_ms: p95,
            late_first_token_tenths: 0,
            failed_or_rejected_tenths: 0,
            quality: QualityStatus::Passed,
            quality_note: String::new(),
        };
        let answer = WorkloadAnswer {
            choice: "B".into(),
            conditional: vec![],
            evidence_needed: vec![],
            reasoning: String::new(),
        };
        Course {
            worked_timeline: crate::content::validate::tests::timeline(),
            trace_exercise: TraceExercise {
                id: "t".into(),
                title: String::new(),
                intro: String::new(),
                target_ms: 1_000,
                share_tolerance_tenths: 20,
                requests: vec![
                    row("H1", 20, 70, 10),
                    row("H2", 2_325, 65, 10),
                    row("T", 50, 50, 0),
                ],
                actions: vec![],
                misconceptions: vec![],
            },
            config_exercise: ConfigExercise {
                id: "c".into(),
                title: String::new(),
                intro: String::new(),
                late_after_ms: 1_000,
                configs: vec![
                    config("A", 2_400, 2_800),
                    config("B", 1_600, 600),
                    config("Z", 0, 0),
                ],
                workloads: vec![
                    Workload {
                        id: "live-hints".into(),
                        name: String::new(),
                        description: String::new(),
                        need: WorkloadNeed::Interactive {
                            ttft_target_ms: 1_000,
                        },
                        answer: answer.clone(),
                    },
                    Workload {
                        id: "overnight-drafts".into(),
                        name: String::new(),
                        description: String::new(),
                        need: WorkloadNeed::Batch {
                            items: 5_000,
                            output_tokens_per_item: 800,
                            window_secs: 21_600,
                        },
                        answer,
                    },
                ],
                evidence: vec![],
            },
        }
    }

    fn check(text: &str, expected: Result<&str, TemplateError>) {
        let got = fill(text, &course());
        assert_eq!(
            got.as_deref().map_err(Clone::clone),
            expected,
            "filling {text:?}"
        );
    }

    fn key_error(placeholder: &str) -> TemplateError {
        TemplateError::UnknownKey {
            placeholder: placeholder.into(),
        }
    }

    #[test]
    fn plain_text_and_escapes() {
        check("", Ok(""));
        check("no placeholders here", Ok("no placeholders here"));
        check("a {{literal}} brace", Ok("a {literal} brace"));
        check("ünïcode {H1.ttft} ünïcode", Ok("ünïcode 100 ms ünïcode"));
    }

    #[test]
    fn trace_rows() {
        check("{H2.share.queue_wait}", Ok("96.9%"));
        check("{H2.ttft}", Ok("2,400 ms"));
        check(
            "{H2.dominant} at {H2.dominant_share}",
            Ok("queue wait at 96.9%"),
        );
        check("{H1.share.prefill}", Ok("70%"));
        check(
            "{H1.margin} to spare, {H2.over} over",
            Ok("900 ms to spare, 1,400 ms over"),
        );
        check("{H2.vllm_prefill}", Ok("75 ms"));
        check(
            "{T.dominant}, {T.dominant_share}",
            Ok("a tie between queue wait and prefill, 50%"),
        );
    }

    #[test]
    fn worked_timeline() {
        check(
            "{worked.queue_wait} + {worked.prefill} + {worked.emit} = {worked.ttft}",
            Ok("40 ms + 310 ms + 10 ms = 360 ms"),
        );
        check("{worked.share.prefill}", Ok("86.1%"));
        check(
            "{worked.rate}, {worked.time_per_token}",
            Ok("40 tokens/s, 25 ms"),
        );
        check(
            "{worked.tokens_after_first} in {worked.decode}",
            Ok("480 in 12,000 ms"),
        );
        check(
            "{worked.end_to_end}; {worked.unseen}",
            Ok("12,360 ms; 90 ms"),
        );
        check(
            "a {worked.prompt_tokens}-token prompt",
            Ok("a 3,000-token prompt"),
        );
        check(
            "{worked.prompt_tokens.x}",
            Err(key_error("worked.prompt_tokens.x")),
        );
    }

    #[test]
    fn workloads() {
        check("{overnight-drafts.total_tokens}", Ok("4,000,000"));
        check(
            "{overnight-drafts.time.A} and {overnight-drafts.time.B}",
            Ok("1,667 s and 2,500 s"),
        );
    }

    #[test]
    fn errors_are_values() {
        check(
            "{H1.over}",
            Err(not_applicable(
                "H1.over",
                "this request is within its target",
            )),
        );
        check(
            "{H2.margin}",
            Err(not_applicable(
                "H2.margin",
                "this request is over its target",
            )),
        );
        check(
            "{H9.ttft}",
            Err(TemplateError::UnknownSubject {
                placeholder: "H9.ttft".into(),
            }),
        );
        check("{H1.latency}", Err(key_error("H1.latency")));
        check("{H1.share.decode}", Err(key_error("H1.share.decode")));
        check("{H1.ttft.extra}", Err(key_error("H1.ttft.extra")));
        check("{H1}", Err(key_error("H1")));
        check("{}", Err(key_error("")));
        check("{H1.share.prefill.x}", Err(key_error("H1.share.prefill.x")));
        check(
            "{overnight-drafts.time.C}",
            Err(key_error("overnight-drafts.time.C")),
        );
        check(
            "{overnight-drafts.time}",
            Err(key_error("overnight-drafts.time")),
        );
        check(
            "{live-hints.total_tokens}",
            Err(key_error("live-hints.total_tokens")),
        );
        check(
            "{overnight-drafts.time.Z}",
            Err(not_applicable(
                "overnight-drafts.time.Z",
                "the configuration's throughput is zero",
            )),
        );
        check("{live-hints.time.A}", Err(key_error("live-hints.time.A")));
        check(
            "{overnight-drafts.total_tokens.A}",
            Err(key_error("overnight-drafts.total_tokens.A")),
        );
        check("ab {H1.ttft", Err(TemplateError::Unclosed { at: 3 }));
        check("{H1.{ttft}", Err(TemplateError::Unclosed { at: 0 }));
        check("a } b", Err(TemplateError::StrayClose { at: 2 }));
        check("{H1.ttft}}", Err(TemplateError::StrayClose { at: 9 }));
    }

    #[test]
    fn unsplittable_rows_are_typed_errors() {
        let mut c = course();
        c.trace_exercise.requests[0].ttft_ms = 101;
        let got = fill("{H1.ttft}", &c);
        assert!(matches!(got, Err(TemplateError::Timing { .. })), "{got:?}");
        let mut c = course();
        c.trace_exercise
            .requests
            .push(c.trace_exercise.requests[0].clone());
        assert_eq!(
            fill("{H1.ttft}", &c),
            Err(TemplateError::AmbiguousSubject {
                placeholder: "H1.ttft".into()
            })
        );
    }

    #[test]
    fn an_exercise_alone_fills_only_from_itself() {
        let c = course();
        let alone = Sources {
            trace: Some(&c.trace_exercise),
            ..Sources::default()
        };
        assert_eq!(
            fill_from("{H2.share.queue_wait}", &alone),
            Ok("96.9%".into())
        );
        for text in ["{worked.ttft}", "{overnight-drafts.total_tokens}"] {
            let placeholder = text.trim_matches(['{', '}']).to_owned();
            assert_eq!(
                fill_from(text, &alone),
                Err(TemplateError::UnknownSubject { placeholder }),
                "{text}"
            );
        }
    }

    #[test]
    fn errors_display_the_placeholder() {
        assert_eq!(
            key_error("H1.latency").to_string(),
            "{H1.latency}: no such value for this subject"
        );
        assert_eq!(
            TemplateError::Unclosed { at: 3 }.to_string(),
            "the `{` at byte 3 is never closed (write `{{` for a literal brace)"
        );
    }

    #[test]
    fn awkward_text_never_panics() {
        let c = course();
        for text in [
            "{",
            "}",
            "{{{",
            "}}}",
            "{.}",
            "{..}",
            "{worked.}",
            "é{é}é",
            "{H1.share.}",
            "{{}}{}",
        ] {
            let _ = fill(text, &c);
        }
    }

    proptest::proptest! {
        #[test]
        fn any_text_fills_or_errs(text in "[{}a-zH1-4._é ]{0,40}") {
            let _ = fill(&text, &course());
        }

        #[test]
        fn text_without_braces_is_unchanged(text in "[^{}]{0,80}") {
            proptest::prop_assert_eq!(fill(&text, &course()), Ok(text.clone()));
        }
    }
}
