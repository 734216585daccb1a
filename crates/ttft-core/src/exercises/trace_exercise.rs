//! Checking the trace exercise: a learner's dominant delay, share of TTFT and
//! "investigate first" choice for each request, with the misconception the
//! evidence points to when an answer is wrong.
//!
//! Everything is computed from the row's parts through `split_request`; the
//! stated answer in the content is never read to decide a verdict (the
//! content test in `validate` checks that the two agree). The checker names a
//! [`Misconception`] only when the learner's input itself shows it (a number
//! equal to a part's milliseconds, a fraction that matches the share, a
//! prefill pick on a queue-bound request with a long prompt); otherwise a
//! wrong answer is just wrong. The explanation text for each misconception is
//! content, keyed by [`Misconception::id`].
//!
//! The learner's numbers are read by `number`. This module does not render
//! anything, keep answers between visits, or know about the configuration
//! exercise (that is `config_choice`).

use crate::content::{Action, CauseClass, TraceExercise, TraceRow};
use crate::exercises::number::{parse_quantity, NumberError, Quantity, Unit};
use serde::{Deserialize, Serialize};
use std::fmt;
use ttft_latency::split::{split_request, Dominant, Part, Share, TargetVerdict, TtftSplit};
use ttft_latency::time::Micros;
use ttft_latency::timing::TimingError;

// ---------------------------------------------------------------- the learner's answer

/// What the learner names as the dominant delay. The output rate is offered
/// too, because it is a tempting wrong answer: it describes what happens
/// after the first token, not the pause before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DominantChoice {
    QueueWait,
    Prefill,
    Emit,
    /// "Decode / output rate": never the cause of a slow first token.
    OutputRate,
}

impl DominantChoice {
    /// Every choice, in the order the page offers them.
    pub const ALL: [DominantChoice; 4] = [
        DominantChoice::QueueWait,
        DominantChoice::Prefill,
        DominantChoice::Emit,
        DominantChoice::OutputRate,
    ];

    /// Plain name for a learner.
    pub fn label(self) -> &'static str {
        match self {
            DominantChoice::QueueWait => "queue wait",
            DominantChoice::Prefill => "prefill",
            DominantChoice::Emit => "emit",
            DominantChoice::OutputRate => "decode / output rate",
        }
    }

    /// The part of TTFT this choice names, if it names one.
    pub fn part(self) -> Option<Part> {
        match self {
            DominantChoice::QueueWait => Some(Part::QueueWait),
            DominantChoice::Prefill => Some(Part::Prefill),
            DominantChoice::Emit => Some(Part::Emit),
            DominantChoice::OutputRate => None,
        }
    }
}

/// The share as the learner gave it: typed text, or a number from a control.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", untagged)]
pub enum ShareEntry {
    Number(f64),
    Text(String),
}

impl ShareEntry {
    /// Reads the entry. A number is read through its shortest decimal form,
    /// so `96.9` keeps its one decimal; non-finite numbers are not numbers.
    pub fn parse(&self) -> Result<Quantity, NumberError> {
        match self {
            ShareEntry::Text(t) => parse_quantity(t),
            ShareEntry::Number(v) if v.is_finite() => parse_quantity(&format!("{v}")),
            ShareEntry::Number(v) => Err(NumberError::NotANumber {
                text: format!("{v}"),
            }),
        }
    }
}

/// One request's answer as the learner gave it; every field may be empty.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LearnerAnswer {
    /// The dominant delay.
    #[serde(default)]
    pub dominant: Option<DominantChoice>,
    /// The dominant delay's share of TTFT, in percent.
    #[serde(default)]
    pub share_percent: Option<ShareEntry>,
    /// The id of the action to investigate first.
    #[serde(default)]
    pub investigate: Option<String>,
}

// ---------------------------------------------------------------- verdicts

