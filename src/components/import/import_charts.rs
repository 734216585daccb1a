//! Three SVG charts of an imported trace, each with its numbers beside it
//! as a table or a sentence: TTFT per request as stacked pieces with the
//! target line; TTFT against prompt tokens (a scatter); and the
//! distribution of TTFT (a histogram with the target marked).
//!
//! Every chart is `role="img"` with a title and a description, every piece
//! has its own fill pattern and a name in the legend, and points over the
//! target have their own shape, so nothing depends on colour. Big files are
//! drawn in part (the slowest requests; an even sample of points) and the
//! chart says which part. What it deliberately does not do: compute a
//! latency. Pieces, shares, bins, the slowest requests and the sample come
//! from `ttft_import::report`; this file only maps them to pixels.

use crate::components::chart_patterns::{ChartPatterns, Fill};
use crate::components::chart_width::{along, anchor_within, chart_width, half_width};
use leptos::prelude::*;
use std::sync::Arc;
use ttft_import::report::{self, Standing};
use ttft_import::tool_summary::Measure;
use ttft_import::{Import, Piece};
use ttft_latency::axis::{nice_ceiling, nice_number};
use ttft_latency::decimal::{fixed, trimmed};
use ttft_latency::time::group_thousands;
use ttft_latency::Micros;

/// Requests drawn as stacked bars at most.
pub const BARS: usize = 30;
/// Points drawn in the scatter at most.
pub const POINTS: usize = 2_000;
/// Bins the histogram aims for.
pub const BINS: usize = 24;

/// Room left of the plot, for request ids and axis figures.
const LEFT: f64 = 96.0;
/// Room right of the plot.
const RIGHT: f64 = 24.0;

/// The plot's length across a chart `width` wide.
fn plot(width: f64) -> f64 {
    width - LEFT - RIGHT
}

/// The import charts' fill patterns, defined once for all three charts.
const PATTERNS: ChartPatterns = ChartPatterns::new("imp");

/// The pattern a piece is drawn with.
fn pattern(piece: Piece) -> String {
    PATTERNS.url(match piece {
        Piece::QueueWait => Fill::Queue,
        Piece::Prefill | Piece::PrefillWithEmit => Fill::Prefill,
        Piece::Emit => Fill::Emit,
        Piece::Unattributed => Fill::Rest,
    })
}

/// The three charts for an import.
#[component]
pub fn ImportCharts(
    /// The imported file.
    import: Arc<Import>,
    /// The TTFT target.
    target: Signal<Micros>,
    /// How many of the three charts to draw yet: the page draws them one
    /// task at a time, so a file of 100,000 requests never holds the page.
    drawn: Signal<u8>,
) -> impl IntoView {
    // An unstreamed run's "first token" is its whole answer: every title,
    // axis and column then says end-to-end.
    let m = Measure::of(&import);
    let a = Arc::clone(&import);
    let b = Arc::clone(&import);
    let c = import;
    // Memos, so a chart is drawn once when its turn comes, not again at
    // every later step.
    let first = Memo::new(move |_| drawn.get() >= 1);
    let second = Memo::new(move |_| drawn.get() >= 2);
    let third = Memo::new(move |_| drawn.get() >= 3);
    view! {
        <section class="import-charts" aria-labelledby="import-charts-title">
            <h2 id="import-charts-title">"Charts"</h2>
            <svg class="chart-defs" aria-hidden="true" focusable="false" width="0" height="0">{PATTERNS.defs(&[Fill::Queue, Fill::Prefill, Fill::Emit, Fill::Rest, Fill::Whole])}</svg>
            {move || first.get().then(|| stacked(&a, target.get(), m))}
            {move || second.get().then(|| scatter(&b, target.get(), m))}
            {move || third.get().then(|| histogram(&c, target.get(), m))}
        </section>
    }
}

