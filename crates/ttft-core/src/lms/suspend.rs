//! The learner's progress in `cmi.suspend_data`, and back.
//!
//! SCORM 1.2 gives a SCO 4,096 characters of suspend data ([`LIMIT_12`]),
//! SCORM 2004 64,000 ([`LIMIT_2004`]). [`pack`] writes a [`Progress`] as
//! `ttft1` followed by compact JSON: one-letter keys, answers as short
//! arrays in a fixed order, empty fields left out, and what can be rebuilt
//! not written at all (a saved score's id and total, derived again from its
//! content; the answers at a check when they equal the answers as they
//! stand; the "added" stamp of a score saved at its own time). Lengths are
//! counted in UTF-16 code units, as the host's JavaScript counts them.
//!
//! When even that does not fit, parts are left out, least needed first:
//! the stamps of deleted self-scores; then the oldest saved self-scores,
//! as many as must go, the newest always kept; if the newest alone does not
//! fit, the interview work, then the configuration choice, then the trace
//! exercise, each time keeping as many saved self-scores as the room left
//! allows; then every saved self-score, and last the checklist. A part is
//! left out whole, never cut short: the app merges
//! each part with the browser's copy by "the later change wins", and a cut
//! part would win over the full one. What is left out stays in the browser
//! it was made in; [`Packed::left_out`] names it, so the page can say what
//! the learning system keeps.
//!
//! [`unpack`] reads it back and checks every field (codes, ranges, ids),
//! so damaged or foreign text is a [`SuspendError`], never a guess.
//!
//! What it deliberately does not do: merge with another copy, or report
//! anything (the app does both); compress with a general algorithm (the
//! compact form fits the whole course's work with room to spare, and stays
//! readable in a learning system's reports).

use crate::exercises::config_choice::WorkloadInput;
use crate::exercises::trace_exercise::{DominantChoice, LearnerAnswer, ShareEntry};
use crate::history::{entry_id_with, Entry, SavedScores, SecondOpinion};
use crate::lms::progress::{
    ChecklistTicks, ChoiceProgress, InterviewProgress, Progress, Tick, TraceProgress,
    WorkloadProgress,
};
use crate::rubric::{RubricScore, MAX_SCORE};
use serde_json::{json, Map, Value};
use ttft_latency::small_map::{SmallMap, SmallSet};
use std::fmt;

/// SCORM 1.2's `cmi.suspend_data` limit (CMIString4096).
pub const LIMIT_12: usize = 4_096;
/// SCORM 2004's `cmi.suspend_data` limit (characterstring, SPM 64,000).
pub const LIMIT_2004: usize = 64_000;

/// What every packed text starts with: the format and its version.
pub const MARK: &str = "ttft1";

/// A part of the progress that did not fit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LeftOut {
    /// Which saved self-scores were deleted.
    Deletions,
    /// Older saved self-scores: only the latest `kept` of `of` are kept.
    OlderScores { kept: usize, of: usize },
    /// The interview answer, hints and self-score in progress.
    Interview,
    /// The configuration choice's work.
    Choice,
    /// The trace exercise's work.
    Trace,
    /// Every saved self-score.
    AllScores,
    /// The checklist.
    Checklist,
}

impl fmt::Display for LeftOut {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LeftOut::Deletions => write!(f, "which saved self-scores you deleted"),
            LeftOut::OlderScores { kept, of } => {
                write!(f, "all but the latest {kept} of your {of} saved self-scores")
            }
            LeftOut::Interview => write!(f, "your interview answer and self-score in progress"),
            LeftOut::Choice => write!(f, "your configuration choice answers"),
            LeftOut::Trace => write!(f, "your trace exercise answers"),
            LeftOut::AllScores => write!(f, "your saved self-scores"),
            LeftOut::Checklist => write!(f, "your checklist"),
        }
    }
}

