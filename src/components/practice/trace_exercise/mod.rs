//! The trace exercise: four hint requests to diagnose against the target.
//!
//! The learner reads the trace table and a chart of each request's three
//! parts, then predicts, for each request, the dominant delay, its share of
//! TTFT and what to investigate first. "Check" hands the answers as they
//! stand to `ttft_core::exercises::trace_exercise::check_trace`; each field shows its verdict
//! next to it, with the misconception's title and explanation from content,
//! and the core's one-sentence summary is announced. "Reveal" shows the
//! core's answer with the content's reasoning (figures filled by the core).
//! Answers, attempts and the revealed state are one [`TraceWork`] value,
//! stored under its own key, so a reload keeps them.
//!
//! What it deliberately does not do: decide any verdict or compute any
//! share (the core does both), or show an answer before the learner asks.
//!
//! Its parts: `request_form` (one request's answer), `feedback` (what a
//! field shows after a check), `reveal` (the answers), `chart` (the stacked
//! bars and their table) and `trace_table` (the trace itself).

mod chart;
mod feedback;
mod request_form;
mod reveal;
mod trace_table;

pub use trace_table::TraceTable;

use crate::components::later::Later;
use crate::components::prose::Prose;
use crate::learner_state;
use crate::learner_state::merge::next_stamp;
use crate::learner_state::trace_work::TraceWork;
use crate::storage::{now_ms, open_for_app, Stored};
use chart::trace_chart;
use leptos::prelude::*;
use request_form::request_form;
use reveal::reveal_item;
use std::sync::Arc;
use ttft_core::content::TraceExercise;
use ttft_core::exercises::trace_exercise::{check_trace, Reveal};
use ttft_latency::Micros;

/// The trace exercise part.
#[component]
pub fn TraceExercisePage(
    /// The exercise content.
    exercise: TraceExercise,
) -> impl IntoView {
    let stored: Stored<TraceWork> = open_for_app(learner_state::trace_work(&exercise));
    let work = stored.signal();
    let exercise = Arc::new(exercise);
    let target = Micros::from_ms(exercise.target_ms);

    let result = {
        let exercise = Arc::clone(&exercise);
        let ids: Vec<String> = exercise.requests.iter().map(|r| r.id.clone()).collect();
        Memo::new(move |_| {
            work.with(|w| {
                w.checked_in_order(ids.iter().map(String::as_str))
                    .map(|answers| check_trace(&exercise, &answers))
            })
        })
    };
    let reveals: Vec<Option<Reveal>> = check_trace(&exercise, &[])
        .rows
        .into_iter()
        .map(|r| r.ok().map(|r| r.reveal))
        .collect();

    let forms = exercise
        .requests
        .iter()
        .enumerate()
        .map(|(index, row)| request_form(index, row, Arc::clone(&exercise), stored.clone(), result))
        .collect_view();

    let summary = move || {
        let attempts = work.with(|w| w.attempts);
        result.with(|r| match r {
            Some(r) => format!("Check {attempts}: {}.", r.summary()),
            None => String::new(),
        })
    };
    let results = crate::components::embed::results::use_results();
    let on_check = {
        let stored = stored.clone();
        let exercise = Arc::clone(&exercise);
        move |_| {
            let _ = stored.update(|w| w.check(now_ms()));
            let answers = work.with_untracked(|w| {
                w.answers_in_order(exercise.requests.iter().map(|r| r.id.as_str()))
            });
            results.trace_checked(&exercise, &answers);
        }
    };
    let on_reveal = {
        let stored = stored.clone();
        move |_| {
            let _ = stored.update(|w| {
                let show = !w.revealed;
                w.set_revealed(show, now_ms());
            });
        }
    };
    let on_clear = {
        let stored = stored.clone();
        move |_| {
            let _ = stored.update(|w| {
                let stamp = w.changed_ms;
                *w = TraceWork::default();
                w.changed_ms = next_stamp(stamp, now_ms());
            });
        }
    };
    let revealed = move || work.with(|w| w.revealed);
    let attempts_text = move || match work.with(|w| w.attempts) {
        0 => "Not checked yet.".to_owned(),
        1 => "Checked once.".to_owned(),
        n => format!("Checked {n} times."),
    };
    let reveal_list = {
        let exercise = Arc::clone(&exercise);
        exercise
            .requests
            .iter()
            .zip(reveals)
            .map(|(row, reveal)| reveal_item(row, reveal, &exercise))
            .collect_view()
    };

    let rows = exercise.requests.clone();
    view! {
        <article class="practice trace-exercise">
            <h1 id="page-title"><Prose text=exercise.title.clone() /></h1>
            <p><Prose text=exercise.intro.clone() /></p>
            <p class="target">
                <strong>"Target: "</strong>
                {format!("a server TTFT of at most {target} per request.")}
            </p>
            <Later><TraceTable rows=rows caption_id="trace-table-caption" /></Later>
            <Later>{trace_chart(&exercise.requests, target)}</Later>
            <section aria-labelledby="tx-answers-title" class="tx-answers">
                <h2 id="tx-answers-title">"Your diagnosis"</h2>
                <p>
                    "For each request: the dominant delay, its share of TTFT in percent (one decimal), \
                     and what you would investigate first. The share is checked as the share of the part you \
                     name. Check as often as you like."
                </p>
                <form class="tx-form" on:submit=|ev| ev.prevent_default()>
                    <Later>{forms}</Later>
                    <div class="practice-actions">
                        <button type="button" class="primary" on:click=on_check>"Check answers"</button>
                        <button
                            type="button"
                            aria-expanded=move || if revealed() { "true" } else { "false" }
                            aria-controls="tx-reveal"
                            on:click=on_reveal
                        >
                            {move || if revealed() { "Hide answers" } else { "Reveal answers" }}
                        </button>
                        <button type="button" on:click=on_clear>"Clear my answers"</button>
                        <span class="attempts">{attempts_text}</span>
                    </div>
                </form>
                <p class="practice-status" role="status" aria-live="polite" aria-label="Result of your check">{summary}</p>
            </section>
            <section id="tx-reveal" class="reveal" aria-labelledby="tx-reveal-title" hidden=move || !revealed()>
                <h2 id="tx-reveal-title">"Answers"</h2>
                <Later><ol class="reveal-list">{reveal_list}</ol></Later>
            </section>
        </article>
    }
}
