//! GuideLLM's `benchmarks.json`: `benchmarks[].requests.{successful,
//! errored, incomplete}`, each request with `time_to_first_token_ms` (ms),
//! `request_latency` (s), token counts, and `info.timings` in epoch seconds.
//!
//! `info.timings.queued` / `dequeued` are the benchmark CLIENT's own queue
//! (about a second before it sends): they are never read here, so they can
//! never be shown as the server's queue wait. Incomplete requests were cut
//! off by the run's end and are imported as cancelled, with nulls kept as
//! "not stated". The run-level `metrics` are not re-read: the page summarises
//! the requests itself.

use crate::field;
use crate::model::{Breakdown, ImportedRequest, Location};
use crate::read::{parse_json, Import};
use serde_json::Value;
use ttft_latency::Outcome;

/// Reads a whole file.
pub fn read_document(text: &str, import: &mut Import) {
    let Some(doc) = parse_json(text, import) else {
        return;
    };
    let Some(benchmarks) = doc["benchmarks"].as_array() else {
        import.problem(
            Location::Path("$.benchmarks".into()),
            "no list of benchmarks",
        );
        return;
    };
    for (b, bench) in benchmarks.iter().enumerate() {
        for (group, outcome) in [
            ("successful", Outcome::Completed),
            ("errored", Outcome::Failed),
            ("incomplete", Outcome::Cancelled),
        ] {
            let Some(requests) = bench["requests"][group].as_array() else {
                continue;
            };
            for (i, req) in requests.iter().enumerate() {
                let path = format!("$.benchmarks[{b}].requests.{group}[{i}]");
                read_request(req, outcome, &path, benchmarks.len() > 1, b, import);
            }
        }
    }
}

fn read_request(
    req: &Value,
    outcome: Outcome,
    path: &str,
    many: bool,
    b: usize,
    import: &mut Import,
) {
    if !req.is_object() {
        import.problem(
            Location::Path(path.to_owned()),
            format!("a request must be an object, found {}", field::kind(req)),
        );
        return;
    }
    let raw_id = field::text(&req["request_id"])
        .or_else(|| field::text(&req["info"]["request_id"]))
        .unwrap_or_else(|| path.to_owned());
    let id = if many {
        format!("b{b}-{raw_id}")
    } else {
        raw_id
    };
    let error = field::text(&req["info"]["error"]).or_else(|| field::text(&req["error"]));
    let start = field::epoch_secs(&req["request_start_time"])
        .or_else(|| field::epoch_secs(&req["info"]["timings"]["request_start"]));
    let ttft = field::millis(&req["time_to_first_token_ms"]).filter(|t| !t.is_negative());
    let e2e = field::secs(&req["request_latency"]).filter(|t| !t.is_negative());
    let breakdown = if outcome == Outcome::Completed {
        let decode = match (ttft, e2e) {
            (Some(t), Some(e)) if e >= t => Some(e - t),
            _ => None,
        };
        Breakdown::client(ttft, decode, e2e)
    } else {
        Breakdown::client(None, None, None)
    };
    import.requests.push(ImportedRequest {
        id,
        start,
        prompt_tokens: field::count(&req["prompt_tokens"]),
        output_tokens: if outcome == Outcome::Completed {
            field::count(&req["output_tokens"])
        } else {
            None
        },
        queued_at_arrival: None,
        outcome,
        error: if outcome == Outcome::Completed {
            None
        } else {
            error.or_else(|| Some(outcome.label().to_owned()))
        },
        breakdown,
    });
}
