//! One simulated run's own figures: what it shows in sentences, a table per
//! class (TTFT percentiles, each part's p95, goodput, preemptions), the
//! run's totals, and the queue, running batch and KV cache over time as a
//! chart with its data table. Every string comes from `ttft_sim::report`;
//! this file only lays it out and maps the series to pixels.

use crate::components::chart_width::chart_width;
use crate::worker::sim::{RunFigures, Slot};
use leptos::prelude::*;
use ttft_latency::axis::nice_number;
use ttft_sim::report::{self, SeriesRow};
use ttft_latency::decimal::{fixed, shortest, trimmed};

/// Room left of the plots, for their axis figures.
const LEFT: f64 = 72.0;
/// Room right of the plots.
const RIGHT: f64 = 16.0;
const PANEL: f64 = 70.0;

/// The run's figures.
#[component]
pub fn RunFiguresView(which: Slot, figures: RunFigures) -> impl IntoView {
    let name = which.name();
    let rows = report::class_rows(&figures.classes, &figures.all);
    let convention = figures.totals.convention.label();
    let body = rows
        .into_iter()
        .map(|r| {
            view! {
                <tr>
                    <th scope="row">{r.name}</th>
                    <td class="num">{r.requests}</td>
                    <td class="num">{r.target}</td>
                    <td class="num">{r.goodput}</td>
                    <td class="num">{r.p50}</td>
                    <td class="num">{r.p95}</td>
                    <td class="num">{r.p99}</td>
                    <td class="num">{r.queue_wait_p95}</td>
                    <td class="num">{r.prefill_p95}</td>
                    <td class="num">{r.emit_p95}</td>
                    <td class="num">{r.rejected}</td>
                    <td class="num">{r.still_running}</td>
                    <td>{r.preemptions}</td>
                </tr>
            }
        })
        .collect_view();
    let totals = report::totals(&figures.totals)
        .into_iter()
        .map(|(k, v)| view! { <div><dt>{k}</dt><dd>{v}</dd></div> })
        .collect_view();
    let reading = report::reading(&figures.all).into_iter().map(|s| view! { <p>{s}</p> }).collect_view();
    let ignored = (!figures.ignored.is_empty())
        .then(|| view! { <p class="notice notice-info">{format!("The address had settings this page does not know, left out: {}.", figures.ignored.join(", "))}</p> });
    let replayed = figures.replayed.clone().map(|n| view! { <p>{format!("Replays {n}.")}</p> });
    let table_id = format!("sim-classes-{}", name.to_ascii_lowercase());
    let table_label = table_id.clone();
    let parts_id = format!("sim-parts-{}", name.to_ascii_lowercase());
    let parts_label = parts_id.clone();
    let parts = report::part_rows(&figures.classes, &figures.all)
        .into_iter()
        .map(|r| view! { <tr><th scope="row">{r.class}</th><td>{r.part}</td><td class="num">{r.p50}</td><td class="num">{r.p95}</td><td class="num">{r.p99}</td></tr> })
        .collect_view();
    view! {
        <div class="sim-figures">
            {ignored}
            {replayed}
            <div class="sim-reading">{reading}</div>
            <div class="table-scroll table-wide" role="region" aria-labelledby=table_label tabindex="0">
                <table>
                    <caption id=table_id>{format!("Run {name} by class ({convention} percentiles)")}</caption>
                    <thead>
                        <tr>
                            <th scope="col">"Class"</th>
                            <th scope="col" class="num">"Requests"</th>
                            <th scope="col" class="num">"TTFT target"</th>
                            <th scope="col" class="num">"Met the target"</th>
                            <th scope="col" class="num">"p50 TTFT"</th>
                            <th scope="col" class="num">"p95 TTFT"</th>
                            <th scope="col" class="num">"p99 TTFT"</th>
                            <th scope="col" class="num">"p95 queue wait"</th>
                            <th scope="col" class="num">"p95 prefill"</th>
                            <th scope="col" class="num">"p95 emit"</th>
                            <th scope="col" class="num">"Rejected"</th>
                            <th scope="col" class="num">"Still running"</th>
                            <th scope="col">"Preemptions"</th>
                        </tr>
                    </thead>
                    <tbody>{body}</tbody>
                </table>
            </div>
            <p class="field-help">"Each part's p95 is its own percentile: the three need not add up to the p95 TTFT."</p>
            <details class="sim-parts">
                <summary>{format!("p50, p95 and p99 of each part, by class ({convention} percentiles)")}</summary>
                <div class="table-scroll" role="region" aria-labelledby=parts_label tabindex="0">
                    <table>
                        <caption id=parts_id>{format!("Run {name}: each part's percentiles by class")}</caption>
                        <thead><tr>
                            <th scope="col">"Class"</th>
                            <th scope="col">"Part"</th>
                            <th scope="col" class="num">"p50"</th>
                            <th scope="col" class="num">"p95"</th>
                            <th scope="col" class="num">"p99"</th>
                        </tr></thead>
                        <tbody>{parts}</tbody>
                    </table>
                </div>
            </details>
            <dl class="sim-totals">{totals}</dl>
            <SeriesChart which=which figures=figures />
        </div>
    }
}