fn stacked(import: &Import, target: Micros, m: Measure) -> impl IntoView {
    let with_ttft = import
        .requests
        .iter()
        .filter(|r| report::first_token(r).is_some())
        .count();
    let (chosen, which) = if with_ttft <= BARS {
        let all: Vec<usize> = (0..import.requests.len())
            .filter(|&i| {
                import
                    .requests
                    .get(i)
                    .and_then(report::first_token)
                    .is_some()
            })
            .collect();
        (
            all,
            format!("all {with_ttft} requests with a first token, in file order"),
        )
    } else {
        (
            report::slowest(&import.requests, BARS),
            format!(
                "the {BARS} slowest of {} requests with a first token, slowest first",
                group_thousands(with_ttft as u64)
            ),
        )
    };
    if chosen.is_empty() {
        return view! { <p>"No request has a first token, so there is nothing to draw per request."</p> }.into_any();
    }
    let slowest = chosen
        .iter()
        .filter_map(|&i| import.requests.get(i))
        .filter_map(report::first_token)
        .max()
        .unwrap_or(Micros::ZERO);
    let axis = nice_ceiling(if slowest > target { slowest } else { target });
    let bars: Vec<Bar> = chosen
        .iter()
        .filter_map(|&i| {
            let r = import.requests.get(i)?;
            let ttft = report::first_token(r)?;
            let label = if r.id.chars().count() > 10 { format!("{}\u{2026}", r.id.chars().take(9).collect::<String>()) } else { r.id.clone() };
            let pieces = r.breakdown.pieces().filter(|p| p.iter().all(|(_, v)| !v.is_negative()));
            Some(Bar { id: r.id.clone(), label, pieces, ttft })
        })
        .collect();
    let mut pieces_seen: Vec<Piece> = Vec::new();
    for (piece, _) in bars.iter().filter_map(|b| b.pieces.as_ref()).flatten() {
        if !pieces_seen.contains(piece) {
            pieces_seen.push(*piece);
        }
    }
    let mut legend: Vec<(String, String)> = pieces_seen
        .iter()
        .map(|p| (p.label().to_owned(), pattern(*p)))
        .collect();
    if bars.iter().any(|b| b.pieces.is_none()) {
        legend.push((format!("{}, not split", m.label), PATTERNS.url(Fill::Whole)));
    }
    let desc = format!(
        "Horizontal bars, one per request, for {which}. Each bar is the request's {}, divided into \
         its pieces. A vertical line marks the {target} target. The axis runs from 0 to {axis}. The numbers are in \
         the table below the chart.",
        m.title.to_ascii_lowercase()
    );
    let rows = bars
        .iter()
        .map(|b| {
            let pieces = match &b.pieces {
                Some(p) => p.iter().map(|(piece, v)| format!("{piece} {v}")).collect::<Vec<_>>().join(", "),
                None => "not split".to_owned(),
            };
            view! { <tr><th scope="row">{b.id.clone()}</th><td>{pieces}</td><td class="num">{b.ttft.to_string()}</td></tr> }
        })
        .collect_view();
    let title = format!("{} per request, by piece", m.title);
    let svg = move || stacked_svg(&bars, &legend, axis, target, &title, &desc, chart_width());
    view! {
        <figure class="import-chart">
            {svg}
            <figcaption>{format!("Each request's {} split into the pieces the file records: {which}.", m.name)}</figcaption>
            <details>
                <summary>"The numbers in this chart"</summary>
                <div class="table-scroll" role="region" aria-label="Numbers of the per-request chart" tabindex="0">
                    <table>
                        <thead><tr><th scope="col">"Request"</th><th scope="col">"Pieces"</th><th scope="col" class="num">{m.label}</th></tr></thead>
                        <tbody>{rows}</tbody>
                    </table>
                </div>
            </details>
        </figure>
    }
    .into_any()
}

/// One request's bar: its id, the label drawn beside it, and its pieces
/// (none when its TTFT cannot be split, or a piece is negative).
struct Bar {
    id: String,
    label: String,
    pieces: Option<Vec<(Piece, Micros)>>,
    ttft: Micros,
}

