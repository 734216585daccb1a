//! Server-sent events as OpenAI-compatible chat-completions streams send
//! them, read incrementally from whatever chunks the network delivers.
//!
//! The parser follows the HTML standard's event-stream rules: lines end in
//! `\r\n`, `\n` or `\r`; a blank line ends an event; a line starting with
//! `:` is a comment (servers send them as keep-alives); `field: value` with
//! one optional space after the colon; several `data` lines join with `\n`;
//! an event with no data is not dispatched; a byte-order mark at the very
//! start is dropped; and an event still open when the stream ends is
//! discarded, as the standard says. It takes bytes, not text, and buffers
//! them: a chunk may end anywhere, even inside a UTF-8 character, because
//! only whole lines are decoded (line ends are ASCII, so a line never splits
//! a character). Invalid UTF-8 inside a line is replaced, not fatal.
//!
//! [`read_chunk`] then reads one event the way chat-completions streaming
//! fills it: `data: [DONE]` at the end, `choices[0].delta.content` for text,
//! and `{"error": {...}}` when the provider fails mid-stream.
//!
//! Nothing here does I/O, keeps time, or panics on any input; a line or
//! event larger than the limit stops the parser with a typed error instead
//! of growing without bound.

use serde::{Deserialize, Serialize};
use std::fmt;

/// One dispatched event.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SseEvent {
    /// The `event:` field, if the server set one (chat completions do not).
    pub event: Option<String>,
    /// The `data:` lines joined with `\n`.
    pub data: String,
    /// The last `id:` seen, if any.
    pub id: Option<String>,
}

/// Why the parser stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum SseError {
    /// A line or an event's data grew past the limit (bytes).
    TooLarge { limit: usize },
}

impl fmt::Display for SseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SseError::TooLarge { limit } => write!(
                f,
                "the stream sent more than {limit} bytes without ending a line or event, so reading stopped"
            ),
        }
    }
}

impl std::error::Error for SseError {}

/// The default limit on a line or an event's data: 1 MiB, far above any
/// chat-completions chunk.
pub const DEFAULT_LIMIT: usize = 1 << 20;

/// An incremental event-stream parser. Feed it chunks in order with
/// [`SseParser::feed`]; it returns each event as soon as its blank line
/// arrives.
#[derive(Clone, Debug)]
pub struct SseParser {
    /// Bytes of the current, unfinished line.
    line: Vec<u8>,
    /// The previous chunk ended in `\r`, so a leading `\n` belongs to it.
    after_cr: bool,
    /// Still at the very start (a BOM may come).
    at_start: bool,
    data: String,
    has_data: bool,
    event: Option<String>,
    id: Option<String>,
    limit: usize,
    failed: Option<SseError>,
}

impl Default for SseParser {
    fn default() -> Self {
        SseParser::new()
    }
}

impl SseParser {
    /// A parser with the default size limit.
    pub fn new() -> SseParser {
        SseParser::with_limit(DEFAULT_LIMIT)
    }

    /// A parser that stops when a line or an event's data exceeds `limit`
    /// bytes.
    pub fn with_limit(limit: usize) -> SseParser {
        SseParser {
            line: Vec::new(),
            after_cr: false,
            at_start: true,
            data: String::new(),
            has_data: false,
            event: None,
            id: None,
            limit,
            failed: None,
        }
    }

    /// Reads the next chunk and returns the events it completes. After an
    /// error every later call returns the same error.
    pub fn feed(&mut self, chunk: &[u8]) -> Result<Vec<SseEvent>, SseError> {
        if let Some(e) = self.failed {
            return Err(e);
        }
        let mut out = Vec::new();
        let mut bytes = chunk;
        if self.at_start {
            // The BOM may itself arrive split across chunks.
            const BOM: &[u8] = b"\xEF\xBB\xBF";
            let have = self.line.len();
            let take = (BOM.len() - have).min(bytes.len());
            let candidate: Vec<u8> = self
                .line
                .iter()
                .chain(bytes.iter().take(take))
                .copied()
                .collect();
            if BOM.starts_with(&candidate) {
                if candidate.len() == BOM.len() {
                    self.line.clear();
                    self.at_start = false;
                    bytes = bytes.get(take..).unwrap_or(&[]);
                } else {
                    self.line = candidate;
                    return Ok(out);
                }
            } else {
                self.at_start = false;
            }
        }
        for &b in bytes {
            if self.after_cr {
                self.after_cr = false;
                if b == b'\n' {
                    continue;
                }
            }
            match b {
                b'\n' | b'\r' => {
                    self.after_cr = b == b'\r';
                    let line = std::mem::take(&mut self.line);
                    self.take_line(&line, &mut out)?;
                }
                _ => {
                    if self.line.len() >= self.limit {
                        return Err(self.fail());
                    }
                    self.line.push(b);
                }
            }
        }
        Ok(out)
    }

    /// Ends the stream. Per the standard, an event whose blank line never
    /// came is discarded; this returns whether anything was left unfinished,
    /// so the caller can say the stream ended early.
    pub fn finish(&mut self) -> bool {
        let unfinished = !self.line.is_empty() || self.has_data;
        self.line.clear();
        self.reset_event();
        unfinished
    }

