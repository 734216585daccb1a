//! A finished sweep: the split of the p95 request at each load as stacked
//! columns (queue wait hatched, prefill solid, emit dotted), with the
//! sweep's reading above and every point's figures in a table below.
//! Strings come from `ttft_sim::report`; this file maps the splits to
//! pixels.

use crate::components::chart_patterns::{ChartPatterns, Fill};
use crate::components::chart_width::{along, chart_width, half_width};
use leptos::prelude::*;
use ttft_latency::axis::nice_ceiling;
use ttft_latency::Micros;
use ttft_sim::report;
use ttft_sim::sweep::SweepResult;
use ttft_latency::decimal::{fixed, trimmed};

const PATTERNS: ChartPatterns = ChartPatterns::new("sw");
/// Room left of the plot, for its axis figures.
const LEFT: f64 = 84.0;
/// Room right of the plot.
const RIGHT: f64 = 16.0;
const HEIGHT: f64 = 220.0;
const TOP: f64 = 16.0;

/// The sweep.
#[component]
pub fn SweepView(result: SweepResult) -> impl IntoView {
    let rows = report::sweep_rows(&result);
    let most = rows
        .iter()
        .filter_map(|r| r.at_p95.map(|[q, p, e]| q + p + e))
        .max()
        .unwrap_or(Micros::ZERO);
    let axis = nice_ceiling(most.max(Micros(1_000)));
    let body = rows
        .iter()
        .map(|r| {
            view! {
                <tr>
                    <th scope="row" class="num">{r.load.clone()}</th>
                    <td class="num">{r.rate.clone()}</td>
                    <td class="num">{r.ttft_p95.clone()}</td>
                    <td class="num">{r.queue_wait_p95.clone()}</td>
                    <td class="num">{r.prefill_p95.clone()}</td>
                    <td class="num">{r.emit_p95.clone()}</td>
                    <td class="num">{r.met_target.clone()}</td>
                    <td class="num">{r.throughput.clone()}</td>
                </tr>
            }
        })
        .collect_view();
    let convention = result.convention.label();
    let svg = move || sweep_svg(&rows, axis, chart_width());
    view! {
        <section class="sim-sweep-result" aria-labelledby="sim-sweep-result-title">
            <h3 id="sim-sweep-result-title">"Sweep result"</h3>
            <p>{report::sweep_reading(&result)}</p>
            <figure class="sim-chart">
                {svg}
                <figcaption>"Load is the arrival rate as a share of the estimated capacity. Each column is one request's split, the one at p95 TTFT, so its parts add up."</figcaption>
            </figure>
            <div class="table-scroll" role="region" aria-labelledby="sim-sweep-table-caption" tabindex="0">
                <table>
                    <caption id="sim-sweep-table-caption">{format!("Every point of the sweep, all requests ({convention} percentiles)")}</caption>
                    <thead><tr>
                        <th scope="col" class="num">"Load"</th>
                        <th scope="col" class="num">"Arrival rate"</th>
                        <th scope="col" class="num">"p95 TTFT"</th>
                        <th scope="col" class="num">"p95 queue wait"</th>
                        <th scope="col" class="num">"p95 prefill"</th>
                        <th scope="col" class="num">"p95 emit"</th>
                        <th scope="col" class="num">"Met the target"</th>
                        <th scope="col" class="num">"Throughput"</th>
                    </tr></thead>
                    <tbody>{body}</tbody>
                </table>
            </div>
        </section>
    }
}

/// The sweep's columns, `width` wide. A load is written under every column
/// when the labels fit, else under every second, third, ... column (always
/// the first), so they never run into each other.
fn sweep_svg(rows: &[report::SweepRow], axis: Micros, width: f64) -> impl IntoView {
    let plot = width - LEFT - RIGHT;
    let n = rows.len().max(1) as f64;
    let slot = plot / n;
    let bar = (slot * 0.7).min(36.0);
    let base = TOP + HEIGHT;
    let widest = rows.iter().map(|r| half_width(&r.load)).fold(0.0_f64, f64::max) * 2.0 + 8.0;
    let every = (widest / slot).ceil().max(1.0) as usize;
    let columns = rows
        .iter()
        .enumerate()
        .map(|(k, r)| {
            let x = LEFT + slot * k as f64 + (slot - bar) / 2.0;
            let mut y = base;
            let segments = r.at_p95.map(|parts| {
                parts
                    .iter()
                    .zip([Fill::Queue, Fill::Prefill, Fill::Emit])
                    .map(|(&t, fill)| {
                        let h = along(t, axis, HEIGHT);
                        y -= h;
                        view! { <rect x=fixed(x, 1) y=fixed(y, 1) width=fixed(bar, 1) height=fixed(h, 1) fill=PATTERNS.url(fill) class="chart-segment" /> }
                    })
                    .collect_view()
            });
            let label = (k % every == 0).then(|| {
                view! { <text x=fixed(x + bar / 2.0, 1) y=trimmed(base + 14.0, 1) class="chart-axis" text-anchor="middle">{r.load.clone()}</text> }
            });
            view! { {segments} {label} }
        })
        .collect_view();
    // The legend from the plot's left on a wide drawing, from the edge on a
    // narrow one, three to a row.
    let start = if width - 8.0 - LEFT >= 450.0 { LEFT } else { 8.0 };
    let spacing = ((width - start - 8.0) / 3.0).min(150.0);
    let legend = [("queue wait", Fill::Queue), ("prefill", Fill::Prefill), ("emit", Fill::Emit)]
        .into_iter()
        .enumerate()
        .map(|(k, (name, fill))| {
            let x = start + spacing * k as f64;
            view! {
                <rect x=trimmed(x, 1) y=trimmed(base + 30.0, 1) width="12" height="12" fill=PATTERNS.url(fill) class="chart-segment" />
                <text x=trimmed(x + 17.0, 1) y=trimmed(base + 40.0, 1) class="chart-label">{name}</text>
            }
        })
        .collect_view();
    view! {
        <svg viewBox=format!("0 0 {} {}", trimmed(width, 1), trimmed(base + 52.0, 1)) role="img" aria-labelledby="sim-sweep-chart-title sim-sweep-chart-desc">
            <title id="sim-sweep-chart-title">"The p95 request's TTFT split at each load"</title>
            <desc id="sim-sweep-chart-desc">{format!(
                "One column per load, from the lightest to the heaviest, each the TTFT of the request at p95 divided into queue wait, prefill and emit. The axis runs from 0 to {axis}. The table below has every figure."
            )}</desc>
            {PATTERNS.defs(&[Fill::Queue, Fill::Prefill, Fill::Emit])}
            <line x1=trimmed(LEFT, 1) x2=trimmed(LEFT, 1) y1=trimmed(TOP, 1) y2=trimmed(base, 1) class="chart-rule" />
            <line x1=trimmed(LEFT, 1) x2=trimmed(LEFT + plot, 1) y1=trimmed(base, 1) y2=trimmed(base, 1) class="chart-rule" />
            <text x=trimmed(LEFT - 6.0, 1) y=trimmed(TOP + 8.0, 1) class="chart-axis" text-anchor="end">{axis.to_string()}</text>
            <text x=trimmed(LEFT - 6.0, 1) y=trimmed(base, 1) class="chart-axis" text-anchor="end">"0 ms"</text>
            {columns}
            {legend}
        </svg>
    }
}
