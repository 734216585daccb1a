//! The learner's work on the configuration choice, as it is stored: for
//! each workload, under its id, the inputs as they stand and at the last
//! check, how many checks, and whether the answer is revealed.
//!
//! Work is keyed by workload id, not by position, so an exercise whose
//! workloads are reordered, or gain one, never shows work beside the wrong
//! workload. Format 1 kept four lists by position; [`ChoiceWork::upgrade`]
//! reads it, giving each position's work to the workload at that position
//! in the exercise as it is now (the order it was written against, since no
//! exercise was reordered while format 1 was written).
//!
//! What it deliberately does not do: check anything (`ttft_core::exercises::config_choice`
//! does) or know how the form shows it (`components::practice::config_choice`).

use crate::learner_state::merge::{later_wins, next_stamp};
use serde::{Deserialize, Serialize};
use ttft_latency::small_map::SmallMap;
use ttft_core::exercises::config_choice::WorkloadInput;

/// The learner's work on one workload.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorkloadWork {
    /// The inputs as they stand.
    #[serde(default)]
    pub input: WorkloadInput,
    /// The inputs as they were at the last check; `None` before any.
    #[serde(default)]
    pub checked: Option<WorkloadInput>,
    /// Checks made.
    #[serde(default)]
    pub attempts: u32,
    /// Whether the answer is revealed.
    #[serde(default)]
    pub revealed: bool,
}

/// The learner's work on the configuration choice, as it is stored
/// (format 2).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChoiceWork {
    /// Each workload's work, by workload id.
    #[serde(default)]
    pub workloads: SmallMap<String, WorkloadWork>,
    /// When this last changed, in milliseconds since the epoch.
    #[serde(default)]
    pub changed_ms: i64,
}

impl ChoiceWork {
    /// Reads the work stored in an older format `version`, given the
    /// exercise's workload ids in their present order. Work at a position
    /// with no workload is kept under `#<position>` (counted from 1), so
    /// nothing the learner wrote is dropped; positions with no work at all
    /// are left out.
    ///
    /// Format 1 held four lists by position (`inputs`, `checked`,
    /// `attempts`, `revealed`) and `changed_ms`. Each position's entries
    /// are regrouped as format 2's work for that workload and read as
    /// format 2 is, so the two formats share one reader.
    pub fn upgrade(
        version: u32,
        value: serde_json::Value,
        workload_ids: &[String],
    ) -> Result<ChoiceWork, String> {
        use serde_json::{Map, Value};
        if version != 1 {
            return Err(format!("format {version} was never written"));
        }
        const LISTS: [(&str, &str); 4] = [
            ("inputs", "input"),
            ("checked", "checked"),
            ("attempts", "attempts"),
            ("revealed", "revealed"),
        ];
        let mut lists = Vec::with_capacity(LISTS.len());
        for (old, new) in LISTS {
            match value.get(old) {
                None | Some(Value::Null) => lists.push((new, &[][..])),
                Some(Value::Array(list)) => lists.push((new, list.as_slice())),
                Some(_) => return Err(format!("{old} is not a list")),
            }
        }
        let longest = lists.iter().map(|(_, l)| l.len()).max().unwrap_or(0);
        let mut workloads = Map::new();
        for i in 0..longest {
            let mut work = Map::new();
            for (field, list) in &lists {
                // A missing or null entry is format 2's default.
                if let Some(v) = list.get(i).filter(|v| !v.is_null()) {
                    work.insert((*field).to_owned(), v.clone());
                }
            }
            let id = workload_ids
                .get(i)
                .cloned()
                .unwrap_or_else(|| format!("#{}", i + 1));
            workloads.insert(id, Value::Object(work));
        }
        let mut upgraded = Map::new();
        upgraded.insert("workloads".into(), Value::Object(workloads));
        if let Some(changed) = value.get("changed_ms") {
            upgraded.insert("changed_ms".into(), changed.clone());
        }
        let mut work: ChoiceWork =
            // From text, as every stored value is read (`storage::read`).
            serde_json::from_str(&Value::Object(upgraded).to_string()).map_err(|e| e.to_string())?;
        work.workloads.retain(|_, w| *w != WorkloadWork::default());
        Ok(work)
    }

    fn get(&self, workload: &str) -> Option<&WorkloadWork> {
        self.workloads.get(workload)
    }

    /// The input for `workload` (empty when none is given yet).
    pub fn input(&self, workload: &str) -> WorkloadInput {
        self.get(workload)
            .map(|w| w.input.clone())
            .unwrap_or_default()
    }

    /// The input at `workload`'s last check, if it was checked.
    pub fn checked_input(&self, workload: &str) -> Option<WorkloadInput> {
        self.get(workload).and_then(|w| w.checked.clone())
    }

    /// Checks made on `workload`.
    pub fn attempts(&self, workload: &str) -> u32 {
        self.get(workload).map_or(0, |w| w.attempts)
    }

    /// Whether `workload`'s answer is revealed.
    pub fn revealed(&self, workload: &str) -> bool {
        self.get(workload).is_some_and(|w| w.revealed)
    }

    fn change(&mut self, workload: &str, now_ms: i64, f: impl FnOnce(&mut WorkloadWork)) {
        f(self.workloads.get_or_insert_with(workload.to_owned(), WorkloadWork::default));
        self.changed_ms = next_stamp(self.changed_ms, now_ms);
    }

