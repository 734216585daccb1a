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
//!
//! Its parts: `answer` (what the learner gives), `misconception` (what a
//! wrong answer can show), `checks` (each field judged against what the
//! core expects), and here the whole exercise: each request's checks, the
//! reveal, the tally and the summary sentence.

mod answer;
mod checks;
mod misconception;
#[cfg(test)]
pub(crate) mod tests;

pub use crate::exercises::verdict::Tally;
pub use answer::{DominantChoice, LearnerAnswer, ShareEntry};
pub use checks::{
    check_action, check_dominant, check_share, class_of, expect, is_long_prompt, Context, Expected,
    TraceVerdict,
};
pub use misconception::Misconception;

use crate::content::{Action, CauseClass, TraceExercise, TraceRow};
use crate::exercises::number::NumberError;
use crate::exercises::verdict::Verdict;
use serde::{Deserialize, Serialize};
use ttft_latency::split::split_request;
use ttft_latency::time::Micros;
use ttft_latency::timing::TimingError;

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
    pub dominant: TraceVerdict,
    /// The share's verdict ([`Verdict::Unreadable`] when the typed share
    /// cannot be read).
    pub share: TraceVerdict,
    pub investigate: TraceVerdict,
    pub reveal: Reveal,
}

impl RowCheck {
    /// True when all three fields are exactly right.
    pub fn all_correct(&self) -> bool {
        self.dominant.is_correct() && self.share.is_correct() && self.investigate.is_correct()
    }
}

/// The verdicts on the whole exercise, one per request in content order. A
/// request whose content cannot be split carries the timing error instead.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceCheck {
    pub rows: Vec<Result<RowCheck, TimingError>>,
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
            for v in [&row.dominant, &row.share, &row.investigate] {
                t.add(v);
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
                    // Only the share is typed, so only it can be unreadable;
                    // that is said first, then each field that is not right.
                    if let Verdict::Unreadable(_) = r.share {
                        faults.push(format!("{}'s share cannot be read", r.request));
                    }
                    for (field, v) in [
                        ("dominant delay", &r.dominant),
                        ("share", &r.share),
                        ("first investigation", &r.investigate),
                    ] {
                        if let Some(word) = v.word() {
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

/// The action with this id among the exercise's choices.
pub fn find_action<'a>(actions: &'a [Action], id: &str) -> Option<&'a Action> {
    actions.iter().find(|a| a.id == id)
}

/// Computes what the core expects for one row of an exercise.
pub fn expect_row(exercise: &TraceExercise, row: &TraceRow) -> Result<Expected, TimingError> {
    let split = split_request(&row.request_trace())?;
    Ok(expect(split.split, Micros::from_ms(exercise.target_ms)))
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
        None | Some(Err(NumberError::Empty)) => Verdict::Missing,
        Some(Ok(q)) => check_share(
            &q,
            &expected,
            &context,
            exercise.share_tolerance_tenths,
            named,
        ),
        Some(Err(e)) => Verdict::Unreadable(e),
    };
    let investigate = match answer.investigate.as_deref().map(str::trim) {
        None | Some("") => Verdict::Missing,
        Some(id) => match find_action(&exercise.actions, id) {
            Some(a) => check_action(a, &expected),
            None => Verdict::Wrong(None),
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
