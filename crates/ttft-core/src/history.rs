//! The saved self-score history: its serde shape, its versions, merging two
//! copies, and a trend over time.
//!
//! The app keeps this as JSON in localStorage and lets learners export and
//! import it, so two browser tabs, or an old export and the current copy,
//! must merge without losing or doubling an entry. Each entry's id is derived
//! from its time and content (FNV-1a over a canonical string), so the same
//! save seen twice has the same id and merging is idempotent.
//!
//! **Versions, honestly.** Version 3 is the shape the app writes: version 2
//! plus, per entry, the AI second opinion when the learner asked for one
//! ([`SecondOpinion`]: the model id, the AI's score per dimension and which
//! dimensions the learner adopted). A v2 entry migrates with "no second
//! opinion" and keeps its id, so a v2 export merges with a v3 copy without
//! doubling. There is deliberately no field that could hold an API key: the
//! entry types deny unknown fields, so an export cannot carry one either.
//! Version 1
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
use ttft_latency::small_map::{SmallMap, SmallSet};
use std::fmt;

/// The version this code writes.
pub const SCHEMA_VERSION: u64 = 3;

/// One saved self-score.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// Stable id derived from the time and content (see [`entry_id`]).
    pub id: String,
    /// When it was saved, in milliseconds since the Unix epoch.
    pub saved_at_ms: i64,
    /// Score by dimension id.
    pub scores: SmallMap<String, u8>,
    /// Sum of the scores.
    pub total: u32,
    /// The readiness verdict when it was saved.
    pub ready: bool,
    /// Hints revealed before saving; `None` when not recorded (v1).
    pub hints_used: Option<u32>,
    /// Characters in the written answer; `None` when not recorded (v1).
    pub answer_chars: Option<u32>,
    /// The AI grader's second opinion, when the learner asked for one
    /// before saving; `None` otherwise and for entries from v1 and v2.
    #[serde(default)]
    pub second_opinion: Option<SecondOpinion>,
}

/// What an AI grader said about the answer an entry scores, as saved beside
/// the learner's own scores. Holds no key and no endpoint address.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SecondOpinion {
    /// The model id that graded, as the learner named it.
    pub model: String,
    /// The AI's score by dimension id, each 0, 1 or 2.
    pub scores: SmallMap<String, u8>,
    /// The dimensions where the learner took the AI's score as their own.
    pub adopted: SmallSet<String>,
}

impl SecondOpinion {
    /// A second opinion from `model` with `scores`, recording as adopted
    /// only those of `adopted` where the learner's saved score still equals
    /// the AI's (a dimension changed again after adopting is the learner's).
    pub fn new(
        model: &str,
        scores: SmallMap<String, u8>,
        adopted: &SmallSet<String>,
        own: &RubricScore,
    ) -> SecondOpinion {
        // Inserted one by one: collecting into a set sorts, and each sort
        // is a few kilobytes of wasm for a handful of names already in order.
        let mut kept = SmallSet::new();
        for d in adopted {
            if scores.get(d.as_str()).is_some_and(|&ai| own.get(d) == Some(ai)) {
                kept.insert(d.clone());
            }
        }
        let adopted = kept;
        SecondOpinion {
            model: model.trim().to_owned(),
            scores,
            adopted,
        }
    }

    /// The sum of the AI's scores.
    pub fn total(&self) -> u32 {
        self.scores.values().map(|&s| u32::from(s)).sum()
    }
}

/// How an entry's own scores compare with its second opinion.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntryGap {
    /// The AI's total minus the learner's, over the dimensions both scored
    /// and the learner did not adopt: above zero, the learner scored
    /// themselves lower than the AI did.
    pub gap: i32,
    /// How many dimensions that covers.
    pub compared: usize,
}

impl fmt::Display for EntryGap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.compared;
        let dims = if n == 1 { "dimension" } else { "dimensions" };
        match self.gap {
            0 => write!(f, "same as the AI over {n} {dims}"),
            g if g > 0 => write!(f, "{g} below the AI over {n} {dims}"),
            g => write!(f, "{} above the AI over {n} {dims}", g.unsigned_abs()),
        }
    }
}

