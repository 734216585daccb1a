//! vLLM's `llm_request` spans as OTLP JSON: what an OpenTelemetry Collector's
//! file exporter writes (one `{"resourceSpans": [...]}` a line), or one such
//! document, pretty-printed or not.
//!
//! vLLM's span attributes, all seconds as `doubleValue`:
//! `gen_ai.latency.time_in_queue` (scheduler queue), `time_in_model_prefill`
//! (scheduled until the first token is OUTPUT: it includes emit),
//! `time_to_first_token` (arrival at the API server until the first token),
//! `time_in_model_decode` and `e2e`; token counts under
//! `gen_ai.usage.prompt_tokens` / `completion_tokens` with `intValue` as a
//! string, per the OTLP JSON mapping of 64-bit integers. TTFT is a few ms
//! more than queue + prefill in real spans (time before the engine's queue,
//! inter-process hand-offs): that remainder is kept as its own part.
//!
//! This is the hot path for big files, so spans are deserialised into
//! borrowed, typed structs (unknown fields skipped) rather than a generic
//! JSON tree, and a span's attributes are read straight into the fields
//! the importer keeps: an attribute whose key it does not use (the model
//! name, sampling settings, ...) has its value skipped unparsed with
//! `IgnoredAny`, and no list of attributes is ever built. Spans with other names are counted and ignored. The span's own
//! start and end times are not used as latencies: they bracket the API
//! server's work, not the parts the course names.

use crate::model::{Breakdown, ImportedRequest, Location, Prefill, PrefillConvention};
use crate::read::{line_at, Import};
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use std::borrow::Cow;
use std::fmt;
use ttft_latency::{Micros, Outcome};

/// The span name vLLM gives a request.
pub const SPAN_NAME: &str = "llm_request";

#[derive(Deserialize)]
struct Doc<'a> {
    #[serde(rename = "resourceSpans", default, borrow)]
    resource_spans: Vec<ResourceSpans<'a>>,
}

#[derive(Deserialize)]
struct ResourceSpans<'a> {
    #[serde(
        rename = "scopeSpans",
        alias = "instrumentationLibrarySpans",
        default,
        borrow
    )]
    scope_spans: Vec<ScopeSpans<'a>>,
}

#[derive(Deserialize)]
struct ScopeSpans<'a> {
    #[serde(default, borrow)]
    spans: Vec<Span<'a>>,
}

#[derive(Deserialize)]
struct Span<'a> {
    #[serde(default, borrow)]
    name: Cow<'a, str>,
    #[serde(rename = "spanId", default, borrow)]
    span_id: Cow<'a, str>,
    #[serde(rename = "startTimeUnixNano", default)]
    start: Flex,
    #[serde(default)]
    attributes: Attributes,
    #[serde(default, borrow)]
    status: Option<Status<'a>>,
}

#[derive(Deserialize)]
struct Status<'a> {
    #[serde(default)]
    code: StatusCode,
    #[serde(default, borrow)]
    message: Cow<'a, str>,
}

/// A span's attributes, read straight into the fields a request needs.
#[derive(Default)]
struct Attributes(LlmSpan);

impl<'de> Deserialize<'de> for Attributes {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Attributes, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Attributes;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a list of attributes")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Attributes, A::Error> {
                let mut fields = LlmSpan::default();
                while seq.next_element_seed(KeyValue(&mut fields))?.is_some() {}
                Ok(Attributes(fields))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Attributes, E> {
                Ok(Attributes::default())
            }
        }
        d.deserialize_any(V)
    }
}

/// One `{"key": ..., "value": {...}}` attribute, applied to the span's
/// fields as it is read. The value of a key the importer does not use is
/// skipped without being parsed. A value written before its key (legal
/// JSON, though no exporter does it) is parsed and applied at the end.
struct KeyValue<'f>(&'f mut LlmSpan);

