//! The one verdict both exercises give for each field of an answer, and the
//! count of verdicts across an exercise.
//!
//! The trace exercise's dominant delay, share and first action, and the
//! configuration choice's choice, numbers and yes/no answers are all judged
//! the same way: right, nearly right, wrong, not given, or (for typed
//! numbers) unreadable. What differs is what a wrong or nearly-right
//! verdict can say, so each exercise names those two: the trace exercise
//! says which [`Misconception`](crate::exercises::trace_exercise::Misconception)
//! a wrong field shows, the configuration choice the reason the numbers
//! give, the unit slipped, or the condition a choice is acceptable under.

use crate::exercises::number::NumberError;
use serde::{Deserialize, Serialize};

/// How one field of an answer fares. `W` is what a wrong verdict carries,
/// `C` what a nearly-right one does (nothing, for most fields).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "detail")]
pub enum Verdict<W = (), C = ()> {
    /// Right.
    Correct,
    /// Nearly right: a number within the exercise's tolerance, or a choice
    /// acceptable only under a condition.
    Close(C),
    /// Wrong, with what the exercise can say about the mistake.
    Wrong(W),
    /// Nothing was given.
    Missing,
    /// Typed text that cannot be read as a number.
    Unreadable(NumberError),
}

impl<W, C> Verdict<W, C> {
    /// True for [`Verdict::Correct`] only.
    pub fn is_correct(&self) -> bool {
        matches!(self, Verdict::Correct)
    }

    /// The word that follows "is" in a sentence about a field that was
    /// read but is not right ("H2's share is close"); `None` for a right
    /// field and for one that could not be read.
    pub fn word(&self) -> Option<&'static str> {
        match self {
            Verdict::Correct | Verdict::Unreadable(_) => None,
            Verdict::Close(_) => Some("close"),
            Verdict::Wrong(_) => Some("wrong"),
            Verdict::Missing => Some("missing"),
        }
    }
}

/// Counts of verdicts across an exercise.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    pub correct: usize,
    pub close: usize,
    pub wrong: usize,
    pub missing: usize,
    /// Typed numbers that could not be read.
    pub unreadable: usize,
}

impl Tally {
    /// Counts one more verdict.
    pub fn add<W, C>(&mut self, v: &Verdict<W, C>) {
        let n = match v {
            Verdict::Correct => &mut self.correct,
            Verdict::Close(_) => &mut self.close,
            Verdict::Wrong(_) => &mut self.wrong,
            Verdict::Missing => &mut self.missing,
            Verdict::Unreadable(_) => &mut self.unreadable,
        };
        *n += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_and_counts() {
        let all: [Verdict<u8, u8>; 5] = [
            Verdict::Correct,
            Verdict::Close(1),
            Verdict::Wrong(2),
            Verdict::Missing,
            Verdict::Unreadable(NumberError::Empty),
        ];
        let words: Vec<Option<&str>> = all.iter().map(Verdict::word).collect();
        assert_eq!(
            words,
            [None, Some("close"), Some("wrong"), Some("missing"), None]
        );
        let mut t = Tally::default();
        all.iter().chain(&all[..1]).for_each(|v| t.add(v));
        assert_eq!(
            t,
            Tally {
                correct: 2,
                close: 1,
                wrong: 1,
                missing: 1,
                unreadable: 1
            }
        );
        assert!(all[0].is_correct() && !all[1].is_correct());
        assert_eq!(
            serde_json::to_value(&all[2]).ok(),
            Some(serde_json::json!({"kind": "wrong", "detail": 2}))
        );
    }
}