/// One panel of the series chart, `plot` long: a line of the bucket means.
fn panel(title: &str, top: f64, plot: f64, values: &[f64]) -> impl IntoView {
    let max = values.iter().copied().fold(0.0_f64, f64::max);
    let axis = nice_number(max.ceil().max(1.0) as i64).max(1) as f64;
    let n = values.len().max(1) as f64;
    let points: String = values
        .iter()
        .enumerate()
        .map(|(k, v)| {
            let x = LEFT + (k as f64 + 0.5) / n * plot;
            let y = top + PANEL - (v / axis).clamp(0.0, 1.0) * PANEL;
            format!("{},{}", fixed(x, 1), fixed(y, 1))
        })
        .collect::<Vec<_>>()
        .join(" ");
    view! {
        <text x=trimmed(LEFT, 1) y=fixed(top - 5.0, 1) class="chart-label">{title.to_owned()}</text>
        <text x=trimmed(LEFT - 6.0, 1) y=fixed(top + 10.0, 1) class="chart-axis" text-anchor="end">{shortest(axis)}</text>
        <text x=trimmed(LEFT - 6.0, 1) y=fixed(top + PANEL, 1) class="chart-axis" text-anchor="end">"0"</text>
        <line x1=trimmed(LEFT, 1) x2=trimmed(LEFT, 1) y1=trimmed(top, 1) y2=trimmed(top + PANEL, 1) class="chart-rule" />
        <line x1=trimmed(LEFT, 1) x2=trimmed(LEFT + plot, 1) y1=trimmed(top + PANEL, 1) y2=trimmed(top + PANEL, 1) class="chart-rule" />
        <polyline points=points class="sim-line" fill="none" />
    }
}

/// Queue length, running batch and KV tokens in use over the run.
#[component]
fn SeriesChart(which: Slot, figures: RunFigures) -> impl IntoView {
    let s = &figures.series;
    if s.points.is_empty() {
        return view! { <p class="chart-missing">"The run is too short to draw over time."</p> }.into_any();
    }
    let queue: Vec<f64> = s.points.iter().map(|p| p.queue).collect();
    let running: Vec<f64> = s.points.iter().map(|p| p.running).collect();
    let kv: Vec<f64> = s.points.iter().map(|p| p.kv_tokens / 1_000.0).collect();
    let end = s.points.last().map(|p| p.start + p.covered).unwrap_or_default();
    let height = 3.0 * (PANEL + 34.0) + 34.0;
    let name = which.name();
    let title_id = format!("sim-series-title-{}", name.to_ascii_lowercase());
    let desc_id = format!("sim-series-desc-{}", name.to_ascii_lowercase());
    let labelled = format!("{title_id} {desc_id}");
    let rows: Vec<SeriesRow> = report::series_rows(s);
    let body = rows
        .into_iter()
        .map(|r| view! { <tr><th scope="row" class="num">{r.from}</th><td class="num">{r.queue}</td><td class="num">{r.running}</td><td class="num">{r.kv}</td></tr> })
        .collect_view();
    let width_text = report::shown(s.width);
    let end_text = report::shown(end);
    let title = format!("Run {name} over time: requests waiting, requests running, KV cache in use");
    let desc = format!("Three lines over {end_text} of simulated time, each a mean over buckets of {width_text}; the table below has every value.");
    let svg = move || {
        let width = chart_width();
        let plot = width - LEFT - RIGHT;
        view! {
            <svg viewBox=format!("0 0 {} {}", trimmed(width, 1), trimmed(height, 1)) role="img" aria-labelledby=labelled.clone()>
                <title id=title_id.clone()>{title.clone()}</title>
                <desc id=desc_id.clone()>{desc.clone()}</desc>
                {panel("requests waiting", 20.0, plot, &queue)}
                {panel("requests running", 20.0 + PANEL + 34.0, plot, &running)}
                {panel("KV-cache tokens in use (thousands)", 20.0 + 2.0 * (PANEL + 34.0), plot, &kv)}
                <text x=trimmed(LEFT, 1) y=trimmed(height - 6.0, 1) class="chart-axis">"0 ms"</text>
                <text x=trimmed(LEFT + plot, 1) y=trimmed(height - 6.0, 1) class="chart-axis" text-anchor="end">{end_text.clone()}</text>
            </svg>
        }
    };
    view! {
        <figure class="sim-chart">
            {svg}
            <figcaption>{format!("Run {name}: requests waiting, requests running and KV-cache tokens in use over simulated time (means over buckets of {width_text}).")}</figcaption>
            <details>
                <summary>{format!("The chart's data ({} buckets)", s.points.len())}</summary>
                <div class="table-scroll" role="region" aria-label=format!("Run {name} over time, as a table") tabindex="0">
                    <table>
                        <thead><tr>
                            <th scope="col" class="num">"From"</th>
                            <th scope="col" class="num">"Waiting, mean (most)"</th>
                            <th scope="col" class="num">"Running, mean (most)"</th>
                            <th scope="col" class="num">"KV tokens, mean (most)"</th>
                        </tr></thead>
                        <tbody>{body}</tbody>
                    </table>
                </div>
            </details>
        </figure>
    }
    .into_any()
}