/// Packed progress and what had to be left out of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Packed {
    /// The text for `cmi.suspend_data`.
    pub text: String,
    /// What is not in it, in the order it was dropped.
    pub left_out: Vec<LeftOut>,
}

impl Packed {
    /// One sentence for the learner when something was left out.
    pub fn summary(&self) -> Option<String> {
        if self.left_out.is_empty() {
            return None;
        }
        let parts: Vec<String> = self.left_out.iter().map(ToString::to_string).collect();
        Some(format!(
            "The learning system has room for only part of your progress: it does not keep {}. \
             Those stay in this browser, and the score it shows still counts all your work.",
            join_words(&parts)
        ))
    }
}

fn join_words(parts: &[String]) -> String {
    match parts {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// Length as the host counts it: UTF-16 code units.
pub fn host_length(text: &str) -> usize {
    text.encode_utf16().count()
}

/// Packs `progress` into at most `limit` UTF-16 code units, leaving out
/// whole parts (see the module notes) until it fits.
pub fn pack(progress: &Progress, limit: usize) -> Packed {
    let fits = |p: &Progress| {
        let text = encode(p);
        (host_length(&text) <= limit).then_some(text)
    };
    if let Some(text) = fits(progress) {
        return Packed {
            text,
            left_out: Vec::new(),
        };
    }
    let mut p = progress.clone();
    let mut left_out = Vec::new();
    if !p.scores.removed.is_empty() {
        p.scores.removed.clear();
        left_out.push(LeftOut::Deletions);
    }
    let entries = p.scores.history.entries.clone();
    let all = entries.len();
    // Each step leaves out one more part; at each, as many of the newest
    // saved scores are kept as fit (at least one, when there are any).
    type Removal = (LeftOut, fn(&mut Progress));
    let steps: [Option<Removal>; 4] = [
        None,
        Some((LeftOut::Interview, |p| p.interview = InterviewProgress::default())),
        Some((LeftOut::Choice, |p| p.choice = ChoiceProgress::default())),
        Some((LeftOut::Trace, |p| p.trace = TraceProgress::default())),
    ];
    for step in steps {
        if let Some((what, remove)) = step {
            let before = p.clone();
            remove(&mut p);
            if p != before {
                left_out.push(what);
            }
        }
        let with = |k: usize| {
            let mut q = p.clone();
            q.scores.history.entries.truncate(k);
            q
        };
        if all == 0 {
            if let Some(text) = fits(&p) {
                return Packed { text, left_out };
            }
            continue;
        }
        if fits(&with(1)).is_none() {
            continue;
        }
        // The most entries that fit: fitting only gets harder with more.
        let (mut lo, mut hi) = (1, all);
        while lo < hi {
            let mid = lo + (hi - lo).div_ceil(2);
            if fits(&with(mid)).is_some() {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        if lo < all {
            left_out.push(LeftOut::OlderScores { kept: lo, of: all });
        }
        let text = encode(&with(lo));
        return Packed { text, left_out };
    }
    if all > 0 {
        p.scores = SavedScores::default();
        left_out.push(LeftOut::AllScores);
        if let Some(text) = fits(&p) {
            return Packed { text, left_out };
        }
    }
    p.checklist = ChecklistTicks::default();
    left_out.push(LeftOut::Checklist);
    Packed {
        text: encode(&p),
        left_out,
    }
}

/// Why suspend data could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SuspendError {
    /// It was not written by ttft-lab (or by a version that wrote another
    /// format).
    Foreign { start: String },
    /// It starts right but is not JSON.
    NotJson { reason: String },
    /// A field has the wrong kind of value or is out of range.
    Field { path: String, problem: String },
}

impl fmt::Display for SuspendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SuspendError::Foreign { start } => write!(
                f,
                "it was not saved by this version of ttft-lab (it starts \u{201c}{start}\u{201d})"
            ),
            SuspendError::NotJson { reason } => write!(f, "it is damaged ({reason})"),
            SuspendError::Field { path, problem } => {
                write!(f, "it is damaged (at {path}: {problem})")
            }
        }
    }
}

