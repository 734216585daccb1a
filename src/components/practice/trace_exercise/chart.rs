//! The trace exercise's chart: each request's queue wait, prefill and emit
//! as stacked bars on one millisecond axis, with the target line, and the
//! chart's data as a table beside it.

use crate::components::chart_patterns::{hundredths, ChartPatterns, Fill};
use leptos::prelude::*;
use ttft_core::content::TraceRow;
use ttft_latency::axis::nice_step;
use ttft_latency::time::group_thousands;
use ttft_latency::{split_request, Micros, Part};

// The drawing's geometry in whole units; a position along the time axis
// is held in hundredths of a unit (`chart_patterns::hundredths`), so no
// float is formatted.
/// Left edge of the bars, after the request ids.
const BARS_LEFT: u64 = 36;
/// Width of the millisecond axis.
const BARS_WIDTH: u64 = 300;
const ROW_HEIGHT: u64 = 34;
const BAR_HEIGHT: u64 = 22;
const CHART_TOP: u64 = 28;

/// The trace chart's fill patterns, one for each part.
const PATTERNS: ChartPatterns = ChartPatterns::new("tx");

/// The step between axis ticks, in whole milliseconds: the round number
/// that gives at most six steps, by the rule every chart uses.
fn tick_step(max_ms: i64) -> i64 {
    nice_step(max_ms, 6)
}

