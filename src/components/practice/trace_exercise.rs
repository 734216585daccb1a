//! The trace exercise: four hint requests to diagnose against the target.
//!
//! Shows the exercise's introduction, the target, and the trace table, with
//! each row's TTFT worked out by the core from the row's three parts (and
//! checked against the TTFT the trace states). What it deliberately does not
//! show: the answers, which the exercise reveals only after the learner has
//! committed to a diagnosis.

use crate::components::prose::Prose;
use leptos::prelude::*;
use ttft_core::content::{TraceExercise, TraceRow};
use ttft_core::time::group_thousands;
use ttft_core::{split_request, Micros};

/// The trace exercise part.
#[component]
pub fn TraceExercisePage(
    /// The exercise content.
    exercise: TraceExercise,
) -> impl IntoView {
    let target = Micros::from_ms(exercise.target_ms);
    view! {
        <article class="practice">
            <h1 id="page-title"><Prose text=exercise.title.clone() /></h1>
            <p><Prose text=exercise.intro.clone() /></p>
            <p class="target">
                <strong>"Target: "</strong>
                {format!("a server TTFT of at most {target} per hint.")}
            </p>
            <TraceTable rows=exercise.requests.clone() caption_id="trace-table-caption" />
        </article>
    }
}

/// The trace table: one row per request, parts and TTFT in server
/// milliseconds on one clock.
#[component]
pub fn TraceTable(
    /// The requests, in trace order.
    rows: Vec<TraceRow>,
    /// The id of the table's caption, unique on the page.
    caption_id: &'static str,
) -> impl IntoView {
    let body = rows.iter().map(row).collect_view();
    view! {
        <div class="table-scroll" role="region" aria-labelledby=caption_id tabindex="0">
            <table class="trace-table">
                <caption id=caption_id>"Hint requests: server-side milliseconds on one clock"</caption>
                <thead>
                    <tr>
                        <th scope="col">"Request"</th>
                        <th scope="col">"Prompt tokens"</th>
                        <th scope="col">"Queued at arrival"</th>
                        <th scope="col">"Queue wait"</th>
                        <th scope="col">"Prefill"</th>
                        <th scope="col">"Emit"</th>
                        <th scope="col">"TTFT"</th>
                        <th scope="col">"Output rate after the first token"</th>
                    </tr>
                </thead>
                <tbody>{body}</tbody>
            </table>
        </div>
    }
}

fn row(r: &TraceRow) -> impl IntoView {
    let ttft = match split_request(&r.request_trace()) {
        Ok(split) => split.ttft().to_string(),
        Err(e) => format!("cannot be split: {e}"),
    };
    let prompt = match &r.prompt_note {
        Some(note) => format!("{} ({})", group_thousands(r.prompt_tokens), note),
        None => group_thousands(r.prompt_tokens),
    };
    view! {
        <tr>
            <th scope="row">{r.id.clone()}</th>
            <td>{prompt}</td>
            <td class="num">{group_thousands(r.queued_at_arrival)}</td>
            <td class="num">{Micros::from_ms(r.queue_wait_ms).to_string()}</td>
            <td class="num">{Micros::from_ms(r.prefill_ms).to_string()}</td>
            <td class="num">{Micros::from_ms(r.emit_ms).to_string()}</td>
            <td class="num">{ttft}</td>
            <td class="num">{format!("{} tokens/s", r.output_rate_tps)}</td>
        </tr>
    }
}