    fn fail(&mut self) -> SseError {
        let e = SseError::TooLarge { limit: self.limit };
        self.failed = Some(e);
        e
    }

    fn reset_event(&mut self) {
        self.data.clear();
        self.has_data = false;
        self.event = None;
    }

    fn take_line(&mut self, line: &[u8], out: &mut Vec<SseEvent>) -> Result<(), SseError> {
        if line.is_empty() {
            if self.has_data {
                out.push(SseEvent {
                    event: self.event.take(),
                    data: std::mem::take(&mut self.data),
                    id: self.id.clone(),
                });
            }
            self.reset_event();
            return Ok(());
        }
        if line.first() == Some(&b':') {
            return Ok(());
        }
        let text = String::from_utf8_lossy(line);
        let (field, value) = match text.split_once(':') {
            Some((f, v)) => (f, v.strip_prefix(' ').unwrap_or(v)),
            None => (text.as_ref(), ""),
        };
        match field {
            "data" => {
                if self.data.len() + value.len() + 1 > self.limit {
                    return Err(self.fail());
                }
                if self.has_data {
                    self.data.push('\n');
                }
                self.data.push_str(value);
                self.has_data = true;
            }
            "event" => self.event = Some(value.to_owned()),
            "id" if !value.contains('\0') => self.id = Some(value.to_owned()),
            // `retry` sets a reconnection delay; a grading call never
            // reconnects, so it and unknown fields are ignored.
            _ => {}
        }
        Ok(())
    }
}

/// What one chat-completions stream event says.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum StreamItem {
    /// A chunk. `content` is the text it adds (`None` for chunks that carry
    /// only the role, usage or a finish reason).
    Delta {
        content: Option<String>,
        finish_reason: Option<String>,
    },
    /// `data: [DONE]`: the stream is complete.
    Done,
    /// The provider reported an error inside the stream.
    Error {
        message: String,
        code: Option<String>,
    },
    /// Not a chat-completions chunk; the reason, in words.
    Malformed { reason: String },
}

/// Reads one event as a chat-completions stream chunk.
pub fn read_chunk(event: &SseEvent) -> StreamItem {
    let data = event.data.trim();
    if data == "[DONE]" {
        return StreamItem::Done;
    }
    let value: serde_json::Value = match serde_json::from_str(data) {
        Ok(v) => v,
        Err(e) => {
            return StreamItem::Malformed {
                reason: format!("the event's data is not JSON ({e})"),
            }
        }
    };
    if let Some(err) = value.get("error") {
        return StreamItem::Error {
            message: error_message(err),
            code: error_code(err),
        };
    }
    let Some(choices) = value.get("choices").and_then(|c| c.as_array()) else {
        return StreamItem::Malformed {
            reason: "the chunk has no \"choices\" list".to_owned(),
        };
    };
    let Some(first) = choices.first() else {
        // A final usage chunk has an empty choices list.
        return StreamItem::Delta {
            content: None,
            finish_reason: None,
        };
    };
    let content = first
        .get("delta")
        .and_then(|d| d.get("content"))
        .and_then(|c| c.as_str())
        .map(str::to_owned);
    let finish_reason = first
        .get("finish_reason")
        .and_then(|r| r.as_str())
        .map(str::to_owned);
    StreamItem::Delta {
        content,
        finish_reason,
    }
}

/// The message of an OpenAI-style error value (an object with `message`, or
/// a bare string).
pub fn error_message(err: &serde_json::Value) -> String {
    match err {
        serde_json::Value::String(s) => s.clone(),
        other => other
            .get("message")
            .and_then(|m| m.as_str())
            .map_or_else(|| other.to_string(), str::to_owned),
    }
}

