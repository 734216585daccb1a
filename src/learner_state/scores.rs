//! What the saved self-scores keep for merging, pruned.
//!
//! `ttft_core::history::SavedScores` keeps, per entry id, when it was last
//! added and last deleted, so a delete in one tab holds in the others. A
//! deleted entry's stamps would otherwise be kept for ever. [`prune`] drops
//! them once they are older than the merge horizon (see
//! `merge::MERGE_HORIZON_MS`), and with them the deletion stamp of an entry
//! restored since. What it deliberately does not do: touch any entry on
//! show, or its "added" stamp, which the entries themselves bound.

use crate::learner_state::merge::past_horizon;
use ttft_core::history::SavedScores;
use ttft_latency::small_map::SmallSet;

/// Drops the stamps no merge can need any more at `now_ms`.
pub fn prune(scores: &mut SavedScores, now_ms: i64) {
    // Inserted one by one: collecting into a set sorts first, and that
    // sort alone is a few kilobytes of wasm.
    let mut shown = SmallSet::new();
    for e in &scores.history.entries {
        shown.insert(e.id.clone());
    }
    let added = scores.added.clone();
    // A deletion stamp matters against a copy that still shows the entry,
    // or against an "added" stamp it must outvote; neither outlives the
    // horizon.
    scores.removed.retain(|id, &mut removed| {
        let restored = added.get(id).is_some_and(|&a| a > removed);
        let stamps_old =
            past_horizon(removed, now_ms) && added.get(id).is_none_or(|&a| past_horizon(a, now_ms));
        let deleted_long_ago = !shown.contains(id) && stamps_old;
        let restore_won_long_ago = shown.contains(id) && restored && past_horizon(removed, now_ms);
        !(deleted_long_ago || restore_won_long_ago)
    });
    let removed = &scores.removed;
    scores.added.retain(|id, &mut a| {
        shown.contains(id) || removed.contains_key(id) || !past_horizon(a, now_ms)
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learner_state::merge::MERGE_HORIZON_MS;
    use ttft_core::content::{Dimension, Rubric};
    use ttft_core::history::Entry;
    use ttft_core::rubric::RubricScore;

    const NOW: i64 = 100 * MERGE_HORIZON_MS;
    const OLD: i64 = NOW - MERGE_HORIZON_MS - 1;
    const RECENT: i64 = NOW - 1_000;

    fn entry(at: i64) -> Entry {
        let rubric = Rubric {
            dimensions: vec![Dimension {
                id: "split".into(),
                title: "Split".into(),
                levels: Default::default(),
            }],
            ready_at: 1,
            gate: "split".into(),
            threshold_note: String::new(),
        };
        let mut score = RubricScore::default();
        let _ = score.set("split", 1);
        Entry::new(at, &score, &rubric, 0, 100)
    }

    fn stamps(list: &[(&str, i64)]) -> ttft_latency::small_map::SmallMap<String, i64> {
        list.iter().map(|(id, t)| ((*id).to_owned(), *t)).collect()
    }

    /// Prunes `scores` at `NOW` and checks the stamps left; the entries on
    /// show never change.
    fn check(mut scores: SavedScores, removed: &[(&str, i64)], added: &[(&str, i64)]) {
        let shown = scores.history.clone();
        prune(&mut scores, NOW);
        assert_eq!(scores.removed, stamps(removed), "removed");
        assert_eq!(scores.added, stamps(added), "added");
        assert_eq!(scores.history, shown, "the entries on show are untouched");
    }

    #[test]
    fn old_stamps_of_deleted_entries_go_and_everything_on_show_stays() {
        let (kept, restored) = (entry(1_000), entry(2_000));
        let mut s = SavedScores::default();
        s.add(kept.clone(), OLD);
        s.add(restored.clone(), OLD - 10);
        s.remove(&restored.id, OLD - 5);
        s.add(restored.clone(), OLD);
        s.removed.insert("deleted-long-ago".into(), OLD);
        s.added.insert("deleted-long-ago".into(), OLD - 1);
        s.removed.insert("deleted-lately".into(), RECENT);
        s.added.insert("deleted-lately".into(), OLD);
        s.added.insert("never-shown".into(), OLD);
        check(
            s,
            &[("deleted-lately", RECENT)],
            &[
                ("deleted-lately", OLD),
                (kept.id.as_str(), OLD),
                (restored.id.as_str(), OLD),
            ],
        );
    }

    #[test]
    fn recent_stamps_are_all_kept() {
        let e = entry(1_000);
        let mut s = SavedScores::default();
        s.add(e.clone(), RECENT - 10);
        s.remove(&e.id, RECENT - 5);
        s.add(e.clone(), RECENT);
        s.removed.insert("gone".into(), RECENT);
        check(
            s,
            &[("gone", RECENT), (e.id.as_str(), RECENT - 5)],
            &[(e.id.as_str(), RECENT)],
        );
    }

    #[test]
    fn a_pruned_copy_merges_like_the_full_one_with_a_tab_that_took_it_in() {
        let e = entry(1_000);
        let mut full = SavedScores::default();
        full.add(e.clone(), OLD - 10);
        full.remove(&e.id, OLD);
        let mut pruned = full.clone();
        prune(&mut pruned, NOW);
        assert!(pruned.removed.is_empty() && pruned.added.is_empty());
        // Another tab that took in the delete shows the same either way.
        assert_eq!(SavedScores::merge(&pruned, &full).history, full.history);
        assert_eq!(SavedScores::merge(&full, &pruned).history, full.history);
    }
}
