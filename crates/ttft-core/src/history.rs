//! The saved self-score history: its serde shape, its versions, merging two
//! copies, and a trend over time.
//!
//! The app keeps this as JSON in localStorage and lets learners export and
//! import it, so two browser tabs, or an old export and the current copy,
//! must merge without losing or doubling an entry. Each entry's id is derived
//! from its time and content (FNV-1a over a canonical string), so the same
//! save seen twice has the same id and merging is idempotent.
//!
//! **Versions, honestly.** Version 2 is the shape the app writes. Version 1
//! is the shape of the first prototype: entries oldest first, scores and a
//! total and a ready flag, with no id, no hints count and no answer length.
//! It may never have reached a learner; it is defined and migrated here so
//! that the migration path exists and is tested before a real change needs
//! it. Migrated entries get a derived id and say "not recorded" (`None`) for
//! what v1 did not keep. A version newer than this code knows is refused
//! with [`HistoryError::FutureVersion`] rather than guessed at, so an older
//! tab never overwrites data it cannot read.
//!
//! The core has no clock: the caller passes the save time in milliseconds
//! since the epoch. This module does no I/O.

use crate::content::Rubric;
use crate::rubric::{RubricScore, ScoreOutOfRange, MAX_SCORE};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// The version this code writes.
pub const SCHEMA_VERSION: u64 = 2;

/// One saved self-score.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// Stable id derived from the time and content (see [`entry_id`]).
    pub id: String,
    /// When it was saved, in milliseconds since the Unix epoch.
    pub saved_at_ms: i64,
    /// Score by dimension id.
    pub scores: BTreeMap<String, u8>,
    /// Sum of the scores.
    pub total: u32,
    /// The readiness verdict when it was saved.
    pub ready: bool,
    /// Hints revealed before saving; `None` when not recorded (v1).
    pub hints_used: Option<u32>,
    /// Characters in the written answer; `None` when not recorded (v1).
    pub answer_chars: Option<u32>,
}

impl Entry {
    /// A new entry for `score` against `rubric`, saved at `saved_at_ms`.
    pub fn new(saved_at_ms: i64, score: &RubricScore, rubric: &Rubric, hints_used: u32, answer_chars: u32) -> Entry {
        let readiness = score.assess(rubric);
        let scores = score.scores.clone();
        let total = scores.values().map(|&s| u32::from(s)).sum();
        let (hints_used, answer_chars) = (Some(hints_used), Some(answer_chars));
        let id = entry_id(saved_at_ms, &scores, hints_used, answer_chars);
        Entry { id, saved_at_ms, scores, total, ready: readiness.ready(), hints_used, answer_chars }
    }
}

/// An id from the save time and content: `s<ms>-<16 hex digits>`, where the
/// hex is FNV-1a 64 over the scores (sorted by id), hints and answer length.
/// The same save always gets the same id, on any machine.
pub fn entry_id(saved_at_ms: i64, scores: &BTreeMap<String, u8>, hints_used: Option<u32>, answer_chars: Option<u32>) -> String {
    let mut canonical = format!("{saved_at_ms}|");
    for (d, s) in scores {
        canonical.push_str(&format!("{}:{d}={s};", d.len()));
    }
    canonical.push_str(&format!("|{hints_used:?}|{answer_chars:?}"));
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for b in canonical.bytes() {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("s{saved_at_ms}-{hash:016x}")
}

/// The saved history, newest first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct History {
    /// Always [`SCHEMA_VERSION`] once parsed.
    pub schema_version: u64,
    /// Newest first; each id once.
    pub entries: Vec<Entry>,
}

/// Why stored history cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum HistoryError {
    /// The text is not JSON at all.
    NotJson { detail: String },
    /// JSON, but not the shape of a saved history.
    WrongShape { detail: String },
    /// Written by a newer version of the app than this one.
    FutureVersion { found: u64, supported: u64 },
    /// A score outside 0..=2.
    ScoreOutOfRange { entry: usize, error: ScoreOutOfRange },
    /// A stated total that is not the sum of the scores.
    TotalMismatch { entry: usize, stated: u32, sum: u32 },
}

impl fmt::Display for HistoryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HistoryError::NotJson { detail } => write!(f, "the saved scores are not readable JSON ({detail})"),
            HistoryError::WrongShape { detail } => write!(f, "the saved scores are not in the expected shape ({detail})"),
            HistoryError::FutureVersion { found, supported } => write!(
                f,
                "the saved scores come from a newer version of this page (format {found}; this page reads up to \
                 {supported}); reload the page to update it"
            ),
            HistoryError::ScoreOutOfRange { entry, error } => write!(f, "saved score {}: {error}", entry + 1),
            HistoryError::TotalMismatch { entry, stated, sum } => {
                write!(f, "saved score {}: the total says {stated} but the scores add up to {sum}", entry + 1)
            }
        }
    }
}

