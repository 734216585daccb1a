//! Each field of one request's answer, judged: what the core expects of the
//! request ([`Expected`], from its split and the target), and the checks of
//! the dominant delay, the share and the action against it.

use crate::content::{Action, CauseClass};
use crate::exercises::number::{Quantity, Unit};
use crate::exercises::trace_exercise::{DominantChoice, Misconception};
use crate::exercises::verdict::Verdict;
use serde::{Deserialize, Serialize};
use ttft_latency::split::{Dominant, Part, Share, TargetVerdict, TtftSplit};
use ttft_latency::time::Micros;

/// The verdict on one field of a request's answer; a wrong one carries the
/// misconception the input shows, if it shows one.
pub type TraceVerdict = Verdict<Option<Misconception>>;

/// The action class a cause points to.
pub fn class_of(part: Part) -> CauseClass {
    match part {
        Part::QueueWait => CauseClass::Queue,
        Part::Prefill => CauseClass::Prefill,
        Part::Emit => CauseClass::Emit,
    }
}

/// What the core computes about one request: the facts every verdict and
/// the reveal are made from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Expected {
    /// The three parts.
    pub split: TtftSplit,
    /// The largest part, or the tie.
    pub dominant: Dominant,
    /// The dominant part's share of TTFT (for a tie, the first tied part's,
    /// which equals the others').
    pub share: Share,
    /// Against the exercise's target.
    pub verdict: TargetVerdict,
    /// The classes to investigate first: `WithinTarget` when the target is
    /// met, else the dominant part's class (several for a tie).
    pub classes: Vec<CauseClass>,
}

/// Computes [`Expected`] from a split and a target.
pub fn expect(split: TtftSplit, target: Micros) -> Expected {
    let dominant = split.dominant();
    let parts: Vec<Part> = match &dominant {
        Dominant::Single(p) => vec![*p],
        Dominant::Tie(ps) => ps.clone(),
    };
    let first = parts.first().copied().unwrap_or(Part::QueueWait);
    let verdict = split.verdict(target);
    let classes = match verdict {
        TargetVerdict::Within { .. } => vec![CauseClass::WithinTarget],
        TargetVerdict::Over { .. } => parts.iter().map(|&p| class_of(p)).collect(),
    };
    Expected {
        split,
        share: split.share(first),
        dominant,
        verdict,
        classes,
    }
}

/// Facts about a request beyond its split that some misconceptions need.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Context {
    /// Arrival until last token, when the trace records it.
    pub end_to_end: Option<Micros>,
    /// Whether the prompt is long for this exercise (see [`is_long_prompt`]).
    pub long_prompt: bool,
}

/// A prompt is long for an exercise when it has more tokens than the median
/// prompt of the exercise's requests. (H4's 6,000 is long next to 700, 650
/// and 18,000: the median is 3,350.)
pub fn is_long_prompt(tokens: u64, all: &[u64]) -> bool {
    let mut sorted = all.to_vec();
    ttft_latency::sort::sort(&mut sorted);
    let n = sorted.len();
    let (Some(&a), Some(&b)) = (sorted.get(n.saturating_sub(1) / 2), sorted.get(n / 2)) else {
        return false;
    };
    u128::from(tokens) * 2 > u128::from(a) + u128::from(b)
}

/// |value − share| in thousandths of a percent, scaled by the whole, compared
/// with `limit` thousandths: true when within.
fn within(value_thousandths: i128, share: Share, limit_thousandths: i128) -> bool {
    let whole = i128::from(share.whole.0);
    if whole <= 0 {
        return false;
    }
    let exact = i128::from(share.part.0) * 100_000;
    (value_thousandths * whole - exact).abs() <= limit_thousandths * whole
}