impl<'de> DeserializeSeed<'de> for KeyValue<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for KeyValue<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an attribute with a key and a value")
    }
    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<(), M::Error> {
        let mut key: Option<Text<'de>> = None;
        let mut early: Option<AnyValue<'de>> = None;
        let mut applied = false;
        while let Some(name) = map.next_key::<KvField>()? {
            match name {
                KvField::Key => key = Some(map.next_value()?),
                KvField::Value => match key.as_ref().map(|k| &*k.0) {
                    Some(k) if LlmSpan::wants(k) => {
                        let v: AnyValue<'de> = map.next_value()?;
                        self.0.set(k, attr(&v));
                        applied = true;
                    }
                    Some(_) => {
                        map.next_value::<IgnoredAny>()?;
                        applied = true;
                    }
                    None => early = Some(map.next_value()?),
                },
                KvField::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        let Some(Text(key)) = key else {
            return Err(de::Error::missing_field("key"));
        };
        if !applied && LlmSpan::wants(&key) {
            let v = early.unwrap_or_default();
            self.0.set(&key, attr(&v));
        }
        Ok(())
    }
}

/// The field names of an attribute object, told apart without allocating.
enum KvField {
    Key,
    Value,
    Other,
}

impl<'de> Deserialize<'de> for KvField {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<KvField, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = KvField;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a field name")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<KvField, E> {
                Ok(match v {
                    "key" => KvField::Key,
                    "value" => KvField::Value,
                    _ => KvField::Other,
                })
            }
        }
        d.deserialize_identifier(V)
    }
}

/// A string borrowed from the input when it has no escapes, owned only
/// when it must be (serde's own `Cow` always allocates).
struct Text<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for Text<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Text<'de>, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Text<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(v)))
            }
        }
        d.deserialize_str(V)
    }
}

#[derive(Deserialize, Default)]
struct AnyValue<'a> {
    #[serde(rename = "stringValue", default, borrow)]
    string_value: Option<Cow<'a, str>>,
    #[serde(rename = "intValue", default)]
    int_value: Flex,
    #[serde(rename = "doubleValue", default)]
    double_value: Flex,
    #[serde(rename = "arrayValue", default, borrow)]
    array_value: Option<ArrayValue<'a>>,
}

#[derive(Deserialize, Default)]
struct ArrayValue<'a> {
    #[serde(default, borrow)]
    values: Vec<AnyValue<'a>>,
}

/// A number as OTLP JSON may write it: a JSON number, or a string holding
/// one (64-bit integers, and `"NaN"`/`"Infinity"` for doubles).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) enum Flex {
    #[default]
    Absent,
    Int(i128),
    Float(f64),
    /// Present but not a number.
    Bad,
}

impl Flex {
    pub(crate) fn as_f64(self) -> Option<f64> {
        match self {
            Flex::Int(i) => Some(i as f64),
            Flex::Float(x) if x.is_finite() => Some(x),
            _ => None,
        }
    }

    pub(crate) fn as_count(self) -> Option<u64> {
        match self {
            Flex::Int(i) => u64::try_from(i).ok(),
            Flex::Float(x) if x >= 0.0 && x.fract() == 0.0 && x < 1.8e19 => Some(x as u64),
            _ => None,
        }
    }

    fn as_nanos(self) -> Option<i128> {
        match self {
            Flex::Int(i) => Some(i),
            // Saturates past i128's range; the checked conversion refuses it.
            Flex::Float(x) if x.is_finite() => Some(x.round() as i128),
            _ => None,
        }
    }
}

