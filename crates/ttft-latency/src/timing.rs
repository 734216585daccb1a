//! What a trace says about one request, before anything is computed from it.
//!
//! Real sources disagree about what they record: a serving runtime logs event
//! timestamps on its own monotonic clock, a span exporter logs durations, a
//! benchmark client logs only the time to first token. [`Timing`] models both
//! shapes, and every field is an `Option` so that "this source does not say"
//! is explicit and never silently becomes zero. Nothing here computes a split;
//! see `split` for that.

use crate::time::Micros;
use serde::{Deserialize, Serialize};
use std::fmt;

/// How a request ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The last token was written and the stream closed normally.
    #[default]
    Completed,
    /// The server or the stream failed after the request was accepted.
    Failed,
    /// Refused at the door: over capacity, rate-limited, or invalid.
    Rejected,
    /// The client went away or a deadline stopped it.
    Cancelled,
    /// Ended with nothing produced and no error recorded: no output tokens,
    /// or no first token (none stated, a TTFT of exactly zero, or a first
    /// token at the very instant the request started). It had no first
    /// token, so it enters no TTFT percentile and no target count.
    Empty,
}

impl Outcome {
    /// Every outcome, in the order counts list them.
    pub const ALL: [Outcome; 5] = [
        Outcome::Completed,
        Outcome::Failed,
        Outcome::Rejected,
        Outcome::Cancelled,
        Outcome::Empty,
    ];

    /// Lower-case name, as shown in tables and exports.
    pub fn label(self) -> &'static str {
        match self {
            Outcome::Completed => "completed",
            Outcome::Failed => "failed",
            Outcome::Rejected => "rejected",
            Outcome::Cancelled => "cancelled",
            Outcome::Empty => "empty",
        }
    }
}

/// A request's server-side events on one monotonic clock.
///
/// Order is arrival ≤ admitted ≤ prefill end ≤ first token ≤ last token.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Events {
    /// The request reached the serving runtime.
    pub arrival: Option<Micros>,
    /// The scheduler admitted it: queue wait ends, prefill starts.
    pub admitted: Option<Micros>,
    /// The prompt is processed and the first token's scores are ready.
    pub prefill_end: Option<Micros>,
    /// The first token was sampled and written to the stream.
    pub first_token: Option<Micros>,
    /// The last token was written.
    pub last_token: Option<Micros>,
}

/// A request's phases as durations, for sources that log no timestamps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Durations {
    /// Arrival until admission.
    pub queue_wait: Option<Micros>,
    /// Admission until the first token's scores are ready.
    pub prefill: Option<Micros>,
    /// Sampling the first token and writing it to the stream.
    pub emit: Option<Micros>,
    /// Time to first token as the source states it, if it does.
    pub ttft: Option<Micros>,
    /// First token until last token.
    pub decode: Option<Micros>,
}

/// Either shape of timing data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Timing {
    /// Timestamps on one clock.
    Events(Events),
    /// Durations of each phase.
    Durations(Durations),
}

/// One request as a trace records it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RequestTrace {
    /// The request's id in its trace (`H1`, a UUID, a line number).
    pub id: String,
    /// Tokens in the prompt, if recorded.
    #[serde(default)]
    pub prompt_tokens: Option<u64>,
    /// Tokens generated, if recorded.
    #[serde(default)]
    pub output_tokens: Option<u64>,
    /// Requests already waiting when this one arrived, if recorded.
    #[serde(default)]
    pub queued_at_arrival: Option<u64>,
    /// How it ended.
    #[serde(default)]
    pub outcome: Outcome,
    /// What the trace says about when things happened.
    pub timing: Timing,
}

/// A field of a request, named in errors so the page can show each error
/// next to the input that caused it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Field {
    Arrival,
    Admitted,
    PrefillEnd,
    FirstToken,
    LastToken,
    QueueWait,
    Prefill,
    Emit,
    Ttft,
    Decode,
    PromptTokens,
    OutputTokens,
}

