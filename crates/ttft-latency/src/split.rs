//! The split at the heart of the course: TTFT = queue wait + prefill + emit.
//!
//! [`split_request`] validates a [`RequestTrace`] and returns a
//! [`RequestSplit`] whose three parts add up to its TTFT exactly (they are
//! integers on one clock). Everything the lesson shows about one request
//! (shares, the dominant delay, the output rate after the first token, the
//! end-to-end latency, the verdict against a target, and the vLLM convention)
//! is a method here. Lenient handling of imported traces whose parts do not
//! add up lives with the importers, not here: this module refuses such input
//! with a typed error instead.

use crate::time::Micros;
use crate::timing::{
    Durations, Events, Field, Outcome, RequestTrace, Timing, TimingError, TokenProblem,
};
use serde::{Deserialize, Serialize};
use std::fmt;

/// One of the three parts of a server-side time to first token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Part {
    /// Arrival at the runtime until the scheduler admits the request.
    QueueWait,
    /// Processing the prompt until the first token's scores are ready.
    Prefill,
    /// Sampling the first token and writing it to the stream.
    Emit,
}

impl Part {
    /// All three, in the order they happen.
    pub const ALL: [Part; 3] = [Part::QueueWait, Part::Prefill, Part::Emit];

    /// Plain name for a learner.
    pub fn label(self) -> &'static str {
        match self {
            Part::QueueWait => "queue wait",
            Part::Prefill => "prefill",
            Part::Emit => "emit",
        }
    }
}

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// A part's share of a whole, kept as the exact pair of integers so that
/// rounding happens once, for display.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Share {
    /// The part.
    pub part: Micros,
    /// The whole it is a share of.
    pub whole: Micros,
}

impl Share {
    /// The share in percent, or `None` when the whole is not positive.
    pub fn percent(self) -> Option<f64> {
        (self.whole.0 > 0).then(|| self.part.0 as f64 * 100.0 / self.whole.0 as f64)
    }

    /// The share in tenths of a percent, rounded half away from zero using
    /// integer arithmetic: 2,325 of 2,400 is 969 (96.9%). `None` when the
    /// whole is not positive.
    pub fn tenths(self) -> Option<i64> {
        if self.whole.0 <= 0 {
            return None;
        }
        let num = self.part.0 as i128 * 1_000;
        let den = self.whole.0 as i128;
        let q = (2 * num.abs() + den) / (2 * den);
        Some((if num < 0 { -q } else { q }) as i64)
    }

    /// The share as a whole percent, rounded half away from zero: 310 of 360
    /// is 86.
    pub fn whole_percent(self) -> Option<i64> {
        if self.whole.0 <= 0 {
            return None;
        }
        let num = self.part.0 as i128 * 100;
        let den = self.whole.0 as i128;
        let q = (2 * num.abs() + den) / (2 * den);
        Some((if num < 0 { -q } else { q }) as i64)
    }
}

/// `96.9%`, or `n/a` when the whole is zero.
impl fmt::Display for Share {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.tenths() {
            Some(t) => write!(f, "{}%", format_tenths(t)),
            None => f.write_str("n/a"),
        }
    }
}

/// Tenths as a decimal: `969` as `96.9`, `700` as `70`.
pub fn format_tenths(tenths: i64) -> String {
    let sign = if tenths < 0 { "-" } else { "" };
    let abs = tenths.unsigned_abs();
    if abs % 10 == 0 {
        format!("{sign}{}", abs / 10)
    } else {
        format!("{sign}{}.{}", abs / 10, abs % 10)
    }
}

/// The largest part, or the parts tied for largest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "parts")]
pub enum Dominant {
    /// One part is strictly the largest.
    Single(Part),
    /// Two or three parts share the largest value (in time order).
    Tie(Vec<Part>),
}

impl Dominant {
    /// True when `part` is the dominant delay or one of those tied for it.
    pub fn includes(&self, part: Part) -> bool {
        match self {
            Dominant::Single(p) => *p == part,
            Dominant::Tie(ps) => ps.contains(&part),
        }
    }
}

impl fmt::Display for Dominant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Dominant::Single(p) => write!(f, "{p}"),
            Dominant::Tie(ps) => {
                let names: Vec<&str> = ps.iter().map(|p| p.label()).collect();
                write!(f, "a tie between {}", names.join(" and "))
            }
        }
    }
}

