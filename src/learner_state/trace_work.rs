//! The learner's work on the trace exercise, as it is stored: the answers
//! as they stand and as they were at the last check, how many checks, and
//! whether the answers are revealed.
//!
//! What it deliberately does not do: check anything (`ttft_core::answer`
//! does) or know how the form shows it
//! (`components::practice::trace_exercise`).

use crate::learner_state::merge::{later_wins, next_stamp};
use serde::{Deserialize, Serialize};
use ttft_core::answer::LearnerAnswer;

/// The learner's work on the trace exercise, as it is stored.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TraceWork {
    /// The answers as they stand, one per request in content order.
    #[serde(default)]
    pub answers: Vec<LearnerAnswer>,
    /// The answers as they were at the last check; verdicts are shown for
    /// these, so a field changed since is marked as such.
    #[serde(default)]
    pub checked: Option<Vec<LearnerAnswer>>,
    /// How many times the learner has checked.
    #[serde(default)]
    pub attempts: u32,
    /// Whether the answers are revealed.
    #[serde(default)]
    pub revealed: bool,
    /// When this last changed, in milliseconds since the epoch.
    #[serde(default)]
    pub changed_ms: i64,
}

impl TraceWork {
    /// The answer for request `index` (empty when none is given yet).
    pub fn answer(&self, index: usize) -> LearnerAnswer {
        self.answers.get(index).cloned().unwrap_or_default()
    }

    /// Changes the answer for request `index` at `now_ms`.
    pub fn edit(&mut self, index: usize, now_ms: i64, change: impl FnOnce(&mut LearnerAnswer)) {
        if self.answers.len() <= index {
            self.answers.resize(index + 1, LearnerAnswer::default());
        }
        if let Some(answer) = self.answers.get_mut(index) {
            change(answer);
        }
        self.changed_ms = next_stamp(self.changed_ms, now_ms);
    }

    /// Records a check of the answers as they stand.
    pub fn check(&mut self, now_ms: i64) {
        self.attempts = self.attempts.saturating_add(1);
        self.checked = Some(self.answers.clone());
        self.changed_ms = next_stamp(self.changed_ms, now_ms);
    }

    /// Shows or hides the answers.
    pub fn set_revealed(&mut self, revealed: bool, now_ms: i64) {
        self.revealed = revealed;
        self.changed_ms = next_stamp(self.changed_ms, now_ms);
    }

    /// Two tabs' copies: the later change wins.
    pub fn merge(mine: &TraceWork, theirs: &TraceWork) -> TraceWork {
        later_wins(mine, mine.changed_ms, theirs, theirs.changed_ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ttft_core::answer::{DominantChoice, ShareEntry};

    fn answered(share: &str) -> LearnerAnswer {
        LearnerAnswer {
            dominant: Some(DominantChoice::QueueWait),
            share_percent: Some(ShareEntry::Text(share.into())),
            investigate: None,
        }
    }

    /// Applies `steps` to fresh work and checks the stored shape.
    fn check(steps: impl FnOnce(&mut TraceWork), attempts: u32, checked: bool, revealed: bool) {
        let mut w = TraceWork::default();
        steps(&mut w);
        assert_eq!((w.attempts, w.checked.is_some(), w.revealed), (attempts, checked, revealed));
        let json = serde_json::to_string(&w).unwrap_or_default();
        assert_eq!(serde_json::from_str::<TraceWork>(&json).ok(), Some(w));
    }

    #[test]
    fn work_is_edited_checked_and_merged() {
        check(|w| w.edit(2, 5, |a| *a = answered("2325")), 0, false, false);
        check(
            |w| {
                w.edit(1, 5, |a| *a = answered("96.9"));
                w.check(6);
                w.set_revealed(true, 7);
            },
            1,
            true,
            true,
        );
        let mut a = TraceWork::default();
        a.edit(3, 100, |x| *x = answered("60.6"));
        assert_eq!(a.answers.len(), 4);
        assert_eq!(a.answer(9), LearnerAnswer::default());
        let mut b = a.clone();
        b.check(50);
        assert_eq!(b.changed_ms, 101, "a clock behind still moves the stamp forward");
        assert_eq!(TraceWork::merge(&a, &b), b);
        assert_eq!(TraceWork::merge(&b, &a), b);
    }
}