impl std::error::Error for HistoryError {}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct V1 {
    #[allow(dead_code)]
    schema_version: u64,
    entries: Vec<V1Entry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct V1Entry {
    saved_at_ms: i64,
    scores: BTreeMap<String, u8>,
    total: u32,
    ready: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct V2 {
    #[allow(dead_code)]
    schema_version: u64,
    entries: Vec<Entry>,
}

/// Reads a saved history of any known version, migrating old ones, and
/// checks every score and total. Never panics.
pub fn parse(json: &str) -> Result<History, HistoryError> {
    let value: serde_json::Value =
        serde_json::from_str(json).map_err(|e| HistoryError::NotJson { detail: e.to_string() })?;
    let version = value
        .get("schema_version")
        .ok_or_else(|| HistoryError::WrongShape { detail: "no schema_version".into() })?
        .as_u64()
        .ok_or_else(|| HistoryError::WrongShape { detail: "schema_version is not a whole number".into() })?;
    let shape = |e: serde_json::Error| HistoryError::WrongShape { detail: e.to_string() };
    let entries = match version {
        1 => migrate_v1(serde_json::from_value::<V1>(value).map_err(shape)?),
        2 => serde_json::from_value::<V2>(value).map_err(shape)?.entries,
        v if v > SCHEMA_VERSION => return Err(HistoryError::FutureVersion { found: v, supported: SCHEMA_VERSION }),
        v => return Err(HistoryError::WrongShape { detail: format!("unknown schema_version {v}") }),
    };
    for (i, e) in entries.iter().enumerate() {
        if let Some((d, &s)) = e.scores.iter().find(|(_, &s)| s > MAX_SCORE) {
            return Err(HistoryError::ScoreOutOfRange {
                entry: i,
                error: ScoreOutOfRange { dimension: d.clone(), score: u64::from(s) },
            });
        }
        let sum: u32 = e.scores.values().map(|&s| u32::from(s)).sum();
        if sum != e.total {
            return Err(HistoryError::TotalMismatch { entry: i, stated: e.total, sum });
        }
    }
    Ok(normalise(entries))
}

fn migrate_v1(v1: V1) -> Vec<Entry> {
    v1.entries
        .into_iter()
        .map(|e| Entry {
            id: entry_id(e.saved_at_ms, &e.scores, None, None),
            saved_at_ms: e.saved_at_ms,
            scores: e.scores,
            total: e.total,
            ready: e.ready,
            hints_used: None,
            answer_chars: None,
        })
        .collect()
}

/// Newest first (ties by id, so the order is the same everywhere), each id
/// once: the first seen wins.
fn normalise(mut entries: Vec<Entry>) -> History {
    entries.sort_by(|a, b| b.saved_at_ms.cmp(&a.saved_at_ms).then_with(|| a.id.cmp(&b.id)));
    entries.dedup_by(|later, earlier| later.id == earlier.id);
    History { schema_version: SCHEMA_VERSION, entries }
}

/// Every entry of both histories exactly once, newest first. Merging is
/// commutative for distinct ids and idempotent: `merge(a, a) == a`.
pub fn merge(a: &History, b: &History) -> History {
    normalise(a.entries.iter().chain(b.entries.iter()).cloned().collect())
}

/// Direction of the totals over time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    Up,
    Down,
    Flat,
}

/// How the totals have moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Trend {
    /// The oldest entry's total.
    pub first: u32,
    /// The newest entry's total.
    pub latest: u32,
    /// The entry before the newest's total.
    pub previous: u32,
    /// Latest against first.
    pub overall: Direction,
    /// Latest against previous.
    pub recent: Direction,
    /// Entries counted.
    pub entries: usize,
}

fn direction(from: u32, to: u32) -> Direction {
    match to.cmp(&from) {
        std::cmp::Ordering::Greater => Direction::Up,
        std::cmp::Ordering::Less => Direction::Down,
        std::cmp::Ordering::Equal => Direction::Flat,
    }
}

impl fmt::Display for Trend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Trend { first, latest, previous, overall, .. } = *self;
        let n = self.entries;
        match overall {
            Direction::Up => write!(f, "Up from {first} to {latest} over {n} saved scores")?,
            Direction::Down => write!(f, "Down from {first} to {latest} over {n} saved scores")?,
            Direction::Flat => write!(f, "Level at {latest} over {n} saved scores")?,
        }
        match self.recent {
            Direction::Up if n > 2 => write!(f, "; up from {previous} last time"),
            Direction::Down if n > 2 => write!(f, "; down from {previous} last time"),
            _ => Ok(()),
        }
    }
}