/// A mistake the evidence in an answer points to. The explanation text is
/// content, looked up by [`Misconception::id`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Misconception {
    /// A time in milliseconds given as the share: written with `ms`, or a
    /// bare number equal to one of the request's durations (a part or TTFT)
    /// and to no part's share.
    MillisecondsNotShare,
    /// The share given as a fraction (0.969) rather than a percent.
    FractionNotPercent,
    /// The share of end-to-end latency instead of TTFT (needs end-to-end).
    ShareOfEndToEnd,
    /// The share of a part other than the one being judged (the part the
    /// learner named, or the dominant one when none is named).
    ShareOfOtherPart,
    /// The output rate after the first token named as the pause's cause.
    OutputRateAsCause,
    /// Prefill named where queue wait dominates and the prompt is short.
    QueueAsPrefill,
    /// Prefill named for a queue-bound request because its prompt is long.
    LongPromptMeansPrefill,
    /// Queue wait named where prefill dominates.
    PrefillAsQueue,
    /// An action chosen for a request that met its target.
    ActionWithinTarget,
    /// "No action" chosen for a request over its target.
    NoActionOverTarget,
    /// An action for a different cause than the dominant delay.
    WrongCauseClass,
    /// An action of the right class that protects other requests rather
    /// than shortening this one's first token (chunked prefill for a long
    /// prompt), chosen first for a request over its target.
    ProtectsOthers,
}

impl Misconception {
    /// Every misconception the checker can name.
    pub const ALL: [Misconception; 12] = [
        Misconception::MillisecondsNotShare,
        Misconception::FractionNotPercent,
        Misconception::ShareOfEndToEnd,
        Misconception::ShareOfOtherPart,
        Misconception::OutputRateAsCause,
        Misconception::QueueAsPrefill,
        Misconception::LongPromptMeansPrefill,
        Misconception::PrefillAsQueue,
        Misconception::ActionWithinTarget,
        Misconception::NoActionOverTarget,
        Misconception::WrongCauseClass,
        Misconception::ProtectsOthers,
    ];

    /// The snake_case id that keys its text in `TraceExercise.misconceptions`.
    pub fn id(self) -> &'static str {
        match self {
            Misconception::MillisecondsNotShare => "milliseconds_not_share",
            Misconception::FractionNotPercent => "fraction_not_percent",
            Misconception::ShareOfEndToEnd => "share_of_end_to_end",
            Misconception::ShareOfOtherPart => "share_of_other_part",
            Misconception::OutputRateAsCause => "output_rate_as_cause",
            Misconception::QueueAsPrefill => "queue_as_prefill",
            Misconception::LongPromptMeansPrefill => "long_prompt_means_prefill",
            Misconception::PrefillAsQueue => "prefill_as_queue",
            Misconception::ActionWithinTarget => "action_within_target",
            Misconception::NoActionOverTarget => "no_action_over_target",
            Misconception::WrongCauseClass => "wrong_cause_class",
            Misconception::ProtectsOthers => "protects_others",
        }
    }

    /// The misconception with this id.
    pub fn from_id(id: &str) -> Option<Misconception> {
        Misconception::ALL.into_iter().find(|m| m.id() == id)
    }
}

impl fmt::Display for Misconception {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// The verdict on one field of an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Verdict {
    Correct,
    /// A share within the exercise's tolerance of the computed one.
    Close,
    /// Wrong, with the misconception the input shows, if it shows one.
    Wrong {
        misconception: Option<Misconception>,
    },
    /// Nothing was given.
    Missing,
}

