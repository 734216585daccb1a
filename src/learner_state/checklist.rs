//! The learner's ticks on the lesson's completion checklist, as a value that
//! can be stored and merged between tabs.
//!
//! Each item remembers whether it is ticked and when that last changed, so
//! two tabs merge item by item: the later change wins, and an untick made
//! after a tick is not undone by an older tick from the other tab. The merge
//! is symmetric and idempotent, so tabs that merge each other's values agree.
//!
//! What it deliberately does not do: read the clock (callers pass the time
//! in) or know which items the lesson has (unknown ids are kept, harmlessly,
//! in case a tab with newer content wrote them).

use crate::learner_state::merge::past_horizon;
use serde::{Deserialize, Serialize};
use ttft_latency::small_map::SmallMap;

/// One item's state and when it last changed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Tick {
    /// Milliseconds since the Unix epoch of the last change. Compared first,
    /// so the later change wins.
    pub changed_ms: i64,
    /// Ticked or not. On equal times a tick wins, so the merge is symmetric.
    pub done: bool,
}

/// Ticks by checklist item id.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Checklist {
    /// Every item the learner has ever changed.
    pub items: SmallMap<String, Tick>,
}

impl Checklist {
    /// True when the item is ticked.
    pub fn is_done(&self, id: &str) -> bool {
        self.items.get(id).is_some_and(|t| t.done)
    }

    /// Ticks or unticks an item at `now_ms`.
    pub fn mark(&mut self, id: &str, done: bool, now_ms: i64) {
        // A clock that went backwards must not make this change lose to an
        // older one, so the stamp never decreases for an item.
        let changed_ms = self
            .items
            .get(id)
            .map_or(now_ms, |t| now_ms.max(t.changed_ms.saturating_add(1)));
        self.items.insert(id.to_owned(), Tick { changed_ms, done });
    }

    /// How many of `ids` are ticked.
    pub fn count_done<'a>(&self, ids: impl IntoIterator<Item = &'a str>) -> usize {
        ids.into_iter().filter(|id| self.is_done(id)).count()
    }

    /// Drops unticks older than the merge horizon: an unticked item shows
    /// the same with or without its stamp, and no open tab still holds the
    /// older tick it was kept to outvote. Ticks are always kept.
    pub fn prune(&mut self, now_ms: i64) {
        self.items
            .retain(|_, t| t.done || !past_horizon(t.changed_ms, now_ms));
    }

    /// Item by item, the later change wins.
    pub fn merge(mine: &Checklist, theirs: &Checklist) -> Checklist {
        let mut items = mine.items.clone();
        for (id, tick) in &theirs.items {
            let t = items.get_or_insert_with(id.clone(), || *tick);
            *t = (*t).max(*tick);
        }
        Checklist { items }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(items: &[(&str, i64, bool)]) -> Checklist {
        Checklist {
            items: items
                .iter()
                .map(|&(id, changed_ms, done)| (id.to_owned(), Tick { changed_ms, done }))
                .collect(),
        }
    }

    fn check(
        mine: &[(&str, i64, bool)],
        theirs: &[(&str, i64, bool)],
        expected: &[(&str, i64, bool)],
    ) {
        let (mine, theirs, expected) = (list(mine), list(theirs), list(expected));
        assert_eq!(Checklist::merge(&mine, &theirs), expected);
        assert_eq!(
            Checklist::merge(&theirs, &mine),
            expected,
            "merge must be symmetric"
        );
        assert_eq!(
            Checklist::merge(&expected, &expected),
            expected,
            "merge must be idempotent"
        );
    }

    #[test]
    fn later_change_wins_per_item() {
        check(
            &[("split", 10, true)],
            &[("clocks", 20, true)],
            &[("clocks", 20, true), ("split", 10, true)],
        );
        check(
            &[("split", 10, true)],
            &[("split", 30, false)],
            &[("split", 30, false)],
        );
        check(
            &[("split", 50, true), ("memory", 5, false)],
            &[("split", 30, false), ("memory", 6, true)],
            &[("memory", 6, true), ("split", 50, true)],
        );
        check(
            &[("split", 10, false)],
            &[("split", 10, true)],
            &[("split", 10, true)],
        );
        check(&[], &[], &[]);
    }

    #[test]
    fn old_unticks_are_pruned_and_ticks_kept() {
        use crate::learner_state::merge::MERGE_HORIZON_MS;
        let now = 10 * MERGE_HORIZON_MS;
        let old = now - MERGE_HORIZON_MS - 1;
        let mut c = list(&[
            ("a", old, true),
            ("b", old, false),
            ("c", now - 5, false),
            ("d", now, true),
        ]);
        let shown: Vec<bool> = ["a", "b", "c", "d"]
            .iter()
            .map(|id| c.is_done(id))
            .collect();
        c.prune(now);
        assert_eq!(
            c,
            list(&[("a", old, true), ("c", now - 5, false), ("d", now, true)])
        );
        assert_eq!(
            ["a", "b", "c", "d"]
                .iter()
                .map(|id| c.is_done(id))
                .collect::<Vec<_>>(),
            shown,
            "nothing on show changes"
        );
    }

    #[test]
    fn marking_never_goes_back_in_time() {
        let mut c = Checklist::default();
        c.mark("split", true, 100);
        assert!(c.is_done("split"));
        c.mark("split", false, 50);
        assert_eq!(
            c.items.get("split"),
            Some(&Tick {
                changed_ms: 101,
                done: false
            })
        );
        assert_eq!(c.count_done(["split", "other"]), 0);
        c.mark("other", true, i64::MAX);
        c.mark("other", false, 0);
        assert_eq!(
            c.items.get("other"),
            Some(&Tick {
                changed_ms: i64::MAX,
                done: false
            })
        );
    }
}