/// Checks a share as the share of TTFT taken by the part the learner
/// named (`named`), or by the dominant part when they named none (or named
/// the output rate, which is no part): correct to the learner's own
/// precision (a whole percent within 0.5, one or more decimals within
/// 0.05), close within `tolerance_tenths`, otherwise wrong with what it
/// shows. Judging the named part's share keeps the two fields honest: a
/// learner who names prefill on a queue-bound request and copies queue
/// wait's share has not given prefill's share.
pub fn check_share(
    q: &Quantity,
    expected: &Expected,
    context: &Context,
    tolerance_tenths: i64,
    named: Option<Part>,
) -> TraceVerdict {
    let split = expected.split;
    let share = named.map_or(expected.share, |p| split.share(p));
    let judged = |p: Part| named.map_or_else(|| expected.dominant.includes(p), |n| n == p);
    let v = i128::from(q.number.thousandths);
    if q.unit == Some(Unit::Milliseconds) {
        return Verdict::Wrong(Some(Misconception::MillisecondsNotShare));
    }
    if !matches!(q.unit, None | Some(Unit::Percent)) {
        return Verdict::Wrong(None);
    }
    let precision = if q.number.decimals == 0 { 500 } else { 50 };
    if within(v, share, precision) {
        return Verdict::Correct;
    }
    let tolerance = i128::from(tolerance_tenths.max(0)) * 100;
    if within(v, share, tolerance) {
        return Verdict::Close(());
    }
    let near = tolerance.max(precision);
    let of_end_to_end = context.end_to_end.filter(|e| e.0 > 0).is_some_and(|e2e| {
        within(
            v,
            Share {
                part: share.part,
                whole: e2e,
            },
            near,
        )
    });
    let other_part = Part::ALL
        .into_iter()
        .filter(|&p| !judged(p))
        .any(|p| within(v, split.share(p), near));
    // Only a bare number can be a duration misread as a share; "20%" is not.
    let is_ms = q.unit.is_none()
        && Part::ALL
            .iter()
            .map(|&p| split.part(p))
            .chain([split.ttft()])
            .any(|t| i128::from(t.0) == v);
    let m = if v <= 1_000 && within(v * 100, share, near) {
        Some(Misconception::FractionNotPercent)
    } else if of_end_to_end {
        Some(Misconception::ShareOfEndToEnd)
    } else if other_part {
        // Checked before milliseconds: where TTFT is 100 ms (H1), a part's
        // milliseconds and its share are the same number, and the share is
        // the reading that is true.
        Some(Misconception::ShareOfOtherPart)
    } else if is_ms {
        Some(Misconception::MillisecondsNotShare)
    } else {
        None
    };
    Verdict::Wrong(m)
}

/// Checks the named dominant delay.
pub fn check_dominant(
    choice: DominantChoice,
    expected: &Expected,
    context: &Context,
) -> TraceVerdict {
    match choice.part() {
        None => Verdict::Wrong(Some(Misconception::OutputRateAsCause)),
        Some(p) if expected.dominant.includes(p) => Verdict::Correct,
        Some(Part::Prefill) if expected.dominant.includes(Part::QueueWait) => {
            Verdict::Wrong(Some(if context.long_prompt {
                Misconception::LongPromptMeansPrefill
            } else {
                Misconception::QueueAsPrefill
            }))
        }
        Some(Part::QueueWait) if expected.dominant.includes(Part::Prefill) => {
            Verdict::Wrong(Some(Misconception::PrefillAsQueue))
        }
        Some(_) => Verdict::Wrong(None),
    }
}

/// Checks the action chosen to investigate first: its class against the
/// expected classes, and, for a request over its target, whether it would
/// shorten this request at all (an action that only protects other
/// requests is not a first step for this one).
pub fn check_action(action: &Action, expected: &Expected) -> TraceVerdict {
    let class = action.class;
    let within_target = matches!(expected.verdict, TargetVerdict::Within { .. });
    if expected.classes.contains(&class) {
        if action.protects_others && !within_target {
            return Verdict::Wrong(Some(Misconception::ProtectsOthers));
        }
        return Verdict::Correct;
    }
    Verdict::Wrong(Some(match (within_target, class) {
        (true, _) => Misconception::ActionWithinTarget,
        (false, CauseClass::WithinTarget) => Misconception::NoActionOverTarget,
        (false, _) => Misconception::WrongCauseClass,
    }))
}