/// A server-side TTFT split into its three parts. The parts always add up to
/// [`TtftSplit::ttft`] exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TtftSplit {
    /// Arrival until admission.
    pub queue_wait: Micros,
    /// Admission until the first token's scores are ready.
    pub prefill: Micros,
    /// Sampling the first token and writing it to the stream.
    pub emit: Micros,
}

/// The same request in vLLM's convention, where "prefill" ends when the first
/// token is output and so includes emit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VllmSplit {
    /// vLLM's `time_in_queue`: the same as queue wait.
    pub queue: Micros,
    /// vLLM's prefill: this course's prefill plus emit.
    pub prefill_with_emit: Micros,
}

/// Where a TTFT stands against a target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum TargetVerdict {
    /// At or under the target, with this much to spare.
    Within { margin: Micros },
    /// Over the target by this much.
    Over { by: Micros },
}

impl TtftSplit {
    /// The parts' sum: time to first token at the server.
    pub fn ttft(&self) -> Micros {
        self.queue_wait + self.prefill + self.emit
    }

    /// One part's duration.
    pub fn part(&self, part: Part) -> Micros {
        match part {
            Part::QueueWait => self.queue_wait,
            Part::Prefill => self.prefill,
            Part::Emit => self.emit,
        }
    }

    /// One part's share of TTFT.
    pub fn share(&self, part: Part) -> Share {
        Share {
            part: self.part(part),
            whole: self.ttft(),
        }
    }

    /// The largest part; equal largest parts are reported as a tie.
    pub fn dominant(&self) -> Dominant {
        let max = Part::ALL
            .iter()
            .map(|&p| self.part(p))
            .max()
            .unwrap_or_default();
        let top: Vec<Part> = Part::ALL
            .into_iter()
            .filter(|&p| self.part(p) == max)
            .collect();
        match top.as_slice() {
            [one] => Dominant::Single(*one),
            _ => Dominant::Tie(top),
        }
    }

    /// The same split in vLLM's convention.
    pub fn vllm(&self) -> VllmSplit {
        VllmSplit {
            queue: self.queue_wait,
            prefill_with_emit: self.prefill + self.emit,
        }
    }

    /// TTFT against a target such as the course's 1,000 ms for a hint.
    pub fn verdict(&self, target: Micros) -> TargetVerdict {
        let ttft = self.ttft();
        if ttft <= target {
            TargetVerdict::Within {
                margin: target - ttft,
            }
        } else {
            TargetVerdict::Over { by: ttft - target }
        }
    }
}

/// Generation after the first token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decode {
    /// Output tokens after the first one.
    pub tokens_after_first: u64,
    /// First token until last token.
    pub duration: Micros,
}

impl Decode {
    /// Tokens per second after the first token: (tokens - 1) / (last - first).
    /// `None` when no time passed or there was nothing after the first token.
    pub fn output_rate(&self) -> Option<f64> {
        (self.duration.0 > 0 && self.tokens_after_first > 0)
            .then(|| self.tokens_after_first as f64 / self.duration.as_secs_f64())
    }

    /// The output rate in tenths of a token per second, from the exact
    /// ratio in integers (halves round up), for showing with
    /// [`format_tenths`]: `400` for 40 tokens/s. `None` as for
    /// [`output_rate`](Self::output_rate).
    pub fn output_rate_tenths(&self) -> Option<i64> {
        (self.duration.0 > 0 && self.tokens_after_first > 0).then(|| {
            // tokens / (micros / 1e6) tokens per second, times ten.
            let tenths = i128::from(self.tokens_after_first) * 10_000_000;
            let micros = i128::from(self.duration.0);
            i64::try_from((2 * tenths + micros) / (2 * micros)).unwrap_or(i64::MAX)
        })
    }

    /// Mean time per output token after the first, rounded to the nearest
    /// microsecond. `None` when there was nothing after the first token.
    pub fn time_per_token(&self) -> Option<Micros> {
        if self.tokens_after_first == 0 || self.duration.0 < 0 {
            return None;
        }
        let n = self.tokens_after_first as i128;
        Some(Micros(((self.duration.0 as i128 * 2 + n) / (2 * n)) as i64))
    }
}

