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
//! This is the hot path for big files. Each line is first tried by the
//! byte-level reader in [`fast`], which knows the OTLP layout and takes only
//! lines it reads exactly as serde does; every other line (and every
//! pretty-printed document) is deserialised into borrowed, typed structs
//! (unknown fields skipped) rather than a generic JSON tree. Either way a
//! span's attributes are read straight into the fields the importer keeps:
//! an attribute whose key it does not use (the model name, sampling
//! settings, ...) has its value skipped unparsed, and no list of attributes
//! is ever built. Both hand each span to one function that judges it.
//! Spans with other names are counted and ignored. The span's own start and
//! end times are not used as latencies: they bracket the API server's work,
//! not the parts the course names.

mod fast;

use crate::model::{Breakdown, ImportedRequest, Location, Prefill, PrefillConvention};
use crate::read::{line_at, Import};
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use std::borrow::Cow;
use std::fmt;
use ttft_latency::decimal::shortest;
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

impl Flex {
    /// A number written as a string (`"intValue": "700"`, `"NaN"`).
    pub(super) fn from_text(v: &str) -> Flex {
        let v = v.trim();
        v.parse::<i128>()
            .map(Flex::Int)
            .or_else(|_| v.parse::<f64>().map(Flex::Float))
            .unwrap_or(Flex::Bad)
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
                Ok(Flex::from_text(v))
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
                Ok(StatusCode(status_text_is_error(v)))
            }
            fn visit_unit<E: de::Error>(self) -> Result<StatusCode, E> {
                Ok(StatusCode(false))
            }
        }
        d.deserialize_any(V)
    }
}