impl Field {
    /// Plain name for a learner.
    pub fn label(self) -> &'static str {
        match self {
            Field::Arrival => "arrival",
            Field::Admitted => "admission",
            Field::PrefillEnd => "end of prefill",
            Field::FirstToken => "first token",
            Field::LastToken => "last token",
            Field::QueueWait => "queue wait",
            Field::Prefill => "prefill",
            Field::Emit => "emit",
            Field::Ttft => "TTFT",
            Field::Decode => "decode",
            Field::PromptTokens => "prompt tokens",
            Field::OutputTokens => "output tokens",
        }
    }
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// What is wrong with a token count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TokenProblem {
    /// A prompt always has at least one token.
    EmptyPrompt,
    /// A request that wrote a first token generated at least one.
    NoOutputButFirstToken,
    /// One output token, yet the last token came after the first.
    OneTokenButDecodeTime,
}

/// A reason a request's timings cannot be split. Each names the request and
/// the field, so the page can put the message beside the right input.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum TimingError {
    /// The split needs this field and the trace does not give it.
    Missing { request: String, field: Field },
    /// A duration below zero.
    Negative {
        request: String,
        field: Field,
        value: Micros,
    },
    /// `field` is recorded before `after`, which must come first.
    OutOfOrder {
        request: String,
        field: Field,
        value: Micros,
        after: Field,
        after_value: Micros,
    },
    /// The stated TTFT is not the sum of the stated parts.
    TtftMismatch {
        request: String,
        stated: Micros,
        parts: Micros,
    },
    /// A token count that cannot be.
    Tokens {
        request: String,
        field: Field,
        problem: TokenProblem,
    },
    /// A value so large that arithmetic on it would overflow.
    Overflow { request: String, field: Field },
}

impl TimingError {
    /// The request the error is about.
    pub fn request(&self) -> &str {
        match self {
            TimingError::Missing { request, .. }
            | TimingError::Negative { request, .. }
            | TimingError::OutOfOrder { request, .. }
            | TimingError::TtftMismatch { request, .. }
            | TimingError::Tokens { request, .. }
            | TimingError::Overflow { request, .. } => request,
        }
    }

    /// The field the error belongs next to.
    pub fn field(&self) -> Field {
        match self {
            TimingError::Missing { field, .. }
            | TimingError::Negative { field, .. }
            | TimingError::OutOfOrder { field, .. }
            | TimingError::Tokens { field, .. }
            | TimingError::Overflow { field, .. } => *field,
            TimingError::TtftMismatch { .. } => Field::Ttft,
        }
    }
}

impl fmt::Display for TimingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimingError::Missing { request, field } => {
                write!(f, "{request}: the {field} time is missing, so the split cannot be made")
            }
            TimingError::Negative { request, field, value } => {
                write!(f, "{request}: {field} is {value}; a duration cannot be negative")
            }
            TimingError::OutOfOrder { request, field, value, after, after_value } => write!(
                f,
                "{request}: {field} at {value} comes before {after} at {after_value}; \
                 on one clock it must come at or after it"
            ),
            TimingError::TtftMismatch { request, stated, parts } => write!(
                f,
                "{request}: TTFT is stated as {stated} but queue wait + prefill + emit add up to {parts}"
            ),
            TimingError::Tokens { request, field, problem } => {
                let why = match problem {
                    TokenProblem::EmptyPrompt => "a prompt has at least one token",
                    TokenProblem::NoOutputButFirstToken => {
                        "the request wrote a first token, so it generated at least one"
                    }
                    TokenProblem::OneTokenButDecodeTime => {
                        "with one output token the last token is the first, yet time passed between them"
                    }
                };
                write!(f, "{request}: {field} cannot be right: {why}")
            }
            TimingError::Overflow { request, field } => {
                write!(f, "{request}: {field} is too large to compute with")
            }
        }
    }
}

impl std::error::Error for TimingError {}
