//! The learner's work on the configuration choice, as it is stored: the
//! inputs per workload, what was checked, attempts and reveals.
//!
//! What it deliberately does not do: check anything (`ttft_core::exercises::config_choice`
//! does) or know how the form shows it (`components::practice::config_choice`).

use crate::learner_state::merge::{later_wins, next_stamp};
use serde::{Deserialize, Serialize};
use ttft_core::exercises::config_choice::WorkloadInput;

/// The learner's work on the configuration choice, as it is stored. Every
/// list is by workload, in content order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChoiceWork {
    /// The inputs as they stand.
    #[serde(default)]
    pub inputs: Vec<WorkloadInput>,
    /// The inputs as they were at each workload's last check.
    #[serde(default)]
    pub checked: Vec<Option<WorkloadInput>>,
    /// Checks made per workload.
    #[serde(default)]
    pub attempts: Vec<u32>,
    /// Whether each workload's answer is revealed.
    #[serde(default)]
    pub revealed: Vec<bool>,
    /// When this last changed, in milliseconds since the epoch.
    #[serde(default)]
    pub changed_ms: i64,
}

fn slot<T: Clone + Default>(list: &mut Vec<T>, index: usize) -> Option<&mut T> {
    if list.len() <= index {
        list.resize(index + 1, T::default());
    }
    list.get_mut(index)
}

impl ChoiceWork {
    /// The input for workload `index` (empty when none is given yet).
    pub fn input(&self, index: usize) -> WorkloadInput {
        self.inputs.get(index).cloned().unwrap_or_default()
    }

    /// The input at workload `index`'s last check, if it was checked.
    pub fn checked_input(&self, index: usize) -> Option<WorkloadInput> {
        self.checked.get(index).cloned().flatten()
    }

    /// Checks made on workload `index`.
    pub fn attempts(&self, index: usize) -> u32 {
        self.attempts.get(index).copied().unwrap_or(0)
    }

    /// Whether workload `index`'s answer is revealed.
    pub fn revealed(&self, index: usize) -> bool {
        self.revealed.get(index).copied().unwrap_or(false)
    }

    /// Changes workload `index`'s input at `now_ms`.
    pub fn edit(&mut self, index: usize, now_ms: i64, change: impl FnOnce(&mut WorkloadInput)) {
        if let Some(input) = slot(&mut self.inputs, index) {
            change(input);
        }
        self.changed_ms = next_stamp(self.changed_ms, now_ms);
    }

    /// Records a check of workload `index`'s input as it stands.
    pub fn check(&mut self, index: usize, now_ms: i64) {
        let input = self.input(index);
        if let Some(c) = slot(&mut self.checked, index) {
            *c = Some(input);
        }
        if let Some(a) = slot(&mut self.attempts, index) {
            *a = a.saturating_add(1);
        }
        self.changed_ms = next_stamp(self.changed_ms, now_ms);
    }

    /// Shows or hides workload `index`'s answer.
    pub fn set_revealed(&mut self, index: usize, revealed: bool, now_ms: i64) {
        if let Some(r) = slot(&mut self.revealed, index) {
            *r = revealed;
        }
        self.changed_ms = next_stamp(self.changed_ms, now_ms);
    }

    /// Two tabs' copies: the later change wins.
    pub fn merge(mine: &ChoiceWork, theirs: &ChoiceWork) -> ChoiceWork {
        later_wins(mine, mine.changed_ms, theirs, theirs.changed_ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Applies `steps` to fresh work and checks attempts and reveals per
    /// workload, and that the value survives storage.
    fn check(steps: impl FnOnce(&mut ChoiceWork), attempts: [u32; 2], revealed: [bool; 2]) {
        let mut w = ChoiceWork::default();
        steps(&mut w);
        assert_eq!([w.attempts(0), w.attempts(1)], attempts);
        assert_eq!([w.revealed(0), w.revealed(1)], revealed);
        let json = serde_json::to_string(&w).unwrap_or_default();
        assert_eq!(serde_json::from_str::<ChoiceWork>(&json).ok(), Some(w));
    }

    #[test]
    fn work_per_workload() {
        check(|_| {}, [0, 0], [false, false]);
        check(
            |w| {
                w.edit(1, 10, |i| i.choice = Some("B".into()));
                w.check(1, 11);
                w.check(1, 12);
                w.set_revealed(0, true, 13);
            },
            [0, 2],
            [true, false],
        );
        let mut w = ChoiceWork::default();
        w.edit(1, 10, |i| i.total_tokens = Some("4,000,000".into()));
        w.check(1, 11);
        assert_eq!(
            w.checked_input(1).and_then(|i| i.total_tokens).as_deref(),
            Some("4,000,000")
        );
        assert_eq!(w.checked_input(0), None);
        let older = ChoiceWork::default();
        assert_eq!(ChoiceWork::merge(&older, &w), w);
    }
}