/// The stacked bar chart of each request's queue wait, prefill and emit on
/// one millisecond axis, with the target line, and a data table beside it.
pub(super) fn trace_chart(rows: &[TraceRow], target: Micros) -> impl IntoView {
    let splits: Vec<(String, Option<ttft_latency::TtftSplit>)> = rows
        .iter()
        .map(|r| {
            (
                r.id.clone(),
                split_request(&r.request_trace()).ok().map(|s| s.split),
            )
        })
        .collect();
    let longest = splits
        .iter()
        .filter_map(|(_, s)| s.map(|s| s.ttft()))
        .max()
        .unwrap_or_default()
        .max(target);
    let longest_ms = (longest.0 / 1_000).max(1);
    let step = tick_step(longest_ms);
    let axis_ms = ((longest_ms + step - 1) / step).max(1) * step;
    // Geometry only: microseconds to hundredths of a drawing unit, rounded
    // half up (the axis is a whole number of milliseconds, at least one).
    let axis_us = u128::from(axis_ms.unsigned_abs()) * 1_000;
    let x_of = |t: Micros| {
        let t = u128::from(t.0.max(0).unsigned_abs());
        let along = (t * u128::from(BARS_WIDTH * 100) + axis_us / 2) / axis_us;
        BARS_LEFT * 100 + u64::try_from(along).unwrap_or(u64::MAX / 2)
    };
    let chart_height = CHART_TOP + ROW_HEIGHT * splits.len() as u64;

    let bars = splits
        .iter()
        .enumerate()
        .map(|(i, (id, split))| {
            let y = CHART_TOP + ROW_HEIGHT * i as u64 + (ROW_HEIGHT - BAR_HEIGHT) / 2;
            let label = view! {
                <text x="2" y=hundredths(y * 100 + BAR_HEIGHT * 50 + 450) class="chart-label">{id.clone()}</text>
            };
            let segments = split.map(|s| {
                let mut start = Micros::ZERO;
                Part::ALL
                    .into_iter()
                    .map(|part| {
                        let end = start + s.part(part);
                        let (x0, x1) = (x_of(start), x_of(end));
                        start = end;
                        view! {
                            <rect x=hundredths(x0) y=y.to_string() width=hundredths(x1.saturating_sub(x0))
                                height=BAR_HEIGHT.to_string() fill=PATTERNS.url(Fill::of(part)) class="chart-segment" />
                        }
                    })
                    .collect_view()
            });
            view! { <g>{label}{segments}</g> }
        })
        .collect_view();
    let ticks = (0..=axis_ms / step)
        .map(|k| {
            let ms = k * step;
            let x = x_of(Micros::from_ms(ms));
            let anchor = if k == 0 { "start" } else if ms == axis_ms { "end" } else { "middle" };
            view! {
                <line x1=hundredths(x) x2=hundredths(x) y1=CHART_TOP.to_string() y2=(chart_height + 3).to_string() class="chart-grid" />
                <text x=hundredths(x) y=(chart_height + 16).to_string() class="chart-axis" text-anchor=anchor>
                    {group_thousands(ms.unsigned_abs())}
                </text>
            }
        })
        .collect_view();
    let target_x = x_of(target);
    let legend_y = chart_height + 40;
    let legend = Part::ALL
        .into_iter()
        .enumerate()
        .map(|(k, part)| {
            let x = BARS_LEFT + k as u64 * 100;
            view! {
                <rect x=x.to_string() y=(legend_y - 11).to_string() width="13" height="13"
                    fill=PATTERNS.url(Fill::of(part)) class="chart-segment" />
                <text x=(x + 18).to_string() y=legend_y.to_string() class="chart-label">{part.label()}</text>
            }
        })
        .collect_view();
    let total_height = legend_y + 8;
    let description = splits
        .iter()
        .map(|(id, s)| match s {
            Some(s) => format!(
                "{id}: queue wait {}, prefill {}, emit {}, TTFT {}.",
                s.queue_wait,
                s.prefill,
                s.emit,
                s.ttft()
            ),
            None => format!("{id}: cannot be split."),
        })
        .collect::<Vec<_>>()
        .join(" ");
    let table_rows = splits
        .iter()
        .map(|(id, s)| {
            let cell = |v: Option<Micros>| v.map_or_else(|| "n/a".to_owned(), |v| v.to_string());
            view! {
                <tr>
                    <th scope="row">{id.clone()}</th>
                    <td class="num">{cell(s.map(|s| s.queue_wait))}</td>
                    <td class="num">{cell(s.map(|s| s.prefill))}</td>
                    <td class="num">{cell(s.map(|s| s.emit))}</td>
                    <td class="num">{cell(s.map(|s| s.ttft()))}</td>
                </tr>
            }
        })
        .collect_view();

    // The target's label starts just right of its line, or ends just left
    // of it when it would run past the drawing (8 units a character, in
    // hundredths), on a line of its own under the axis's caption.
    let target_label = format!("target {target}");
    let label_width = target_label.chars().count() as u64 * 800;
    let (label_anchor, label_x) = if target_x + 300 + label_width > 36_000 {
        ("end", target_x.saturating_sub(300))
    } else {
        ("start", target_x + 300)
    };
    view! {
        <figure class="tx-chart">
            <div class="tx-chart-and-table">
                <svg
                    viewBox=format!("0 0 360 {total_height}")
                    role="img"
                    aria-labelledby="tx-chart-title tx-chart-desc"
                    focusable="false"
                >
                    <title id="tx-chart-title">"Queue wait, prefill and emit of each request"</title>
                    <desc id="tx-chart-desc">
                        {format!("Stacked bars on one millisecond axis from 0 to {} ms, with the target at {target}. {description}", group_thousands(axis_ms.unsigned_abs()))}
                    </desc>
                    {PATTERNS.defs(&[Fill::Queue, Fill::Prefill, Fill::Emit])}
                    <text x=BARS_LEFT.to_string() y="12" class="chart-axis">"server ms since arrival"</text>
                    {ticks}
                    {bars}
                    <line x1=hundredths(target_x) x2=hundredths(target_x) y1="16" y2=(chart_height + 3).to_string() class="chart-target" />
                    <text x=hundredths(label_x) y="27" class="chart-target-label" text-anchor=label_anchor>{target_label}</text>
                    {legend}
                </svg>
                <div class="table-scroll" role="region" aria-labelledby="tx-chart-table-caption" tabindex="0">
                    <table class="tx-chart-table">
                        <caption id="tx-chart-table-caption">"The chart's data (server ms)"</caption>
                        <thead>
                            <tr>
                                <th scope="col">"Request"</th>
                                <th scope="col" class="num">"Queue wait"</th>
                                <th scope="col" class="num">"Prefill"</th>
                                <th scope="col" class="num">"Emit"</th>
                                <th scope="col" class="num">"TTFT"</th>
                            </tr>
                        </thead>
                        <tbody>{table_rows}</tbody>
                    </table>
                </div>
            </div>
            <figcaption>
                {format!(
                    "Each bar is one request's time to first token: queue wait (hatched), then prefill (solid), \
                     then emit (dotted), on one axis. The dashed line is the {target} target."
                )}
            </figcaption>
        </figure>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks() {
        assert_eq!(tick_step(2_400), 500);
        assert_eq!(tick_step(600), 100);
        assert_eq!(tick_step(1_500), 500, "no more 250 ms steps");
        assert_eq!(tick_step(1_000_000), 200_000);
    }
}
