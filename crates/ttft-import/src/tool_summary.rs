//! The tool's own summary beside the page's figures, and what the file says
//! about streaming.
//!
//! vLLM's and SGLang's bench files state their own TTFT figures
//! (`median_ttft_ms`, `p99_ttft_ms`, `mean_ttft_ms`, ...) beside the
//! per-request arrays. Two honest numbers can differ: the tool interpolates
//! its percentiles linearly, and it counts every request it called
//! successful, an empty reply's recorded zero included. [`compare`] puts
//! each stated figure beside the page's and explains a difference only by
//! recomputing the figure from the file the way the explanation says; when
//! no recomputation matches, it says so rather than guess.
//!
//! [`unstreamed`] tells from the data whether the run was streamed: when
//! every request's first response is also its last, the "TTFT" is the
//! whole answer's time.
//!
//! Deliberately absent: reading a tool's summary from a separate file (an
//! AIPerf aggregate or GenAI-Perf summary alone holds no requests to
//! compare with; the page shows it as the file states it).

use crate::model::{Clock, Quantity};
use crate::read::Import;
use crate::report::first_token;
use serde::{Deserialize, Serialize};
use ttft_latency::{percentile, Convention, Micros, Outcome};

/// Largest gap, in microseconds, that rounding each value to the
/// microsecond can explain.
const ROUNDING: i64 = 2;

/// One figure the tool states, beside the page's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Comparison {
    /// The file's key, as spelled there (`median_ttft_ms`).
    pub key: String,
    /// Which run, when the file holds several, else empty.
    pub run: String,
    /// The tool's value.
    pub tool: Micros,
    /// The page's value for the same figure; `None` when no request has a
    /// first token.
    pub page: Option<Micros>,
    /// Why they differ (or that they agree), in one sentence.
    pub why: String,
}

/// The statistic a key names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Statistic {
    Mean,
    Percentile(u8),
}

fn statistic(key: &str) -> Option<Statistic> {
    let name = key.strip_suffix("_ttft_ms")?;
    match name {
        "mean" => Some(Statistic::Mean),
        "median" => Some(Statistic::Percentile(50)),
        _ => name
            .strip_prefix('p')?
            .parse::<u8>()
            .ok()
            .filter(|p| *p <= 100)
            .map(Statistic::Percentile),
    }
}

fn compute(values: &[Micros], stat: Statistic, convention: Convention) -> Option<Micros> {
    match stat {
        Statistic::Mean => {
            let n = i128::try_from(values.len()).ok().filter(|n| *n > 0)?;
            let sum: i128 = values.iter().map(|v| i128::from(v.0)).sum();
            i64::try_from((2 * sum + n) / (2 * n)).ok().map(Micros)
        }
        Statistic::Percentile(p) => percentile(values, p, convention).ok().map(|v| v.value),
    }
}

fn close(a: Micros, b: Micros) -> bool {
    a.0.abs_diff(b.0) <= ROUNDING as u64
}

/// Each TTFT figure the file's run summaries state, beside the page's
/// figure under `convention`, with the reason for any difference.
pub fn compare(import: &Import, convention: Convention) -> Vec<Comparison> {
    let mut out = Vec::new();
    let many = import.summaries.len() > 1;
    for (k, run) in import.summaries.iter().enumerate() {
        // SGLang names a run's requests r<run>-<i>; vLLM's single run holds them all.
        let prefix = format!("r{}-", k + 1);
        let requests: Vec<_> = import
            .requests
            .iter()
            .filter(|r| !many || r.id.starts_with(&prefix))
            .collect();
        if requests.is_empty() {
            continue;
        }
        let page_set: Vec<Micros> = requests.iter().filter_map(|r| first_token(r)).collect();
        let empty = requests
            .iter()
            .filter(|r| r.outcome == Outcome::Empty)
            .count();
        let with_empty: Vec<Micros> = page_set
            .iter()
            .copied()
            .chain(std::iter::repeat_n(Micros::ZERO, empty))
            .collect();
        for figure in &run.figures {
            let (Some(stat), Quantity::Time(tool)) = (statistic(&figure.key), &figure.value) else {
                continue;
            };
            let tool = *tool;
            let page = compute(&page_set, stat, convention);
            let why = explain(stat, tool, page, &page_set, &with_empty, empty, convention);
            out.push(Comparison {
                key: figure.key.clone(),
                run: run.label.clone(),
                tool,
                page,
                why,
            });
        }
    }
    out
}

