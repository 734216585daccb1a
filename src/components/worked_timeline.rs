//! The worked timeline: the lesson's example request with editable times.
//!
//! Six labelled boxes hold the five server events and the browser's time to
//! first text. As the learner types, the split, each part's share, the
//! dominant delay, the output rate after the first token, the end-to-end
//! latency, vLLM's convention and the gap the server cannot see are worked
//! out again, all by the core (through `timeline_entry`). A problem shows
//! beside the box that caused it; the figures then keep the last valid
//! values and say so. A polite live region announces each new split.
//!
//! What it deliberately does not do: arithmetic on times (the core does it),
//! or remember what was typed across reloads (the lesson's values are the
//! point of the example; a reset button brings them back).

use crate::components::prose::Prose;
use crate::components::timeline_chart::timeline_chart;
use crate::timeline_entry::{Entries, Entry, Evaluation};
use leptos::prelude::*;
use ttft_core::content::WorkedTimeline;
use ttft_latency::split::format_tenths;
use ttft_latency::{Decode, Dominant, Micros, Part, RequestSplit, Share};

/// Figures that were valid together.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Figures {
    request: RequestSplit,
    browser_first_text: Option<Micros>,
    unseen_by_server: Option<Micros>,
}

/// The editable worked timeline with its figures, chart and table.
#[component]
pub fn WorkedTimelineWidget(
    /// The lesson's example request.
    timeline: WorkedTimeline,
) -> impl IntoView {
    let initial = Entries::from_timeline(&timeline);
    let description = timeline.description.clone();
    let timeline = StoredValue::new(timeline);
    let entries = RwSignal::new(initial.clone());
    let evaluation: Memo<Evaluation> =
        Memo::new(move |_| timeline.with_value(|wt| entries.with(|e| e.evaluate(wt))));
    let last_good: Memo<Option<Figures>> = Memo::new(move |previous: Option<&Option<Figures>>| {
        evaluation
            .with(|ev| {
                ev.split.as_ref().map(|request| Figures {
                    request: request.clone(),
                    browser_first_text: ev.browser_first_text,
                    unseen_by_server: ev.unseen_by_server,
                })
            })
            .or_else(|| previous.cloned().flatten())
    });
    let all_valid = move || evaluation.with(|ev| ev.errors.is_empty());

    let fields = Entry::ALL
        .map(|entry| field(entry, entries, evaluation))
        .into_iter()
        .collect_view();

    let announcement = move || {
        if !all_valid() {
            return "Some times are not valid; the figures show the last valid values.".to_owned();
        }
        match last_good.get() {
            Some(f) => {
                let s = f.request.split;
                format!(
                    "TTFT {}: queue wait {}, prefill {}, emit {}. Largest: {}.",
                    s.ttft(),
                    s.queue_wait,
                    s.prefill,
                    s.emit,
                    s.dominant()
                )
            }
            None => String::new(),
        }
    };

    view! {
        <div class="worked-timeline">
            <p class="wt-description"><Prose text=description /></p>
            <form class="wt-form" on:submit=|ev| ev.prevent_default() aria-labelledby="wt-inputs-title">
                <h3 id="wt-inputs-title">"Times (edit any of them)"</h3>
                <div class="wt-fields">{fields}</div>
                <button type="button" class="button" on:click=move |_| entries.set(initial.clone())>
                    "Reset to the lesson's values"
                </button>
            </form>
            <section class="wt-results" aria-labelledby="wt-results-title">
                <h3 id="wt-results-title">"What the times give"</h3>
                {move || (!all_valid()).then(|| view! {
                    <p class="wt-stale">
                        {move || if last_good.with(Option::is_some) {
                            "Fix the time marked above to update these figures; they show the last valid values."
                        } else {
                            "Fix the time marked above to see the figures."
                        }}
                    </p>
                })}
                {move || last_good.get().map(|f| figures(&f, all_valid()))}
            </section>
            <p class="visually-hidden" role="status" aria-live="polite" aria-label="Worked timeline result">{announcement}</p>
        </div>
    }
}