impl std::error::Error for SuspendError {}

/// Reads packed progress; empty text is no progress yet.
pub fn unpack(text: &str) -> Result<Progress, SuspendError> {
    if text.is_empty() {
        return Ok(Progress::default());
    }
    let Some(body) = text.strip_prefix(MARK) else {
        return Err(SuspendError::Foreign {
            start: text.chars().take(12).collect(),
        });
    };
    let value: Value = serde_json::from_str(body).map_err(|e| SuspendError::NotJson {
        reason: e.to_string(),
    })?;
    let top = object(&value, "")?;
    Ok(Progress {
        checklist: match top.get("k") {
            Some(v) => read_checklist(v)?,
            None => ChecklistTicks::default(),
        },
        trace: match top.get("t") {
            Some(v) => read_trace(v)?,
            None => TraceProgress::default(),
        },
        choice: match top.get("c") {
            Some(v) => read_choice(v)?,
            None => ChoiceProgress::default(),
        },
        interview: match top.get("i") {
            Some(v) => read_interview(v)?,
            None => InterviewProgress::default(),
        },
        scores: read_scores(top.get("s"), top.get("d"))?,
    })
}

// ---------------------------------------------------------------- writing

fn encode(p: &Progress) -> String {
    let mut top = Map::new();
    if !p.checklist.items.is_empty() {
        let items: Map<String, Value> = p
            .checklist
            .items
            .iter()
            .map(|(id, t)| (id.clone(), json!([u8::from(t.done), t.changed_ms])))
            .collect();
        top.insert("k".into(), Value::Object(items));
    }
    if p.trace != TraceProgress::default() {
        top.insert("t".into(), trace_value(&p.trace));
    }
    if p.choice != ChoiceProgress::default() {
        top.insert("c".into(), choice_value(&p.choice));
    }
    if p.interview != InterviewProgress::default() {
        let i = &p.interview;
        let mut m = Map::new();
        if !i.answer.is_empty() {
            m.insert("a".into(), json!(i.answer));
        }
        if i.hints_shown != 0 {
            m.insert("h".into(), json!(i.hints_shown));
        }
        if !i.score.scores.is_empty() {
            m.insert("s".into(), json!(i.score.scores));
        }
        m.insert("m".into(), json!(i.changed_ms));
        top.insert("i".into(), Value::Object(m));
    }
    if !p.scores.history.entries.is_empty() {
        let entries: Vec<Value> = p
            .scores
            .history
            .entries
            .iter()
            .map(|e| entry_value(e, p.scores.added.get(&e.id).copied()))
            .collect();
        top.insert("s".into(), Value::Array(entries));
    }
    if !p.scores.removed.is_empty() {
        // A deleted entry's own "added" stamp cannot be rebuilt from an
        // entry on show, so it rides with the deletion.
        let shown: SmallSet<&str> = p.scores.history.entries.iter().map(|e| e.id.as_str()).collect();
        let deleted: Map<String, Value> = p
            .scores
            .removed
            .iter()
            .map(|(id, &r)| match p.scores.added.get(id) {
                Some(&a) if !shown.contains(id.as_str()) => (id.clone(), json!([r, a])),
                _ => (id.clone(), json!(r)),
            })
            .collect();
        top.insert("d".into(), Value::Object(deleted));
    }
    format!("{MARK}{}", Value::Object(top))
}

fn dominant_code(d: DominantChoice) -> &'static str {
    match d {
        DominantChoice::QueueWait => "q",
        DominantChoice::Prefill => "p",
        DominantChoice::Emit => "e",
        DominantChoice::OutputRate => "o",
    }
}

/// A list without its trailing empty values (null, `{}`, `[]`).
fn trimmed(mut list: Vec<Value>) -> Value {
    while list.last().is_some_and(|v| {
        v.is_null()
            || v.as_object().is_some_and(Map::is_empty)
            || v.as_array().is_some_and(Vec::is_empty)
    }) {
        list.pop();
    }
    Value::Array(list)
}

