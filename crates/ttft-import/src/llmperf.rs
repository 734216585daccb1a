//! LLMPerf's `*_individual_responses.json`: a top-level array of records in
//! seconds, with no timestamps.
//!
//! A record with `error_code` set is an error even when its latencies look
//! normal, and a rate-limited one (429) shows `ttft_s: 0`: both are imported
//! with no latencies at all, so no zero can ever enter a percentile as a
//! "fast request". `inter_token_latency_s` is a per-request mean and is not
//! used; decode is end-to-end minus TTFT, both on the client's clock.

use crate::field;
use crate::model::{Breakdown, ImportedRequest, Location};
use crate::read::{parse_json, Import};
use ttft_latency::Outcome;

/// Reads a whole file.
pub fn read_document(text: &str, import: &mut Import) {
    let Some(doc) = parse_json(text, import) else {
        return;
    };
    let Some(records) = doc.as_array() else {
        import.problem(
            Location::Path("$".into()),
            format!("expected an array of records, found {}", field::kind(&doc)),
        );
        return;
    };
    for (i, rec) in records.iter().enumerate() {
        let at = || Location::Path(format!("$[{i}]"));
        if !rec.is_object() {
            import.problem(
                at(),
                format!("a record must be an object, found {}", field::kind(rec)),
            );
            continue;
        }
        let id = i.to_string();
        let prompt_tokens = field::count(&rec["number_input_tokens"]);
        let code = &rec["error_code"];
        if !code.is_null() {
            let n = field::count(code);
            let msg = field::text(&rec["error_msg"]);
            let text = match (n, msg) {
                (Some(n), Some(m)) => format!("{n} {m}"),
                (Some(n), None) => format!("error code {n}"),
                (None, Some(m)) => m,
                (None, None) => format!("error code {code}"),
            };
            let outcome = if n == Some(429) {
                Outcome::Rejected
            } else {
                Outcome::Failed
            };
            import.requests.push(ImportedRequest {
                id,
                start: None,
                prompt_tokens,
                output_tokens: None,
                queued_at_arrival: None,
                outcome,
                error: Some(text),
                breakdown: Breakdown::client(None, None, None),
            });
            continue;
        }
        let ttft = field::secs(&rec["ttft_s"]);
        let e2e = field::secs(&rec["end_to_end_latency_s"]);
        let Some(ttft) = ttft.filter(|t| !t.is_negative()) else {
            import.problem(at(), "no usable ttft_s; the record was skipped");
            continue;
        };
        let e2e = e2e.filter(|t| *t >= ttft);
        let outcome = if field::text(&rec["error_msg"]).is_some() {
            Outcome::Failed
        } else {
            Outcome::Completed
        };
        let error = field::text(&rec["error_msg"]);
        let breakdown = if outcome == Outcome::Completed {
            Breakdown::client(Some(ttft), e2e.map(|e| e - ttft), e2e)
        } else {
            Breakdown::client(None, None, None)
        };
        import.requests.push(ImportedRequest {
            id,
            start: None,
            prompt_tokens,
            output_tokens: field::count(&rec["number_output_tokens"]),
            queued_at_arrival: None,
            outcome,
            error,
            breakdown,
        });
    }
}
