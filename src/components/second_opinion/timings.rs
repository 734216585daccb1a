//! The grading call as a lab: its client-side timings measured in this
//! browser (time to first streamed text, the gaps between chunks at p50,
//! p90 and max, end-to-end) in a small table, with the core's note on which
//! clock that is in the course's terms.
//!
//! Every figure comes from `ttft_core::second_opinion::stream::ClientTiming`; this file
//! only formats them. What it deliberately does not do: any arithmetic, or
//! pretend the browser can split queue, prefill and network.

use leptos::prelude::*;
use ttft_core::second_opinion::stream::{ClientTiming, CLIENT_CLOCK_NOTE};
use ttft_latency::time::Micros;

/// The timings table and the clock note.
#[component]
pub fn CallTimings(
    /// The call's timings.
    timing: ClientTiming,
) -> impl IntoView {
    let ms = |t: Micros| t.to_string();
    let mut rows: Vec<(&'static str, String)> = vec![
        (
            "Time to first streamed text (client-side TTFT)",
            ms(timing.first_token),
        ),
        ("End-to-end", ms(timing.end_to_end)),
        ("Chunks that carried text", timing.chunks.to_string()),
    ];
    match &timing.gap_percentiles {
        Some(p) => {
            rows.push(("Gap between chunks, p50", ms(p.p50.value)));
            rows.push(("Gap between chunks, p90", ms(p.p90.value)));
            rows.push(("Gap between chunks, max", ms(p.max)));
        }
        None => rows.push((
            "Gaps between chunks",
            "none: the text came in one chunk".to_owned(),
        )),
    }
    let body = rows
        .into_iter()
        .map(|(what, value)| view! { <tr><th scope="row">{what}</th><td class="number">{value}</td></tr> })
        .collect_view();
    view! {
        <section class="so-timings" aria-labelledby="so-timings-heading">
            <h4 id="so-timings-heading">"This grading call, measured in your browser"</h4>
            <table class="data-table">
                <caption>"Timings of the call you just made"</caption>
                <thead><tr><th scope="col">"Measure"</th><th scope="col">"Value"</th></tr></thead>
                <tbody>{body}</tbody>
            </table>
            <p class="note-small">{CLIENT_CLOCK_NOTE}</p>
        </section>
    }
}
