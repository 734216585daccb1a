//! The streamed call: reading the reply's server-sent events as they
//! arrive ([`GradingStream`]) and the client-side timings of the call
//! ([`ClientTiming`]), with what the browser's clock can and cannot say.

use crate::second_opinion::failures::CallFailure;
use crate::second_opinion::reply_limit::REPLY_TEXT_LIMIT;
use crate::second_opinion::sse::{read_chunk, SseError, SseParser, StreamItem};
use serde::{Deserialize, Serialize};
use std::fmt;
use ttft_latency::percentile::{percentiles, Convention, Percentiles};
use ttft_latency::time::Micros;

/// What a browser can measure about the grading call, and what it cannot.
pub const CLIENT_CLOCK_NOTE: &str = "These times come from this browser's clock. Time to first token here runs \
from sending the request to the first streamed text arriving, so it holds the network both ways, the \
provider's own queue and the prefill of the grading prompt, all together: no browser can split them, because \
only the provider's server sees when the request was admitted and when prefill ended. The gaps between chunks \
are not per-token times either, since providers and proxies often pack several tokens into one chunk.";

/// The grading call's client-side timings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClientTiming {
    /// Request sent until the first chunk carrying text.
    pub first_token: Micros,
    /// Request sent until the stream ended.
    pub end_to_end: Micros,
    /// Chunks that carried text.
    pub chunks: usize,
    /// Gaps between consecutive text chunks, in arrival order.
    pub gaps: Vec<Micros>,
    /// Percentiles of the gaps (linear convention); `None` with fewer than
    /// two text chunks.
    pub gap_percentiles: Option<Percentiles>,
}

/// Why timings cannot be computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum TimingMarksError {
    /// No chunk carried text.
    NoText,
    /// An instant is earlier than the one before it: not one clock.
    OutOfOrder,
}

impl fmt::Display for TimingMarksError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimingMarksError::NoText => {
                f.write_str("no streamed text arrived, so there is no time to first token")
            }
            TimingMarksError::OutOfOrder => {
                f.write_str("the recorded instants go backwards, so they are not from one clock")
            }
        }
    }
}

impl std::error::Error for TimingMarksError {}

/// Timings from instants on one clock: when the request was sent, when each
/// text-carrying chunk arrived (in order), and when the stream ended.
pub fn client_timing(
    sent: Micros,
    text_chunks: &[Micros],
    done: Micros,
) -> Result<ClientTiming, TimingMarksError> {
    let (Some(&first), Some(&last)) = (text_chunks.first(), text_chunks.last()) else {
        return Err(TimingMarksError::NoText);
    };
    if first < sent || done < last || text_chunks.windows(2).any(|w| w.get(1) < w.first()) {
        return Err(TimingMarksError::OutOfOrder);
    }
    let gaps: Vec<Micros> = text_chunks
        .windows(2)
        .filter_map(|w| Some(*w.get(1)? - *w.first()?))
        .collect();
    let gap_percentiles = percentiles(&gaps, Convention::Linear).ok();
    Ok(ClientTiming {
        first_token: first - sent,
        end_to_end: done - sent,
        chunks: text_chunks.len(),
        gaps,
        gap_percentiles,
    })
}

/// A grading reply being received: SSE parsing, the assembled text and the
/// arrival instant of every text chunk, fed by the app as bytes arrive.
#[derive(Clone, Debug)]
pub struct GradingStream {
    parser: SseParser,
    sent: Micros,
    text: String,
    text_chunks: Vec<Micros>,
    last_arrival: Micros,
    complete: bool,
}

/// A finished reply: its text and its timings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Received {
    pub text: String,
    pub timing: ClientTiming,
}

impl GradingStream {
    /// A stream for a request sent at `sent`.
    pub fn new(sent: Micros) -> GradingStream {
        GradingStream {
            parser: SseParser::new(),
            sent,
            text: String::new(),
            text_chunks: Vec::new(),
            last_arrival: sent,
            complete: false,
        }
    }

