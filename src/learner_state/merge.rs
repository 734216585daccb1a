//! How two tabs' copies of one exercise's work combine: change stamps that
//! never go backwards, and "the later change wins" as a whole.
//!
//! What it deliberately does not do: read the clock (callers pass the time
//! in) or merge item by item (the checklist and the saved scores, whose
//! items change independently, have their own merges).

use serde::Serialize;

/// How long a change stamp that shows nothing (an untick, a deleted score)
/// is kept for merging: 30 days.
///
/// Why that is safe: the only copies a merge meets are other tabs open at
/// the same time, and each hears every write within moments (the browser's
/// `storage` event carries the whole value); a tab opened later reads the
/// stored value. A stamp only has to outlive the moment every open tab has
/// taken it in; thirty days leaves room for a laptop asleep for weeks.
/// An imported history file is not a merge partner: importing restores
/// its entries on purpose.
pub const MERGE_HORIZON_MS: i64 = 30 * 24 * 60 * 60 * 1000;

/// True when a stamp is older than [`MERGE_HORIZON_MS`] at `now_ms`.
pub fn past_horizon(stamp_ms: i64, now_ms: i64) -> bool {
    now_ms.saturating_sub(stamp_ms) > MERGE_HORIZON_MS
}

/// The next change stamp for a value last changed at `previous`: `now_ms`,
/// but never at or before `previous`, so a clock that went backwards cannot
/// make a newer change lose a merge.
pub fn next_stamp(previous: i64, now_ms: i64) -> i64 {
    now_ms.max(previous.saturating_add(1))
}

/// Merges two copies of a learner's work on one exercise: the later change
/// wins as a whole. On equal stamps the copy whose JSON sorts later wins,
/// so two tabs that merge each other's copies agree.
pub fn later_wins<T: Serialize + Clone>(mine: &T, mine_ms: i64, theirs: &T, theirs_ms: i64) -> T {
    match mine_ms.cmp(&theirs_ms) {
        std::cmp::Ordering::Greater => mine.clone(),
        std::cmp::Ordering::Less => theirs.clone(),
        std::cmp::Ordering::Equal => {
            let a = serde_json::to_string(mine).unwrap_or_default();
            let b = serde_json::to_string(theirs).unwrap_or_default();
            if a >= b {
                mine.clone()
            } else {
                theirs.clone()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(mine: (&str, i64), theirs: (&str, i64), expected: &str) {
        let got = later_wins(&mine.0.to_owned(), mine.1, &theirs.0.to_owned(), theirs.1);
        assert_eq!(got, expected);
        let back = later_wins(&theirs.0.to_owned(), theirs.1, &mine.0.to_owned(), mine.1);
        assert_eq!(back, expected, "the merge must be symmetric");
    }

    #[test]
    fn the_later_change_wins() {
        check(("old", 1), ("new", 2), "new");
        check(("same time a", 5), ("same time b", 5), "same time b");
        check(("x", 5), ("x", 5), "x");
        assert_eq!(next_stamp(10, 5), 11);
        assert_eq!(next_stamp(10, 50), 50);
        assert_eq!(next_stamp(i64::MAX, 0), i64::MAX);
        assert!(!past_horizon(0, MERGE_HORIZON_MS));
        assert!(past_horizon(0, MERGE_HORIZON_MS + 1));
        assert!(
            !past_horizon(i64::MAX, i64::MIN),
            "a stamp from the future is never old"
        );
    }
}
