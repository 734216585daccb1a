//! Running inside a learning system: the page's half of SCORM.
//!
//! At start, while the app is set up and before any part opens its values,
//! [`connect`] looks for the host's API (`host::find`). With none
//! (the page on an ordinary site), it returns and nothing changes. With
//! one, it:
//! - initialises the session once;
//! - reads `cmi.suspend_data`, unpacks it with the core
//!   (`ttft_core::lms::suspend`) and merges each part into the value this
//!   browser already holds with that value's own merge
//!   (`crate::learner_state`), so work from another device joins this
//!   one's and neither loses anything; text it cannot read is set aside in
//!   this browser, with a notice, before anything is written over it;
//! - reads the passing threshold the host hands back (the manifest's, or
//!   one an instructor set there), falling back to the course's own;
//! - from then on, whenever a kept value changes (an effect, so after the
//!   page has drawn, never before), sets the score, status and suspend data
//!   the core derives (`ttft_core::lms::cmi`), and one interaction record
//!   per new check or saved self-score; asks the host to commit a few
//!   seconds after a change, at once after a check, and when the page is
//!   hidden;
//! - on `pagehide` (leaving, reloading or closing the tab) reports,
//!   commits and terminates, once.
//!
//! When the host refuses a call or its API disappears, the page keeps
//! working on its own: it says so once in the saved-work status area (a
//! live region) and stops calling the host for the rest of the visit.
//! Interactions a host has no room for (1.2's "not implemented") are
//! skipped quietly.
//!
//! What it deliberately does not do: compute a score, pack data or name an
//! element (the core does), or change anything on the page when there is
//! no learning system.

pub mod host;

use crate::learner_state::{
    self, checklist::Checklist, choice_work::ChoiceWork, interview_work::InterviewWork,
    trace_work::TraceWork,
};
use crate::storage::{open_for_app, NoticeKind, Store, Stored};
use host::{Host, Refusal};
use leptos::prelude::*;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::sync::{Arc, Mutex, PoisonError};
use ttft_core::content::{Course, InterviewPart, Lesson};
use ttft_core::history::SavedScores;
use ttft_core::lms::cmi;
use ttft_core::lms::interaction::{self, Interaction};
use ttft_core::lms::progress::{self, Progress};
use ttft_core::lms::suspend::{pack, unpack};
use ttft_latency::Micros;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// The name a learning system's unreadable saved progress is set aside
/// under, as the saved-work panel lists it.
pub const SET_ASIDE_NAME: &str = "learning system progress";

/// How long after a change the host is asked to commit, in milliseconds.
const COMMIT_AFTER_MS: i32 = 5_000;

/// The values the page keeps for the learner on the built-in course.
#[derive(Clone)]
struct Values {
    checklist: Stored<Checklist>,
    trace: Stored<TraceWork>,
    choice: Stored<ChoiceWork>,
    interview: Stored<InterviewWork>,
    scores: Stored<SavedScores>,
}

/// One type to another with the same serde shape (the app's stored value
/// and the core's part of `Progress`); `None` if they ever drift apart.
fn convert<A: Serialize, B: DeserializeOwned>(a: &A) -> Option<B> {
    serde_json::to_value(a)
        .ok()
        .and_then(|v| serde_json::from_value(v).ok())
}

/// The app's values as the core's progress.
fn progress_of(
    checklist: &Checklist,
    trace: &TraceWork,
    choice: &ChoiceWork,
    interview: &InterviewWork,
    scores: &SavedScores,
) -> Progress {
    Progress {
        checklist: convert(checklist).unwrap_or_default(),
        trace: convert(trace).unwrap_or_default(),
        choice: convert(choice).unwrap_or_default(),
        interview: convert(interview).unwrap_or_default(),
        scores: scores.clone(),
    }
}

/// Merges one part restored from the host into the browser's value.
fn merge_in<T, C>(stored: &Stored<T>, theirs: &C, merge: fn(&T, &T) -> T)
where
    T: Serialize + DeserializeOwned + Clone + Default + PartialEq + Send + Sync + 'static,
    C: Serialize + Default + PartialEq,
{
    if *theirs == C::default() {
        return;
    }
    let Some(theirs) = convert::<C, T>(theirs) else {
        return;
    };
    let mine = stored.signal().get_untracked();
    let merged = merge(&mine, &theirs);
    if merged != mine {
        let _ = stored.set(merged);
    }
}

