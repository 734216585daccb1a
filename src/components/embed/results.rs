//! Results to the host page: when a learner checks the trace exercise or
//! the configuration choice, or saves a self-score, an xAPI-shaped statement
//! is built by the core (`ttft_core::embed::xapi`) and posted to the parent page,
//! so the host can forward it to its learning record store.
//!
//! [`ResultsSink`] is provided as context by the shell; the practice
//! components fetch it with [`use_results`] and call one method per event,
//! so they stay thin. Statements go only to the origins the embed address
//! allow-lists (`EmbedOptions::statement_targets`): each in turn, and the
//! browser delivers a message only to a parent whose origin equals the
//! target. Never to `*`, and nothing at all when no origin is named or the
//! page is not embedded. The actor is left for the host to fill (the page
//! does not know who the learner is); activity ids start with the page's
//! own address; the duration counts from when the part was opened.
//!
//! What it deliberately does not do: score anything itself (the core's
//! checkers and `xapi` do), keep statements, or retry: a parent that is
//! not listening simply misses them, as with any postMessage.

use crate::course::InterviewContext;
use leptos::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use ttft_core::content::{ConfigExercise, Rubric, TraceExercise};
use ttft_core::embed::origin::Origin;
use ttft_core::embed::query::EmbedOptions;
use ttft_core::embed::xapi::{self, ActivityBase, Actor, Statement, StatementContext};
use ttft_core::exercises::config_choice::{check_config, WorkloadInput};
use ttft_core::exercises::trace_exercise::{check_trace, LearnerAnswer};
use ttft_core::rubric::RubricScore;
use ttft_latency::Micros;

/// Where statements go and what they share, from context.
#[derive(Clone, Debug)]
pub struct ResultsSink {
    /// The allowed parent origins (empty: post nothing).
    targets: Arc<Vec<Origin>>,
    /// The page's own address, which activity ids start with.
    base: Option<ActivityBase>,
    /// When the part on show was opened (ms since the epoch, as f64 bits).
    opened: Arc<AtomicU64>,
    /// The interview question's id and title, which a saved self-score is
    /// about (filled by [`use_results`] from the course).
    interview: Option<(String, String)>,
}

impl ResultsSink {
    /// A sink for the page opened with `options`, at `page_url` (the page's
    /// address without query or fragment).
    pub fn new(options: &EmbedOptions, page_url: &str) -> ResultsSink {
        ResultsSink {
            targets: Arc::new(options.statement_targets().to_vec()),
            base: ActivityBase::parse(page_url).ok(),
            opened: Arc::new(AtomicU64::new(now().to_bits())),
            interview: None,
        }
    }

    /// A sink that posts nothing (a component mounted on its own).
    pub fn silent() -> ResultsSink {
        ResultsSink {
            targets: Arc::new(Vec::new()),
            base: None,
            opened: Arc::new(AtomicU64::new(0)),
            interview: None,
        }
    }

    /// True when statements would be posted.
    pub fn active(&self) -> bool {
        !self.targets.is_empty() && self.base.is_some()
    }

    /// A part was opened: durations count from now.
    pub fn restart(&self) {
        self.opened.store(now().to_bits(), Ordering::Relaxed);
    }

    fn context(&self, exercise_id: &str, exercise_name: &str) -> Option<StatementContext> {
        let base = self.base.clone().filter(|_| !self.targets.is_empty())?;
        let opened = f64::from_bits(self.opened.load(Ordering::Relaxed));
        let elapsed_ms = (now() - opened).max(0.0);
        Some(StatementContext {
            base,
            actor: Actor::HostFills,
            exercise_id: exercise_id.to_owned(),
            exercise_name: exercise_name.to_owned(),
            timestamp: js_sys::Date::new_0()
                .to_iso_string()
                .as_string()
                .unwrap_or_default(),
            duration: Micros((elapsed_ms * 1_000.0) as i64),
        })
    }

    /// The learner checked the trace exercise with these answers.
    pub fn trace_checked(&self, exercise: &TraceExercise, answers: &[LearnerAnswer]) {
        let Some(ctx) = self.context(&exercise.id, &exercise.title) else {
            return;
        };
        let check = check_trace(exercise, answers);
        let ids: Vec<String> = exercise.requests.iter().map(|r| r.id.clone()).collect();
        self.post(&xapi::trace_check(&ctx, &check, &ids, answers));
    }

    /// The learner checked a workload of the configuration choice; `inputs`
    /// are every workload's inputs as last checked (an unchecked workload's
    /// are empty), so the statement scores the exercise as a whole.
    pub fn config_checked(&self, exercise: &ConfigExercise, inputs: &[WorkloadInput]) {
        let Some(ctx) = self.context(&exercise.id, &exercise.title) else {
            return;
        };
        let checks = check_config(exercise, inputs);
        let ids: Vec<String> = exercise.workloads.iter().map(|w| w.id.clone()).collect();
        self.post(&xapi::config_check(&ctx, &checks, &ids, inputs));
    }

    /// The learner saved a self-score for the interview question.
    pub fn score_saved(&self, score: &RubricScore, rubric: &Rubric) {
        let Some((id, name)) = &self.interview else {
            return;
        };
        let Some(ctx) = self.context(id, name) else {
            return;
        };
        self.post(&xapi::self_score(&ctx, score, rubric));
    }

    fn post(&self, statement: &Statement) {
        let Some(window) = web_sys::window() else {
            return;
        };
        let Ok(Some(parent)) = window.parent() else {
            return;
        };
        if js_sys::Object::is(parent.as_ref(), window.as_ref()) {
            return;
        }
        let message = xapi::statement_message(statement);
        let Ok(value) = js_sys::JSON::parse(&message.to_string()) else {
            return;
        };
        for origin in self.targets.iter() {
            let _ = parent.post_message(&value, origin.as_str());
        }
    }
}

/// Milliseconds since the epoch.
fn now() -> f64 {
    // `Date.now()` in the browser (whole milliseconds); the clock natively,
    // where the release step renders the first view.
    crate::storage::now_ms() as f64
}

/// The sink from context (or one that posts nothing), knowing the course's
/// interview question. Call it while a component is set up, not in an
/// event handler.
pub fn use_results() -> ResultsSink {
    let mut sink = use_context::<ResultsSink>().unwrap_or_else(ResultsSink::silent);
    sink.interview = use_context::<InterviewContext>()
        .map(|c| (c.0.interview.id.clone(), c.0.interview.title.clone()));
    sink
}