fn answer_value(a: &LearnerAnswer) -> Value {
    let share = match &a.share_percent {
        None => Value::Null,
        Some(ShareEntry::Number(n)) => json!(n),
        Some(ShareEntry::Text(t)) => json!(t),
    };
    trimmed(vec![
        a.dominant.map_or(Value::Null, |d| json!(dominant_code(d))),
        share,
        a.investigate.as_ref().map_or(Value::Null, |i| json!(i)),
    ])
}

fn answers_value(answers: &SmallMap<String, LearnerAnswer>) -> Value {
    Value::Object(
        answers
            .iter()
            .map(|(id, a)| (id.clone(), answer_value(a)))
            .collect(),
    )
}

fn trace_value(t: &TraceProgress) -> Value {
    let mut m = Map::new();
    if !t.answers.is_empty() {
        m.insert("a".into(), answers_value(&t.answers));
    }
    match &t.checked {
        None => {}
        Some(c) if *c == t.answers => {
            m.insert("k".into(), json!(1));
        }
        Some(c) => {
            m.insert("k".into(), answers_value(c));
        }
    }
    if t.attempts != 0 {
        m.insert("n".into(), json!(t.attempts));
    }
    if t.revealed {
        m.insert("r".into(), json!(1));
    }
    m.insert("m".into(), json!(t.changed_ms));
    Value::Object(m)
}

fn input_value(i: &WorkloadInput) -> Value {
    let fits: Map<String, Value> = i
        .fits
        .iter()
        .map(|(id, &f)| (id.clone(), json!(u8::from(f))))
        .collect();
    trimmed(vec![
        i.choice.as_ref().map_or(Value::Null, |c| json!(c)),
        i.total_tokens.as_ref().map_or(Value::Null, |c| json!(c)),
        json!(i.seconds),
        Value::Object(fits),
        json!(i.late_percent),
        json!(i.evidence),
    ])
}

/// `{"w": {id: [input, checked, attempts, revealed]}, "m": stamp}`, where
/// checked is 0 (never), 1 (the same as the input) or the inputs checked;
/// trailing defaults are left out.
fn choice_value(c: &ChoiceProgress) -> Value {
    let mut m = Map::new();
    if !c.workloads.is_empty() {
        let work: Map<String, Value> = c
            .workloads
            .iter()
            .map(|(id, w)| {
                let checked = match &w.checked {
                    None => json!(0),
                    Some(k) if *k == w.input => json!(1),
                    Some(k) => input_value(k),
                };
                let attempts = if w.attempts == 0 { Value::Null } else { json!(w.attempts) };
                let revealed = if w.revealed { json!(1) } else { Value::Null };
                let mut list = vec![input_value(&w.input), checked, attempts, revealed];
                if list[1] == json!(0) && list[2].is_null() && list[3].is_null() {
                    list.truncate(1);
                }
                (id.clone(), trimmed(list))
            })
            .collect();
        m.insert("w".into(), Value::Object(work));
    }
    m.insert("m".into(), json!(c.changed_ms));
    Value::Object(m)
}

fn entry_value(e: &Entry, added: Option<i64>) -> Value {
    let mut list = vec![
        json!(e.saved_at_ms),
        json!(e.scores),
        json!(u8::from(e.ready)),
        e.hints_used.map_or(Value::Null, |h| json!(h)),
        e.answer_chars.map_or(Value::Null, |c| json!(c)),
    ];
    let mut extra = Map::new();
    if let Some(a) = added.filter(|&a| a != e.saved_at_ms) {
        extra.insert("a".into(), json!(a));
    }
    if let Some(o) = &e.second_opinion {
        extra.insert("o".into(), json!([o.model, o.scores, o.adopted]));
    }
    if !extra.is_empty() {
        list.push(Value::Object(extra));
    }
    Value::Array(list)
}

// ---------------------------------------------------------------- reading