/// One labelled box with its error beside it.
fn field(entry: Entry, entries: RwSignal<Entries>, evaluation: Memo<Evaluation>) -> impl IntoView {
    let error = move || evaluation.with(|ev| ev.error_for(entry).map(|e| e.to_string()));
    let error_id = format!("{}-error", entry.id());
    let described_by = {
        let error_id = error_id.clone();
        move || error().map(|_| error_id.clone())
    };
    view! {
        <div class="field" class:field-invalid=move || error().is_some()>
            <label for=entry.id()>{entry.label()}</label>
            <input
                id=entry.id()
                type="text"
                inputmode="decimal"
                autocomplete="off"
                spellcheck="false"
                // The attribute is the box's text as first rendered, so that
                // the static first view (HTML, which has no properties)
                // shows it too; the property keeps it in step as it changes.
                value=entries.with_untracked(|e| e.text(entry).to_owned())
                prop:value=move || entries.with(|e| e.text(entry).to_owned())
                on:input=move |ev| entries.update(|e| e.set(entry, event_target_value(&ev)))
                aria-invalid=move || if error().is_some() { "true" } else { "false" }
                aria-describedby=described_by
            />
            <p class="field-error" id=error_id>{error}</p>
        </div>
    }
}

fn decode_text(decode: Option<Decode>) -> String {
    match decode {
        Some(d) => {
            let per_token = d.time_per_token().map_or_else(
                || "no time per token".to_owned(),
                |t| format!("{t} per token"),
            );
            let rate = d.output_rate_tenths().map_or_else(
                || "no rate".to_owned(),
                |tenths| format!("{} tokens/s", format_tenths(tenths)),
            );
            format!(
                "{} more tokens in {}: {per_token}, {rate}",
                d.tokens_after_first, d.duration
            )
        }
        None => "needs the last token's time".to_owned(),
    }
}

fn dominant_text(request: &RequestSplit) -> String {
    let split = request.split;
    match split.dominant() {
        Dominant::Single(part) => format!("{part}, {} of TTFT", split.share(part)),
        tie @ Dominant::Tie(_) => format!("{tie}"),
    }
}

fn figures(f: &Figures, current: bool) -> impl IntoView {
    let r = &f.request;
    let s = r.split;
    let vllm = s.vllm();
    let gap = match (f.browser_first_text, f.unseen_by_server) {
        (Some(browser), Some(gap)) => {
            format!(
                "{browser} in the browser, {} at the server: {gap} the server trace cannot see",
                s.ttft()
            )
        }
        _ => "needs a browser time at least as long as the server's TTFT".to_owned(),
    };
    let rows: [(&str, String); 6] = [
        (
            "Time to first token at the server",
            format!(
                "{} = {} queue wait + {} prefill + {} emit",
                s.ttft(),
                s.queue_wait,
                s.prefill,
                s.emit
            ),
        ),
        ("Dominant delay", dominant_text(r)),
        ("After the first token", decode_text(r.decode)),
        (
            "End-to-end latency at the server",
            r.end_to_end.map_or_else(
                || "needs the last token's time".to_owned(),
                |t| t.to_string(),
            ),
        ),
        (
            "In vLLM's convention",
            format!(
                "queue {}, prefill {} (vLLM counts emit as prefill)",
                vllm.queue, vllm.prefill_with_emit
            ),
        ),
        ("Browser versus server", gap),
    ];
    let rows = rows
        .into_iter()
        .map(|(term, value)| view! { <div class="figure"><dt>{term}</dt><dd>{value}</dd></div> })
        .collect_view();
    let table_rows = Part::ALL
        .into_iter()
        .map(|part| {
            view! {
                <tr>
                    <th scope="row">{part.label()}</th>
                    <td class="num">{s.part(part).to_string()}</td>
                    <td class="num">{s.share(part).to_string()}</td>
                </tr>
            }
        })
        .collect_view();
    let decode_row = r.decode.map(|d| {
        view! {
            <tr>
                <th scope="row">"decode (after the first token)"</th>
                <td class="num">{d.duration.to_string()}</td>
                <td class="num">"not part of TTFT"</td>
            </tr>
        }
    });
    view! {
        <div class="wt-figures" class:stale=!current>
            <dl class="figures">{rows}</dl>
            <div class="wt-chart-and-table">
                {timeline_chart(r)}
                <div class="table-scroll" role="region" aria-labelledby="wt-table-caption" tabindex="0">
                    <table class="wt-table">
                        <caption id="wt-table-caption">"The split in numbers"</caption>
                        <thead>
                            <tr><th scope="col">"Part"</th><th scope="col" class="num">"Duration"</th><th scope="col" class="num">"Share of TTFT"</th></tr>
                        </thead>
                        <tbody>
                            {table_rows}
                            <tr class="total">
                                <th scope="row">"TTFT"</th>
                                <td class="num">{s.ttft().to_string()}</td>
                                <td class="num">{Share { part: s.ttft(), whole: s.ttft() }.to_string()}</td>
                            </tr>
                            {decode_row}
                        </tbody>
                    </table>
                </div>
            </div>
        </div>
    }
}