impl Default for History {
    fn default() -> History {
        History::new()
    }
}

impl History {
    /// An empty history in the current version.
    pub fn new() -> History {
        History { schema_version: SCHEMA_VERSION, entries: Vec::new() }
    }

    /// Adds an entry, keeping newest first and each id once.
    pub fn add(&mut self, entry: Entry) {
        let mut entries = std::mem::take(&mut self.entries);
        entries.push(entry);
        *self = normalise(entries);
    }

    /// Removes the entry with this id; true when there was one.
    pub fn delete(&mut self, id: &str) -> bool {
        let before = self.entries.len();
        self.entries.retain(|e| e.id != id);
        self.entries.len() != before
    }

    /// The JSON the app stores, in the current version.
    pub fn to_json(&self) -> String {
        let current = History { schema_version: SCHEMA_VERSION, entries: self.entries.clone() };
        serde_json::to_string(&current).unwrap_or_else(|_| format!("{{\"schema_version\":{SCHEMA_VERSION},\"entries\":[]}}"))
    }

    /// How the totals moved, oldest to newest; `None` with fewer than two.
    pub fn trend(&self) -> Option<Trend> {
        let latest = self.entries.first()?;
        let previous = self.entries.get(1)?;
        let first = self.entries.last()?;
        Some(Trend {
            first: first.total,
            latest: latest.total,
            previous: previous.total,
            overall: direction(first.total, latest.total),
            recent: direction(previous.total, latest.total),
            entries: self.entries.len(),
        })
    }
}

/// The history as the app keeps it between tabs: the entries, plus when
/// each id was last removed and last added. Merging two tabs' copies with
/// [`merge`] alone would bring a deleted entry back from the tab that still
/// holds it; with these stamps the later action on each id wins, so a
/// delete, an undo or an import made in one tab holds in every tab.
///
/// Stamps are the caller's clock (milliseconds since the epoch). An action
/// never gets a stamp at or before the id's previous one, so a clock that
/// went backwards cannot make it lose. On equal stamps from two tabs the
/// removal wins: that way nothing a learner deleted reappears by accident.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedScores {
    /// The entries on show, newest first.
    pub history: History,
    /// Id to when the learner last deleted that entry.
    #[serde(default)]
    pub removed: BTreeMap<String, i64>,
    /// Id to when that entry was last saved, imported or restored.
    #[serde(default)]
    pub added: BTreeMap<String, i64>,
}

impl SavedScores {
    fn stamp(&self, id: &str, now_ms: i64) -> i64 {
        let last = self.removed.get(id).into_iter().chain(self.added.get(id)).copied().max();
        last.map_or(now_ms, |l| now_ms.max(l.saturating_add(1)))
    }

    /// Adds (or restores) an entry at `now_ms`.
    pub fn add(&mut self, entry: Entry, now_ms: i64) {
        let at = self.stamp(&entry.id, now_ms);
        self.added.insert(entry.id.clone(), at);
        self.history.add(entry);
    }

    /// Deletes the entry with this id at `now_ms`, handing it back so the
    /// learner can undo; `None` when there is no such entry.
    pub fn remove(&mut self, id: &str, now_ms: i64) -> Option<Entry> {
        let entry = self.history.entries.iter().find(|e| e.id == id).cloned()?;
        let at = self.stamp(id, now_ms);
        self.removed.insert(id.to_owned(), at);
        self.history.delete(id);
        Some(entry)
    }

    /// Deletes every entry at `now_ms`; how many there were.
    pub fn remove_all(&mut self, now_ms: i64) -> usize {
        let ids: Vec<String> = self.history.entries.iter().map(|e| e.id.clone()).collect();
        for id in &ids {
            self.remove(id, now_ms);
        }
        ids.len()
    }

    /// Adds every entry of an imported history at `now_ms` (an import is
    /// the learner asking for these entries, so it also restores deleted
    /// ones). Entries already on show are not doubled. Returns how many
    /// entries were new.
    pub fn import(&mut self, imported: &History, now_ms: i64) -> usize {
        let before = self.history.entries.len();
        for entry in &imported.entries {
            let at = self.stamp(&entry.id, now_ms);
            self.added.insert(entry.id.clone(), at);
        }
        self.history = merge(&self.history, imported);
        self.history.entries.len().saturating_sub(before)
    }

