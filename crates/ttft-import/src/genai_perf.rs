//! GenAI-Perf / perf_analyzer `profile_export.json`: `experiments[]`, each
//! with `requests[]` holding `timestamp` (when the client sent it) and
//! `response_timestamps` (each streamed response), in nanoseconds on the
//! client's clock.
//!
//! TTFT is the first response minus the send time; decode is the last minus
//! the first; end-to-end is the last minus the send time. The file does not
//! count tokens per response, so no output token count or rate is derived
//! (a response may carry several tokens). A request with no responses
//! and no error is imported as an empty reply (no first token). Nothing here is split: the clock is the client's.

use crate::field;
use crate::model::{Breakdown, ImportedRequest, Location};
use crate::read::{parse_json, Import};
use ttft_latency::{Micros, Outcome};

/// Reads a whole export.
pub fn read_document(text: &str, import: &mut Import) {
    let Some(doc) = parse_json(text, import) else {
        return;
    };
    let Some(experiments) = doc["experiments"].as_array() else {
        import.problem(
            Location::Path("$.experiments".into()),
            "no list of experiments",
        );
        return;
    };
    for (e, exp) in experiments.iter().enumerate() {
        let Some(requests) = exp["requests"].as_array() else {
            import.problem(
                Location::Path(format!("$.experiments[{e}].requests")),
                "an experiment without a list of requests was skipped",
            );
            continue;
        };
        for (i, req) in requests.iter().enumerate() {
            let at = || Location::Path(format!("$.experiments[{e}].requests[{i}]"));
            let id = if experiments.len() > 1 {
                format!("e{e}-{i}")
            } else {
                i.to_string()
            };
            let Some(sent) = field::integer(&req["timestamp"]) else {
                import.problem(
                    at(),
                    "no send timestamp in nanoseconds; the request was skipped",
                );
                continue;
            };
            let responses: Option<Vec<i128>> = req["response_timestamps"]
                .as_array()
                .map(|a| a.iter().map(field::integer).collect::<Option<Vec<_>>>())
                .unwrap_or(Some(Vec::new()));
            let Some(responses) = responses else {
                import.problem(
                    at(),
                    "a response timestamp is not an integer; the request was skipped",
                );
                continue;
            };
            let Some(start) = Micros::checked_from_nanos(sent) else {
                import.problem(at(), "the send timestamp is too large to be a time in nanoseconds; the request was skipped");
                continue;
            };
            let start = Some(start);
            let (Some(&first), Some(&last)) = (responses.first(), responses.last()) else {
                import.requests.push(ImportedRequest {
                    id,
                    start,
                    prompt_tokens: None,
                    output_tokens: None,
                    queued_at_arrival: None,
                    // No response and no error recorded: an empty reply.
                    outcome: Outcome::Empty,
                    error: None,
                    breakdown: Breakdown::client(None, None, None),
                });
                continue;
            };
            if first < sent || responses.windows(2).any(|w| w[1] < w[0]) {
                import.problem(at(), "response timestamps come before the send time or out of order; the request was skipped");
                continue;
            }
            let span = |a: i128, b: i128| a.checked_sub(b).and_then(Micros::checked_from_nanos);
            let (Some(ttft), Some(decode), Some(e2e)) =
                (span(first, sent), span(last, first), span(last, sent))
            else {
                import.problem(at(), "the response timestamps are too far from the send time to be a latency; the request was skipped");
                continue;
            };
            import.requests.push(ImportedRequest {
                id,
                start,
                prompt_tokens: None,
                output_tokens: None,
                queued_at_arrival: None,
                outcome: Outcome::Completed,
                error: None,
                breakdown: Breakdown::client(Some(ttft), Some(decode), Some(e2e)),
            });
        }
    }
}
