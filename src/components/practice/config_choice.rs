//! The configuration choice: two measured configurations, two workloads.
//!
//! Shows the exercise's introduction, the configurations table (measures by
//! row, configurations by column, as the course presents them) and the
//! workloads table. Times and shares are formatted by the core's types. What
//! it deliberately does not show: the answers or the arithmetic that decides
//! them, which the exercise reveals after the learner chooses.

use crate::components::prose::Prose;
use leptos::prelude::*;
use ttft_core::content::{ConfigExercise, ServingConfig, Workload};
use ttft_core::split::format_tenths;
use ttft_core::time::group_thousands;
use ttft_core::Micros;

/// The configuration choice part.
#[component]
pub fn ConfigChoicePage(
    /// The exercise content.
    exercise: ConfigExercise,
) -> impl IntoView {
    view! {
        <article class="practice">
            <h1 id="page-title"><Prose text=exercise.title.clone() /></h1>
            <p><Prose text=exercise.intro.clone() /></p>
            {configs_table(&exercise.configs)}
            {workloads_table(&exercise.workloads)}
        </article>
    }
}

type Measure = (&'static str, fn(&ServingConfig) -> String);

const MEASURES: [Measure; 7] = [
    ("Weights", |c| c.weights.clone()),
    ("Maximum sequences per batch", |c| group_thousands(u64::from(c.max_sequences_per_batch))),
    ("Output throughput, all requests", |c| format!("{} tokens/s", group_thousands(c.throughput_tps))),
    ("p95 server TTFT", |c| Micros::from_ms(c.p95_ttft_ms).to_string()),
    ("Requests whose first token missed 1 s", |c| format!("{}%", format_tenths(c.late_first_token_tenths))),
    ("Requests failed or rejected", |c| format!("{}%", format_tenths(c.failed_or_rejected_tenths))),
    ("Quality checks on platform tasks", |c| c.quality_note.clone()),
];

fn configs_table(configs: &[ServingConfig]) -> impl IntoView {
    let head = configs.iter().map(|c| view! { <th scope="col">{format!("Config {}", c.id)}</th> }).collect_view();
    let body = MEASURES
        .iter()
        .map(|(name, value)| {
            let cells = configs.iter().map(|c| view! { <td>{value(c)}</td> }).collect_view();
            view! { <tr><th scope="row">{*name}</th>{cells}</tr> }
        })
        .collect_view();
    view! {
        <div class="table-scroll" role="region" aria-labelledby="configs-caption" tabindex="0">
            <table>
                <caption id="configs-caption">"Two configurations of the same model revision, same hardware, same mixed workload"</caption>
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