/// What the session has done so far.
#[derive(Default)]
struct Session {
    /// True once the host has refused or gone: nothing more is sent.
    broken: bool,
    /// True once terminated.
    finished: bool,
    /// The values last set, so only changes are sent.
    sent: Vec<(String, String)>,
    /// The next interaction index; `None` when the host has no room.
    next_interaction: Option<u32>,
    /// Checks and saves already recorded: trace attempts, choice attempts
    /// in all, the newest saved score's id.
    seen: (u32, u32, Option<String>),
    /// When the session started or each kind was last recorded (ms).
    since: [f64; 3],
    /// The passing threshold in thousandths: the host's, or the course's.
    pass_at: u32,
    /// True while a commit is scheduled.
    commit_pending: bool,
    /// True when something was set since the last commit.
    dirty: bool,
}

/// A learning system session, shared by the effect and the page's
/// listeners.
#[derive(Clone)]
pub struct Connection {
    host: Host,
    store: Store,
    course: Arc<Course>,
    lesson: Arc<Lesson>,
    interview: Arc<InterviewPart>,
    values: Values,
    session: Arc<Mutex<Session>>,
}

impl Connection {
    fn session(&self) -> std::sync::MutexGuard<'_, Session> {
        self.session.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Says once that the host stopped taking reports, and stops sending.
    fn give_up(&self, why: &Refusal) {
        {
            let mut s = self.session();
            if s.broken {
                return;
            }
            s.broken = true;
        }
        self.store.notify(
            NoticeKind::Warning,
            format!(
                "The learning system stopped taking this course's reports ({why}). Everything here keeps \
                 working and your work stays saved in this browser, but your score and progress are not \
                 sent to the learning system again during this visit; open the course from the learning \
                 system again to carry on reporting."
            ),
        );
    }

    fn ok(&self) -> bool {
        let s = self.session();
        !s.broken && !s.finished
    }

    /// Sets `element` unless it already holds `value`.
    fn set(&self, element: &str, value: &str) -> Result<(), Refusal> {
        if self
            .session()
            .sent
            .iter()
            .any(|(e, v)| e == element && v == value)
        {
            return Ok(());
        }
        self.host.set(element, value)?;
        let mut s = self.session();
        s.sent.retain(|(e, _)| e != element);
        s.sent.push((element.to_owned(), value.to_owned()));
        s.dirty = true;
        Ok(())
    }

    fn progress(&self, tracked: bool) -> Progress {
        let v = &self.values;
        if tracked {
            progress_of(
                &v.checklist.get(),
                &v.trace.get(),
                &v.choice.get(),
                &v.interview.get(),
                &v.scores.get(),
            )
        } else {
            progress_of(
                &v.checklist.signal().get_untracked(),
                &v.trace.signal().get_untracked(),
                &v.choice.signal().get_untracked(),
                &v.interview.signal().get_untracked(),
                &v.scores.signal().get_untracked(),
            )
        }
    }

    /// Sends what the host should know about `p`. True when an interaction
    /// was recorded (the caller then commits at once).
    fn report(&self, p: &Progress) -> bool {
        if !self.ok() {
            return false;
        }
        let standard = self.host.standard;
        let grade = progress::grade(p, &self.course, &self.interview.rubric);
        let done = progress::completed(p, &self.lesson);
        let packed = pack(p, standard.suspend_limit());
        let pass_at = self.session().pass_at;
        let mut values = standard.report(&grade, done, pass_at);
        values.push((standard.suspend_data(), packed.text.clone()));
        for (element, value) in &values {
            if let Err(why) = self.set(element, value) {
                self.give_up(&why);
                return false;
            }
        }
        if let Some(summary) = packed.summary() {
            self.store.notify(NoticeKind::Info, summary);
        }
        let recorded = self.record_interactions(p);
        self.schedule_commit();
        recorded
    }