fn bad(path: &str, problem: &str) -> SuspendError {
    SuspendError::Field {
        path: if path.is_empty() { "the top".into() } else { path.to_owned() },
        problem: problem.to_owned(),
    }
}

fn object<'a>(v: &'a Value, path: &str) -> Result<&'a Map<String, Value>, SuspendError> {
    v.as_object().ok_or_else(|| bad(path, "expected an object"))
}

fn array<'a>(v: &'a Value, path: &str) -> Result<&'a Vec<Value>, SuspendError> {
    v.as_array().ok_or_else(|| bad(path, "expected a list"))
}

fn stamp(v: &Value, path: &str) -> Result<i64, SuspendError> {
    v.as_i64().ok_or_else(|| bad(path, "expected a whole number of milliseconds"))
}

fn count(v: &Value, path: &str) -> Result<u32, SuspendError> {
    v.as_u64()
        .and_then(|n| u32::try_from(n).ok())
        .ok_or_else(|| bad(path, "expected a count"))
}

fn flag(v: &Value, path: &str) -> Result<bool, SuspendError> {
    match v.as_u64() {
        Some(0) => Ok(false),
        Some(1) => Ok(true),
        _ => Err(bad(path, "expected 0 or 1")),
    }
}

fn text(v: &Value, path: &str) -> Result<String, SuspendError> {
    v.as_str()
        .map(str::to_owned)
        .ok_or_else(|| bad(path, "expected text"))
}

fn optional_text(v: Option<&Value>, path: &str) -> Result<Option<String>, SuspendError> {
    match v {
        None | Some(Value::Null) => Ok(None),
        Some(v) => text(v, path).map(Some),
    }
}

fn texts_by_id(v: Option<&Value>, path: &str) -> Result<SmallMap<String, String>, SuspendError> {
    let Some(v) = v else {
        return Ok(SmallMap::new());
    };
    object(v, path)?
        .iter()
        .map(|(id, t)| Ok((id.clone(), text(t, &format!("{path}.{id}"))?)))
        .collect()
}

fn scores_by_id(v: &Value, path: &str) -> Result<SmallMap<String, u8>, SuspendError> {
    object(v, path)?
        .iter()
        .map(|(id, s)| {
            let n = s
                .as_u64()
                .filter(|&n| n <= u64::from(MAX_SCORE))
                .ok_or_else(|| bad(&format!("{path}.{id}"), "expected a score of 0, 1 or 2"))?;
            Ok((id.clone(), n as u8))
        })
        .collect()
}

fn read_checklist(v: &Value) -> Result<ChecklistTicks, SuspendError> {
    let items = object(v, "k")?
        .iter()
        .map(|(id, t)| {
            let path = format!("k.{id}");
            let pair = array(t, &path)?;
            match pair.as_slice() {
                [done, ms] => Ok((
                    id.clone(),
                    Tick {
                        done: flag(done, &path)?,
                        changed_ms: stamp(ms, &path)?,
                    },
                )),
                _ => Err(bad(&path, "expected [ticked, stamp]")),
            }
        })
        .collect::<Result<_, _>>()?;
    Ok(ChecklistTicks { items })
}

fn read_answer(v: &Value, path: &str) -> Result<LearnerAnswer, SuspendError> {
    let list = array(v, path)?;
    if list.len() > 3 {
        return Err(bad(path, "expected at most three fields"));
    }
    let dominant = match list.first() {
        None | Some(Value::Null) => None,
        Some(Value::String(code)) => Some(
            DominantChoice::ALL
                .into_iter()
                .find(|d| dominant_code(*d) == code)
                .ok_or_else(|| bad(path, "unknown delay code"))?,
        ),
        Some(_) => return Err(bad(path, "expected a delay code")),
    };
    let share_percent = match list.get(1) {
        None | Some(Value::Null) => None,
        Some(Value::String(t)) => Some(ShareEntry::Text(t.clone())),
        Some(Value::Number(n)) => Some(ShareEntry::Number(
            n.as_f64().ok_or_else(|| bad(path, "share out of range"))?,
        )),
        Some(_) => return Err(bad(path, "expected a share")),
    };
    Ok(LearnerAnswer {
        dominant,
        share_percent,
        investigate: optional_text(list.get(2), path)?,
    })
}

