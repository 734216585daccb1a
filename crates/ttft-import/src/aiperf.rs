//! AIPerf's `profile_export.jsonl` (one record a line) and its aggregate
//! `profile_export_aiperf.json`.
//!
//! Each metric is `{value, unit}` and units are mixed (ms, ns, tokens), so
//! every time goes through [`field::in_unit`], which refuses a unit it does
//! not know instead of guessing. Two schemas exist: the older names TTFT
//! `ttft` and the start `metadata.timestamp_ns`; the newer uses
//! `time_to_first_token`, `request_start_ns`, `request_end_ns` and
//! `was_cancelled`. Both are read. A record with an `error` (499 is a
//! cancellation) carries no latencies and is imported without any. Records
//! are not in time order; this module keeps file order and gives each its
//! start time so the page can sort.

use crate::field;
use crate::model::{Breakdown, Figure, ImportedRequest, Location, Quantity, RunSummary};
use crate::read::{line_at, parse_json, Import};
use serde_json::Value;
use ttft_latency::{Micros, Outcome};

/// The time a `{value, unit}` metric holds, if it is one.
fn metric_time(metrics: &Value, names: &[&str]) -> Option<Micros> {
    names.iter().find_map(|name| {
        let m = &metrics[*name];
        m["unit"]
            .as_str()
            .and_then(|unit| field::in_unit(&m["value"], unit))
    })
}

fn metric_count(metrics: &Value, names: &[&str]) -> Option<u64> {
    names
        .iter()
        .find_map(|name| field::count(&metrics[*name]["value"]))
}

fn read_record(value: &Value, line: usize, import: &mut Import) {
    if !value.is_object() {
        import.problem(
            Location::Line(line),
            format!(
                "a record must be a JSON object, found {}",
                field::kind(value)
            ),
        );
        return;
    }
    let meta = &value["metadata"];
    let metrics = &value["metrics"];
    let id = field::text(&meta["x_request_id"])
        .or_else(|| field::text(&meta["request_id"]))
        .unwrap_or_else(|| format!("line {line}"));
    let start = match ["request_start_ns", "timestamp_ns"]
        .iter()
        .find_map(|k| field::integer(&meta[*k]))
        .map(Micros::checked_from_nanos)
    {
        Some(None) => {
            import.problem(Location::LinePath(line, "$.metadata".into()), "the start timestamp is too large to be a time in nanoseconds; the record was skipped");
            return;
        }
        Some(start) => start,
        None => None,
    };
    let prompt_tokens = metric_count(metrics, &["input_sequence_length"]);
    let error = &value["error"];
    let cancelled_flag = meta["was_cancelled"].as_bool() == Some(true)
        || value["was_cancelled"].as_bool() == Some(true);
    if !error.is_null() || cancelled_flag {
        let code = field::count(&error["code"]);
        let outcome = match code {
            _ if cancelled_flag => Outcome::Cancelled,
            Some(499) => Outcome::Cancelled,
            Some(429) | Some(503) => Outcome::Rejected,
            _ => Outcome::Failed,
        };
        let text = match (error["type"].as_str(), error["message"].as_str()) {
            (Some(t), Some(m)) => format!("{t}: {m}"),
            (Some(t), None) => t.to_owned(),
            (None, Some(m)) => m.to_owned(),
            (None, None) => "cancelled".to_owned(),
        };
        let text = match code {
            Some(c) => format!("{c} {text}"),
            None => text,
        };
        import.requests.push(ImportedRequest {
            id,
            start,
            prompt_tokens,
            output_tokens: None,
            queued_at_arrival: None,
            outcome,
            error: Some(text),
            breakdown: Breakdown::client(None, None, None),
        });
        return;
    }
    let ttft = metric_time(metrics, &["time_to_first_token", "ttft"]);
    let latency = metric_time(metrics, &["request_latency"]);
    let ttft_stated = ["time_to_first_token", "ttft"]
        .iter()
        .any(|k| !metrics[*k].is_null());
    if ttft.is_none() && ttft_stated {
        import.problem(
            Location::LinePath(line, "$.metrics.ttft".into()),
            "the time to first token has no readable value and time unit; the record was skipped",
        );
        return;
    }
    if ttft.is_some_and(Micros::is_negative) || latency.is_some_and(Micros::is_negative) {
        import.problem(
            Location::Line(line),
            "a latency is negative; the record was skipped",
        );
        return;
    }
    // TTFT plus the gaps between chunks is the request latency, so what
    // follows the first token is their difference.
    let decode = match (ttft, latency) {
        (Some(t), Some(l)) if l >= t => Some(l - t),
        _ => None,
    };
    import.requests.push(ImportedRequest {
        id,
        start,
        prompt_tokens,
        // The sequence length counts reasoning tokens too: all tokens generated.
        output_tokens: metric_count(metrics, &["output_sequence_length", "output_token_count"]),
        queued_at_arrival: None,
        outcome: Outcome::Completed,
        error: None,
        breakdown: Breakdown::client(ttft, decode, latency),
    });
}

/// Reads one line (one record).
pub fn read_line(line: &str, n: usize, import: &mut Import) {
    if line.trim().is_empty() {
        return;
    }
    match serde_json::from_str::<Value>(line) {
        Ok(v) => read_record(&v, n, import),
        Err(e) => import.problem(
            Location::Line(n),
            format!("not valid JSON: {e}; the line was skipped"),
        ),
    }
}

/// Reads records written as consecutive JSON documents, pretty or not.
pub fn read_stream(text: &str, first_line: usize, import: &mut Import) {
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<Value>();
    loop {
        let start = stream.byte_offset();
        let lead = text
            .get(start..)
            .map(|t| t.len() - t.trim_start().len())
            .unwrap_or(0);
        let line = line_at(text, start + lead, first_line);
        match stream.next() {
            None => break,
            Some(Ok(v)) => read_record(&v, line, import),
            Some(Err(e)) => {
                import.stop(
                    Location::Line(first_line + e.line().saturating_sub(1)),
                    format!("not valid JSON: {e}; reading stopped here"),
                );
                break;
            }
        }
    }
}

/// Reads `profile_export_aiperf.json`: each metric's statistics become
/// figures named `<metric>.<statistic>` (`ttft.p99`), times converted from
/// the stated unit.
pub fn read_aggregate(text: &str, import: &mut Import) {
    let Some(doc) = parse_json(text, import) else {
        return;
    };
    let Some(records) = doc["records"].as_object() else {
        import.problem(
            Location::Path("$.records".into()),
            "no object of metrics under \"records\"",
        );
        return;
    };
    let mut figures = Vec::new();
    for (tag, stats) in records {
        let unit = stats["unit"].as_str().unwrap_or_default();
        for stat in [
            "avg", "min", "max", "p50", "p90", "p95", "p99", "std", "count",
        ] {
            let v = &stats[stat];
            if v.is_null() {
                continue;
            }
            let value = match field::in_unit(v, unit) {
                Some(t) if stat != "count" => Quantity::Time(t),
                _ => match field::number(v) {
                    Some(x) => Quantity::Number {
                        value: x,
                        unit: if stat == "count" {
                            String::new()
                        } else {
                            unit.to_owned()
                        },
                    },
                    None => continue,
                },
            };
            figures.push(Figure {
                key: format!("{tag}.{stat}"),
                value,
            });
        }
    }
    import.summaries.push(RunSummary {
        label: String::new(),
        figures,
    });
}