/// Everything the core derives from one request's timings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RequestSplit {
    /// The request's id.
    pub id: String,
    /// How it ended.
    pub outcome: Outcome,
    /// The three parts of its TTFT.
    pub split: TtftSplit,
    /// Generation after the first token, when the trace records it.
    pub decode: Option<Decode>,
    /// Arrival until the last token, when the trace records both.
    pub end_to_end: Option<Micros>,
}

impl RequestSplit {
    /// Server-side time to first token.
    pub fn ttft(&self) -> Micros {
        self.split.ttft()
    }
}

/// Validates a request's timings and splits its TTFT.
///
/// Event timestamps must all be present and in order; durations must all be
/// present and non-negative, and a stated TTFT must equal their sum. Token
/// counts are checked against the timings.
pub fn split_request(req: &RequestTrace) -> Result<RequestSplit, TimingError> {
    let id = req.id.as_str();
    if req.prompt_tokens == Some(0) {
        return Err(TimingError::Tokens {
            request: id.to_owned(),
            field: Field::PromptTokens,
            problem: TokenProblem::EmptyPrompt,
        });
    }
    let (split, decode_time, end_to_end) = match &req.timing {
        Timing::Events(ev) => split_events(id, ev)?,
        Timing::Durations(d) => split_durations(id, d)?,
    };
    let decode = match (req.output_tokens, decode_time) {
        (Some(0), _) => {
            return Err(TimingError::Tokens {
                request: id.to_owned(),
                field: Field::OutputTokens,
                problem: TokenProblem::NoOutputButFirstToken,
            })
        }
        (Some(1), Some(d)) if d.0 > 0 => {
            return Err(TimingError::Tokens {
                request: id.to_owned(),
                field: Field::OutputTokens,
                problem: TokenProblem::OneTokenButDecodeTime,
            })
        }
        (Some(n), Some(d)) => Some(Decode {
            tokens_after_first: n - 1,
            duration: d,
        }),
        _ => None,
    };
    Ok(RequestSplit {
        id: id.to_owned(),
        outcome: req.outcome,
        split,
        decode,
        end_to_end,
    })
}

type Parts = (TtftSplit, Option<Micros>, Option<Micros>);

fn split_events(id: &str, ev: &Events) -> Result<Parts, TimingError> {
    let need = |field: Field, v: Option<Micros>| {
        v.ok_or_else(|| TimingError::Missing {
            request: id.to_owned(),
            field,
        })
    };
    let arrival = need(Field::Arrival, ev.arrival)?;
    let admitted = need(Field::Admitted, ev.admitted)?;
    let prefill_end = need(Field::PrefillEnd, ev.prefill_end)?;
    let first = need(Field::FirstToken, ev.first_token)?;
    let chain = [
        (Field::Arrival, arrival),
        (Field::Admitted, admitted),
        (Field::PrefillEnd, prefill_end),
        (Field::FirstToken, first),
    ];
    for pair in chain.windows(2) {
        let (after, after_value) = pair[0];
        let (field, value) = pair[1];
        if value < after_value {
            return Err(TimingError::OutOfOrder {
                request: id.to_owned(),
                field,
                value,
                after,
                after_value,
            });
        }
    }
    if let Some(last) = ev.last_token {
        if last < first {
            return Err(TimingError::OutOfOrder {
                request: id.to_owned(),
                field: Field::LastToken,
                value: last,
                after: Field::FirstToken,
                after_value: first,
            });
        }
    }
    let diff = |field: Field, later: Micros, earlier: Micros| {
        later
            .checked_sub(earlier)
            .ok_or_else(|| TimingError::Overflow {
                request: id.to_owned(),
                field,
            })
    };
    let split = TtftSplit {
        queue_wait: diff(Field::Admitted, admitted, arrival)?,
        prefill: diff(Field::PrefillEnd, prefill_end, admitted)?,
        emit: diff(Field::FirstToken, first, prefill_end)?,
    };
    // The three differences can each fit while their sum does not.
    diff(Field::FirstToken, first, arrival)?;
    let decode = ev
        .last_token
        .map(|last| diff(Field::LastToken, last, first))
        .transpose()?;
    let e2e = ev
        .last_token
        .map(|last| diff(Field::LastToken, last, arrival))
        .transpose()?;
    Ok((split, decode, e2e))
}