    /// Records each check and saved score made since the last report.
    fn record_interactions(&self, p: &Progress) -> bool {
        let now = js_sys::Date::now();
        let choice_attempts: u32 = p.choice.attempts();
        let newest = p.scores.history.entries.first().map(|e| e.id.clone());
        let (seen, since) = {
            let s = self.session();
            (s.seen.clone(), s.since)
        };
        let latency = |i: usize| Micros(((now - since[i]).max(0.0) * 1_000.0) as i64);
        let c = &self.course;
        let mut records: Vec<(usize, Interaction)> = Vec::new();
        if p.trace.attempts > seen.0 {
            if let Some(checked) = &p.trace.checked {
                let answers: Vec<_> = c
                    .trace_exercise
                    .requests
                    .iter()
                    .map(|r| checked.get(&r.id).cloned().unwrap_or_default())
                    .collect();
                records.push((0, interaction::trace(&c.trace_exercise, &answers, latency(0))));
            }
        }
        if choice_attempts > seen.1 {
            let inputs = p.choice.checked_in_order(&c.config_exercise);
            records.push((1, interaction::choice(&c.config_exercise, &inputs, latency(1))));
        }
        if newest.is_some() && newest != seen.2 {
            if let Some(entry) = p.scores.history.entries.first() {
                let q = &self.interview.interview;
                records.push((
                    2,
                    interaction::self_score(&q.id, &q.title, entry, &self.interview.rubric, latency(2)),
                ));
            }
        }
        {
            let mut s = self.session();
            s.seen = (p.trace.attempts, choice_attempts, newest);
            for (kind, _) in &records {
                s.since[*kind] = now;
            }
        }
        let mut recorded = false;
        for (_, record) in records {
            let Some(n) = self.session().next_interaction else {
                break;
            };
            for (element, value) in record.values(self.host.standard, n) {
                if let Err(why) = self.host.set(&element, &value) {
                    // 401/402: the host has no interactions ("not
                    // implemented"); a host that refuses otherwise is
                    // broken like any refusal.
                    if matches!(why.code.as_str(), "401" | "402") {
                        self.session().next_interaction = None;
                    } else {
                        self.give_up(&why);
                    }
                    return recorded;
                }
            }
            let mut s = self.session();
            s.next_interaction = Some(n.saturating_add(1));
            s.dirty = true;
            recorded = true;
        }
        recorded
    }

    /// Asks the host to store what was set, if anything was.
    fn commit(&self) {
        {
            let mut s = self.session();
            s.commit_pending = false;
            if !s.dirty || s.broken || s.finished {
                return;
            }
            s.dirty = false;
        }
        if let Err(why) = self.host.commit() {
            self.give_up(&why);
        }
    }

    /// Commits in a few seconds, once however many changes come first.
    fn schedule_commit(&self) {
        {
            let mut s = self.session();
            if s.commit_pending {
                return;
            }
            s.commit_pending = true;
        }
        let this = self.clone();
        let later = Closure::once_into_js(move || this.commit());
        let scheduled = web_sys::window().and_then(|w| {
            w.set_timeout_with_callback_and_timeout_and_arguments_0(later.unchecked_ref(), COMMIT_AFTER_MS)
                .ok()
        });
        if scheduled.is_none() {
            self.commit();
        }
    }

    /// Reports, commits and ends the session; later calls do nothing.
    fn finish(&self) {
        if !self.ok() {
            return;
        }
        self.report(&self.progress(false));
        self.session().dirty = true;
        self.commit();
        if !self.ok() {
            return;
        }
        self.session().finished = true;
        let _ = self.host.terminate();
    }

    /// Restores the host's saved progress into this browser's values.
    fn restore(&self) {
        let text = match self.host.get(self.host.standard.suspend_data()) {
            Ok(text) => text,
            Err(why) => {
                self.give_up(&why);
                return;
            }
        };
        match unpack(&text) {
            Ok(theirs) => {
                let v = &self.values;
                merge_in(&v.checklist, &theirs.checklist, Checklist::merge);
                merge_in(&v.trace, &theirs.trace, TraceWork::merge);
                merge_in(&v.choice, &theirs.choice, ChoiceWork::merge);
                merge_in(&v.interview, &theirs.interview, InterviewWork::merge);
                merge_in(&v.scores, &theirs.scores, SavedScores::merge);
            }
            Err(why) => {
                let kept = match self.store.set_aside(SET_ASIDE_NAME, &text) {
                    Ok(key) => format!("a copy is kept in this browser under \u{201c}{key}\u{201d}"),
                    Err(e) => format!("it could not be copied into this browser either ({e})"),
                };
                self.store.notify(
                    NoticeKind::Warning,
                    format!(
                        "The progress the learning system saved for you could not be read: {why}. This page \
                         carries on from what this browser holds and reports that from now on; {kept}."
                    ),
                );
            }
        }
    }
}

fn on_page(event: &str, handler: impl Fn() + 'static) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let closure = Closure::<dyn Fn()>::new(handler);
    if window
        .add_event_listener_with_callback(event, closure.as_ref().unchecked_ref())
        .is_ok()
    {
        // The listener lives as long as the page.
        closure.forget();
    }
}

/// Connects to the learning system around the page, if there is one (see
/// the module notes); call once, while the app is set up.
pub fn connect(
    store: &Store,
    course: &Arc<Course>,
    lesson: &Arc<Lesson>,
    interview: &Arc<InterviewPart>,
    checklist: Stored<Checklist>,
) -> Option<Connection> {
    let host = host::find()?;
    connect_to(host, store, course, lesson, interview, checklist)
}

