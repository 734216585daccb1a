//! The learner's work on the trace exercise, as it is stored: the answers
//! as they stand and as they were at the last check, each under its
//! request's id, how many checks, and whether the answers are revealed.
//!
//! Answers are keyed by request id, not by position, so an exercise whose
//! rows are reordered, or gain a row, never shows an answer beside the
//! wrong request. Format 1 kept them by position; [`TraceWork::upgrade`]
//! reads it, giving each answer to the request at its position in the
//! exercise as it is now (the order it was written against, since no
//! exercise was reordered while format 1 was written).
//!
//! What it deliberately does not do: check anything (`ttft_core::exercises::trace_exercise`
//! does) or know how the form shows it
//! (`components::practice::trace_exercise`).

use crate::learner_state::merge::{later_wins, next_stamp};
use serde::{Deserialize, Serialize};
use ttft_latency::small_map::SmallMap;
use ttft_core::exercises::trace_exercise::LearnerAnswer;

/// Answers by request id.
pub type Answers = SmallMap<String, LearnerAnswer>;

/// The learner's work on the trace exercise, as it is stored (format 2).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TraceWork {
    /// The answers as they stand, by request id.
    #[serde(default)]
    pub answers: Answers,
    /// The answers as they were at the last check, by request id; verdicts
    /// are shown for these, so a field changed since is marked as such.
    #[serde(default)]
    pub checked: Option<Answers>,
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

/// Format 1: the same, with answers by position in the exercise's order.
#[derive(Deserialize)]
struct ByPosition {
    #[serde(default)]
    answers: Vec<LearnerAnswer>,
    #[serde(default)]
    checked: Option<Vec<LearnerAnswer>>,
    #[serde(default)]
    attempts: u32,
    #[serde(default)]
    revealed: bool,
    #[serde(default)]
    changed_ms: i64,
}

/// Answers by position as answers by id: each goes to the request at its
/// position. Empty answers carry nothing and are left out; an answer at a
/// position with no request is kept under `#<position>` (counted from 1),
/// so nothing the learner wrote is dropped.
fn by_request(list: Vec<LearnerAnswer>, request_ids: &[String]) -> Answers {
    list.into_iter()
        .enumerate()
        .filter(|(_, a)| *a != LearnerAnswer::default())
        .map(|(i, a)| {
            (
                request_ids
                    .get(i)
                    .cloned()
                    .unwrap_or_else(|| format!("#{}", i + 1)),
                a,
            )
        })
        .collect()
}

impl TraceWork {
    /// Reads the work stored in an older format `version`, given the
    /// exercise's request ids in their present order.
    pub fn upgrade(
        version: u32,
        value: serde_json::Value,
        request_ids: &[String],
    ) -> Result<TraceWork, String> {
        if version != 1 {
            return Err(format!("format {version} was never written"));
        }
        // From text, as every stored value is read (`storage::read`).
        let old: ByPosition = serde_json::from_str(&value.to_string()).map_err(|e| e.to_string())?;
        Ok(TraceWork {
            answers: by_request(old.answers, request_ids),
            checked: old.checked.map(|c| by_request(c, request_ids)),
            attempts: old.attempts,
            revealed: old.revealed,
            changed_ms: old.changed_ms,
        })
    }

    /// The answer for `request` (empty when none is given yet).
    pub fn answer(&self, request: &str) -> LearnerAnswer {
        self.answers.get(request).cloned().unwrap_or_default()
    }

    /// The answer for `request` at the last check; `None` before any check.
    pub fn checked_answer(&self, request: &str) -> Option<LearnerAnswer> {
        self.checked
            .as_ref()
            .map(|c| c.get(request).cloned().unwrap_or_default())
    }

