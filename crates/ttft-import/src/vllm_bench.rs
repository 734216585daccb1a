//! vLLM `bench serve` / `benchmark_serving.py --save-result` JSON, and the
//! per-request arrays it shares with SGLang's `bench_serving`.
//!
//! Per-request data is parallel arrays in SECONDS (`ttfts`, `itls`) beside
//! token counts (`input_lens`, `output_lens`) and `errors`; the summary keys
//! (`mean_ttft_ms`, `p99_ttft_ms`, ...) are in MILLISECONDS. One key is
//! really spelled `"request_goodput:"`, `request_rate` may be the string
//! `"inf"`, and some files hold only the summary. A failed request keeps a
//! TTFT of 0 in the arrays: it is imported as failed with no latencies.
//!
//! What this module deliberately does not do: build a timeline (the file has
//! no start times) or split TTFT (the clock is the client's).

use crate::field;
use crate::model::{Breakdown, Figure, ImportedRequest, Location, Quantity, RunSummary};
use crate::read::{parse_json, Import};
use serde_json::{Map, Value};
use ttft_latency::{Micros, Outcome};

/// The arrays that make a file per-request.
const ARRAYS: [&str; 6] = [
    "input_lens",
    "output_lens",
    "ttfts",
    "itls",
    "generated_texts",
    "errors",
];

/// Reads a whole vLLM bench result.
pub fn read_document(text: &str, import: &mut Import) {
    let Some(doc) = parse_json(text, import) else {
        return;
    };
    let Some(obj) = doc.as_object() else {
        import.problem(
            Location::Path("$".into()),
            format!("expected an object, found {}", field::kind(&doc)),
        );
        return;
    };
    import.summaries.push(summary_of(obj, String::new()));
    read_arrays(obj, "", "$", None, import);
}

/// Reads the per-request arrays of one run. Ids are the array position
/// (from 0), prefixed with `id_prefix` when a file holds several runs.
pub(crate) fn read_arrays(
    obj: &Map<String, Value>,
    id_prefix: &str,
    path: &str,
    line: Option<usize>,
    import: &mut Import,
) {
    let at = |key: &str| {
        let p = format!("{path}.{key}");
        match line {
            Some(n) => Location::LinePath(n, p),
            None => Location::Path(p),
        }
    };
    let array = |key: &str| obj.get(key).and_then(Value::as_array);
    let Some(ttfts) = array("ttfts") else { return };
    let empty = Vec::new();
    let inputs = array("input_lens").unwrap_or(&empty);
    let outputs = array("output_lens").unwrap_or(&empty);
    let itls = array("itls");
    let errors = array("errors").unwrap_or(&empty);
    for key in ARRAYS {
        if let Some(a) = array(key) {
            if a.len() != ttfts.len() {
                import.problem(
                    at(key),
                    format!("{key} has {} entries but ttfts has {}; missing entries are read as not stated", a.len(), ttfts.len()),
                );
            }
        }
    }
    for (i, ttft_value) in ttfts.iter().enumerate() {
        let id = format!("{id_prefix}{i}");
        let error = errors.get(i).and_then(field::text);
        let prompt_tokens = inputs.get(i).and_then(field::count);
        let output_tokens = outputs.get(i).and_then(field::count);
        if let Some(error) = error {
            import.requests.push(ImportedRequest {
                id,
                start: None,
                prompt_tokens,
                output_tokens: None,
                queued_at_arrival: None,
                outcome: Outcome::Failed,
                error: Some(error),
                breakdown: Breakdown::client(None, None, None),
            });
            continue;
        }
        let Some(ttft) = field::secs(ttft_value).filter(|t| !t.is_negative()) else {
            import.problem(
                at(&format!("ttfts[{i}]")),
                format!("TTFT must be seconds, found {ttft_value}; the request was skipped"),
            );
            continue;
        };
        // The gaps between stream chunks after the first add up to the time
        // from the first token to the last, on the client's clock.
        let decode = match itls.map(|a| a.get(i)) {
            Some(Some(Value::Array(gaps))) => {
                let mut sum = Some(Micros::ZERO);
                for g in gaps {
                    sum = match (sum, field::secs(g)) {
                        (Some(s), Some(g)) if !g.is_negative() => s.checked_add(g),
                        _ => None,
                    };
                }
                if sum.is_none() {
                    import.problem(
                        at(&format!("itls[{i}]")),
                        "an inter-token gap is not a non-negative number; decode time left out",
                    );
                }
                sum
            }
            _ => None,
        };
        import.requests.push(ImportedRequest {
            id,
            start: None,
            prompt_tokens,
            output_tokens,
            queued_at_arrival: None,
            outcome: Outcome::Completed,
            error: None,
            breakdown: Breakdown::client(Some(ttft), decode, None),
        });
    }
}

/// Every scalar key of a run object, as the file states it. Keys ending in
/// `_ms` are milliseconds; `duration` is seconds.
pub(crate) fn summary_of(obj: &Map<String, Value>, label: String) -> RunSummary {
    let mut figures = Vec::new();
    for (key, value) in obj {
        let quantity = match value {
            Value::Array(_) | Value::Object(_) => continue,
            Value::Null => Quantity::Null,
            Value::Bool(b) => Quantity::Text(b.to_string()),
            Value::String(s) => Quantity::Text(s.clone()),
            Value::Number(_) if key.ends_with("_ms") => match field::millis(value) {
                Some(t) => Quantity::Time(t),
                None => continue,
            },
            Value::Number(_) if key == "duration" => match field::secs(value) {
                Some(t) => Quantity::Time(t),
                None => continue,
            },
            Value::Number(_) => {
                let unit = if key.ends_with("throughput")
                    || key.ends_with("goodput")
                    || key == "request_rate"
                {
                    "per s"
                } else if key.contains("tokens") {
                    "tokens"
                } else {
                    ""
                };
                match field::number(value) {
                    Some(v) => Quantity::Number {
                        value: v,
                        unit: unit.to_owned(),
                    },
                    None => continue,
                }
            }
        };
        figures.push(Figure {
            key: key.clone(),
            value: quantity,
        });
    }
    RunSummary { label, figures }
}