impl Verdict {
    fn wrong(m: Option<Misconception>) -> Verdict {
        Verdict::Wrong { misconception: m }
    }
}

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
    sorted.sort_unstable();
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
) -> Verdict {
    let split = expected.split;
    let share = named.map_or(expected.share, |p| split.share(p));
    let judged = |p: Part| named.map_or_else(|| expected.dominant.includes(p), |n| n == p);
    let v = i128::from(q.number.thousandths);
    if q.unit == Some(Unit::Milliseconds) {
        return Verdict::wrong(Some(Misconception::MillisecondsNotShare));
    }
    if !matches!(q.unit, None | Some(Unit::Percent)) {
        return Verdict::wrong(None);
    }
    let precision = if q.number.decimals == 0 { 500 } else { 50 };
    if within(v, share, precision) {
        return Verdict::Correct;
    }
    let tolerance = i128::from(tolerance_tenths.max(0)) * 100;
    if within(v, share, tolerance) {
        return Verdict::Close;
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
    Verdict::wrong(m)
}

/// Checks the named dominant delay.
pub fn check_dominant(choice: DominantChoice, expected: &Expected, context: &Context) -> Verdict {
    match choice.part() {
        None => Verdict::wrong(Some(Misconception::OutputRateAsCause)),
        Some(p) if expected.dominant.includes(p) => Verdict::Correct,
        Some(Part::Prefill) if expected.dominant.includes(Part::QueueWait) => {
            Verdict::wrong(Some(if context.long_prompt {
                Misconception::LongPromptMeansPrefill
            } else {
                Misconception::QueueAsPrefill
            }))
        }
        Some(Part::QueueWait) if expected.dominant.includes(Part::Prefill) => {
            Verdict::wrong(Some(Misconception::PrefillAsQueue))
        }
        Some(_) => Verdict::wrong(None),
    }
}

/// Checks the action chosen to investigate first: its class against the
/// expected classes, and, for a request over its target, whether it would
/// shorten this request at all (an action that only protects other
/// requests is not a first step for this one).
pub fn check_action(action: &Action, expected: &Expected) -> Verdict {
    let class = action.class;
    let within_target = matches!(expected.verdict, TargetVerdict::Within { .. });
    if expected.classes.contains(&class) {
        if action.protects_others && !within_target {
            return Verdict::wrong(Some(Misconception::ProtectsOthers));
        }
        return Verdict::Correct;
    }
    Verdict::wrong(Some(match (within_target, class) {
        (true, _) => Misconception::ActionWithinTarget,
        (false, CauseClass::WithinTarget) => Misconception::NoActionOverTarget,
        (false, _) => Misconception::WrongCauseClass,
    }))
}

// ---------------------------------------------------------------- the exercise

/// What the page reveals for a request once the learner asks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reveal {
    /// Everything computed about the request.
    pub expected: Expected,
    /// The share as the course writes it: `96.9%`.
    pub share_text: String,
    /// The class to investigate first (the first, for a tie).
    pub class: CauseClass,
    /// The content's reasoning for this request.
    pub reasoning: String,
}

/// The verdicts on one request's answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RowCheck {
    /// The request's id.
    pub request: String,
    pub dominant: Verdict,
    /// The share's verdict, or why the typed share could not be read.
    pub share: Result<Verdict, NumberError>,
    pub investigate: Verdict,
    pub reveal: Reveal,
}

impl RowCheck {
    /// True when all three fields are exactly right.
    pub fn all_correct(&self) -> bool {
        self.dominant == Verdict::Correct
            && self.share == Ok(Verdict::Correct)
            && self.investigate == Verdict::Correct
    }
}

/// The verdicts on the whole exercise, one per request in content order. A
/// request whose content cannot be split carries the timing error instead.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceCheck {
    pub rows: Vec<Result<RowCheck, TimingError>>,
}

/// Counts of verdicts across an exercise.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    pub correct: usize,
    pub close: usize,
    pub wrong: usize,
    pub missing: usize,
    /// Shares that could not be read.
    pub unreadable: usize,
}

impl TraceCheck {
    /// True when every field of every request is exactly right.
    pub fn all_correct(&self) -> bool {
        !self.rows.is_empty()
            && self
                .rows
                .iter()
                .all(|r| r.as_ref().is_ok_and(RowCheck::all_correct))
    }

    /// Verdicts counted over every field of every request.
    pub fn tally(&self) -> Tally {
        let mut t = Tally::default();
        for row in self.rows.iter().flatten() {
            for v in [Ok(row.dominant), row.share.clone(), Ok(row.investigate)] {
                match v {
                    Ok(Verdict::Correct) => t.correct += 1,
                    Ok(Verdict::Close) => t.close += 1,
                    Ok(Verdict::Wrong { .. }) => t.wrong += 1,
                    Ok(Verdict::Missing) => t.missing += 1,
                    Err(_) => t.unreadable += 1,
                }
            }
        }
        t
    }