/// The per-request chart's drawing, `width` wide; the legend takes as many
/// rows as the width needs.
fn stacked_svg(
    bars: &[Bar],
    legend: &[(String, String)],
    axis: Micros,
    target: Micros,
    title: &str,
    desc: &str,
    width: f64,
) -> impl IntoView {
    let plot = plot(width);
    let row_h = 20.0;
    let top = 28.0;
    let bottom = top + row_h * bars.len() as f64;
    let per_row = ((width - 8.0) / 160.0).floor().max(1.0) as usize;
    let legend_rows = legend.len().div_ceil(per_row).max(1);
    let height = bottom + 44.0 + 18.0 * (legend_rows - 1) as f64;
    let drawn = bars
        .iter()
        .enumerate()
        .map(|(row, bar)| {
            let y = top + row_h * row as f64;
            let segments = match &bar.pieces {
                Some(pieces) => {
                    let mut x = LEFT;
                    pieces
                        .iter()
                        .map(|&(piece, v)| {
                            let w = along(v, axis, plot);
                            let start = x;
                            x += w;
                            view! {
                                <rect x=fixed(start, 1) y=fixed(y + 3.0, 1) width=fixed(w, 1)
                                    height="14" fill=pattern(piece) class="chart-segment" />
                            }
                        })
                        .collect_view()
                        .into_any()
                }
                None => view! {
                    <rect x=trimmed(LEFT, 1) y=fixed(y + 3.0, 1) width=fixed(along(bar.ttft, axis, plot), 1) height="14"
                        fill=PATTERNS.url(Fill::Whole) class="chart-segment" />
                }
                .into_any(),
            };
            view! {
                <text x=trimmed(LEFT - 6.0, 1) y=fixed(y + 14.0, 1) class="chart-axis" text-anchor="end">{bar.label.clone()}</text>
                {segments}
            }
        })
        .collect_view();
    let tx = LEFT + along(target, axis, plot);
    let target_label = format!("target {target}");
    let (anchor, label_x) = anchor_within(tx, half_width(&target_label), 4.0, width - 4.0);
    let legend_view = legend
        .iter()
        .enumerate()
        .map(|(k, (name, fill))| {
            let x = 8.0 + 160.0 * (k % per_row) as f64;
            let y = bottom + 24.0 + 18.0 * (k / per_row) as f64;
            view! {
                <rect x=trimmed(x, 1) y=trimmed(y, 1) width="12" height="12" fill=fill.clone() class="chart-segment" />
                <text x=trimmed(x + 17.0, 1) y=trimmed(y + 10.0, 1) class="chart-label">{name.clone()}</text>
            }
        })
        .collect_view();
    view! {
        <svg viewBox=format!("0 0 {} {}", trimmed(width, 1), fixed(height, 0)) role="img" aria-labelledby="imp-bars-title imp-bars-desc" focusable="false">
            <title id="imp-bars-title">{title.to_owned()}</title>
            <desc id="imp-bars-desc">{desc.to_owned()}</desc>
            <text x=trimmed(LEFT, 1) y="14" class="chart-axis">"0"</text>
            <text x=trimmed(LEFT + plot, 1) y="14" class="chart-axis" text-anchor="end">{axis.to_string()}</text>
            {drawn}
            <line x1=fixed(tx, 1) x2=fixed(tx, 1) y1="18" y2=fixed(bottom, 1) class="target-line" />
            <text x=fixed(label_x, 1) y=fixed(bottom + 14.0, 1) class="chart-label" text-anchor=anchor>{target_label}</text>
            {legend_view}
        </svg>
    }
}