impl<'de> Deserialize<'de> for Flex {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Flex, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Flex;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a number or a string holding one")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Flex, E> {
                Ok(Flex::Int(v.into()))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Flex, E> {
                Ok(Flex::Int(v.into()))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Flex, E> {
                Ok(Flex::Float(v))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Flex, E> {
                let v = v.trim();
                Ok(v.parse::<i128>()
                    .map(Flex::Int)
                    .or_else(|_| v.parse::<f64>().map(Flex::Float))
                    .unwrap_or(Flex::Bad))
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Flex, E> {
                Ok(Flex::Bad)
            }
            fn visit_unit<E: de::Error>(self) -> Result<Flex, E> {
                Ok(Flex::Absent)
            }
        }
        d.deserialize_any(V)
    }
}

/// An OTLP status code: `2` or `"STATUS_CODE_ERROR"` means the span failed.
#[derive(Default)]
struct StatusCode(bool);

impl<'de> Deserialize<'de> for StatusCode {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<StatusCode, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = StatusCode;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a status code")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<StatusCode, E> {
                Ok(StatusCode(v == 2))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<StatusCode, E> {
                Ok(StatusCode(v == 2))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<StatusCode, E> {
                Ok(StatusCode(
                    v == "STATUS_CODE_ERROR" || v == "ERROR" || v == "2",
                ))
            }
            fn visit_unit<E: de::Error>(self) -> Result<StatusCode, E> {
                Ok(StatusCode(false))
            }
        }
        d.deserialize_any(V)
    }
}

/// A vLLM request span's fields, gathered attribute by attribute. Shared
/// with the Jaeger reader, which carries the same attributes as tags.
#[derive(Default)]
pub(crate) struct LlmSpan {
    pub id: Option<String>,
    pub start: Option<Micros>,
    pub prompt_tokens: Option<u64>,
    pub output_tokens: Option<u64>,
    pub queue: Option<f64>,
    pub prefill: Option<f64>,
    pub ttft: Option<f64>,
    pub decode: Option<f64>,
    pub e2e: Option<f64>,
    pub aborted: bool,
    pub error: Option<String>,
}

/// What a span attribute holds, whatever the carrier.
pub(crate) enum Attr<'v> {
    Number(Option<f64>),
    Count(Option<u64>),
    Text(&'v str),
}

impl LlmSpan {
    /// True for the attribute keys [`LlmSpan::set`] reads.
    pub(crate) fn wants(key: &str) -> bool {
        matches!(
            key,
            "gen_ai.request.id"
                | "gen_ai.usage.prompt_tokens"
                | "gen_ai.usage.completion_tokens"
                | "gen_ai.latency.time_in_queue"
                | "gen_ai.latency.time_in_model_prefill"
                | "gen_ai.latency.time_to_first_token"
                | "gen_ai.latency.time_in_model_decode"
                | "gen_ai.latency.e2e"
                | "gen_ai.response.finish_reasons"
                | "gen_ai.response.finish_reason"
        )
    }