    /// Changes `workload`'s input at `now_ms`.
    pub fn edit(&mut self, workload: &str, now_ms: i64, change: impl FnOnce(&mut WorkloadInput)) {
        self.change(workload, now_ms, |w| change(&mut w.input));
    }

    /// Records a check of `workload`'s input as it stands.
    pub fn check(&mut self, workload: &str, now_ms: i64) {
        self.change(workload, now_ms, |w| {
            w.checked = Some(w.input.clone());
            w.attempts = w.attempts.saturating_add(1);
        });
    }

    /// Shows or hides `workload`'s answer.
    pub fn set_revealed(&mut self, workload: &str, revealed: bool, now_ms: i64) {
        self.change(workload, now_ms, |w| w.revealed = revealed);
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
    /// workload (`live`, `batch`), and that the value survives storage.
    fn check(steps: impl FnOnce(&mut ChoiceWork), attempts: [u32; 2], revealed: [bool; 2]) {
        let mut w = ChoiceWork::default();
        steps(&mut w);
        assert_eq!([w.attempts("live"), w.attempts("batch")], attempts);
        assert_eq!([w.revealed("live"), w.revealed("batch")], revealed);
        let json = serde_json::to_string(&w).unwrap_or_default();
        assert_eq!(serde_json::from_str::<ChoiceWork>(&json).ok(), Some(w));
    }

    fn ids(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    /// A workload's id, choice, checked choice, attempts and reveal.
    type Row = (String, Option<String>, Option<String>, u32, bool);
    /// The same, as a test writes it.
    type Expected<'a> = (&'a str, Option<&'a str>, Option<&'a str>, u32, bool);

    /// Upgrades format-1 `json` against `workload_ids` and checks each
    /// workload's (choice, checked choice, attempts, revealed) by id.
    fn check_upgrade(json: serde_json::Value, workload_ids: &[&str], expected: &[Expected]) {
        let got = ChoiceWork::upgrade(1, json.clone(), &ids(workload_ids))
            .unwrap_or_else(|e| panic!("{json}: {e}"));
        let summary: Vec<Row> = got
            .workloads
            .iter()
            .map(|(id, w)| {
                (
                    id.clone(),
                    w.input.choice.clone(),
                    w.checked.as_ref().and_then(|c| c.choice.clone()),
                    w.attempts,
                    w.revealed,
                )
            })
            .collect();
        let want: Vec<Row> = expected
            .iter()
            .map(|(id, c, k, a, r)| {
                (
                    (*id).to_owned(),
                    c.map(str::to_owned),
                    k.map(str::to_owned),
                    *a,
                    *r,
                )
            })
            .collect();
        assert_eq!(summary, want, "{json}");
    }

    #[test]
    fn work_per_workload() {
        check(|_| {}, [0, 0], [false, false]);
        check(
            |w| {
                w.edit("batch", 10, |i| i.choice = Some("B".into()));
                w.check("batch", 11);
                w.check("batch", 12);
                w.set_revealed("live", true, 13);
            },
            [0, 2],
            [true, false],
        );
        let mut w = ChoiceWork::default();
        w.edit("batch", 10, |i| i.total_tokens = Some("4,000,000".into()));
        w.check("batch", 11);
        assert_eq!(
            w.checked_input("batch")
                .and_then(|i| i.total_tokens)
                .as_deref(),
            Some("4,000,000")
        );
        assert_eq!(w.checked_input("live"), None);
        let older = ChoiceWork::default();
        assert_eq!(ChoiceWork::merge(&older, &w), w);
        assert_eq!(ChoiceWork::merge(&w, &older), w);
    }

    #[test]
    fn work_follows_its_workload_when_workloads_are_reordered() {
        let mut w = ChoiceWork::default();
        w.edit("batch", 1, |i| i.choice = Some("A".into()));
        w.check("batch", 2);
        // The same work read against an exercise listing the batch first,
        // or second, or beside a new workload: it is the batch's.
        assert_eq!(w.input("batch").choice.as_deref(), Some("A"));
        assert_eq!(w.input("live").choice, None);
        assert_eq!(w.input("new").choice, None);
        assert_eq!(w.attempts("batch"), 1);
    }

    #[test]
    fn work_by_position_goes_to_the_workload_at_that_position() {
        let input = |c: &str| serde_json::json!({"choice": c});
        // As format 1 stored it: padding before work on the second workload.
        check_upgrade(
            serde_json::json!({
                "inputs": [{}, input("B")],
                "checked": [null, input("A")],
                "attempts": [0, 2],
                "revealed": [true],
                "changed_ms": 7
            }),
            &["live", "batch"],
            &[
                ("batch", Some("B"), Some("A"), 2, false),
                ("live", None, None, 0, true),
            ],
        );
        // Work at a position the exercise no longer has is kept.
        check_upgrade(
            serde_json::json!({"inputs": [input("A"), input("B")]}),
            &["live"],
            &[
                ("#2", Some("B"), None, 0, false),
                ("live", Some("A"), None, 0, false),
            ],
        );
        check_upgrade(serde_json::json!({}), &["live"], &[]);
        let old = serde_json::json!({"inputs": [], "changed_ms": 42});
        assert_eq!(
            ChoiceWork::upgrade(1, old, &ids(&["live"])).map(|w| w.changed_ms),
            Ok(42)
        );
        assert!(ChoiceWork::upgrade(1, serde_json::json!({"inputs": 3}), &[]).is_err());
        assert!(ChoiceWork::upgrade(0, serde_json::json!({}), &[]).is_err());
    }
}