    /// One sentence for the page's live region: how many requests are fully
    /// right, then every field that is not, in request order ("3 of 4
    /// requests fully right; H4's dominant delay is wrong").
    pub fn summary(&self) -> String {
        let total = self.rows.len();
        let right = self
            .rows
            .iter()
            .filter(|r| r.as_ref().is_ok_and(RowCheck::all_correct))
            .count();
        let mut faults = Vec::new();
        for (i, row) in self.rows.iter().enumerate() {
            match row {
                Ok(r) => {
                    let share = match &r.share {
                        Ok(v) => *v,
                        Err(_) => {
                            faults.push(format!("{}'s share cannot be read", r.request));
                            Verdict::Correct
                        }
                    };
                    for (field, v) in [
                        ("dominant delay", r.dominant),
                        ("share", share),
                        ("first investigation", r.investigate),
                    ] {
                        if let Some(word) = verdict_word(v) {
                            faults.push(format!("{}'s {field} is {word}", r.request));
                        }
                    }
                }
                Err(_) => faults.push(format!("request {} cannot be checked", i + 1)),
            }
        }
        let head = if total > 0 && right == total {
            format!("All {total} requests fully right")
        } else {
            format!("{right} of {total} requests fully right")
        };
        if faults.is_empty() {
            head
        } else {
            format!("{head}; {}", faults.join(", "))
        }
    }
}

/// How a verdict that is not correct reads in a sentence.
fn verdict_word(v: Verdict) -> Option<&'static str> {
    match v {
        Verdict::Correct => None,
        Verdict::Close => Some("close"),
        Verdict::Wrong { .. } => Some("wrong"),
        Verdict::Missing => Some("missing"),
    }
}

/// The action with this id among the exercise's choices.
pub fn find_action<'a>(actions: &'a [Action], id: &str) -> Option<&'a Action> {
    actions.iter().find(|a| a.id == id)
}

/// Computes what the core expects for one row of an exercise.
pub fn expect_row(exercise: &TraceExercise, row: &TraceRow) -> Result<Expected, TimingError> {
    let split = split_request(&row.request_trace())?;
    Ok(expect(split.split, Micros::from_ms(exercise.target_ms)))
}

/// Checks one request's answer against the row at `index`; `None` when there
/// is no such row.
pub fn check_row(
    exercise: &TraceExercise,
    index: usize,
    answer: &LearnerAnswer,
) -> Option<Result<RowCheck, TimingError>> {
    let row = exercise.requests.get(index)?;
    Some(check_one(exercise, row, answer))
}

fn check_one(
    exercise: &TraceExercise,
    row: &TraceRow,
    answer: &LearnerAnswer,
) -> Result<RowCheck, TimingError> {
    let expected = expect_row(exercise, row)?;
    let prompts: Vec<u64> = exercise.requests.iter().map(|r| r.prompt_tokens).collect();
    // The content's rows record no end-to-end latency, so none is invented.
    let context = Context {
        end_to_end: None,
        long_prompt: is_long_prompt(row.prompt_tokens, &prompts),
    };
    let dominant = answer
        .dominant
        .map_or(Verdict::Missing, |c| check_dominant(c, &expected, &context));
    let named = answer.dominant.and_then(DominantChoice::part);
    let share = match answer.share_percent.as_ref().map(ShareEntry::parse) {
        None | Some(Err(NumberError::Empty)) => Ok(Verdict::Missing),
        Some(Ok(q)) => Ok(check_share(
            &q,
            &expected,
            &context,
            exercise.share_tolerance_tenths,
            named,
        )),
        Some(Err(e)) => Err(e),
    };
    let investigate = match answer.investigate.as_deref().map(str::trim) {
        None | Some("") => Verdict::Missing,
        Some(id) => match find_action(&exercise.actions, id) {
            Some(a) => check_action(a, &expected),
            None => Verdict::wrong(None),
        },
    };
    let class = expected
        .classes
        .first()
        .copied()
        .unwrap_or(CauseClass::WithinTarget);
    let reveal = Reveal {
        share_text: expected.share.to_string(),
        class,
        reasoning: row.answer.reasoning.clone(),
        expected,
    };
    Ok(RowCheck {
        request: row.id.clone(),
        dominant,
        share,
        investigate,
        reveal,
    })
}