/// Whether a status code written as text means the span failed.
pub(super) fn status_text_is_error(v: &str) -> bool {
    v == "STATUS_CODE_ERROR" || v == "ERROR" || v == "2"
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

    /// Builds the request, or says why the span cannot be one. The fallback
    /// id is only made when the span has no id of its own.
    pub(crate) fn into_request(
        self,
        fallback_id: impl FnOnce() -> String,
    ) -> Result<ImportedRequest, String> {
        let to_us = |name: &str, v: Option<f64>| -> Result<Option<Micros>, String> {
            match v {
                None => Ok(None),
                Some(s) if s < 0.0 => {
                    Err(format!("{name} is {} s; a duration cannot be negative", shortest(s)))
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
            id: self.id.unwrap_or_else(fallback_id),
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

/// One span as a reader found it, before it becomes a request: what both
/// the general (serde) reader and the fast one in [`fast`] hand over, so a
/// span is judged by one piece of code whichever read it.
pub(super) struct SpanParts<'a> {
    name: Cow<'a, str>,
    span_id: Cow<'a, str>,
    start: Flex,
    fields: LlmSpan,
    /// The status: whether it is an error, and its message.
    status: Option<(bool, Cow<'a, str>)>,
}

/// Where a span sits in its document: `resourceSpans[r].scopeSpans[s].spans[k]`.
pub(super) type SpanAt = (usize, usize, usize);

fn read_doc(doc: Doc<'_>, line: usize, import: &mut Import) {
    for (r, rs) in doc.resource_spans.into_iter().enumerate() {
        for (s, ss) in rs.scope_spans.into_iter().enumerate() {
            for (k, span) in ss.spans.into_iter().enumerate() {
                let parts = SpanParts {
                    name: span.name,
                    span_id: span.span_id,
                    start: span.start,
                    fields: span.attributes.0,
                    status: span.status.map(|st| (st.code.0, st.message)),
                };
                read_span(parts, line, (r, s, k), import);
            }
        }
    }
}

/// Turns one span into a request, a problem, or an ignored record.
fn read_span(span: SpanParts<'_>, line: usize, (r, s, k): SpanAt, import: &mut Import) {
    if span.name != SPAN_NAME {
        import.ignored_records += 1;
        return;
    }
    let mut fields = span.fields;
    let at = || {
        Location::LinePath(
            line,
            format!("$.resourceSpans[{r}].scopeSpans[{s}].spans[{k}]"),
        )
    };
    fields.start = match span.start.as_nanos().map(Micros::checked_from_nanos) {
        Some(None) => {
            import.problem(
                at(),
                "startTimeUnixNano is too large to be a time in nanoseconds; the span was skipped",
            );
            return;
        }
        Some(start) => start,
        None => None,
    };
    if let Some((true, message)) = &span.status {
        let msg = if message.is_empty() {
            "the span's status is ERROR"
        } else {
            message
        };
        fields.error = Some(msg.to_owned());
    }
    let fallback = || {
        if span.span_id.is_empty() {
            format!("line {line} span {}", k + 1)
        } else {
            span.span_id.into_owned()
        }
    };
    match fields.into_request(fallback) {
        Ok(req) => import.requests.push(req),
        Err(msg) => import.problem(at(), format!("{msg}; the span was skipped")),
    }
}

/// Reads one line of a collector's JSONL output.
pub fn read_line(line: &str, n: usize, import: &mut Import) {
    if line.trim().is_empty() {
        return;
    }
    if let Some(spans) = fast::parse(line) {
        for (at, span) in spans.into_iter() {
            read_span(span, n, at, import);
        }
        return;
    }
    read_line_general(line, n, import);
}

/// Reads one line with serde alone: every line the fast reader leaves, and
/// the reference the tests hold it to.
fn read_line_general(line: &str, n: usize, import: &mut Import) {
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
    use proptest::prelude::*;

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

    /// Reads `line` both ways: with the fast reader first (as `read_line`
    /// does) and with serde alone. Returns whether the fast reader took it.
    fn both_ways(line: &str) -> bool {
        if line.trim().is_empty() {
            // Blank lines are passed over before either reader.
            return false;
        }
        let mut fast_first = Import::new(Format::VllmOtlp);
        read_line(line, 7, &mut fast_first);
        let mut general = Import::new(Format::VllmOtlp);
        read_line_general(line, 7, &mut general);
        assert_eq!(fast_first, general, "{line}");
        let took = fast::parse(line).is_some();
        if took {
            // Whatever the fast reader takes, serde must read without error.
            assert!(
                serde_json::from_str::<Doc<'_>>(line).is_ok(),
                "the fast reader took a line serde refuses: {line}"
            );
        }
        took
    }

    /// A line from the bench's generator and the course sample's shape.
    const USUAL: &str = r#"{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"vllm"}}]},"scopeSpans":[{"scope":{"name":"vllm.llm_engine"},"spans":[{"traceId":"0000000000000000000000000000002a","spanId":"000000000000002a","name":"llm_request","kind":2,"startTimeUnixNano":"1700000000420000000","endTimeUnixNano":"1700000003000000000","attributes":[{"key":"gen_ai.response.model","value":{"stringValue":"meta-llama/Llama-3.1-8B-Instruct"}},{"key":"gen_ai.request.id","value":{"stringValue":"cmpl-0000002a"}},{"key":"gen_ai.request.temperature","value":{"doubleValue":0.7}},{"key":"gen_ai.request.max_tokens","value":{"intValue":"1024"}},{"key":"gen_ai.usage.prompt_tokens","value":{"intValue":"4711"}},{"key":"gen_ai.usage.completion_tokens","value":{"intValue":"17"}},{"key":"gen_ai.latency.time_in_queue","value":{"doubleValue":1.2345678901234567}},{"key":"gen_ai.latency.time_to_first_token","value":{"doubleValue":1.9876543210987654}},{"key":"gen_ai.latency.e2e","value":{"doubleValue":2.4}},{"key":"gen_ai.latency.time_in_model_prefill","value":{"doubleValue":0.75}},{"key":"gen_ai.latency.time_in_model_decode","value":{"doubleValue":0.425}},{"key":"gen_ai.latency.time_in_model_inference","value":{"doubleValue":1.175}}],"status":{}}]}]}]}"#;

    #[test]
    fn the_fast_reader_takes_the_usual_lines_and_agrees() {
        assert!(both_ways(USUAL));
        let sample = include_str!("../../../content/samples/course-trace.otlp.jsonl");
        for line in sample.lines() {
            assert!(both_ways(line), "{line}");
        }
    }

    #[test]
    fn the_fast_reader_agrees_on_unusual_lines() {
        let kv = |k: &str, v: &str| format!(r#"{{"key":"gen_ai.{k}","value":{v}}}"#);
        let lines = [
            // Numbers in every form OTLP JSON and serde_json allow.
            span(&[
                kv("latency.time_in_queue", r#"{"doubleValue":1.5e-2}"#),
                kv("latency.time_to_first_token", r#"{"doubleValue":"0.25"}"#),
                kv("latency.time_in_model_prefill", r#"{"doubleValue":12345678901234567890e-20}"#),
                kv("latency.e2e", r#"{"doubleValue":1E+1}"#),
                kv("latency.time_in_model_decode", r#"{"doubleValue":-0.0}"#),
                kv("usage.prompt_tokens", r#"{"intValue":700}"#),
                kv("usage.completion_tokens", r#"{"intValue":" 12 "}"#),
            ]
            .join(",")),
            span(&[
                kv("latency.time_in_queue", r#"{"doubleValue":0.1000000000000000055511151231257827}"#),
                kv("latency.time_to_first_token", r#"{"doubleValue":3}"#),
                kv("latency.time_in_model_prefill", r#"{"doubleValue":"NaN"}"#),
                kv("latency.e2e", r#"{"doubleValue":1e400}"#),
                kv("usage.prompt_tokens", r#"{"intValue":7.0}"#),
                kv("usage.completion_tokens", r#"{"intValue":18446744073709551616}"#),
            ]
            .join(",")),
            span(&[
                kv("latency.time_in_queue", r#"{"doubleValue":-0.5}"#),
                kv("latency.time_to_first_token", r#"{"doubleValue":1e-400}"#),
                kv("usage.prompt_tokens", r#"{"intValue":-3}"#),
                kv("usage.completion_tokens", r#"{"intValue":true}"#),
            ]
            .join(",")),
            // Escapes: in used text (the general reader's), in skipped text (fine).
            span(&[
                kv("request.id", r#"{"stringValue":"cmpl-\u0041\n"}"#),
                kv("latency.time_in_queue", r#"{"doubleValue":0.5}"#),
            ]
            .join(",")),
            span(&[
                kv("response.model", r#"{"stringValue":"a \"b\" \\ \/ \u00e9 \ud83d\ude00 \b\f\n\r\t"}"#),
                r#"{"key":"x","value":{"kvlistValue":{"values":[1,-2.5e3,true,false,null,[],{}]}}}"#.to_owned(),
                kv("latency.time_in_queue", r#"{"doubleValue":0.5}"#),
            ]
            .join(",")),
            // Reordered and unknown fields, missing and null values.
            span(&[
                r#"{"value":{"doubleValue":0.5},"key":"gen_ai.latency.time_in_queue"}"#.to_owned(),
                r#"{"extra":1,"key":"gen_ai.latency.time_to_first_token","more":[{}],"value":{"x":1,"doubleValue":0.75,"y":"z"}}"#.to_owned(),
                r#"{"key":"gen_ai.latency.e2e"}"#.to_owned(),
                kv("latency.time_in_model_decode", r#"{"doubleValue":null,"intValue":"5"}"#),
                kv("response.finish_reasons", r#"{"arrayValue":{"values":[{"stringValue":"stop"},{"stringValue":"abort"}]}}"#),
                kv("request.id", r#"{"stringValue":null}"#),
            ]
            .join(",")),
            // Duplicates: fields, keys and values.
            span(&[r#"{"key":"gen_ai.latency.e2e","key":"gen_ai.latency.time_in_queue","value":{"doubleValue":1}}"#.to_owned()].join(",")),
            span(&[r#"{"key":"gen_ai.latency.e2e","value":{"doubleValue":1},"value":{"doubleValue":2}}"#.to_owned()].join(",")),
            span(&[r#"{"key":"gen_ai.latency.e2e","value":{"doubleValue":1,"doubleValue":2}}"#.to_owned()].join(",")),
            // Values of the wrong kind.
            span(&[kv("latency.e2e", r#"{"doubleValue":[1]}"#)].join(",")),
            span(&[kv("latency.e2e", r#"null"#)].join(",")),
            span(&[kv("latency.e2e", r#"[0.5]"#)].join(",")),
            span(&[r#"{"key":7,"value":{"doubleValue":1}}"#.to_owned()].join(",")),
            // Status and times in every form.
            r#"{"resourceSpans":[{"scopeSpans":[{"spans":[{"name":"llm_request","status":{"code":2}},{"name":"llm_request","status":{"code":"STATUS_CODE_ERROR","message":"boom"}},{"name":"llm_request","status":null,"startTimeUnixNano":1.7e18},{"name":"llm_request","status":{"code":2.0}},{"name":"llm_request","status":{"code":-1},"startTimeUnixNano":"-5"}]}]}]}"#.to_owned(),
            r#"{"resourceSpans":[{"scopeSpans":[{"spans":[{"name":"llm_request","startTimeUnixNano":"170141183460469231731687303715884105000"},{"name":"llm_request","startTimeUnixNano":true},{"name":"other","spanId":"z"},{"name":"llm_request","attributes":null}]}]}]}"#.to_owned(),
            // Several resources and scopes, the old field name, empty lists.
            r#" {"x":{"resourceSpans":1}, "resourceSpans" : [ {"instrumentationLibrarySpans":[{"spans":[{"name":"llm_request","spanId":"a"}]},{"spans":[]}]} , {"scopeSpans":[{},{"spans":[{"name":"llm_request"}]}]} ] } "#.to_owned(),
            r#"{"resourceSpans":[{"scopeSpans":[],"instrumentationLibrarySpans":[]}]}"#.to_owned(),
            r#"{"resourceSpans":[],"resourceSpans":[]}"#.to_owned(),
            r#"{"resourceSpans":null}"#.to_owned(),
            r#"{"resourceSpans":[{"scopeSpans":[{"spans":[{"name":"llm_request"}]}]}]} x"#.to_owned(),
            r#"{"resourceSpans":[{"scopeSpans":[{"spans":[{"name":"llm_request",}]}]}]}"#.to_owned(),
            r#"{"resourceSpans":[{"scopeSpans":[{"spans":[{"name":"llm_\u0072equest"}]}]}]}"#.to_owned(),
            r#"{"resourceSpans":[{"scopeSpans":[{"spans":[{"na\u006de":"llm_request"}]}]}]}"#.to_owned(),
            r#"{"a":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]],"resourceSpans":[]}"#.to_owned(),
            r#"{"a":"\x","resourceSpans":[]}"#.to_owned(),
            r#"{"a":"\u12g4","resourceSpans":[]}"#.to_owned(),
            "{\"a\":\"\t\",\"resourceSpans\":[]}".to_owned(),
            r#"{"a":01,"resourceSpans":[]}"#.to_owned(),
            r#"{"a":1.,"resourceSpans":[]}"#.to_owned(),
            r#"{"a":-,"resourceSpans":[]}"#.to_owned(),
            r#"{"a":nul,"resourceSpans":[]}"#.to_owned(),
            "[]".to_owned(),
            "{}".to_owned(),
            "\u{feff}{}".to_owned(),
            // Attributes that start in the compact layout and leave it.
            span(
                &[
                    kv("latency.e2e", r#"{"doubleValue":1,"x":2}"#),
                    kv("latency.time_in_queue", r#"{"doubleValue":0.5}"#).replace("}}", "},\"x\":[]}"),
                    kv("latency.time_to_first_token", r#"{"intValue":"7" }"#),
                    kv("request.id", r#"{"stringValue":"a","stringValue":"b"}"#),
                ]
                .join(","),
            ),
            span(
                &[
                    kv("latency.e2e", r#"{"doubleValue":1}"#).replace("\"key\":", "\"key\" :"),
                    kv("response.model", r#"{"stringValue":"m","intValue":1}"#),
                    kv("usage.prompt_tokens", r#"{"intValue":"12345678901234567890123456789012345678"}"#),
                    kv("usage.completion_tokens", r#"{"intValue":"123456789012345678901234567890123456789"}"#),
                ]
                .join(","),
            ),
            // A skipped object's names may hold escapes; its keys must be strings.
            r#"{"x":{"a\"b":1,"\u0041":[{"":null}]},"resourceSpans":[]}"#.to_owned(),
            r#"{"x":{1:2},"resourceSpans":[]}"#.to_owned(),
        ];
        for line in &lines {
            both_ways(line);
        }
        // The well-formed ones above with only usual text are the fast reader's.
        // The unusual but well-formed lines whose used text has no escape
        // are the fast reader's; the rest are left to the general one.
        let taken: Vec<usize> = (0..lines.len())
            .filter(|&i| fast::parse(&lines[i]).is_some())
            .collect();
        assert_eq!(taken, [0, 2, 4, 14, 15, 32, 35, 36]);
    }

    /// A random piece of a line: numbers, strings and structure in the
    /// forms that matter to the two readers.
    fn piece() -> impl Strategy<Value = String> {
        prop_oneof![
            any::<f64>().prop_map(|x| format!("{x}")),
            any::<f64>().prop_map(|x| format!("{x:e}")),
            any::<f64>().prop_map(|x| format!("{x:?}")),
            (0u64..u64::MAX).prop_map(|x| x.to_string()),
            (0u64..1 << 54, 0u32..25).prop_map(|(m, e)| format!("{m}e-{e}")),
            (0u64..99_999_999, 0u64..99_999_999_999).prop_map(|(a, b)| format!("{a}.{b}")),
            "[0-9.eE+-]{1,25}",
            r#""[a-z\\"/0-9 ]{0,8}""#,
            Just("null".to_owned()),
            Just("true".to_owned()),
            Just(r#"{"stringValue":"abort"}"#.to_owned()),
            Just(r#"{"arrayValue":{"values":[{"stringValue":"abort"}]}}"#.to_owned()),
        ]
    }

    fn key() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("gen_ai.latency.time_in_queue"),
            Just("gen_ai.latency.time_in_model_prefill"),
            Just("gen_ai.latency.time_to_first_token"),
            Just("gen_ai.latency.time_in_model_decode"),
            Just("gen_ai.latency.e2e"),
            Just("gen_ai.usage.prompt_tokens"),
            Just("gen_ai.usage.completion_tokens"),
            Just("gen_ai.request.id"),
            Just("gen_ai.response.finish_reasons"),
            Just("gen_ai.response.model"),
        ]
        .prop_map(str::to_owned)
    }

    fn attribute() -> impl Strategy<Value = String> {
        (key(), 0..6usize, piece(), any::<bool>()).prop_map(|(k, kind, v, quoted)| {
            let v = if quoted && !v.starts_with(['"', '{', 'n', 't']) {
                format!("\"{v}\"")
            } else {
                v
            };
            match kind {
                0 => format!(r#"{{"key":"{k}","value":{{"doubleValue":{v}}}}}"#),
                1 => format!(r#"{{"key":"{k}","value":{{"intValue":{v}}}}}"#),
                2 => format!(r#"{{"key":"{k}","value":{{"stringValue":{v}}}}}"#),
                3 => format!(r#"{{"key":"{k}","value":{v}}}"#),
                4 => format!(r#"{{"value":{{"doubleValue":{v}}},"key":"{k}"}}"#),
                _ => format!(
                    r#"{{"key":"{k}", "value" : {{ "doubleValue" : {v} , "intValue":{v} }} }}"#
                ),
            }
        })
    }

    fn random_line() -> impl Strategy<Value = String> {
        (
            prop::collection::vec(attribute(), 0..8),
            piece(),
            piece(),
            0..3usize,
        )
            .prop_map(|(attrs, start, code, name)| {
                let name = ["llm_request", "other", "llm_request\\u0000"][name];
                format!(
                    r#"{{"resourceSpans":[{{"scopeSpans":[{{"spans":[{{"name":"{name}","spanId":"s","startTimeUnixNano":{start},"attributes":[{}],"status":{{"code":{code}}}}}]}}]}}]}}"#,
                    attrs.join(",")
                )
            })
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 2000, ..Default::default() })]

        #[test]
        fn the_fast_reader_agrees_on_random_lines(line in random_line()) {
            both_ways(&line);
        }

        #[test]
        fn the_fast_reader_agrees_on_mangled_lines(
            edits in prop::collection::vec((0usize..2000, 0usize..3, prop::sample::select(
                vec!["\"", "\\", "{", "}", "[", "]", ",", ":", "0", "-", ".", "e", " ", "n", "\u{1}", "é"]
            )), 1..4)
        ) {
            let mut line = USUAL.to_owned();
            for (at, op, text) in edits {
                let mut at = at % (line.len() + 1);
                while !line.is_char_boundary(at) {
                    at -= 1;
                }
                match op {
                    0 => line.insert_str(at, text),
                    1 => {
                        let mut end = (at + 1).min(line.len());
                        while !line.is_char_boundary(end) {
                            end += 1;
                        }
                        line.replace_range(at..end, "");
                    }
                    _ => line.truncate(at),
                }
            }
            both_ways(&line);
        }
    }

    /// The numbers the fast reader converts itself are the ones serde_json
    /// gives, bit for bit.
    #[test]
    fn simple_numbers_match_serde_json() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let digits = (x % 18) as usize + 1;
            let m = x >> 8;
            let text = match x % 5 {
                0 => format!("{}", m % 10u64.pow(digits as u32)),
                1 => format!("0.{:0w$}", m % 10u64.pow(digits as u32), w = digits),
                2 => format!(
                    "{}.{}",
                    m % 1000,
                    (m >> 20) % 10u64.pow(digits.min(15) as u32)
                ),
                3 => format!("{}e-{}", m % (1 << 53), x % 30),
                _ => format!("{}", f64::from_bits(m).abs()),
            };
            let ours = fast::simple_number_for_test(text.as_bytes());
            if let Some(ours) = ours {
                let theirs: Flex = serde_json::from_str(&text).expect("valid");
                match (ours, theirs) {
                    (Flex::Float(a), Flex::Float(b)) => {
                        assert_eq!(a.to_bits(), b.to_bits(), "{text}")
                    }
                    (a, b) => assert_eq!(a, b, "{text}"),
                }
            }
        }
    }
}