    /// Both copies combined: every entry once, each id's later action
    /// winning. Symmetric and idempotent.
    pub fn merge(mine: &SavedScores, theirs: &SavedScores) -> SavedScores {
        let latest = |a: &BTreeMap<String, i64>, b: &BTreeMap<String, i64>| {
            let mut out = a.clone();
            for (id, &t) in b {
                out.entry(id.clone()).and_modify(|v| *v = (*v).max(t)).or_insert(t);
            }
            out
        };
        let removed = latest(&mine.removed, &theirs.removed);
        let added = latest(&mine.added, &theirs.added);
        let mut history = merge(&mine.history, &theirs.history);
        history.entries.retain(|e| match (removed.get(&e.id), added.get(&e.id)) {
            (Some(r), Some(a)) => a > r,
            (Some(_), None) => false,
            (None, _) => true,
        });
        SavedScores { history, removed, added }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rubric::tests::rubric;

    fn entry(at: i64, scores: [u8; 5], hints: u32) -> Entry {
        let r = rubric();
        let mut s = RubricScore::default();
        for (d, v) in r.dimensions.iter().zip(scores) {
            s.set(&d.id, v).unwrap();
        }
        Entry::new(at, &s, &r, hints, 1_200)
    }

    /// Parses `json` and checks the error's message, or the entries' totals
    /// newest first when it parses.
    fn check(json: &str, expected: Result<&[u32], &str>) {
        let got = parse(json).map(|h| h.entries.iter().map(|e| e.total).collect::<Vec<_>>()).map_err(|e| e.to_string());
        assert_eq!(got.as_ref().map(Vec::as_slice).map_err(String::as_str), expected, "{json}");
    }

    #[test]
    fn round_trip_and_order() {
        let mut h = History::new();
        h.add(entry(1_000, [1, 1, 1, 1, 1], 0));
        h.add(entry(3_000, [2, 2, 2, 1, 1], 2));
        h.add(entry(2_000, [0, 2, 2, 2, 2], 1));
        assert_eq!(h.entries.iter().map(|e| e.saved_at_ms).collect::<Vec<_>>(), [3_000, 2_000, 1_000]);
        assert_eq!(parse(&h.to_json()), Ok(h.clone()));
        let e = &h.entries[1];
        assert_eq!((e.total, e.ready), (8, false), "8 with a 0 on the gate");
        assert!(h.entries[0].ready);
        assert_eq!(h.trend().unwrap().to_string(), "Up from 5 to 8 over 3 saved scores");
    }

    #[test]
    fn merge_keeps_each_entry_once() {
        let (e1, e2, e3) = (entry(1_000, [1, 1, 1, 1, 1], 0), entry(2_000, [2, 1, 1, 1, 1], 0), entry(3_000, [2, 2, 1, 1, 1], 0));
        let mut a = History::new();
        a.add(e1.clone());
        a.add(e2.clone());
        let mut b = History::new();
        b.add(e2.clone());
        b.add(e3.clone());
        let m = merge(&a, &b);
        assert_eq!(m.entries, vec![e3, e2, e1]);
        assert_eq!(merge(&m, &m), m);
        assert_eq!(merge(&a, &b), merge(&b, &a));
        assert_eq!(merge(&m, &a), m);
        // Same time, different content: both kept.
        let mut c = History::new();
        c.add(entry(1_000, [0, 0, 0, 0, 0], 0));
        assert_eq!(merge(&m, &c).entries.len(), 4);
    }

    #[test]
    fn ids_are_stable_and_delete_works() {
        let a = entry(1_700_000_000_000, [2, 2, 2, 1, 1], 2);
        let b = entry(1_700_000_000_000, [2, 2, 2, 1, 1], 2);
        assert_eq!(a.id, b.id);
        assert!(a.id.starts_with("s1700000000000-"));
        assert_ne!(a.id, entry(1_700_000_000_000, [2, 2, 2, 1, 1], 3).id);
        let mut h = History::new();
        h.add(a.clone());
        h.add(b);
        assert_eq!(h.entries.len(), 1);
        assert!(h.delete(&a.id));
        assert!(!h.delete(&a.id));
        assert!(h.trend().is_none());
    }

    fn ids(s: &SavedScores) -> Vec<i64> {
        s.history.entries.iter().map(|e| e.saved_at_ms).collect()
    }

    #[test]
    fn a_delete_in_one_tab_holds_in_the_other() {
        let (e1, e2) = (entry(1_000, [1, 1, 1, 1, 1], 0), entry(2_000, [2, 1, 1, 1, 1], 1));
        let mut tab_a = SavedScores::default();
        tab_a.add(e1.clone(), 10);
        tab_a.add(e2.clone(), 20);
        let mut tab_b = tab_a.clone();
        assert_eq!(tab_a.remove(&e1.id, 30), Some(e1.clone()));
        assert_eq!(tab_a.remove(&e1.id, 31), None);
        let merged = SavedScores::merge(&tab_b, &tab_a);
        assert_eq!(ids(&merged), [2_000], "the delete wins over the older copy");
        assert_eq!(SavedScores::merge(&tab_a, &tab_b), merged, "symmetric");
        assert_eq!(SavedScores::merge(&merged, &merged), merged, "idempotent");
        // Undo in tab B after the delete: the later action wins again.
        tab_b = merged.clone();
        tab_b.add(e1.clone(), 25);
        assert_eq!(ids(&SavedScores::merge(&tab_a, &tab_b)), [2_000, 1_000], "a clock behind still restores");
        // Equal stamps from two tabs: the removal wins.
        let mut x = SavedScores::default();
        x.add(e1.clone(), 5);
        let mut y = SavedScores::default();
        y.removed.insert(e1.id.clone(), 5);
        assert_eq!(ids(&SavedScores::merge(&x, &y)), Vec::<i64>::new());
    }

    #[test]
    fn clear_then_import_gives_the_same_history_back() {
        let mut s = SavedScores::default();
        s.add(entry(1_000, [1, 1, 1, 1, 1], 0), 10);
        s.add(entry(2_000, [2, 2, 2, 1, 1], 3), 11);
        let exported = s.history.to_json();
        assert_eq!(s.remove_all(12), 2);
        assert!(s.history.entries.is_empty());
        let back = parse(&exported).unwrap();
        assert_eq!(s.import(&back, 13), 2);
        assert_eq!(s.history, back);
        assert_eq!(s.import(&back, 14), 0, "importing twice doubles nothing");
        assert_eq!(s.history, back);
    }

    #[test]
    fn version_1_migrates() {
        let v1 = r#"{"schema_version":1,"entries":[
            {"saved_at_ms":10,"scores":{"clocks":1,"memory":1},"total":2,"ready":false},
            {"saved_at_ms":20,"scores":{"clocks":2,"memory":2},"total":4,"ready":false}]}"#;
        let h = parse(v1).unwrap();
        assert_eq!(h.schema_version, 2);
        assert_eq!(h.entries.iter().map(|e| e.saved_at_ms).collect::<Vec<_>>(), [20, 10]);
        assert_eq!(h.entries[0].hints_used, None);
        assert_eq!(h.entries[0].id, entry_id(20, &h.entries[0].scores, None, None));
        assert_eq!(parse(&h.to_json()), Ok(h.clone()), "a migrated history saves as v2");
        assert_eq!(merge(&h, &parse(v1).unwrap()), h, "migrating twice gives the same ids");
    }

    #[test]
    fn errors_are_clear() {
        check("", Err("the saved scores are not readable JSON (EOF while parsing a value at line 1 column 0)"));
        check("[1,2]", Err("the saved scores are not in the expected shape (no schema_version)"));
        check(r#"{"schema_version":"2"}"#, Err("the saved scores are not in the expected shape (schema_version is not a whole number)"));
        check(
            r#"{"schema_version":3,"entries":[]}"#,
            Err("the saved scores come from a newer version of this page (format 3; this page reads up to 2); reload the page to update it"),
        );
        check(r#"{"schema_version":0,"entries":[]}"#, Err("the saved scores are not in the expected shape (unknown schema_version 0)"));
        check(
            r#"{"schema_version":1,"entries":[{"saved_at_ms":1,"scores":{"clocks":7},"total":7,"ready":false}]}"#,
            Err("saved score 1: clocks scored 7; a dimension scores 0, 1 or 2"),
        );
        check(
            r#"{"schema_version":1,"entries":[{"saved_at_ms":1,"scores":{"clocks":2},"total":3,"ready":false}]}"#,
            Err("saved score 1: the total says 3 but the scores add up to 2"),
        );
        check(r#"{"schema_version":2,"entries":[]}"#, Ok(&[]));
        assert!(matches!(parse(r#"{"schema_version":2,"entries":[{"id":1}]}"#), Err(HistoryError::WrongShape { .. })));
        assert!(matches!(parse(r#"{"schema_version":2,"entries":[],"extra":1}"#), Err(HistoryError::WrongShape { .. })));
        let deep = "[".repeat(10_000);
        assert!(matches!(parse(&deep), Err(HistoryError::NotJson { .. })));
    }
}