fn explain(
    stat: Statistic,
    tool: Micros,
    page: Option<Micros>,
    page_set: &[Micros],
    with_empty: &[Micros],
    empty: usize,
    convention: Convention,
) -> String {
    let replies = if empty == 1 {
        "1 empty reply".to_owned()
    } else {
        format!("{empty} empty replies")
    };
    let linear = Convention::Linear;
    let is_pct = matches!(stat, Statistic::Percentile(_));
    if page.is_some_and(|p| close(p, tool)) {
        return "The same figure, to the microsecond.".to_owned();
    }
    if is_pct && convention != linear {
        if let Some(x) = compute(page_set, stat, linear).filter(|x| close(*x, tool)) {
            return format!(
                "The tool interpolates linearly between ranks (numpy's default), while this page's {convention} \
                 convention picks an observed value; with linear interpolation this page also gets {x}."
            );
        }
    }
    if empty > 0 {
        if let Some(x) = compute(with_empty, stat, convention).filter(|x| close(*x, tool)) {
            return format!(
                "The tool counts the {replies} at the TTFT of 0 the file records, which this page leaves \
                 out; counted that way, this page also gets {x}."
            );
        }
        if is_pct && convention != linear {
            if let Some(x) = compute(with_empty, stat, linear).filter(|x| close(*x, tool)) {
                return format!(
                    "Two reasons: the tool counts the {replies} at the TTFT of 0 the file records, which this \
                     page leaves out, and it interpolates linearly where this page's {convention} convention picks an \
                     observed value; done its way, this page also gets {x}."
                );
            }
        }
    }
    match page {
        None => "No request here has a first token, so this page has no figure to set beside the tool's.".to_owned(),
        Some(p) => format!(
            "This page cannot rebuild the tool's figure from the file's per-request values (they differ by {}); \
             the tool may have computed it over requests this file does not list.",
            Micros(p.0.abs_diff(tool.0).min(i64::MAX as u64) as i64)
        ),
    }
}

/// True when the file shows a run that was not streamed: every request with
/// a first token, all timed by a client, has its first response at the
/// instant of its last (one response, or one chunk carrying every token),
/// and at least one of them is known to have more than one token or has an
/// unknown token count. Then each "TTFT" is the whole answer's time.
pub fn unstreamed(import: &Import) -> bool {
    let mut seen = false;
    let mut many_tokens = false;
    for r in &import.requests {
        if first_token(r).is_none() {
            continue;
        }
        if r.breakdown.clock != Clock::Client {
            return false;
        }
        let b = &r.breakdown;
        let one_response = b.decode == Some(Micros::ZERO) || (b.e2e.is_some() && b.e2e == b.ttft);
        if !one_response {
            return false;
        }
        seen = true;
        many_tokens |= r.output_tokens.is_none_or(|n| n > 1);
    }
    seen && many_tokens
}

/// What the page calls the figure a file records as its time to first
/// token: TTFT when the run was streamed, end-to-end time when it was not
/// (see [`unstreamed`]), so no chart or column calls a whole answer's time
/// a first token's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Measure {
    /// A column header or axis label: "TTFT" or "End-to-end".
    pub label: &'static str,
    /// Inside a sentence: "TTFT" or "end-to-end time".
    pub name: &'static str,
    /// A chart title's opening: "Time to first token" or "End-to-end time".
    pub title: &'static str,
}

impl Measure {
    /// The measure of a streamed run.
    pub const TTFT: Measure = Measure {
        label: "TTFT",
        name: "TTFT",
        title: "Time to first token",
    };
    /// The measure of a run that was not streamed.
    pub const END_TO_END: Measure = Measure {
        label: "End-to-end",
        name: "end-to-end time",
        title: "End-to-end time",
    };

    /// The measure `import`'s first-token figures really are.
    pub fn of(import: &Import) -> Measure {
        if unstreamed(import) {
            Measure::END_TO_END
        } else {
            Measure::TTFT
        }
    }
}

/// The page's sentence for an unstreamed run, where it says what the file
/// can tell.
pub const UNSTREAMED: &str = "This run was not streamed, as far as the file shows: every request's first response \
    came at the same instant as its last (one response, or one chunk carrying all its tokens). Its first response is \
    the whole answer, so the figures below are end-to-end latency, not time to first token, even where the file \
    calls them TTFT.";