fn read_answers(v: &Value, path: &str) -> Result<SmallMap<String, LearnerAnswer>, SuspendError> {
    object(v, path)?
        .iter()
        .map(|(id, a)| Ok((id.clone(), read_answer(a, &format!("{path}.{id}"))?)))
        .collect()
}

fn read_trace(v: &Value) -> Result<TraceProgress, SuspendError> {
    let m = object(v, "t")?;
    let answers = match m.get("a") {
        Some(a) => read_answers(a, "t.a")?,
        None => SmallMap::new(),
    };
    let checked = match m.get("k") {
        None => None,
        Some(Value::Number(n)) if n.as_u64() == Some(1) => Some(answers.clone()),
        Some(k) => Some(read_answers(k, "t.k")?),
    };
    Ok(TraceProgress {
        answers,
        checked,
        attempts: m.get("n").map_or(Ok(0), |n| count(n, "t.n"))?,
        revealed: m.get("r").map_or(Ok(false), |r| flag(r, "t.r"))?,
        changed_ms: m.get("m").map_or(Ok(0), |s| stamp(s, "t.m"))?,
    })
}

fn read_input(v: &Value, path: &str) -> Result<WorkloadInput, SuspendError> {
    let list = array(v, path)?;
    if list.len() > 6 {
        return Err(bad(path, "expected at most six fields"));
    }
    let fits = match list.get(3) {
        None => SmallMap::new(),
        Some(f) => object(f, path)?
            .iter()
            .map(|(id, x)| Ok((id.clone(), flag(x, &format!("{path}.{id}"))?)))
            .collect::<Result<_, _>>()?,
    };
    let evidence = match list.get(5) {
        None => Vec::new(),
        Some(e) => array(e, path)?
            .iter()
            .map(|x| text(x, path))
            .collect::<Result<_, _>>()?,
    };
    Ok(WorkloadInput {
        choice: optional_text(list.first(), path)?,
        total_tokens: optional_text(list.get(1), path)?,
        seconds: texts_by_id(list.get(2), path)?,
        fits,
        late_percent: texts_by_id(list.get(4), path)?,
        evidence,
    })
}

fn read_choice(v: &Value) -> Result<ChoiceProgress, SuspendError> {
    let m = object(v, "c")?;
    let mut workloads = SmallMap::new();
    if let Some(w) = m.get("w") {
        for (id, x) in object(w, "c.w")? {
            let path = format!("c.w.{id}");
            let list = array(x, &path)?;
            if list.len() > 4 {
                return Err(bad(&path, "expected at most four fields"));
            }
            let input = match list.first() {
                None | Some(Value::Null) => WorkloadInput::default(),
                Some(i) => read_input(i, &path)?,
            };
            let checked = match list.get(1) {
                None | Some(Value::Null) => None,
                Some(k) => match k.as_u64() {
                    Some(0) => None,
                    Some(1) => Some(input.clone()),
                    _ => Some(read_input(k, &format!("{path}.k"))?),
                },
            };
            let attempts = match list.get(2) {
                None | Some(Value::Null) => 0,
                Some(n) => count(n, &format!("{path}.n"))?,
            };
            let revealed = match list.get(3) {
                None | Some(Value::Null) => false,
                Some(r) => flag(r, &format!("{path}.r"))?,
            };
            workloads.insert(
                id.clone(),
                WorkloadProgress {
                    input,
                    checked,
                    attempts,
                    revealed,
                },
            );
        }
    }
    Ok(ChoiceProgress {
        workloads,
        changed_ms: m.get("m").map_or(Ok(0), |s| stamp(s, "c.m"))?,
    })
}