/// The `code` (or else `type`) of an OpenAI-style error value, as text.
pub fn error_code(err: &serde_json::Value) -> Option<String> {
    let code = err
        .get("code")
        .filter(|c| !c.is_null())
        .or_else(|| err.get("type"))?;
    Some(
        code.as_str()
            .map_or_else(|| code.to_string(), str::to_owned),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn events(chunks: &[&[u8]]) -> Vec<SseEvent> {
        let mut p = SseParser::new();
        chunks.iter().flat_map(|c| p.feed(c).unwrap()).collect()
    }

    fn check(stream: &str, expected: &[&str]) {
        let got: Vec<String> = events(&[stream.as_bytes()])
            .into_iter()
            .map(|e| e.data)
            .collect();
        assert_eq!(got, expected, "{stream:?}");
    }

    #[test]
    fn the_standards_rules() {
        check("data: a\n\ndata: b\n\n", &["a", "b"]);
        check("data: a\r\n\r\ndata:b\r\r", &["a", "b"]);
        check(": keep-alive\n\ndata: x\n: note\ndata:  y\n\n", &["x\n y"]);
        check("data\n\n", &[""]);
        check("event: ping\n\n", &[]);
        check("data: open", &[]);
        check("\u{FEFF}data: bom\n\n", &["bom"]);
        check("data: [DONE]\n\n", &["[DONE]"]);
        let e = events(&[b"event: x\nid: 7\ndata: 1\n\ndata: 2\n\n"]);
        assert_eq!(
            e[0],
            SseEvent {
                event: Some("x".into()),
                data: "1".into(),
                id: Some("7".into())
            }
        );
        assert_eq!(
            e[1],
            SseEvent {
                event: None,
                data: "2".into(),
                id: Some("7".into())
            }
        );
    }

    #[test]
    fn split_inside_characters_and_line_ends() {
        let text = "data: {\"t\":\"héllo €\"}\r\n\r\n";
        let bytes = text.as_bytes();
        for i in 0..=bytes.len() {
            for j in i..=bytes.len() {
                let got = events(&[&bytes[..i], &bytes[i..j], &bytes[j..]]);
                assert_eq!(got.len(), 1, "split at {i},{j}");
                assert_eq!(got[0].data, "{\"t\":\"héllo €\"}");
            }
        }
        assert_eq!(events(&[b"\xEF", b"\xBB", b"\xBFdata: z\n\n"])[0].data, "z");
    }

    #[test]
    fn limits_and_end() {
        let mut p = SseParser::with_limit(8);
        assert_eq!(
            p.feed(b"data: 1234567890"),
            Err(SseError::TooLarge { limit: 8 })
        );
        assert_eq!(p.feed(b"\n\n"), Err(SseError::TooLarge { limit: 8 }));
        let mut p = SseParser::new();
        assert_eq!(p.feed(b"data: half").unwrap(), vec![]);
        assert!(p.finish(), "an event left open is reported");
        assert!(!p.finish());
    }

    fn check_chunk(data: &str, expected: StreamItem) {
        assert_eq!(
            read_chunk(&SseEvent {
                data: data.into(),
                ..SseEvent::default()
            }),
            expected,
            "{data}"
        );
    }

    #[test]
    fn chat_completion_chunks() {
        check_chunk(
            r#"{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"{\"sc"},"finish_reason":null}]}"#,
            StreamItem::Delta {
                content: Some("{\"sc".into()),
                finish_reason: None,
            },
        );
        check_chunk(
            r#"{"choices":[{"index":0,"delta":{"role":"assistant"}}]}"#,
            StreamItem::Delta {
                content: None,
                finish_reason: None,
            },
        );
        check_chunk(
            r#"{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}"#,
            StreamItem::Delta {
                content: None,
                finish_reason: Some("stop".into()),
            },
        );
        check_chunk(
            r#"{"choices":[],"usage":{"total_tokens":9}}"#,
            StreamItem::Delta {
                content: None,
                finish_reason: None,
            },
        );
        check_chunk(" [DONE] ", StreamItem::Done);
        check_chunk(
            r#"{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}"#,
            StreamItem::Error {
                message: "Rate limit reached".into(),
                code: Some("rate_limit_exceeded".into()),
            },
        );
        check_chunk(
            r#"{"error":"overloaded"}"#,
            StreamItem::Error {
                message: "overloaded".into(),
                code: None,
            },
        );
        check_chunk(
            r#"{"object":"x"}"#,
            StreamItem::Malformed {
                reason: "the chunk has no \"choices\" list".into(),
            },
        );
        assert!(matches!(
            read_chunk(&SseEvent {
                data: "{".into(),
                ..SseEvent::default()
            }),
            StreamItem::Malformed { .. }
        ));
    }

    /// A stream of chat-completion events, with comments and mixed line ends.
    fn stream() -> impl Strategy<Value = Vec<u8>> {
        let piece = prop_oneof![
            "[a-zé€ \\{\\}\":,]{0,12}".prop_map(|t| format!("data: {t}\n\n")),
            "[a-z ]{0,8}".prop_map(|t| format!(": {t}\r\n")),
            "[a-z0-9]{0,8}".prop_map(|t| format!("data:{t}\r\ndata: {t}\r\n\r\n")),
            Just("data: [DONE]\r\r".to_owned()),
            Just("event: e\nid: 3\n".to_owned()),
        ];
        proptest::collection::vec(piece, 0..12).prop_map(|v| v.concat().into_bytes())
    }

    proptest! {
        #[test]
        fn any_chunking_gives_the_same_events(bytes in stream(), cuts in proptest::collection::vec(any::<prop::sample::Index>(), 0..8)) {
            let whole = events(&[&bytes]);
            let mut at: Vec<usize> = cuts.iter().map(|c| c.index(bytes.len() + 1)).collect();
            at.sort_unstable();
            let mut chunks: Vec<&[u8]> = Vec::new();
            let mut start = 0;
            for &c in &at {
                chunks.push(&bytes[start..c]);
                start = c;
            }
            chunks.push(&bytes[start..]);
            prop_assert_eq!(events(&chunks), whole);
        }

        #[test]
        fn no_input_panics(chunks in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..40), 0..6)) {
            let mut p = SseParser::with_limit(64);
            for c in &chunks {
                if let Ok(es) = p.feed(c) {
                    for e in es {
                        let _ = read_chunk(&e);
                    }
                }
            }
            let _ = p.finish();
        }
    }
}