    /// Takes one attribute; unknown keys are ignored.
    pub(crate) fn set(&mut self, key: &str, value: Attr<'_>) {
        let num = |v: &Attr<'_>| match v {
            Attr::Number(x) => *x,
            Attr::Count(n) => n.map(|n| n as f64),
            Attr::Text(s) => s.trim().parse::<f64>().ok().filter(|x| x.is_finite()),
        };
        let count = |v: &Attr<'_>| match v {
            Attr::Count(n) => *n,
            Attr::Number(Some(x)) if *x >= 0.0 && x.fract() == 0.0 && *x < 1.8e19 => {
                Some(*x as u64)
            }
            Attr::Text(s) => s.trim().parse::<u64>().ok(),
            _ => None,
        };
        match key {
            "gen_ai.request.id" => {
                if let Attr::Text(s) = value {
                    self.id = Some(s.to_owned());
                }
            }
            "gen_ai.usage.prompt_tokens" => self.prompt_tokens = count(&value),
            "gen_ai.usage.completion_tokens" => self.output_tokens = count(&value),
            "gen_ai.latency.time_in_queue" => self.queue = num(&value),
            "gen_ai.latency.time_in_model_prefill" => self.prefill = num(&value),
            "gen_ai.latency.time_to_first_token" => self.ttft = num(&value),
            "gen_ai.latency.time_in_model_decode" => self.decode = num(&value),
            "gen_ai.latency.e2e" => self.e2e = num(&value),
            "gen_ai.response.finish_reasons" | "gen_ai.response.finish_reason" => {
                if let Attr::Text(s) = value {
                    if s.contains("abort") {
                        self.aborted = true;
                    }
                }
            }
            _ => {}
        }
    }

    /// Builds the request, or says why the span cannot be one.
    pub(crate) fn into_request(self, fallback_id: String) -> Result<ImportedRequest, String> {
        let to_us = |name: &str, v: Option<f64>| -> Result<Option<Micros>, String> {
            match v {
                None => Ok(None),
                Some(s) if s < 0.0 => {
                    Err(format!("{name} is {s} s; a duration cannot be negative"))
                }
                Some(s) => Micros::from_secs_f64(s)
                    .map(Some)
                    .ok_or_else(|| format!("{name} is too large")),
            }
        };
        let queue = to_us("time_in_queue", self.queue)?;
        let prefill = to_us("time_in_model_prefill", self.prefill)?;
        let ttft = to_us("time_to_first_token", self.ttft)?;
        let decode = to_us("time_in_model_decode", self.decode)?;
        let e2e = to_us("e2e", self.e2e)?;
        let prefill = prefill.map(|duration| Prefill {
            duration,
            convention: PrefillConvention::IncludesEmit,
        });
        let mut breakdown = Breakdown::server(queue, prefill, None, ttft);
        breakdown.decode = decode;
        breakdown.e2e = e2e;
        let outcome = if self.error.is_some() {
            Outcome::Failed
        } else if self.aborted {
            Outcome::Cancelled
        } else {
            Outcome::Completed
        };
        Ok(ImportedRequest {
            id: self.id.unwrap_or(fallback_id),
            start: self.start,
            prompt_tokens: self.prompt_tokens,
            output_tokens: self.output_tokens,
            queued_at_arrival: None,
            outcome,
            error: self.error,
            breakdown,
        })
    }
}

fn attr<'v>(v: &'v AnyValue<'_>) -> Attr<'v> {
    if let Some(s) = &v.string_value {
        return Attr::Text(s);
    }
    if let Some(arr) = &v.array_value {
        // finish_reasons is an array of strings; one is enough to spot an abort.
        for item in &arr.values {
            if let Some(s) = &item.string_value {
                if s.contains("abort") {
                    return Attr::Text(s);
                }
            }
        }
        return Attr::Number(None);
    }
    match v.double_value {
        Flex::Absent => match v.int_value {
            Flex::Absent => Attr::Number(None),
            i => Attr::Count(i.as_count()),
        },
        d => Attr::Number(d.as_f64()),
    }
}

fn read_doc(doc: Doc<'_>, line: usize, import: &mut Import) {
    for (r, rs) in doc.resource_spans.into_iter().enumerate() {
        for (s, ss) in rs.scope_spans.into_iter().enumerate() {
            for (k, span) in ss.spans.into_iter().enumerate() {
                if span.name != SPAN_NAME {
                    import.ignored_records += 1;
                    continue;
                }
                let mut fields = span.attributes.0;
                let at = || {
                    Location::LinePath(
                        line,
                        format!("$.resourceSpans[{r}].scopeSpans[{s}].spans[{k}]"),
                    )
                };
                fields.start = match span.start.as_nanos().map(Micros::checked_from_nanos) {
                    Some(None) => {
                        import.problem(at(), "startTimeUnixNano is too large to be a time in nanoseconds; the span was skipped");
                        continue;
                    }
                    Some(start) => start,
                    None => None,
                };
                if let Some(status) = &span.status {
                    if status.code.0 {
                        let msg = if status.message.is_empty() {
                            "the span's status is ERROR"
                        } else {
                            &status.message
                        };
                        fields.error = Some(msg.to_owned());
                    }
                }
                let fallback = if span.span_id.is_empty() {
                    format!("line {line} span {}", k + 1)
                } else {
                    span.span_id.into_owned()
                };
                match fields.into_request(fallback) {
                    Ok(req) => import.requests.push(req),
                    Err(msg) => import.problem(
                        Location::LinePath(
                            line,
                            format!("$.resourceSpans[{r}].scopeSpans[{s}].spans[{k}]"),
                        ),
                        format!("{msg}; the span was skipped"),
                    ),
                }
            }
        }
    }
}