fn read_interview(v: &Value) -> Result<InterviewProgress, SuspendError> {
    let m = object(v, "i")?;
    Ok(InterviewProgress {
        answer: optional_text(m.get("a"), "i.a")?.unwrap_or_default(),
        hints_shown: m.get("h").map_or(Ok(0), |h| count(h, "i.h"))?,
        score: RubricScore {
            scores: match m.get("s") {
                Some(s) => scores_by_id(s, "i.s")?,
                None => SmallMap::new(),
            },
        },
        changed_ms: m.get("m").map_or(Ok(0), |s| stamp(s, "i.m"))?,
    })
}

fn optional_count(v: Option<&Value>, path: &str) -> Result<Option<u32>, SuspendError> {
    match v {
        None | Some(Value::Null) => Ok(None),
        Some(v) => count(v, path).map(Some),
    }
}

fn read_entry(v: &Value, path: &str) -> Result<(Entry, Option<i64>), SuspendError> {
    let list = array(v, path)?;
    let (Some(at), Some(scores), Some(ready)) = (list.first(), list.get(1), list.get(2)) else {
        return Err(bad(path, "expected [time, scores, ready, hints, length]"));
    };
    if list.len() > 6 {
        return Err(bad(path, "expected at most six fields"));
    }
    let saved_at_ms = stamp(at, path)?;
    let scores = scores_by_id(scores, path)?;
    let hints_used = optional_count(list.get(3), path)?;
    let answer_chars = optional_count(list.get(4), path)?;
    let (mut added, mut opinion) = (None, None);
    if let Some(extra) = list.get(5) {
        let extra = object(extra, path)?;
        if let Some(a) = extra.get("a") {
            added = Some(stamp(a, path)?);
        }
        if let Some(o) = extra.get("o") {
            let o = array(o, path)?;
            let [model, ai, adopted] = o.as_slice() else {
                return Err(bad(path, "expected [model, scores, adopted]"));
            };
            let adopted: SmallSet<String> = array(adopted, path)?
                .iter()
                .map(|x| text(x, path))
                .collect::<Result<_, _>>()?;
            opinion = Some(SecondOpinion {
                model: text(model, path)?,
                scores: scores_by_id(ai, path)?,
                adopted,
            });
        }
    }
    let total = scores.values().map(|&s| u32::from(s)).sum();
    let id = entry_id_with(saved_at_ms, &scores, hints_used, answer_chars, opinion.as_ref());
    Ok((
        Entry {
            id,
            saved_at_ms,
            scores,
            total,
            ready: flag(ready, path)?,
            hints_used,
            answer_chars,
            second_opinion: opinion,
        },
        added,
    ))
}

