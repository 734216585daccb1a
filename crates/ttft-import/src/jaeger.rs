//! vLLM's `llm_request` spans as Jaeger's JSON export (the UI's "Download
//! JSON", or `/api/traces`): `{"data": [{"traceID", "spans": [{"spanID",
//! "operationName", "startTime" (µs), "tags": [{"key", "type", "value"}]}]}]}`.
//!
//! The tags carry the same `gen_ai.*` attributes as the OTLP spans, so the
//! reading of each attribute is shared with [`crate::otlp`]. A span marked
//! `error = true` or `otel.status_code = ERROR` failed. This module does not
//! read Jaeger's protobuf or the collector's own JSON formats.

use crate::field;
use crate::model::Location;
use crate::otlp::{Attr, LlmSpan, SPAN_NAME};
use crate::read::{parse_json, Import};
use serde_json::Value;
use ttft_latency::Micros;

/// Reads a whole Jaeger JSON export.
pub fn read_document(text: &str, import: &mut Import) {
    let Some(doc) = parse_json(text, import) else {
        return;
    };
    let traces: Vec<(String, &Value)> = match (&doc["data"], doc.get("spans")) {
        (Value::Array(traces), _) => traces
            .iter()
            .enumerate()
            .map(|(i, t)| (format!("$.data[{i}]"), t))
            .collect(),
        // A single trace object, as some tools save one.
        (_, Some(_)) => vec![("$".to_owned(), &doc)],
        _ => {
            import.problem(
                Location::Path("$.data".into()),
                "no list of traces under \"data\"",
            );
            return;
        }
    };
    for (path, trace) in traces {
        let Some(spans) = trace["spans"].as_array() else {
            import.problem(
                Location::Path(format!("{path}.spans")),
                "a trace without a list of spans was skipped",
            );
            continue;
        };
        for (k, span) in spans.iter().enumerate() {
            let at = format!("{path}.spans[{k}]");
            if span["operationName"].as_str() != Some(SPAN_NAME) {
                if span.is_object() {
                    import.ignored_records += 1;
                } else {
                    import.problem(
                        Location::Path(at),
                        format!("a span must be an object, not {}", field::kind(span)),
                    );
                }
                continue;
            }
            read_span(span, &at, import);
        }
    }
}

fn read_span(span: &Value, at: &str, import: &mut Import) {
    let mut fields = LlmSpan {
        // Jaeger's startTime is microseconds since the epoch.
        start: field::integer(&span["startTime"])
            .and_then(|us| i64::try_from(us).ok())
            .map(Micros),
        ..LlmSpan::default()
    };
    let mut failed = false;
    let mut status_text = None;
    for tag in span["tags"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
    {
        let Some(key) = tag["key"].as_str() else {
            continue;
        };
        let value = &tag["value"];
        let attr = match (tag["type"].as_str(), value) {
            (Some("int64"), v) => Attr::Count(field::count(v)),
            (_, Value::String(s)) => Attr::Text(s),
            (_, Value::Bool(b)) => {
                if key == "error" && *b {
                    failed = true;
                }
                continue;
            }
            (_, v) => Attr::Number(field::number(v)),
        };
        match (key, &attr) {
            ("otel.status_code", Attr::Text(s)) if s.eq_ignore_ascii_case("error") => failed = true,
            ("otel.status_description", Attr::Text(s)) => status_text = Some((*s).to_owned()),
            ("error", Attr::Text(s)) if *s == "true" => failed = true,
            _ => fields.set(key, attr),
        }
    }
    if failed {
        fields.error =
            Some(status_text.unwrap_or_else(|| "the span is marked as an error".to_owned()));
    }
    let fallback = || {
        span["spanID"]
            .as_str()
            .map(str::to_owned)
            .unwrap_or_else(|| at.to_owned())
    };
    match fields.into_request(fallback) {
        Ok(req) => import.requests.push(req),
        Err(msg) => import.problem(
            Location::Path(at.to_owned()),
            format!("{msg}; the span was skipped"),
        ),
    }
}
