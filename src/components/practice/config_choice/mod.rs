//! The configuration choice: two measured configurations, two workloads.
//!
//! Shows the configurations table and, for each workload, a small form: the
//! configuration chosen, the arithmetic that matters (for a batch: total
//! tokens, time to finish at each configuration's throughput, whether each
//! fits the window; for an interactive workload: which configurations meet
//! the target at p95 and their shares of late first tokens), and the
//! evidence still needed. "Check" hands one workload's answers to
//! `ttft_core::exercises::config_choice::check_workload` and shows each verdict beside its
//! field, with the core's summary announced; "Reveal" shows the content's
//! answer, the core's arithmetic and the reasoning. The learner's inputs
//! are one [`ChoiceWork`] value, stored under its own key.
//!
//! What it deliberately does not do: any arithmetic or verdict of its own;
//! every figure comes from the core, formatted by the core's types.
//!
//! Its parts: `form` (one workload's form), `feedback` (what a field shows
//! after a check), `reveal` (a workload's answer), and here the page with
//! its two tables.

mod feedback;
mod form;
mod reveal;

use crate::components::prose::Prose;
use crate::learner_state;
use crate::learner_state::choice_work::ChoiceWork;
use crate::storage::{open_for_app, Stored};
use form::workload_form;
use leptos::prelude::*;
use std::sync::Arc;
use ttft_core::content::{ConfigExercise, ServingConfig, Workload};
use ttft_latency::split::format_tenths;
use ttft_latency::time::group_thousands;
use ttft_latency::Micros;

/// The configuration choice part.
#[component]
pub fn ConfigChoicePage(
    /// The exercise content.
    exercise: ConfigExercise,
) -> impl IntoView {
    let stored: Stored<ChoiceWork> = open_for_app(learner_state::choice_work(&exercise));
    let exercise = Arc::new(exercise);
    let forms = exercise
        .workloads
        .iter()
        .enumerate()
        .map(|(index, w)| workload_form(index, w, Arc::clone(&exercise), stored.clone()))
        .collect_view();
    view! {
        <article class="practice config-choice">
            <h1 id="page-title"><Prose text=exercise.title.clone() /></h1>
            <p><Prose text=exercise.intro.clone() /></p>
            {configs_table(&exercise)}
            {workloads_table(&exercise.workloads)}
            {forms}
        </article>
    }
}

/// A row of the configurations table: its name (which may cite the
/// exercise, as the lateness threshold does) and each configuration's value.
type Measure = (fn(&ConfigExercise) -> String, fn(&ServingConfig) -> String);

const MEASURES: [Measure; 7] = [
    (|_| "Weights".into(), |c| c.weights.clone()),
    (
        |_| "Maximum sequences per batch".into(),
        |c| group_thousands(u64::from(c.max_sequences_per_batch)),
    ),
    (
        |_| "Output throughput, all requests".into(),
        |c| format!("{} tokens/s", group_thousands(c.throughput_tps)),
    ),
    (
        |_| "p95 server TTFT".into(),
        |c| Micros::from_ms(c.p95_ttft_ms).to_string(),
    ),
    (
        |x| format!("Requests whose first token missed {}", x.late_after()),
        |c| format!("{}%", format_tenths(c.late_first_token_tenths)),
    ),
    (
        |_| "Requests failed or rejected".into(),
        |c| format!("{}%", format_tenths(c.failed_or_rejected_tenths)),
    ),
    (
        |_| "Quality checks on platform tasks".into(),
        |c| c.quality_note.clone(),
    ),
];

fn configs_table(exercise: &ConfigExercise) -> impl IntoView {
    let configs = &exercise.configs;
    let head = configs
        .iter()
        .map(|c| view! { <th scope="col">{format!("Config {}", c.id)}</th> })
        .collect_view();
    let body = MEASURES
        .iter()
        .map(|(name, value)| {
            let cells = configs
                .iter()
                .map(|c| view! { <td>{value(c)}</td> })
                .collect_view();
            view! { <tr><th scope="row">{name(exercise)}</th>{cells}</tr> }
        })
        .collect_view();
    view! {
        <div class="table-scroll" role="region" aria-labelledby="configs-caption" tabindex="0">
            <table>
                <caption id="configs-caption">"The configurations, as measured"</caption>
                <thead><tr><th scope="col">"Measure"</th>{head}</tr></thead>
                <tbody>{body}</tbody>
            </table>
        </div>
    }
}

fn workloads_table(workloads: &[Workload]) -> impl IntoView {
    let body = workloads
        .iter()
        .map(|w| {
            view! {
                <tr>
                    <th scope="row"><Prose text=w.name.clone() /></th>
                    <td><Prose text=w.description.clone() /></td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="table-scroll" role="region" aria-labelledby="workloads-caption" tabindex="0">
            <table>
                <caption id="workloads-caption">"Workloads to choose a configuration for"</caption>
                <thead><tr><th scope="col">"Workload"</th><th scope="col">"What it needs"</th></tr></thead>
                <tbody>{body}</tbody>
            </table>
        </div>
    }
}