/// The scatter's points as two path outlines, one for the points within
/// the target (circles of radius 3) and one for those over it (squares of
/// side 6), each centred on its `(x, y)`. Two elements instead of one a
/// point: the 2,000 points of a large file were 2,000 elements, and
/// setting their attributes one by one was a fifth of the page's work in
/// showing the results.
fn dot_paths(points: impl Iterator<Item = (f64, f64, bool)>) -> (String, String) {
    let (mut within, mut over) = (String::new(), String::new());
    for (x, y, is_over) in points {
        let (out, shape, left, top) = if is_over {
            (&mut over, "h6v6h-6z", x - 3.0, y - 3.0)
        } else {
            (&mut within, "a3 3 0 1 0 6 0a3 3 0 1 0-6 0", x - 3.0, y)
        };
        out.push('M');
        out.push_str(&fixed(left, 1));
        out.push(' ');
        out.push_str(&fixed(top, 1));
        out.push_str(shape);
    }
    (within, over)
}

fn scatter(import: &Import, target: Micros, m: Measure) -> impl IntoView {
    let both: Vec<usize> = (0..import.requests.len())
        .filter(|&i| {
            import
                .requests
                .get(i)
                .is_some_and(|r| r.prompt_tokens.is_some() && report::first_token(r).is_some())
        })
        .collect();
    if both.is_empty() {
        return view! {
            <p class="chart-missing">
                {format!(
                    "{} against prompt tokens cannot be drawn: no request in this file states both its prompt tokens \
                     and its {}.",
                    m.label, m.name
                )}
            </p>
        }
        .into_any();
    }
    let picked: Vec<usize> = report::spread(both.len(), POINTS)
        .into_iter()
        .filter_map(|k| both.get(k).copied())
        .collect();
    let points: Vec<(u64, Micros, bool)> = picked
        .iter()
        .filter_map(|&i| import.requests.get(i))
        .filter_map(|r| {
            let over = report::standing(r, target) == Standing::Over;
            Some((r.prompt_tokens?, report::first_token(r)?, over))
        })
        .collect();
    let max_tokens = points.iter().map(|p| p.0).max().unwrap_or(1);
    let max_ttft = points.iter().map(|p| p.1).max().unwrap_or(Micros::ZERO);
    let x_axis = nice_number(i64::try_from(max_tokens).unwrap_or(i64::MAX).max(1));
    let y_axis = nice_ceiling(if max_ttft > target { max_ttft } else { target });
    let over = points.iter().filter(|p| p.2).count();
    let sampled = if both.len() > POINTS {
        format!(
            "{} of the {} requests that state both prompt tokens and {}, spread evenly through the file",
            group_thousands(points.len() as u64),
            group_thousands(both.len() as u64),
            m.name
        )
    } else {
        format!(
            "all {} requests that state both prompt tokens and {}",
            group_thousands(both.len() as u64),
            m.name
        )
    };
    let summary = format!(
        "Shown: {sampled}. Prompts run up to {} tokens and {} up to {max_ttft}; {} of the points shown are over the \
         {target} target (drawn as squares; the others are circles).",
        group_thousands(max_tokens),
        m.name,
        group_thousands(over as u64)
    );
    let title = format!("{} against prompt tokens", m.title);
    let desc = summary.clone();
    let svg = move || {
        let width = chart_width();
        let plot = plot(width);
        let (plot_top, plot_h) = (16.0, 240.0);
        let base = plot_top + plot_h;
        let (within_dots, over_dots) = dot_paths(points.iter().map(|&(tokens, ttft, over)| {
            let x = LEFT + (tokens as f64 / x_axis as f64).clamp(0.0, 1.0) * plot;
            let y = base - along(ttft, y_axis, plot_h);
            (x, y, over)
        }));
        let ty = base - along(target, y_axis, plot_h);
        view! {
            <svg viewBox=format!("0 0 {} 300", trimmed(width, 1)) role="img" aria-labelledby="imp-scatter-title imp-scatter-desc" focusable="false">
                <title id="imp-scatter-title">{title.clone()}</title>
                <desc id="imp-scatter-desc">{desc.clone()}</desc>
                <line x1=trimmed(LEFT, 1) x2=trimmed(LEFT, 1) y1=trimmed(plot_top, 1) y2=trimmed(base, 1) class="chart-rule" />
                <line x1=trimmed(LEFT, 1) x2=trimmed(LEFT + plot, 1) y1=trimmed(base, 1) y2=trimmed(base, 1) class="chart-rule" />
                <text x=trimmed(LEFT - 6.0, 1) y=trimmed(plot_top + 10.0, 1) class="chart-axis" text-anchor="end">{y_axis.to_string()}</text>
                <text x=trimmed(LEFT - 6.0, 1) y=trimmed(base, 1) class="chart-axis" text-anchor="end">"0 ms"</text>
                <text x=trimmed(LEFT, 1) y=trimmed(base + 16.0, 1) class="chart-axis">"0"</text>
                <text x=trimmed(LEFT + plot, 1) y=trimmed(base + 16.0, 1) class="chart-axis" text-anchor="end">
                    {format!("{} prompt tokens", group_thousands(x_axis.unsigned_abs()))}
                </text>
                <text x=trimmed(LEFT + plot / 2.0, 1) y=trimmed(base + 34.0, 1) class="chart-label" text-anchor="middle">"prompt tokens \u{2192}"</text>
                <text x="8" y=trimmed(plot_top + 120.0, 1) class="chart-label">{format!("{} \u{2191}", m.label)}</text>
                <path d=within_dots class="point-within" />
                <path d=over_dots class="point-over" />
                <line x1=trimmed(LEFT, 1) x2=trimmed(LEFT + plot, 1) y1=fixed(ty, 1) y2=fixed(ty, 1) class="target-line" />
                <text x=trimmed(LEFT + plot, 1) y=fixed(ty - 4.0, 1) class="chart-label" text-anchor="end">{format!("target {target}")}</text>
            </svg>
        }
    };
    view! {
        <figure class="import-chart">
            {svg}
            <figcaption>
                {summary}
                " How to read it: when prefill is the delay, TTFT climbs with prompt length and the points form a slope; \
                 when queue wait is the delay, short prompts wait as long as long ones, so the points scatter high \
                 above small prompt counts."
            </figcaption>
        </figure>
    }
    .into_any()
}