impl Entry {
    /// A new entry for `score` against `rubric`, saved at `saved_at_ms`.
    pub fn new(
        saved_at_ms: i64,
        score: &RubricScore,
        rubric: &Rubric,
        hints_used: u32,
        answer_chars: u32,
    ) -> Entry {
        let readiness = score.assess(rubric);
        let scores = score.scores.clone();
        let total = scores.values().map(|&s| u32::from(s)).sum();
        let (hints_used, answer_chars) = (Some(hints_used), Some(answer_chars));
        let id = entry_id(saved_at_ms, &scores, hints_used, answer_chars);
        Entry {
            id,
            saved_at_ms,
            scores,
            total,
            ready: readiness.ready(),
            hints_used,
            answer_chars,
            second_opinion: None,
        }
    }

    /// This entry with a second opinion attached, and its id derived again
    /// so that it covers the AI's scores too.
    pub fn with_second_opinion(mut self, opinion: SecondOpinion) -> Entry {
        self.id = entry_id_with(
            self.saved_at_ms,
            &self.scores,
            self.hints_used,
            self.answer_chars,
            Some(&opinion),
        );
        self.second_opinion = Some(opinion);
        self
    }

    /// The gap between the learner's scores and the AI's, over dimensions
    /// both scored that the learner kept as their own: adopting a score
    /// closes that dimension's gap by copying, which says nothing about how
    /// the learner judged it. `None` without a second opinion or when every
    /// dimension was adopted.
    pub fn gap(&self) -> Option<EntryGap> {
        let ai = self.second_opinion.as_ref()?;
        let pairs: Vec<i32> = ai
            .scores
            .iter()
            .filter(|(d, _)| !ai.adopted.contains(d.as_str()))
            .filter_map(|(d, &a)| Some(i32::from(a) - i32::from(*self.scores.get(d)?)))
            .collect();
        (!pairs.is_empty()).then(|| EntryGap {
            gap: pairs.iter().sum(),
            compared: pairs.len(),
        })
    }
}

/// An id from the save time and content: `s<ms>-<16 hex digits>`, where the
/// hex is FNV-1a 64 over the scores (sorted by id), hints and answer length.
/// The same save always gets the same id, on any machine.
pub fn entry_id(
    saved_at_ms: i64,
    scores: &SmallMap<String, u8>,
    hints_used: Option<u32>,
    answer_chars: Option<u32>,
) -> String {
    entry_id_with(saved_at_ms, scores, hints_used, answer_chars, None)
}