/// The page's sentence beside the target for an unstreamed run.
pub const UNSTREAMED_TARGET: &str =
    "The target is a time-to-first-token target, but this run has no separate first \
    token: the standing against it compares whole answers' end-to-end times with it.";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import;

    fn bench(ttfts: &str, errors: &str, summary: &str) -> Import {
        let n = ttfts.split(',').count();
        let lens = vec!["5"; n].join(",");
        let itls = vec!["[0.01]"; n].join(",");
        let text = format!(
            r#"{{"model_id":"m",{summary}"input_lens":[{lens}],"output_lens":[{lens}],"ttfts":[{ttfts}],"itls":[{itls}],"errors":[{errors}]}}"#
        );
        import(&text).expect("vLLM bench")
    }

    fn check(imp: &Import, convention: Convention, key: &str, why_starts: &str) {
        let c = compare(imp, convention);
        let row = c
            .iter()
            .find(|c| c.key == key)
            .unwrap_or_else(|| panic!("{key} in {c:?}"));
        assert!(row.why.starts_with(why_starts), "{key}: {}", row.why);
    }

    #[test]
    fn agreement_convention_and_empty_replies_each_explained() {
        // 4 requests of 100, 200, 300, 400 ms. Linear median 250, nearest-rank 200.
        let imp = bench(
            "0.1,0.2,0.3,0.4",
            r#""","","","""#,
            r#""median_ttft_ms":250.0,"mean_ttft_ms":250.0,"p99_ttft_ms":123.0,"#,
        );
        check(
            &imp,
            Convention::Linear,
            "median_ttft_ms",
            "The same figure",
        );
        check(
            &imp,
            Convention::NearestRank,
            "median_ttft_ms",
            "The tool interpolates linearly",
        );
        check(
            &imp,
            Convention::NearestRank,
            "mean_ttft_ms",
            "The same figure",
        );
        check(
            &imp,
            Convention::Linear,
            "p99_ttft_ms",
            "This page cannot rebuild",
        );
        // One empty reply (TTFT 0, no error, but 5 tokens stated: a zero TTFT alone makes it empty).
        let imp = bench(
            "0.0,0.2,0.3,0.4",
            r#""","","","""#,
            r#""mean_ttft_ms":225.0,"median_ttft_ms":250.0,"#,
        );
        assert_eq!(imp.counts().empty, 1);
        check(
            &imp,
            Convention::Linear,
            "mean_ttft_ms",
            "The tool counts the 1 empty reply",
        );
        check(
            &imp,
            Convention::NearestRank,
            "median_ttft_ms",
            "Two reasons",
        );
        assert_eq!(
            compare(&imp, Convention::Linear)
                .iter()
                .find(|c| c.key == "mean_ttft_ms")
                .and_then(|c| c.page),
            Some(Micros(300_000))
        );
    }

    #[test]
    fn a_run_of_single_responses_is_unstreamed() {
        let genai = |responses: &str| {
            import(&format!(
                r#"{{"service_kind":"openai","experiments":[{{"requests":[{{"timestamp":1000000000,"response_timestamps":[{responses}]}},{{"timestamp":2000000000,"response_timestamps":[2500000000]}}]}}]}}"#
            ))
            .expect("GenAI-Perf")
        };
        assert!(unstreamed(&genai("1400000000")));
        assert!(!unstreamed(&genai("1400000000,1600000000")));
        // vLLM bench: every reply in one chunk although each had 5 tokens.
        let one_chunk = import(r#"{"model_id":"m","output_lens":[5,5],"ttfts":[0.3,0.4],"itls":[[],[]],"errors":["",""]}"#).expect("bench");
        assert!(unstreamed(&one_chunk));
        // One-token replies have no second chunk to stream: not a sign.
        let one_token = import(r#"{"model_id":"m","output_lens":[1,1],"ttfts":[0.3,0.4],"itls":[[],[]],"errors":["",""]}"#).expect("bench");
        assert!(!unstreamed(&one_token));
        assert_eq!(Measure::of(&one_chunk), Measure::END_TO_END);
        assert_eq!(Measure::of(&one_token), Measure::TTFT);
    }
}