fn read_scores(entries: Option<&Value>, deleted: Option<&Value>) -> Result<SavedScores, SuspendError> {
    let mut scores = SavedScores::default();
    if let Some(list) = entries {
        for (n, v) in array(list, "s")?.iter().enumerate() {
            let path = format!("s.{n}");
            let (entry, added) = read_entry(v, &path)?;
            if scores.history.entries.iter().any(|e| e.id == entry.id) {
                return Err(bad(&path, "the same saved score twice"));
            }
            scores
                .added
                .insert(entry.id.clone(), added.unwrap_or(entry.saved_at_ms));
            scores.history.entries.push(entry);
        }
    }
    if let Some(d) = deleted {
        for (id, at) in object(d, "d")? {
            let path = format!("d.{id}");
            match at {
                Value::Array(pair) => match pair.as_slice() {
                    [removed, added] => {
                        scores.removed.insert(id.clone(), stamp(removed, &path)?);
                        if scores.added.contains_key(id) {
                            return Err(bad(&path, "a deleted score's stamp for one on show"));
                        }
                        scores.added.insert(id.clone(), stamp(added, &path)?);
                    }
                    _ => return Err(bad(&path, "expected [deleted, added]")),
                },
                _ => {
                    scores.removed.insert(id.clone(), stamp(at, &path)?);
                }
            }
        }
    }
    Ok(scores)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lms::progress::tests::{course, full_marks, rubric};

    fn check_round_trip(p: &Progress) {
        let packed = pack(p, LIMIT_12);
        assert!(packed.left_out.is_empty(), "{:?}", packed.left_out);
        assert!(host_length(&packed.text) <= LIMIT_12);
        assert_eq!(unpack(&packed.text).as_ref(), Ok(p), "{}", packed.text);
    }

    fn check_error(text: &str, says: &str) {
        let e = unpack(text).map(|_| ()).unwrap_err().to_string();
        assert!(e.contains(says), "{text}: {e}");
    }

    #[test]
    fn the_whole_course_fits_in_a_fraction_of_the_limit() {
        let course = course();
        let full = full_marks(&course);
        check_round_trip(&full);
        check_round_trip(&Progress::default());
        let text = pack(&full, LIMIT_12).text;
        assert!(text.len() < 1_000, "{} characters: {text}", text.len());
        assert!(!text.contains("s1000-"), "ids are rebuilt, not stored");
        assert_eq!(unpack(""), Ok(Progress::default()));
    }

    #[test]
    fn what_does_not_fit_is_left_out_whole_and_named() {
        let course = course();
        let mut p = full_marks(&course);
        for n in 0..80 {
            let e = Entry::new(2_000 + n, &p.interview.score, &rubric(), 0, 10);
            p.scores.add(e, 2_000 + n);
        }
        p.scores.removed.insert("s1-0000000000000000".into(), 9);
        p.interview.answer = "é".repeat(4_000);
        let packed = pack(&p, LIMIT_12);
        assert!(host_length(&packed.text) <= LIMIT_12);
        let back = unpack(&packed.text).unwrap();
        assert_eq!(back.checklist, p.checklist);
        assert_eq!(back.trace, p.trace);
        assert_eq!(back.interview, InterviewProgress::default(), "left out whole");
        assert_eq!(packed.left_out[0], LeftOut::Deletions);
        assert!(packed.left_out.contains(&LeftOut::Interview));
        let kept = back.scores.history.entries.len();
        assert!(kept > 1 && kept < 81, "{kept}");
        assert_eq!(
            packed.left_out.last(),
            Some(&LeftOut::OlderScores { kept, of: 81 }),
            "scores fill the room the interview left"
        );
        assert_eq!(back.scores.history.entries[0], p.scores.history.entries[0], "newest kept");
        let said = packed.summary().unwrap();
        assert!(said.contains("interview answer") && said.contains("this browser"), "{said}");
        assert_eq!(pack(&p, LIMIT_2004).left_out, Vec::new());
        // Nothing at all fits in a tiny limit: everything is named.
        let tiny = pack(&p, 8);
        assert_eq!(tiny.left_out.last(), Some(&LeftOut::Checklist));
        assert_eq!(tiny.text, MARK.to_owned() + "{}");
    }

    #[test]
    fn damaged_text_is_refused_with_a_reason() {
        check_error("{\"k\":{}}", "not saved by this version");
        check_error("ttft1{", "damaged");
        check_error("ttft1[]", "expected an object");
        check_error("ttft1{\"k\":{\"a\":[2,5]}}", "k.a");
        check_error("ttft1{\"t\":{\"a\":{\"H1\":[\"x\"]}}}", "unknown delay code");
        check_error("ttft1{\"s\":[[1,{\"clocks\":3},1]]}", "0, 1 or 2");
        check_error("ttft1{\"s\":[[1,{},1],[1,{},1]]}", "twice");
        check_error("ttft1{\"c\":{\"w\":{\"chat\":[[],0,1,1,9]}}}", "at most four fields");
        check_error("ttft1{\"c\":{\"w\":[]}}", "c.w");
        check_error("ttft1{\"i\":{\"h\":-1}}", "i.h");
    }
}