    /// The answers as they stand for `requests`, in that order, as the
    /// core's checker takes them.
    pub fn answers_in_order<'a>(
        &self,
        requests: impl IntoIterator<Item = &'a str>,
    ) -> Vec<LearnerAnswer> {
        requests.into_iter().map(|id| self.answer(id)).collect()
    }

    /// The answers at the last check for `requests`, in that order; `None`
    /// before any check.
    pub fn checked_in_order<'a>(
        &self,
        requests: impl IntoIterator<Item = &'a str>,
    ) -> Option<Vec<LearnerAnswer>> {
        let checked = self.checked.as_ref()?;
        Some(
            requests
                .into_iter()
                .map(|id| checked.get(id).cloned().unwrap_or_default())
                .collect(),
        )
    }

    /// Changes the answer for `request` at `now_ms`.
    pub fn edit(&mut self, request: &str, now_ms: i64, change: impl FnOnce(&mut LearnerAnswer)) {
        change(self.answers.get_or_insert_with(request.to_owned(), LearnerAnswer::default));
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
    use ttft_core::exercises::trace_exercise::{DominantChoice, ShareEntry};

    fn answered(share: &str) -> LearnerAnswer {
        LearnerAnswer {
            dominant: Some(DominantChoice::QueueWait),
            share_percent: Some(ShareEntry::Text(share.into())),
            investigate: None,
        }
    }

    fn ids(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    /// Applies `steps` to fresh work and checks the stored shape.
    fn check(steps: impl FnOnce(&mut TraceWork), attempts: u32, checked: bool, revealed: bool) {
        let mut w = TraceWork::default();
        steps(&mut w);
        assert_eq!(
            (w.attempts, w.checked.is_some(), w.revealed),
            (attempts, checked, revealed)
        );
        let json = serde_json::to_string(&w).unwrap_or_default();
        assert_eq!(serde_json::from_str::<TraceWork>(&json).ok(), Some(w));
    }

    /// Upgrades format-1 `json` against `request_ids` and checks the
    /// answers (as share texts) by id, as they stand and as checked.
    fn check_upgrade(
        json: &str,
        request_ids: &[&str],
        answers: &[(&str, &str)],
        checked: Option<&[(&str, &str)]>,
    ) {
        let value: serde_json::Value = serde_json::from_str(json).unwrap_or_default();
        let got = TraceWork::upgrade(1, value, &ids(request_ids));
        let shares = |a: &Answers| -> Vec<(String, String)> {
            a.iter()
                .map(|(id, a)| {
                    let share = match &a.share_percent {
                        Some(ShareEntry::Text(t)) => t.clone(),
                        other => format!("{other:?}"),
                    };
                    (id.clone(), share)
                })
                .collect()
        };
        let pairs = |list: &[(&str, &str)]| -> Vec<(String, String)> {
            list.iter()
                .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
                .collect()
        };
        let got = got.unwrap_or_else(|e| panic!("{json}: {e}"));
        assert_eq!(shares(&got.answers), pairs(answers), "{json}");
        assert_eq!(
            got.checked.as_ref().map(shares),
            checked.map(pairs),
            "{json}"
        );
    }

    #[test]
    fn work_is_edited_checked_and_merged() {
        check(
            |w| w.edit("H3", 5, |a| *a = answered("2325")),
            0,
            false,
            false,
        );
        check(
            |w| {
                w.edit("H2", 5, |a| *a = answered("96.9"));
                w.check(6);
                w.set_revealed(true, 7);
            },
            1,
            true,
            true,
        );
        let mut a = TraceWork::default();
        a.edit("H4", 100, |x| *x = answered("60.6"));
        assert_eq!(a.answers.len(), 1);
        assert_eq!(a.answer("H9"), LearnerAnswer::default());
        assert_eq!(a.checked_answer("H4"), None, "nothing is checked yet");
        let mut b = a.clone();
        b.check(50);
        assert_eq!(
            b.changed_ms, 101,
            "a clock behind still moves the stamp forward"
        );
        assert_eq!(b.checked_answer("H4"), Some(answered("60.6")));
        assert_eq!(
            b.checked_answer("H1"),
            Some(LearnerAnswer::default()),
            "checked while empty"
        );
        assert_eq!(TraceWork::merge(&a, &b), b);
        assert_eq!(TraceWork::merge(&b, &a), b);
    }

    #[test]
    fn answers_follow_their_request_when_rows_are_reordered() {
        let mut w = TraceWork::default();
        w.edit("H1", 1, |a| *a = answered("20"));
        w.edit("H3", 2, |a| *a = answered("60.6"));
        w.check(3);
        let empty = LearnerAnswer::default();
        assert_eq!(
            w.answers_in_order(["H1", "H2", "H3"]),
            [answered("20"), empty.clone(), answered("60.6")]
        );
        assert_eq!(
            w.answers_in_order(["H3", "H1"]),
            [answered("60.6"), answered("20")]
        );
        assert_eq!(
            w.checked_in_order(["H3", "H0", "H1"]),
            Some(vec![answered("60.6"), empty, answered("20")])
        );
        assert_eq!(TraceWork::default().checked_in_order(["H1"]), None);
    }

    #[test]
    fn answers_by_position_go_to_the_request_at_that_position() {
        let h = ["H1", "H2", "H3", "H4"];
        let a = |share: &str| {
            format!(r#"{{"dominant":"queue_wait","share_percent":"{share}","investigate":null}}"#)
        };
        // As format 1 stored it: padding before an answer to a later row.
        check_upgrade(
            &format!(
                r#"{{"answers":[{{}},{},{{}},{}],"checked":null,"attempts":0,"revealed":false,"changed_ms":7}}"#,
                a("96.9"),
                a("60.6")
            ),
            &h,
            &[("H2", "96.9"), ("H4", "60.6")],
            None,
        );
        check_upgrade(
            &format!(
                r#"{{"answers":[{}],"checked":[{},{}],"attempts":2,"revealed":true,"changed_ms":9}}"#,
                a("20"),
                a("21"),
                a("96.9")
            ),
            &h,
            &[("H1", "20")],
            Some(&[("H1", "21"), ("H2", "96.9")]),
        );
        // An answer at a position the exercise no longer has is kept.
        check_upgrade(
            &format!(r#"{{"answers":[{},{}]}}"#, a("1"), a("2")),
            &["H1"],
            &[("#2", "2"), ("H1", "1")],
            None,
        );
        check_upgrade("{}", &h, &[], None);
        let value = serde_json::json!({"answers": "not a list"});
        assert!(TraceWork::upgrade(1, value, &ids(&h)).is_err());
        assert!(TraceWork::upgrade(0, serde_json::json!({}), &ids(&h)).is_err());
        let old =
            serde_json::json!({"answers": [], "attempts": 3, "revealed": true, "changed_ms": 42});
        let got = TraceWork::upgrade(1, old, &ids(&h)).ok();
        assert_eq!(
            got.map(|w| (w.attempts, w.revealed, w.changed_ms)),
            Some((3, true, 42))
        );
    }
}