fn split_durations(id: &str, d: &Durations) -> Result<Parts, TimingError> {
    let need = |field: Field, v: Option<Micros>| match v {
        None => Err(TimingError::Missing {
            request: id.to_owned(),
            field,
        }),
        Some(value) if value.is_negative() => Err(TimingError::Negative {
            request: id.to_owned(),
            field,
            value,
        }),
        Some(value) => Ok(value),
    };
    let split = TtftSplit {
        queue_wait: need(Field::QueueWait, d.queue_wait)?,
        prefill: need(Field::Prefill, d.prefill)?,
        emit: need(Field::Emit, d.emit)?,
    };
    let parts = split
        .queue_wait
        .checked_add(split.prefill)
        .and_then(|s| s.checked_add(split.emit))
        .ok_or_else(|| TimingError::Overflow {
            request: id.to_owned(),
            field: Field::Ttft,
        })?;
    if let Some(stated) = d.ttft {
        if stated != parts {
            return Err(TimingError::TtftMismatch {
                request: id.to_owned(),
                stated,
                parts,
            });
        }
    }
    let decode = d.decode.map(|v| need(Field::Decode, Some(v))).transpose()?;
    let e2e = decode
        .map(|v| {
            parts.checked_add(v).ok_or_else(|| TimingError::Overflow {
                request: id.to_owned(),
                field: Field::Decode,
            })
        })
        .transpose()?;
    Ok((split, decode, e2e))
}

