//! The learner's work on the interview question, as it is stored: the
//! written answer, how many hints are shown, and the self-score in
//! progress.
//!
//! It lives here rather than beside the interview page because three parts
//! of the page read and write it (the answer box and hints, the self-score,
//! the second opinion), and none of them should have to import another to
//! reach it. What it deliberately does not do: score anything (the rubric
//! is `ttft_core::rubric`) or keep saved scores (`ttft_core::history`).

use crate::learner_state::merge::{later_wins, next_stamp};
use serde::{Deserialize, Serialize};
use ttft_core::rubric::RubricScore;

/// The learner's work on the interview question, as it is stored.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct InterviewWork {
    /// The written answer.
    #[serde(default)]
    pub answer: String,
    /// How many hints have been shown.
    #[serde(default)]
    pub hints_shown: u32,
    /// The self-score in progress.
    #[serde(default)]
    pub score: RubricScore,
    /// When this last changed, in milliseconds since the epoch.
    #[serde(default)]
    pub changed_ms: i64,
}

impl InterviewWork {
    /// Marks a change at `now_ms`.
    pub fn touch(&mut self, now_ms: i64) {
        self.changed_ms = next_stamp(self.changed_ms, now_ms);
    }

    /// Two tabs' copies: the later change wins.
    pub fn merge(mine: &InterviewWork, theirs: &InterviewWork) -> InterviewWork {
        later_wins(mine, mine.changed_ms, theirs, theirs.changed_ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn work_merges_by_time() {
        let mut a = InterviewWork {
            answer: "first".into(),
            ..Default::default()
        };
        a.touch(10);
        let mut b = a.clone();
        b.hints_shown = 2;
        b.touch(5);
        assert_eq!(b.changed_ms, 11);
        assert_eq!(InterviewWork::merge(&a, &b), b);
        assert_eq!(InterviewWork::merge(&b, &a), b);
    }
}