    /// Takes a chunk of the response body that arrived at `at`. Returns the
    /// text it added, or the failure it reveals.
    pub fn receive(&mut self, bytes: &[u8], at: Micros) -> Result<String, CallFailure> {
        self.last_arrival = at;
        let events = self
            .parser
            .feed(bytes)
            .map_err(|e: SseError| CallFailure::Unreadable {
                reason: e.to_string(),
            })?;
        let mut added = String::new();
        for event in events {
            match read_chunk(&event) {
                StreamItem::Delta {
                    content,
                    finish_reason,
                } => {
                    if let Some(c) = content.filter(|c| !c.is_empty()) {
                        if self.text.len() + added.len() + c.len() > REPLY_TEXT_LIMIT {
                            return Err(CallFailure::TooLarge {
                                limit: REPLY_TEXT_LIMIT,
                            });
                        }
                        added.push_str(&c);
                    }
                    if finish_reason.is_some() {
                        self.complete = true;
                    }
                }
                StreamItem::Done => self.complete = true,
                StreamItem::Error { message, code } => {
                    return Err(CallFailure::StreamError { message, code })
                }
                StreamItem::Malformed { reason } => return Err(CallFailure::Unreadable { reason }),
            }
        }
        if !added.is_empty() {
            self.text.push_str(&added);
            self.text_chunks.push(at);
        }
        Ok(added)
    }

    /// The text so far.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// True when nothing has arrived for at least `limit` by `now`; the app
    /// asks on a timer and aborts with [`CallFailure::Stalled`].
    pub fn stalled(&self, now: Micros, limit: Micros) -> bool {
        now - self.last_arrival >= limit
    }

    /// The body ended at `at`: the text and timings, or why the reply is
    /// incomplete.
    pub fn finish(mut self, at: Micros) -> Result<Received, CallFailure> {
        // Bytes after `[DONE]` or a finish reason cannot change the reply.
        let _ = self.parser.finish();
        if !self.complete {
            return Err(CallFailure::EndedEarly);
        }
        let timing = client_timing(self.sent, &self.text_chunks, at).map_err(|e| match e {
            TimingMarksError::NoText => CallFailure::EndedEarly,
            TimingMarksError::OutOfOrder => CallFailure::Unreadable {
                reason: e.to_string(),
            },
        })?;
        Ok(Received {
            text: self.text,
            timing,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stream_end_to_end() {
        let ms = Micros::from_ms;
        let mut s = GradingStream::new(ms(1_000));
        assert_eq!(
            s.receive(
                b"data: {\"choices\":[{\"delta\":{\"role\":\"assistant\"}}]}\n\n",
                ms(1_300)
            )
            .unwrap(),
            ""
        );
        assert_eq!(
            s.receive(
                b"data: {\"choices\":[{\"delta\":{\"content\":\"{\\\"sc\"}}]}\n\ndata: {\"cho",
                ms(1_420)
            )
            .unwrap(),
            "{\"sc"
        );
        assert_eq!(
            s.receive(
                b"ices\":[{\"delta\":{\"content\":\"ores\\\"\"}}]}\n\n",
                ms(1_450)
            )
            .unwrap(),
            "ores\""
        );
        s.receive(b"data: {\"choices\":[{\"delta\":{\"content\":\": []}\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n", ms(1_550)).unwrap();
        assert!(s.stalled(ms(4_000), ms(2_000)) && !s.stalled(ms(3_000), ms(2_000)));
        let done = s.finish(ms(1_560)).unwrap();
        assert_eq!(done.text, "{\"scores\": []}");
        assert_eq!(
            (
                done.timing.first_token,
                done.timing.end_to_end,
                done.timing.chunks
            ),
            (ms(420), ms(560), 3)
        );
        assert_eq!(done.timing.gaps, vec![ms(30), ms(100)]);
        assert_eq!(done.timing.gap_percentiles.map(|p| p.max), Some(ms(100)));

        let mut cut = GradingStream::new(ms(0));
        cut.receive(
            b"data: {\"choices\":[{\"delta\":{\"content\":\"{\"}}]}\n\n",
            ms(5),
        )
        .unwrap();
        assert_eq!(cut.finish(ms(6)), Err(CallFailure::EndedEarly));
        let mut err = GradingStream::new(ms(0));
        assert_eq!(
            err.receive(
                b"data: {\"error\":{\"message\":\"overloaded\",\"type\":\"server_error\"}}\n\n",
                ms(1)
            ),
            Err(CallFailure::StreamError {
                message: "overloaded".into(),
                code: Some("server_error".into())
            })
        );
        assert_eq!(
            client_timing(ms(10), &[ms(5)], ms(20)),
            Err(TimingMarksError::OutOfOrder)
        );
        assert_eq!(
            client_timing(ms(10), &[], ms(20)),
            Err(TimingMarksError::NoText)
        );
        assert_eq!(
            client_timing(ms(0), &[ms(5)], ms(9)).map(|t| t.gap_percentiles),
            Ok(None)
        );
    }
}