/// [`connect`] once a host is found. A function of its own, never inlined:
/// a page outside a learning system (nearly every visit) then never calls
/// it, and the browser never compiles it.
#[inline(never)]
fn connect_to(
    host: host::Host,
    store: &Store,
    course: &Arc<Course>,
    lesson: &Arc<Lesson>,
    interview: &Arc<InterviewPart>,
    checklist: Stored<Checklist>,
) -> Option<Connection> {
    let values = Values {
        checklist,
        trace: open_for_app(learner_state::trace_work(&course.trace_exercise)),
        choice: open_for_app(learner_state::choice_work(&course.config_exercise)),
        interview: open_for_app(learner_state::interview_work(&interview.interview.id)),
        scores: open_for_app(learner_state::saved_scores(&interview.interview.id)),
    };
    let start = js_sys::Date::now();
    let connection = Connection {
        host: host.clone(),
        store: store.clone(),
        course: Arc::clone(course),
        lesson: Arc::clone(lesson),
        interview: Arc::clone(interview),
        values,
        session: Arc::new(Mutex::new(Session {
            since: [start; 3],
            pass_at: progress::PASS_AT,
            ..Session::default()
        })),
    };
    if let Err(why) = host.initialize() {
        connection.give_up(&why);
        return Some(connection);
    }
    connection.restore();
    if !connection.ok() {
        return Some(connection);
    }
    let (exit, suspend) = host.standard.exit();
    if let Err(why) = connection.set(exit, suspend) {
        connection.give_up(&why);
        return Some(connection);
    }
    let threshold = host
        .get(cmi::threshold_element(host.standard))
        .ok()
        .and_then(|t| cmi::host_threshold(host.standard, &t))
        .unwrap_or(progress::PASS_AT);
    let count = host
        .get(host.standard.interaction_count())
        .ok()
        .and_then(|c| c.trim().parse::<u32>().ok());
    {
        let p = connection.progress(false);
        let mut s = connection.session();
        // Checks made before this session were recorded by the session
        // they were made in (or before the course was in a learning
        // system); only new ones are recorded here.
        s.seen = (
            p.trace.attempts,
            p.choice.attempts(),
            p.scores.history.entries.first().map(|e| e.id.clone()),
        );
        s.next_interaction = count.or(Some(0));
        s.pass_at = threshold;
    }
    let reporter = connection.clone();
    Effect::new(move |_| {
        let p = reporter.progress(true);
        if reporter.report(&p) {
            reporter.commit();
        }
    });
    let leaving = connection.clone();
    on_page("pagehide", move || leaving.finish());
    let hidden = connection.clone();
    on_page("visibilitychange", move || {
        // Read as text, which needs no extra browser binding.
        let is_hidden = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| js_sys::Reflect::get(&d, &"visibilityState".into()).ok())
            .and_then(|v| v.as_string())
            .is_some_and(|v| v == "hidden");
        if is_hidden {
            hidden.commit();
        }
    });
    Some(connection)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ttft_core::exercises::config_choice::WorkloadInput;
    use ttft_core::exercises::trace_exercise::{DominantChoice, LearnerAnswer, ShareEntry};

    /// Every app value survives the trip through the core's progress, so
    /// the two shapes cannot drift apart unnoticed.
    #[test]
    fn app_values_and_core_progress_are_one_shape() {
        let mut checklist = Checklist::default();
        checklist.mark("split", true, 5);
        checklist.mark("clocks", false, 6);
        let mut trace = TraceWork::default();
        trace.edit("H1", 10, |a| {
            *a = LearnerAnswer {
                dominant: Some(DominantChoice::Prefill),
                share_percent: Some(ShareEntry::Text("70".into())),
                investigate: Some("chunked".into()),
            }
        });
        trace.check(11);
        trace.set_revealed(true, 12);
        let mut choice = ChoiceWork::default();
        choice.edit("chat", 20, |i| {
            *i = WorkloadInput {
                choice: Some("B".into()),
                evidence: vec!["cost".into()],
                ..WorkloadInput::default()
            }
        });
        choice.check("chat", 21);
        let mut interview = InterviewWork {
            answer: "Queue wait \"dominates\" é".into(),
            hints_shown: 2,
            ..InterviewWork::default()
        };
        let _ = interview.score.set("clocks", 2);
        interview.touch(30);
        let p = progress_of(&checklist, &trace, &choice, &interview, &SavedScores::default());
        assert_eq!(convert::<_, Checklist>(&p.checklist), Some(checklist));
        assert_eq!(convert::<_, TraceWork>(&p.trace), Some(trace));
        assert_eq!(convert::<_, ChoiceWork>(&p.choice), Some(choice));
        assert_eq!(convert::<_, InterviewWork>(&p.interview), Some(interview));
        let text = pack(&p, ttft_core::lms::suspend::LIMIT_12).text;
        assert_eq!(unpack(&text), Ok(p));
    }
}