/// Reads one line of a collector's JSONL output.
pub fn read_line(line: &str, n: usize, import: &mut Import) {
    if line.trim().is_empty() {
        return;
    }
    match serde_json::from_str::<Doc<'_>>(line) {
        Ok(doc) => read_doc(doc, n, import),
        Err(e) => import.problem(
            Location::Line(n),
            format!("not an OTLP JSON object: {e}; the line was skipped"),
        ),
    }
}

/// Reads one or more whole OTLP JSON documents (pretty-printed or not).
/// `first_line` is the line number of the text's first line.
pub fn read_stream(text: &str, first_line: usize, import: &mut Import) {
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<Doc<'_>>();
    loop {
        let start = stream.byte_offset();
        let lead = text
            .get(start..)
            .map(|t| t.len() - t.trim_start().len())
            .unwrap_or(0);
        let line = line_at(text, start + lead, first_line);
        match stream.next() {
            None => break,
            Some(Ok(doc)) => read_doc(doc, line, import),
            Some(Err(e)) => {
                import.problem(
                    Location::Line(first_line + e.line().saturating_sub(1)),
                    format!("not valid OTLP JSON: {e}; the rest of the document was skipped"),
                );
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::Format;

    /// Reads one OTLP line and returns its requests' (id, queue, ttft) and
    /// the number of problems.
    fn check(line: &str, expected: &[(&str, Option<Micros>, Option<Micros>)], problems: usize) {
        let mut import = Import::new(Format::VllmOtlp);
        read_line(line, 1, &mut import);
        let got: Vec<(&str, Option<Micros>, Option<Micros>)> = import
            .requests
            .iter()
            .map(|r| (r.id.as_str(), r.breakdown.queue_wait, r.breakdown.ttft))
            .collect();
        assert_eq!(got, expected, "{line}");
        assert_eq!(
            import.problem_count(),
            problems,
            "{line}: {:?}",
            import.problems
        );
    }

    fn span(attributes: &str) -> String {
        format!(
            r#"{{"resourceSpans":[{{"scopeSpans":[{{"spans":[{{"name":"llm_request","spanId":"s1","attributes":[{attributes}]}}]}}]}}]}}"#
        )
    }

    #[test]
    fn attributes_in_any_order_and_unused_ones_unparsed() {
        let q = Some(Micros::from_ms(20));
        let t = Some(Micros::from_ms(100));
        // Key before value, the usual order.
        check(
            &span(
                r#"{"key":"gen_ai.latency.time_in_queue","value":{"doubleValue":0.02}},{"key":"gen_ai.latency.time_to_first_token","value":{"doubleValue":0.1}}"#,
            ),
            &[("s1", q, t)],
            0,
        );
        // Value before key, and an escaped key.
        check(
            &span(
                r#"{"value":{"doubleValue":0.02},"key":"gen_ai.latency.time_in_queue"},{"key":"gen_ai.latency.time_to_first_tok\u0065n","value":{"doubleValue":0.1}}"#,
            ),
            &[("s1", q, t)],
            0,
        );
        // An attribute the importer does not use may hold any JSON at all.
        check(
            &span(
                r#"{"key":"custom","value":{"kvlistValue":{"values":[1,[2,{"x":null}]]}}},{"key":"gen_ai.latency.time_in_queue","value":{"doubleValue":0.02}}"#,
            ),
            &[("s1", q, None)],
            0,
        );
        // A key-less attribute still makes the line a reported problem.
        check(&span(r#"{"value":{"doubleValue":0.02}}"#), &[], 1);
    }
}
