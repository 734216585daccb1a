//! The trace table: the requests' figures as the trace records them, shown
//! by the trace exercise and the interview question.

use leptos::prelude::*;
use ttft_core::content::TraceRow;
use ttft_latency::time::group_thousands;
use ttft_latency::{split_request, Micros};

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
                <caption id=caption_id>"The requests: server-side milliseconds on one clock"</caption>
                <thead>
                    <tr>
                        <th scope="col">"Request"</th>
                        <th scope="col">"Prompt tokens"</th>
                        <th scope="col" class="num">"Queued at arrival"</th>
                        <th scope="col" class="num">"Queue wait"</th>
                        <th scope="col" class="num">"Prefill"</th>
                        <th scope="col" class="num">"Emit"</th>
                        <th scope="col" class="num">"TTFT"</th>
                        <th scope="col" class="num">"Output rate after the first token"</th>
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