/// [`entry_id`] for an entry that may carry a second opinion. Without one
/// the canonical string is exactly v2's, so ids do not change on migration.
pub fn entry_id_with(
    saved_at_ms: i64,
    scores: &SmallMap<String, u8>,
    hints_used: Option<u32>,
    answer_chars: Option<u32>,
    opinion: Option<&SecondOpinion>,
) -> String {
    let mut canonical = format!("{saved_at_ms}|");
    for (d, s) in scores {
        canonical.push_str(&format!("{}:{d}={s};", d.len()));
    }
    canonical.push_str(&format!("|{hints_used:?}|{answer_chars:?}"));
    if let Some(o) = opinion {
        canonical.push_str(&format!("|ai:{}:{};", o.model.len(), o.model));
        for (d, s) in &o.scores {
            canonical.push_str(&format!("{}:{d}={s};", d.len()));
        }
        canonical.push_str("|adopted:");
        for d in &o.adopted {
            canonical.push_str(&format!("{}:{d};", d.len()));
        }
    }
    let hash = crate::fingerprint::fnv1a64(canonical.as_bytes());
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
    ScoreOutOfRange {
        entry: usize,
        error: ScoreOutOfRange,
    },
    /// A stated total that is not the sum of the scores.
    TotalMismatch { entry: usize, stated: u32, sum: u32 },
    /// An AI score outside 0..=2.
    AiScoreOutOfRange {
        entry: usize,
        error: ScoreOutOfRange,
    },
    /// A dimension marked adopted that the AI did not score.
    AdoptedUnscored { entry: usize, dimension: String },
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
            HistoryError::AiScoreOutOfRange { entry, error } => write!(f, "saved score {}: the AI's {error}", entry + 1),
            HistoryError::AdoptedUnscored { entry, dimension } => write!(
                f,
                "saved score {}: {dimension} is marked as taken from the AI, but the AI gave it no score",
                entry + 1
            ),
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
    scores: SmallMap<String, u8>,
    total: u32,
    ready: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct V2 {
    #[allow(dead_code)]
    schema_version: u64,
    entries: Vec<V2Entry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct V2Entry {
    id: String,
    saved_at_ms: i64,
    scores: SmallMap<String, u8>,
    total: u32,
    ready: bool,
    hints_used: Option<u32>,
    answer_chars: Option<u32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct V3 {
    #[allow(dead_code)]
    schema_version: u64,
    entries: Vec<V3Entry>,
}

/// [`Entry`] as read, refusing fields it does not know (such as a key).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct V3Entry {
    id: String,
    saved_at_ms: i64,
    scores: SmallMap<String, u8>,
    total: u32,
    ready: bool,
    hints_used: Option<u32>,
    answer_chars: Option<u32>,
    second_opinion: Option<SecondOpinion>,
}

/// Reads a saved history of any known version, migrating old ones, and
/// checks every score and total. Never panics.
pub fn parse(json: &str) -> Result<History, HistoryError> {
    let value: serde_json::Value =
        serde_json::from_str(json).map_err(|e| HistoryError::NotJson {
            detail: e.to_string(),
        })?;
    let version = value
        .get("schema_version")
        .ok_or_else(|| HistoryError::WrongShape {
            detail: "no schema_version".into(),
        })?
        .as_u64()
        .ok_or_else(|| HistoryError::WrongShape {
            detail: "schema_version is not a whole number".into(),
        })?;
    let shape = |e: serde_json::Error| HistoryError::WrongShape {
        detail: e.to_string(),
    };
    // Each version is read from the text again rather than from `value`:
    // reading a `Value` into a type is a second deserializer per type in
    // the page's wasm, and a saved history is a few kilobytes.
    let entries = match version {
        1 => migrate_v1(serde_json::from_str::<V1>(json).map_err(shape)?),
        2 => migrate_v2(serde_json::from_str::<V2>(json).map_err(shape)?),
        3 => serde_json::from_str::<V3>(json)
            .map_err(shape)?
            .entries
            .into_iter()
            .map(|e| Entry {
                id: e.id,
                saved_at_ms: e.saved_at_ms,
                scores: e.scores,
                total: e.total,
                ready: e.ready,
                hints_used: e.hints_used,
                answer_chars: e.answer_chars,
                second_opinion: e.second_opinion,
            })
            .collect(),
        v if v > SCHEMA_VERSION => {
            return Err(HistoryError::FutureVersion {
                found: v,
                supported: SCHEMA_VERSION,
            })
        }
        v => {
            return Err(HistoryError::WrongShape {
                detail: format!("unknown schema_version {v}"),
            })
        }
    };
    for (i, e) in entries.iter().enumerate() {
        if let Some((d, &s)) = e.scores.iter().find(|(_, &s)| s > MAX_SCORE) {
            return Err(HistoryError::ScoreOutOfRange {
                entry: i,
                error: ScoreOutOfRange {
                    dimension: d.clone(),
                    score: u64::from(s),
                },
            });
        }
        let sum: u32 = e.scores.values().map(|&s| u32::from(s)).sum();
        if sum != e.total {
            return Err(HistoryError::TotalMismatch {
                entry: i,
                stated: e.total,
                sum,
            });
        }
        if let Some(o) = &e.second_opinion {
            if let Some((d, &s)) = o.scores.iter().find(|(_, &s)| s > MAX_SCORE) {
                return Err(HistoryError::AiScoreOutOfRange {
                    entry: i,
                    error: ScoreOutOfRange {
                        dimension: d.clone(),
                        score: u64::from(s),
                    },
                });
            }
            if let Some(d) = o
                .adopted
                .iter()
                .find(|d| !o.scores.contains_key(d.as_str()))
            {
                return Err(HistoryError::AdoptedUnscored {
                    entry: i,
                    dimension: d.clone(),
                });
            }
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
            second_opinion: None,
        })
        .collect()
}

/// A v2 entry is a v3 entry without a second opinion; its id is kept (it
/// was derived from exactly what it still holds).
fn migrate_v2(v2: V2) -> Vec<Entry> {
    v2.entries
        .into_iter()
        .map(|e| Entry {
            id: e.id,
            saved_at_ms: e.saved_at_ms,
            scores: e.scores,
            total: e.total,
            ready: e.ready,
            hints_used: e.hints_used,
            answer_chars: e.answer_chars,
            second_opinion: None,
        })
        .collect()
}

/// Newest first (ties by id, so the order is the same everywhere), each id
/// once: the first seen wins.
fn normalise(mut entries: Vec<Entry>) -> History {
    ttft_latency::sort::sort_by(&mut entries, |a, b| {
        b.saved_at_ms
            .cmp(&a.saved_at_ms)
            .then_with(|| a.id.cmp(&b.id))
    });
    entries.dedup_by(|later, earlier| later.id == earlier.id);
    History {
        schema_version: SCHEMA_VERSION,
        entries,
    }
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
        let Trend {
            first,
            latest,
            previous,
            overall,
            ..
        } = *self;
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
        History {
            schema_version: SCHEMA_VERSION,
            entries: Vec::new(),
        }
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
        let current = History {
            schema_version: SCHEMA_VERSION,
            entries: self.entries.clone(),
        };
        serde_json::to_string(&current)
            .unwrap_or_else(|_| format!("{{\"schema_version\":{SCHEMA_VERSION},\"entries\":[]}}"))
    }

    /// How the self-versus-AI gap moved, oldest to newest, over entries with
    /// a comparable second opinion; `None` when there is none.
    pub fn gap_trend(&self) -> Option<GapTrend> {
        let gaps: Vec<EntryGap> = self.entries.iter().filter_map(Entry::gap).collect();
        Some(GapTrend {
            entries: gaps.len(),
            first: *gaps.last()?,
            latest: *gaps.first()?,
        })
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

/// How the gap between self and AI scores moved over the saved entries that
/// have a second opinion.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GapTrend {
    /// Entries with a comparable second opinion.
    pub entries: usize,
    /// The oldest such entry's gap.
    pub first: EntryGap,
    /// The newest such entry's gap.
    pub latest: EntryGap,
}

impl fmt::Display for GapTrend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (first, latest) = (self.first, self.latest);
        if self.entries == 1 {
            return write!(
                f,
                "One saved score has an AI second opinion: you scored yourself {latest}"
            );
        }
        write!(
            f,
            "Over {} saved scores with an AI second opinion, you went from {first} to {latest}",
            self.entries
        )?;
        match latest.gap.unsigned_abs().cmp(&first.gap.unsigned_abs()) {
            std::cmp::Ordering::Less => f.write_str(": closer to the AI"),
            std::cmp::Ordering::Greater => f.write_str(": further from the AI"),
            std::cmp::Ordering::Equal => f.write_str(": as far from the AI as before"),
        }
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
    pub removed: SmallMap<String, i64>,
    /// Id to when that entry was last saved, imported or restored.
    #[serde(default)]
    pub added: SmallMap<String, i64>,
}

impl SavedScores {
    fn stamp(&self, id: &str, now_ms: i64) -> i64 {
        let last = self
            .removed
            .get(id)
            .into_iter()
            .chain(self.added.get(id))
            .copied()
            .max();
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
        let latest = |a: &SmallMap<String, i64>, b: &SmallMap<String, i64>| {
            let mut out = a.clone();
            for (id, &t) in b {
                let v = out.get_or_insert_with(id.clone(), || t);
                *v = (*v).max(t);
            }
            out
        };
        let removed = latest(&mine.removed, &theirs.removed);
        let added = latest(&mine.added, &theirs.added);
        let mut history = merge(&mine.history, &theirs.history);
        history
            .entries
            .retain(|e| match (removed.get(&e.id), added.get(&e.id)) {
                (Some(r), Some(a)) => a > r,
                (Some(_), None) => false,
                (None, _) => true,
            });
        SavedScores {
            history,
            removed,
            added,
        }
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
        let got = parse(json)
            .map(|h| h.entries.iter().map(|e| e.total).collect::<Vec<_>>())
            .map_err(|e| e.to_string());
        assert_eq!(
            got.as_ref().map(Vec::as_slice).map_err(String::as_str),
            expected,
            "{json}"
        );
    }

    #[test]
    fn round_trip_and_order() {
        let mut h = History::new();
        h.add(entry(1_000, [1, 1, 1, 1, 1], 0));
        h.add(entry(3_000, [2, 2, 2, 1, 1], 2));
        h.add(entry(2_000, [0, 2, 2, 2, 2], 1));
        assert_eq!(
            h.entries.iter().map(|e| e.saved_at_ms).collect::<Vec<_>>(),
            [3_000, 2_000, 1_000]
        );
        assert_eq!(parse(&h.to_json()), Ok(h.clone()));
        let e = &h.entries[1];
        assert_eq!((e.total, e.ready), (8, false), "8 with a 0 on the gate");
        assert!(h.entries[0].ready);
        assert_eq!(
            h.trend().unwrap().to_string(),
            "Up from 5 to 8 over 3 saved scores"
        );
    }

    #[test]
    fn merge_keeps_each_entry_once() {
        let (e1, e2, e3) = (
            entry(1_000, [1, 1, 1, 1, 1], 0),
            entry(2_000, [2, 1, 1, 1, 1], 0),
            entry(3_000, [2, 2, 1, 1, 1], 0),
        );
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
        let (e1, e2) = (
            entry(1_000, [1, 1, 1, 1, 1], 0),
            entry(2_000, [2, 1, 1, 1, 1], 1),
        );
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
        assert_eq!(
            ids(&SavedScores::merge(&tab_a, &tab_b)),
            [2_000, 1_000],
            "a clock behind still restores"
        );
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
        assert_eq!(h.schema_version, SCHEMA_VERSION);
        assert_eq!(
            h.entries.iter().map(|e| e.saved_at_ms).collect::<Vec<_>>(),
            [20, 10]
        );
        assert_eq!(h.entries[0].hints_used, None);
        assert_eq!(
            h.entries[0].id,
            entry_id(20, &h.entries[0].scores, None, None)
        );
        assert_eq!(
            parse(&h.to_json()),
            Ok(h.clone()),
            "a migrated history saves as the current version"
        );
        assert_eq!(
            merge(&h, &parse(v1).unwrap()),
            h,
            "migrating twice gives the same ids"
        );
    }

    #[test]
    fn errors_are_clear() {
        check("", Err("the saved scores are not readable JSON (EOF while parsing a value at line 1 column 0)"));
        check(
            "[1,2]",
            Err("the saved scores are not in the expected shape (no schema_version)"),
        );
        check(r#"{"schema_version":"2"}"#, Err("the saved scores are not in the expected shape (schema_version is not a whole number)"));
        check(
            r#"{"schema_version":4,"entries":[]}"#,
            Err("the saved scores come from a newer version of this page (format 4; this page reads up to 3); reload the page to update it"),
        );
        check(
            r#"{"schema_version":0,"entries":[]}"#,
            Err("the saved scores are not in the expected shape (unknown schema_version 0)"),
        );
        check(
            r#"{"schema_version":1,"entries":[{"saved_at_ms":1,"scores":{"clocks":7},"total":7,"ready":false}]}"#,
            Err("saved score 1: clocks scored 7; a dimension scores 0, 1 or 2"),
        );
        check(
            r#"{"schema_version":1,"entries":[{"saved_at_ms":1,"scores":{"clocks":2},"total":3,"ready":false}]}"#,
            Err("saved score 1: the total says 3 but the scores add up to 2"),
        );
        check(r#"{"schema_version":2,"entries":[]}"#, Ok(&[]));
        assert!(matches!(
            parse(r#"{"schema_version":2,"entries":[{"id":1}]}"#),
            Err(HistoryError::WrongShape { .. })
        ));
        assert!(matches!(
            parse(r#"{"schema_version":2,"entries":[],"extra":1}"#),
            Err(HistoryError::WrongShape { .. })
        ));
        check(
            r#"{"schema_version":3,"entries":[{"id":"x","saved_at_ms":1,"scores":{"clocks":2},"total":2,"ready":false,
                "hints_used":0,"answer_chars":5,"second_opinion":{"model":"m","scores":{"clocks":3},"adopted":[]}}]}"#,
            Err("saved score 1: the AI's clocks scored 3; a dimension scores 0, 1 or 2"),
        );
        check(
            r#"{"schema_version":3,"entries":[{"id":"x","saved_at_ms":1,"scores":{"clocks":2},"total":2,"ready":false,
                "hints_used":0,"answer_chars":5,"second_opinion":{"model":"m","scores":{"clocks":2},"adopted":["memory"]}}]}"#,
            Err(
                "saved score 1: memory is marked as taken from the AI, but the AI gave it no score",
            ),
        );
        let deep = "[".repeat(10_000);
        assert!(matches!(parse(&deep), Err(HistoryError::NotJson { .. })));
    }

    fn opinion(ai: [u8; 5], adopted: &[&str], own: &Entry) -> SecondOpinion {
        let r = rubric();
        let scores: SmallMap<String, u8> = r
            .dimensions
            .iter()
            .zip(ai)
            .map(|(d, v)| (d.id.clone(), v))
            .collect();
        let own = RubricScore {
            scores: own.scores.clone(),
        };
        SecondOpinion::new(
            " gpt-test ",
            scores,
            &adopted.iter().map(|d| (*d).to_owned()).collect(),
            &own,
        )
    }

    #[test]
    fn version_2_migrates_keeping_ids() {
        let mut h = History::new();
        h.add(entry(1_000, [1, 1, 1, 1, 1], 0));
        h.add(entry(2_000, [2, 2, 1, 1, 1], 3));
        // The v2 text as the previous version of the app wrote it.
        let v2 = h
            .to_json()
            .replace("\"schema_version\":3", "\"schema_version\":2")
            .replace(",\"second_opinion\":null", "");
        assert!(
            v2.contains("\"schema_version\":2") && !v2.contains("second_opinion"),
            "{v2}"
        );
        let migrated = parse(&v2).unwrap();
        assert_eq!(migrated, h, "same entries, same ids, no second opinion");
        assert_eq!(
            merge(&migrated, &h),
            h,
            "a v2 export merges with the v3 copy without doubling"
        );
        assert!(migrated.to_json().starts_with("{\"schema_version\":3,"));
        // A v2 file cannot smuggle in a v3 field, nor v3 an unknown one.
        let smuggled = v2.replacen(
            "\"answer_chars\"",
            "\"second_opinion\":null,\"answer_chars\"",
            1,
        );
        assert!(matches!(
            parse(&smuggled),
            Err(HistoryError::WrongShape { .. })
        ));
        let keyed = h.to_json().replacen(
            "\"answer_chars\"",
            "\"api_key\":\"sk-secret\",\"answer_chars\"",
            1,
        );
        assert!(matches!(
            parse(&keyed),
            Err(HistoryError::WrongShape { .. })
        ));
    }

    #[test]
    fn second_opinion_round_trips_and_holds_no_key() {
        let own = entry(5_000, [2, 1, 1, 0, 2], 1);
        let plain_id = own.id.clone();
        let o = opinion([2, 2, 1, 1, 1], &["changes", "memory"], &own);
        // `changes` (own 1, AI 1) stays adopted; `memory` (own 0, AI 1) was
        // changed back after adopting, so it is the learner's own again.
        assert_eq!(
            o.adopted.iter().map(String::as_str).collect::<Vec<_>>(),
            ["changes"]
        );
        assert_eq!((o.model.as_str(), o.total()), ("gpt-test", 7));
        let e = own.with_second_opinion(o.clone());
        assert_ne!(e.id, plain_id, "the id covers the AI's scores");
        let mut h = History::new();
        h.add(e.clone());
        let json = h.to_json();
        assert_eq!(parse(&json), Ok(h.clone()));
        assert!(
            json.contains("\"second_opinion\":{\"model\":\"gpt-test\""),
            "{json}"
        );
        // Every field name an export can hold, listed: none could carry a key.
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        let entry_keys: Vec<&str> = v["entries"][0]
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            entry_keys,
            [
                "answer_chars",
                "hints_used",
                "id",
                "ready",
                "saved_at_ms",
                "scores",
                "second_opinion",
                "total"
            ]
        );
        let ai_keys: Vec<&str> = v["entries"][0]["second_opinion"]
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(ai_keys, ["adopted", "model", "scores"]);
    }

    /// One saved score for [`check_gap`]: time, own scores, AI scores, adopted.
    type Saved<'a> = (i64, [u8; 5], Option<[u8; 5]>, &'a [&'a str]);

    /// The gap sentence for entries given as (time, own, AI, adopted).
    fn check_gap(entries: &[Saved], expected: Option<&str>) {
        let mut h = History::new();
        for (at, own, ai, adopted) in entries {
            let e = entry(*at, *own, 0);
            let e = match ai {
                Some(ai) => {
                    let o = opinion(*ai, adopted, &e);
                    e.with_second_opinion(o)
                }
                None => e,
            };
            h.add(e);
        }
        assert_eq!(h.gap_trend().map(|t| t.to_string()).as_deref(), expected);
    }

    #[test]
    fn gap_over_time() {
        check_gap(&[(1, [1, 1, 1, 1, 1], None, &[])], None);
        check_gap(
            &[(1, [1, 1, 1, 1, 1], Some([2, 2, 1, 1, 1]), &[])],
            Some("One saved score has an AI second opinion: you scored yourself 2 below the AI over 5 dimensions"),
        );
        check_gap(
            &[
                (1, [2, 2, 2, 2, 2], Some([1, 1, 1, 1, 1]), &[]),
                (2, [0, 0, 0, 0, 0], None, &[]),
                // Adopted `clocks` (own 2 = AI 2) is left out of the gap.
                (3, [1, 2, 1, 1, 1], Some([1, 2, 1, 1, 2]), &["clocks"]),
            ],
            Some("Over 2 saved scores with an AI second opinion, you went from 5 above the AI over 5 dimensions to 1 below the AI over 4 dimensions: closer to the AI"),
        );
        check_gap(
            &[(1, [1, 1, 1, 1, 1], Some([1, 1, 1, 1, 1]), &[]), (2, [2, 1, 1, 1, 1], Some([1, 1, 1, 1, 1]), &[])],
            Some("Over 2 saved scores with an AI second opinion, you went from same as the AI over 5 dimensions to 1 above the AI over 5 dimensions: further from the AI"),
        );
        // Every dimension adopted: nothing left to compare.
        let all = ["latency_metrics", "clocks", "changes", "memory", "overload"];
        check_gap(&[(1, [2, 2, 1, 1, 1], Some([2, 2, 1, 1, 1]), &all)], None);
    }
}
