//! A workload's answer, once the learner asks: the content's choice and
//! conditions, the core's arithmetic, the evidence still needed and why.

use crate::components::prose::Prose;
use leptos::prelude::*;
use ttft_core::content::{ConfigExercise, Workload};
use ttft_core::exercises::config_choice::{plan, WorkloadPlan};
use ttft_latency::split::format_tenths;
use ttft_latency::time::group_thousands;

/// The answer for a workload: the choice, the core's arithmetic, the
/// evidence still needed and the reasoning.
pub(super) fn reveal(workload: &Workload, exercise: &ConfigExercise) -> impl IntoView {
    let arithmetic = match plan(workload, &exercise.configs) {
        Err(e) => view! { <p>{format!("The arithmetic cannot be done: {e}.")}</p> }.into_any(),
        Ok(WorkloadPlan::Batch(b)) => {
            let window = format!("{} s", group_thousands(b.window_secs.max(0).unsigned_abs()));
            let items = b
                .configs
                .iter()
                .map(|f| {
                    let fits = if f.fits { "fits the window" } else { "does not fit the window" };
                    view! { <li>{format!("Config {}: {}; {fits}.", f.config, f.describe(b.total_tokens))}</li> }
                })
                .collect_view();
            view! {
                <p>{format!("Total output tokens: {} (items × output tokens per item). Window: {window}.", group_thousands(b.total_tokens))}</p>
                <ul>{items}</ul>
            }
            .into_any()
        }
        Ok(WorkloadPlan::Interactive { target, configs }) => {
            let items = configs
                .iter()
                .map(|f| {
                    let meets = if f.meets_target { "meets" } else { "misses" };
                    view! {
                        <li>{format!(
                            "Config {}: p95 TTFT {}, {meets} the {target} target; {}% of first tokens later than {}.",
                            f.config,
                            f.p95_ttft,
                            format_tenths(f.late_first_token_tenths),
                            exercise.late_after()
                        )}</li>
                    }
                })
                .collect_view();
            view! { <ul>{items}</ul> }.into_any()
        }
    };
    let conditional = workload
        .answer
        .conditional
        .iter()
        .map(|c| view! { <p>{format!("Config {} becomes acceptable {}.", c.config, c.condition)}</p> })
        .collect_view();
    let evidence = workload
        .answer
        .evidence_needed
        .iter()
        .filter_map(|id| exercise.evidence.iter().find(|o| &o.id == id))
        .map(|o| view! { <li><strong><Prose text=o.label.clone() /></strong>": "<Prose text=o.why.clone() /></li> })
        .collect_view();
    view! {
        <h3>"Answer"</h3>
        <p class="answer-line"><strong>{format!("Config {}", workload.answer.choice)}</strong></p>
        {conditional}
        <h4>"The arithmetic"</h4>
        {arithmetic}
        <h4>"Evidence still needed"</h4>
        <ul>{evidence}</ul>
        <h4>"Why"</h4>
        <p><Prose text=workload.answer.reasoning.clone() /></p>
    }
}