/// What the server trace cannot see: the browser's time from sending the
/// request to showing the first text, minus the server's TTFT. Durations are
/// compared, never raw timestamps from two machines. A negative gap means the
/// two measurements do not describe the same request and clock boundaries.
pub fn unseen_by_server(server_ttft: Micros, browser_first_text: Micros) -> Micros {
    browser_first_text - server_ttft
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events(id: &str, ms: [i64; 5], output_tokens: u64) -> RequestTrace {
        let at = |v: i64| Some(Micros::from_ms(v));
        RequestTrace {
            id: id.into(),
            prompt_tokens: Some(3_000),
            output_tokens: Some(output_tokens),
            queued_at_arrival: Some(0),
            outcome: Outcome::Completed,
            timing: Timing::Events(Events {
                arrival: at(ms[0]),
                admitted: at(ms[1]),
                prefill_end: at(ms[2]),
                first_token: at(ms[3]),
                last_token: at(ms[4]),
            }),
        }
    }

    fn hint(id: &str, queue: i64, prefill: i64, emit: i64, ttft: i64) -> RequestTrace {
        RequestTrace {
            id: id.into(),
            prompt_tokens: None,
            output_tokens: None,
            queued_at_arrival: None,
            outcome: Outcome::Completed,
            timing: Timing::Durations(Durations {
                queue_wait: Some(Micros::from_ms(queue)),
                prefill: Some(Micros::from_ms(prefill)),
                emit: Some(Micros::from_ms(emit)),
                ttft: Some(Micros::from_ms(ttft)),
                decode: None,
            }),
        }
    }

    /// Splits `req` and checks its dominant part and that part's share.
    fn check_hint(req: RequestTrace, dominant: Part, share: &str) {
        let s = split_request(&req).expect("valid hint request");
        assert_eq!(s.split.dominant(), Dominant::Single(dominant), "{}", req.id);
        assert_eq!(s.split.share(dominant).to_string(), share, "{}", req.id);
    }

    #[test]
    fn worked_timeline_from_the_lesson() {
        let s = split_request(&events("review", [0, 40, 350, 360, 12_360], 481)).unwrap();
        assert_eq!(s.split.queue_wait, Micros::from_ms(40));
        assert_eq!(s.split.prefill, Micros::from_ms(310));
        assert_eq!(s.split.emit, Micros::from_ms(10));
        assert_eq!(s.ttft(), Micros::from_ms(360));
        assert_eq!(s.split.dominant(), Dominant::Single(Part::Prefill));
        assert_eq!(s.split.share(Part::Prefill).whole_percent(), Some(86));
        let d = s.decode.unwrap();
        assert_eq!(d.tokens_after_first, 480);
        assert_eq!(d.duration, Micros::from_ms(12_000));
        assert_eq!(d.time_per_token(), Some(Micros::from_ms(25)));
        assert_eq!(d.output_rate(), Some(40.0));
        assert_eq!(d.output_rate_tenths(), Some(400));
        assert_eq!(s.end_to_end, Some(Micros::from_ms(12_360)));
        assert_eq!(
            unseen_by_server(s.ttft(), Micros::from_ms(450)),
            Micros::from_ms(90)
        );
        assert_eq!(
            s.split.vllm(),
            VllmSplit {
                queue: Micros::from_ms(40),
                prefill_with_emit: Micros::from_ms(320)
            }
        );
        assert_eq!(
            s.split.verdict(Micros::from_ms(1_000)),
            TargetVerdict::Within {
                margin: Micros::from_ms(640)
            }
        );
    }

    #[test]
    fn four_hint_requests() {
        check_hint(hint("H1", 20, 70, 10, 100), Part::Prefill, "70%");
        check_hint(hint("H2", 2_325, 65, 10, 2_400), Part::QueueWait, "96.9%");
        check_hint(hint("H3", 30, 1_860, 10, 1_900), Part::Prefill, "97.9%");
        check_hint(hint("H4", 970, 620, 10, 1_600), Part::QueueWait, "60.6%");
        let h4 = split_request(&hint("H4", 970, 620, 10, 1_600)).unwrap();
        assert_eq!(h4.split.share(Part::Prefill).to_string(), "38.8%");
        assert_eq!(
            h4.split.verdict(Micros::from_ms(1_000)),
            TargetVerdict::Over {
                by: Micros::from_ms(600)
            }
        );
    }

    #[test]
    fn ties_are_reported_as_ties() {
        let s = split_request(&hint("T", 50, 50, 0, 100)).unwrap();
        assert_eq!(
            s.split.dominant(),
            Dominant::Tie(vec![Part::QueueWait, Part::Prefill])
        );
        assert_eq!(
            s.split.dominant().to_string(),
            "a tie between queue wait and prefill"
        );
        let zero = split_request(&hint("Z", 0, 0, 0, 0)).unwrap();
        assert_eq!(zero.split.dominant(), Dominant::Tie(Part::ALL.to_vec()));
        assert_eq!(zero.split.share(Part::Emit).to_string(), "n/a");
    }

    #[test]
    fn errors_name_the_request_and_field() {
        let err = split_request(&events("R", [0, 400, 350, 360, 12_360], 481)).unwrap_err();
        assert_eq!(err.field(), Field::PrefillEnd);
        assert_eq!(err.request(), "R");
        assert_eq!(
            err.to_string(),
            "R: end of prefill at 350 ms comes before admission at 400 ms; on one clock it must come at or after it"
        );
        let err = split_request(&events("R", [0, 40, 350, 360, 100], 481)).unwrap_err();
        assert_eq!(err.field(), Field::LastToken);
        let err = split_request(&hint("H9", 20, 70, 10, 120)).unwrap_err();
        assert_eq!(
            err,
            TimingError::TtftMismatch {
                request: "H9".into(),
                stated: Micros::from_ms(120),
                parts: Micros::from_ms(100)
            }
        );
        let err = split_request(&hint("H9", -20, 70, 10, 60)).unwrap_err();
        assert_eq!(err.field(), Field::QueueWait);
        let mut missing = events("M", [0, 40, 350, 360, 12_360], 481);
        if let Timing::Events(ev) = &mut missing.timing {
            ev.admitted = None;
        }
        assert_eq!(
            split_request(&missing).unwrap_err(),
            TimingError::Missing {
                request: "M".into(),
                field: Field::Admitted
            }
        );
    }

    #[test]
    fn impossible_token_counts() {
        let err = split_request(&events("R", [0, 40, 350, 360, 12_360], 1)).unwrap_err();
        assert_eq!(err.field(), Field::OutputTokens);
        let err = split_request(&events("R", [0, 40, 350, 360, 12_360], 0)).unwrap_err();
        assert_eq!(err.field(), Field::OutputTokens);
        let mut r = events("R", [0, 40, 350, 360, 360], 1);
        assert!(
            split_request(&r).is_ok(),
            "one token with no decode time is fine"
        );
        r.prompt_tokens = Some(0);
        assert_eq!(split_request(&r).unwrap_err().field(), Field::PromptTokens);
    }

    #[test]
    fn extreme_values_do_not_panic() {
        let r = events(
            "X",
            [i64::MIN / 1000, 0, 0, i64::MAX / 1000, i64::MAX / 1000],
            2,
        );
        assert!(matches!(
            split_request(&r),
            Err(TimingError::Overflow { .. })
        ));
    }
}