fn histogram(import: &Import, target: Micros, m: Measure) -> impl IntoView {
    let Some(h) = report::histogram(&import.requests, BINS, target) else {
        return view! { <p class="chart-missing">{format!("No request has a first token, so {} has no distribution to draw.", m.name)}</p> }.into_any();
    };
    let axis = h.bins.last().map(|b| b.to).unwrap_or(Micros::from_ms(1));
    let bin_width = h
        .bins
        .first()
        .map(|b| b.to - b.from)
        .unwrap_or(Micros::ZERO);
    let desc = format!(
        "A histogram of {} requests' {} in bins {bin_width} wide, from 0 to {axis}. The tallest bin \
         holds {} requests. Bins wholly over the {target} target are hatched; the others are solid. The counts are \
         in the table below the chart.",
        group_thousands(h.total as u64),
        m.title.to_ascii_lowercase(),
        group_thousands(h.tallest as u64)
    );
    let rows = h
        .bins
        .iter()
        .filter(|b| b.count > 0)
        .map(|b| {
            view! {
                <tr>
                    <th scope="row">{format!("{} to {}", b.from, b.to)}</th>
                    <td class="num">{group_thousands(b.count as u64)}</td>
                    <td>{if b.from >= target { "over" } else if b.to <= target { "within" } else { "holds the target" }}</td>
                </tr>
            }
        })
        .collect_view();
    let negative = (h.negative > 0).then(|| {
        format!(
            " {} requests with a negative {} (a faulty source) are not drawn.",
            h.negative, m.name
        )
    });
    let tallest = h.tallest.max(1);
    let bins = h.bins.clone();
    let title = format!("Distribution of {}", m.title.to_ascii_lowercase());
    let svg = move || {
        let width = chart_width();
        let plot = plot(width);
        let (plot_top, plot_h) = (20.0, 200.0);
        let base = plot_top + plot_h;
        let bars = bins
            .iter()
            .map(|bin| {
                let x = LEFT + along(bin.from, axis, plot);
                let w = (along(bin.to, axis, plot) - along(bin.from, axis, plot) - 1.0).max(0.5);
                let bh = bin.count as f64 / tallest as f64 * plot_h;
                let fill = PATTERNS.url(if bin.from >= target { Fill::Queue } else { Fill::Prefill });
                view! { <rect x=fixed(x, 1) y=fixed(base - bh, 1) width=fixed(w, 1) height=fixed(bh, 1) fill=fill class="chart-segment" /> }
            })
            .collect_view();
        let tx = LEFT + along(target, axis, plot);
        let target_label = format!("target {target}");
        let (anchor, label_x) = anchor_within(tx, half_width(&target_label), 4.0, width - 4.0);
        view! {
            <svg viewBox=format!("0 0 {} 264", trimmed(width, 1)) role="img" aria-labelledby="imp-hist-title imp-hist-desc" focusable="false">
                <title id="imp-hist-title">{title.clone()}</title>
                <desc id="imp-hist-desc">{desc.clone()}</desc>
                <line x1=trimmed(LEFT, 1) x2=trimmed(LEFT + plot, 1) y1=trimmed(base, 1) y2=trimmed(base, 1) class="chart-rule" />
                <text x=trimmed(LEFT - 6.0, 1) y=trimmed(plot_top + 10.0, 1) class="chart-axis" text-anchor="end">{group_thousands(tallest as u64)}</text>
                <text x=trimmed(LEFT - 6.0, 1) y=trimmed(base, 1) class="chart-axis" text-anchor="end">"0"</text>
                <text x="8" y=trimmed(plot_top + 100.0, 1) class="chart-label">"requests \u{2191}"</text>
                {bars}
                <line x1=fixed(tx, 1) x2=fixed(tx, 1) y1=trimmed(plot_top, 1) y2=trimmed(base, 1) class="target-line" />
                <text x=fixed(label_x, 1) y=trimmed(plot_top - 6.0, 1) class="chart-label" text-anchor=anchor>{target_label}</text>
                <text x=trimmed(LEFT, 1) y=trimmed(base + 16.0, 1) class="chart-axis">"0 ms"</text>
                <text x=trimmed(LEFT + plot, 1) y=trimmed(base + 16.0, 1) class="chart-axis" text-anchor="end">{axis.to_string()}</text>
                <text x=trimmed(LEFT + plot / 2.0, 1) y=trimmed(base + 34.0, 1) class="chart-label" text-anchor="middle">{format!("{} \u{2192}", m.label)}</text>
            </svg>
        }
    };
    view! {
        <figure class="import-chart">
            {svg}
            <figcaption>
                {format!("How many requests had each {}, in bins {bin_width} wide; hatched bins are over the target.", m.name)}
                {negative}
            </figcaption>
            <details>
                <summary>"The counts in this chart"</summary>
                <div class="table-scroll" role="region" aria-label=format!("Counts of the {} histogram", m.name) tabindex="0">
                    <table>
                        <thead><tr><th scope="col">{format!("{} from, to", m.label)}</th><th scope="col" class="num">"Requests"</th><th scope="col">"Against the target"</th></tr></thead>
                        <tbody>{rows}</tbody>
                    </table>
                </div>
            </details>
        </figure>
    }
    .into_any()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_point_is_one_closed_shape_in_its_own_path() {
        let (within, over) = dot_paths([(100.0, 50.0, false), (200.5, 80.5, true), (96.0, 256.0, false)].into_iter());
        assert_eq!(within, "M97.0 50.0a3 3 0 1 0 6 0a3 3 0 1 0-6 0M93.0 256.0a3 3 0 1 0 6 0a3 3 0 1 0-6 0");
        assert_eq!(over, "M197.5 77.5h6v6h-6z");
        let (none_within, none_over) = dot_paths(std::iter::empty());
        assert!(none_within.is_empty() && none_over.is_empty());
    }
}