/// Checks every request's answer; `answers[i]` answers `requests[i]`, and a
/// missing entry counts as an empty answer.
pub fn check_trace(exercise: &TraceExercise, answers: &[LearnerAnswer]) -> TraceCheck {
    let empty = LearnerAnswer::default();
    let rows = exercise
        .requests
        .iter()
        .enumerate()
        .map(|(i, row)| check_one(exercise, row, answers.get(i).unwrap_or(&empty)))
        .collect();
    TraceCheck { rows }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::content::{MisconceptionText, RowAnswer};

    fn row(
        id: &str,
        tokens: u64,
        (q, p, e): (i64, i64, i64),
        dominant: Part,
        share: f64,
        class: CauseClass,
    ) -> TraceRow {
        TraceRow {
            id: id.into(),
            prompt_tokens: tokens,
            prompt_note: None,
            queued_at_arrival: 0,
            queue_wait_ms: q,
            prefill_ms: p,
            emit_ms: e,
            ttft_ms: q + p + e,
            output_rate_tps: 40,
            answer: RowAnswer {
                dominant,
                share_percent: share,
                investigate: class,
                reasoning: format!("why {id}"),
            },
        }
    }

    /// The seed's four hint requests, with one action of each class.
    pub(crate) fn exercise() -> TraceExercise {
        let action = |id: &str, class| Action {
            id: id.into(),
            label: id.into(),
            class,
            protects_others: false,
        };
        TraceExercise {
            id: "hints".into(),
            title: "Four hint requests".into(),
            intro: String::new(),
            target_ms: 1_000,
            share_tolerance_tenths: 20,
            requests: vec![
                row(
                    "H1",
                    700,
                    (20, 70, 10),
                    Part::Prefill,
                    70.0,
                    CauseClass::WithinTarget,
                ),
                row(
                    "H2",
                    650,
                    (2_325, 65, 10),
                    Part::QueueWait,
                    96.9,
                    CauseClass::Queue,
                ),
                row(
                    "H3",
                    18_000,
                    (30, 1_860, 10),
                    Part::Prefill,
                    97.9,
                    CauseClass::Prefill,
                ),
                row(
                    "H4",
                    6_000,
                    (970, 620, 10),
                    Part::QueueWait,
                    60.6,
                    CauseClass::Queue,
                ),
            ],
            actions: vec![
                action("capacity", CauseClass::Queue),
                action("prefix_cache", CauseClass::Prefill),
                Action {
                    protects_others: true,
                    ..action("chunked_prefill", CauseClass::Prefill)
                },
                action("stream_writer", CauseClass::Emit),
                action("none", CauseClass::WithinTarget),
            ],
            misconceptions: Misconception::ALL
                .iter()
                .map(|m| MisconceptionText {
                    id: m.id().into(),
                    title: m.id().into(),
                    text: "text".into(),
                })
                .collect(),
        }
    }

    fn answer(d: Option<DominantChoice>, share: &str, action: &str) -> LearnerAnswer {
        LearnerAnswer {
            dominant: d,
            share_percent: Some(ShareEntry::Text(share.into())),
            investigate: Some(action.into()),
        }
    }

    /// Checks request `index` of the seed exercise: the three verdicts.
    fn check(
        index: usize,
        a: LearnerAnswer,
        dominant: Verdict,
        share: Result<Verdict, NumberError>,
        investigate: Verdict,
    ) {
        let got = check_row(&exercise(), index, &a)
            .expect("row exists")
            .expect("row splits");
        assert_eq!(
            (got.dominant, got.share, got.investigate),
            (dominant, share, investigate),
            "{index}: {a:?}"
        );
    }

    fn wrong(m: Misconception) -> Verdict {
        Verdict::Wrong {
            misconception: Some(m),
        }
    }

    use DominantChoice::*;
    use Verdict::{Close, Correct, Missing};

    #[test]
    fn reference_answers_are_correct() {
        check(
            0,
            answer(Some(Prefill), "70", "none"),
            Correct,
            Ok(Correct),
            Correct,
        );
        check(
            1,
            answer(Some(QueueWait), "96.9%", "capacity"),
            Correct,
            Ok(Correct),
            Correct,
        );
        check(
            2,
            answer(Some(Prefill), " 97.9 ", "prefix_cache"),
            Correct,
            Ok(Correct),
            Correct,
        );
        check(
            3,
            answer(Some(QueueWait), "60.6", "capacity"),
            Correct,
            Ok(Correct),
            Correct,
        );
        // Precision follows the learner: 97 is 96.875 to a whole percent.
        check(
            1,
            answer(Some(QueueWait), "97", "capacity"),
            Correct,
            Ok(Correct),
            Correct,
        );
        check(
            1,
            answer(Some(QueueWait), "96,88", "capacity"),
            Correct,
            Ok(Correct),
            Correct,
        );
        let all = vec![
            answer(Some(Prefill), "70", "none"),
            answer(Some(QueueWait), "96.9", "capacity"),
            answer(Some(Prefill), "97.9", "prefix_cache"),
            answer(Some(QueueWait), "60.6", "capacity"),
        ];
        let result = check_trace(&exercise(), &all);
        assert!(result.all_correct());
        assert_eq!(result.tally().correct, 12);
        let reveal = &result.rows[3].as_ref().unwrap().reveal;
        assert_eq!(
            (reveal.share_text.as_str(), reveal.class),
            ("60.6%", CauseClass::Queue)
        );
        assert_eq!(reveal.reasoning, "why H4");
    }

    #[test]
    fn shares_close_missing_and_unreadable() {
        check(
            1,
            answer(Some(QueueWait), "95.5", "capacity"),
            Correct,
            Ok(Close),
            Correct,
        );
        check(
            1,
            answer(Some(QueueWait), "96.8", "capacity"),
            Correct,
            Ok(Close),
            Correct,
        );
        check(1, answer(None, "  ", ""), Missing, Ok(Missing), Missing);
        check(
            1,
            answer(Some(QueueWait), "lots", "capacity"),
            Correct,
            Err(NumberError::NotANumber {
                text: "lots".into(),
            }),
            Correct,
        );
        let empty = check_trace(&exercise(), &[]);
        assert_eq!(empty.tally().missing, 12);
        assert!(!empty.all_correct());
    }

    #[test]
    fn share_misconceptions() {
        let ms = Ok(wrong(Misconception::MillisecondsNotShare));
        check(
            1,
            answer(Some(QueueWait), "2,325", "capacity"),
            Correct,
            ms.clone(),
            Correct,
        );
        // Any duration of the request, not only the dominant part's: TTFT
        // itself, and another part's milliseconds.
        check(
            1,
            answer(Some(QueueWait), "2400", "capacity"),
            Correct,
            ms.clone(),
            Correct,
        );
        check(
            1,
            answer(Some(QueueWait), "65", "capacity"),
            Correct,
            ms.clone(),
            Correct,
        );
        check(
            2,
            answer(Some(Prefill), "1860 ms", "prefix_cache"),
            Correct,
            ms,
            Correct,
        );
        // On H1 (TTFT 100 ms) queue wait's 20 ms is also its 20% share: the
        // share is the true reading, so it is another part's share.
        let other = Ok(wrong(Misconception::ShareOfOtherPart));
        check(
            0,
            answer(Some(Prefill), "20", "none"),
            Correct,
            other.clone(),
            Correct,
        );
        check(0, answer(None, "10", "none"), Missing, other, Correct);
        // "20%" is a share someone meant, never milliseconds.
        check(
            1,
            answer(Some(QueueWait), "65%", "capacity"),
            Correct,
            Ok(Verdict::Wrong {
                misconception: None,
            }),
            Correct,
        );
        check(
            1,
            answer(Some(QueueWait), "0.969", "capacity"),
            Correct,
            Ok(wrong(Misconception::FractionNotPercent)),
            Correct,
        );
        check(
            3,
            answer(Some(QueueWait), "38.8", "capacity"),
            Correct,
            Ok(wrong(Misconception::ShareOfOtherPart)),
            Correct,
        );
        check(
            3,
            answer(Some(QueueWait), "12", "capacity"),
            Correct,
            Ok(Verdict::Wrong {
                misconception: None,
            }),
            Correct,
        );
    }

    #[test]
    fn the_share_is_judged_for_the_part_named() {
        // H2 is queue-bound: naming prefill and copying queue wait's 96.9% is
        // not prefill's share.
        let other = Ok(wrong(Misconception::ShareOfOtherPart));
        check(
            1,
            answer(Some(Prefill), "96.9", "capacity"),
            wrong(Misconception::QueueAsPrefill),
            other.clone(),
            Correct,
        );
        // Prefill's own share is right for the part named, while the part is
        // wrong: each field says what it judged.
        check(
            1,
            answer(Some(Prefill), "2.7", "capacity"),
            wrong(Misconception::QueueAsPrefill),
            Ok(Correct),
            Correct,
        );
        check(
            3,
            answer(Some(Prefill), "60.6", "capacity"),
            wrong(Misconception::LongPromptMeansPrefill),
            other,
            Correct,
        );
        // With no part named (or the output rate, which is no part), the
        // dominant part's share is the one judged.
        check(
            1,
            answer(None, "96.9", "capacity"),
            Missing,
            Ok(Correct),
            Correct,
        );
        check(
            1,
            answer(Some(OutputRate), "96.9", "capacity"),
            wrong(Misconception::OutputRateAsCause),
            Ok(Correct),
            Correct,
        );
    }

    #[test]
    fn share_of_end_to_end_needs_end_to_end() {
        // The worked timeline: prefill 310 of TTFT 360 (86.1%), of e2e 12,360 (2.5%).
        let split = TtftSplit {
            queue_wait: Micros::from_ms(40),
            prefill: Micros::from_ms(310),
            emit: Micros::from_ms(10),
        };
        let expected = expect(split, Micros::from_ms(1_000));
        let q = parse_quantity("2.5%").unwrap();
        let known = Context {
            end_to_end: Some(Micros::from_ms(12_360)),
            long_prompt: true,
        };
        assert_eq!(
            check_share(&q, &expected, &known, 20, None),
            wrong(Misconception::ShareOfEndToEnd)
        );
        // Without end-to-end the same 2.5 is nearest emit's 2.8% of TTFT.
        assert_eq!(
            check_share(&q, &expected, &Context::default(), 20, None),
            wrong(Misconception::ShareOfOtherPart)
        );
        assert_eq!(
            check_share(
                &parse_quantity("86").unwrap(),
                &expected,
                &known,
                20,
                Some(Part::Prefill)
            ),
            Correct
        );
    }

    #[test]
    fn dominant_misconceptions() {
        check(
            1,
            answer(Some(Prefill), "2.7", "capacity"),
            wrong(Misconception::QueueAsPrefill),
            Ok(Correct),
            Correct,
        );
        check(
            3,
            answer(Some(Prefill), "38.8", "capacity"),
            wrong(Misconception::LongPromptMeansPrefill),
            Ok(Correct),
            Correct,
        );
        check(
            1,
            answer(Some(OutputRate), "96.9", "capacity"),
            wrong(Misconception::OutputRateAsCause),
            Ok(Correct),
            Correct,
        );
        // H3: nothing queued at arrival, prefill 97.9% of TTFT.
        check(
            2,
            answer(Some(QueueWait), "1.6", "prefix_cache"),
            wrong(Misconception::PrefillAsQueue),
            Ok(Correct),
            Correct,
        );
        check(
            2,
            answer(Some(Emit), "0.5", "prefix_cache"),
            Verdict::Wrong {
                misconception: None,
            },
            Ok(Correct),
            Correct,
        );
    }

    #[test]
    fn investigate_misconceptions() {
        check(
            0,
            answer(Some(Prefill), "70", "prefix_cache"),
            Correct,
            Ok(Correct),
            wrong(Misconception::ActionWithinTarget),
        );
        check(
            1,
            answer(Some(QueueWait), "96.9", "none"),
            Correct,
            Ok(Correct),
            wrong(Misconception::NoActionOverTarget),
        );
        check(
            3,
            answer(Some(QueueWait), "60.6", "prefix_cache"),
            Correct,
            Ok(Correct),
            wrong(Misconception::WrongCauseClass),
        );
        check(
            2,
            answer(Some(Prefill), "97.9", "stream_writer"),
            Correct,
            Ok(Correct),
            wrong(Misconception::WrongCauseClass),
        );
        check(
            2,
            answer(Some(Prefill), "97.9", "no-such-action"),
            Correct,
            Ok(Correct),
            Verdict::Wrong {
                misconception: None,
            },
        );
    }

    #[test]
    fn an_action_that_protects_others_is_not_a_first_step() {
        // Chunked prefill fits H3's class but does not shorten H3's own
        // prefill, so it is not the first thing to try.
        check(
            2,
            answer(Some(Prefill), "97.9", "chunked_prefill"),
            Correct,
            Ok(Correct),
            wrong(Misconception::ProtectsOthers),
        );
        // Elsewhere the usual verdicts apply.
        check(
            0,
            answer(Some(Prefill), "70", "chunked_prefill"),
            Correct,
            Ok(Correct),
            wrong(Misconception::ActionWithinTarget),
        );
        check(
            1,
            answer(Some(QueueWait), "96.9", "chunked_prefill"),
            Correct,
            Ok(Correct),
            wrong(Misconception::WrongCauseClass),
        );
    }

    #[test]
    fn ties_accept_either_part() {
        let split = TtftSplit {
            queue_wait: Micros::from_ms(600),
            prefill: Micros::from_ms(600),
            emit: Micros::ZERO,
        };
        let e = expect(split, Micros::from_ms(1_000));
        assert_eq!(e.classes, vec![CauseClass::Queue, CauseClass::Prefill]);
        let c = Context::default();
        assert_eq!(check_dominant(QueueWait, &e, &c), Correct);
        assert_eq!(check_dominant(Prefill, &e, &c), Correct);
        let prefill = Action {
            id: "p".into(),
            label: "p".into(),
            class: CauseClass::Prefill,
            protects_others: false,
        };
        assert_eq!(check_action(&prefill, &e), Correct);
        assert_eq!(
            check_share(&parse_quantity("50").unwrap(), &e, &c, 20, None),
            Correct
        );
        assert_eq!(
            check_share(
                &parse_quantity("50").unwrap(),
                &e,
                &c,
                20,
                Some(Part::QueueWait)
            ),
            Correct
        );
    }

    #[test]
    fn the_summary_names_every_field_that_is_not_right() {
        let right = vec![
            answer(Some(Prefill), "70", "none"),
            answer(Some(QueueWait), "96.9", "capacity"),
            answer(Some(Prefill), "97.9", "prefix_cache"),
            answer(Some(QueueWait), "60.6", "capacity"),
        ];
        assert_eq!(
            check_trace(&exercise(), &right).summary(),
            "All 4 requests fully right"
        );
        let mut one_off = right.clone();
        one_off[3].dominant = Some(Prefill);
        one_off[3].share_percent = Some(ShareEntry::Text("38.8".into()));
        assert_eq!(
            check_trace(&exercise(), &one_off).summary(),
            "3 of 4 requests fully right; H4's dominant delay is wrong"
        );
        one_off[1].share_percent = Some(ShareEntry::Text("95.5".into()));
        one_off[0].investigate = None;
        one_off[2].share_percent = Some(ShareEntry::Text("lots".into()));
        assert_eq!(
            check_trace(&exercise(), &one_off).summary(),
            "0 of 4 requests fully right; H1's first investigation is missing, H2's share is close, \
             H3's share cannot be read, H4's dominant delay is wrong"
        );
        assert_eq!(
            check_trace(&exercise(), &[]).summary().split("; ").next(),
            Some("0 of 4 requests fully right")
        );
    }

    #[test]
    fn misconception_ids_round_trip() {
        for m in Misconception::ALL {
            assert_eq!(Misconception::from_id(m.id()), Some(m));
            assert_eq!(
                serde_json::to_string(&m).unwrap(),
                format!("\"{}\"", m.id())
            );
        }
        let texts = exercise().misconceptions;
        assert!(Misconception::ALL
            .iter()
            .all(|m| texts.iter().any(|t| t.id == m.id())));
    }

    #[test]
    fn long_prompt_is_above_the_median() {
        let all = [700, 650, 18_000, 6_000];
        assert!(is_long_prompt(6_000, &all));
        assert!(is_long_prompt(18_000, &all));
        assert!(!is_long_prompt(700, &all));
        assert!(!is_long_prompt(5, &[]));
        assert!(!is_long_prompt(5, &[5]));
    }
}
