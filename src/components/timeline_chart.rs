//! The worked timeline drawn as two bars: queue wait, prefill and emit on
//! one scale, then decode below on a scale of its own.
//!
//! Decode usually lasts tens of times longer than the first token takes, so
//! on one honest axis the three parts of TTFT would be a sliver. The axis is
//! therefore broken after the first token, the break is drawn, and the
//! caption says so. Stacking the bars keeps the labels readable on a phone. Each part has its own fill pattern and a text label, so
//! nothing depends on colour. Widths come from the core's shares.
//!
//! What it deliberately does not do: compute a duration (every figure is the
//! core's, formatted by the core's types) or animate.

use crate::components::chart_patterns::{hundredths, ChartPatterns, Fill};
use leptos::prelude::*;
use ttft_latency::{Part, RequestSplit};

/// Left edge of the drawing.
const LEFT: u32 = 8;
/// Width of both bars: TTFT on the first scale, decode on the second.
const WIDTH: u32 = 344;
const TTFT_TOP: u32 = 20;
const DECODE_TOP: u32 = 152;
const BAR_HEIGHT: u32 = 30;

/// The worked timeline's fill patterns: the three parts, then decode.
const PATTERNS: ChartPatterns = ChartPatterns::new("wt");

/// The chart for one split, inside a figure whose caption explains the
/// two scales.
pub fn timeline_chart(request: &RequestSplit) -> impl IntoView {
    let split = request.split;
    let ttft = split.ttft();
    // In hundredths of a unit: a share of 100% is the whole width.
    let mut x = u64::from(LEFT) * 100;
    let segments = Part::ALL
        .into_iter()
        .map(|part| {
            let percent = split.share(part).percent().unwrap_or(0.0).max(0.0);
            // Never past the bar's end: a share is at most 100%.
            let width = ((percent * f64::from(WIDTH)).round() as u64).min(u64::from(WIDTH) * 100);
            let start = x;
            x += width;
            view! {
                <rect
                    x=hundredths(start)
                    y=TTFT_TOP.to_string()
                    width=hundredths(width)
                    height=BAR_HEIGHT.to_string()
                    fill=PATTERNS.url(Fill::of(part))
                    class="chart-segment"
                />
            }
        })
        .collect_view();
    let legend = Part::ALL
        .into_iter()
        .enumerate()
        .map(|(row, part)| {
            let y = 72 + row * 20;
            let text = format!(
                "{} {} ({})",
                part.label(),
                split.part(part),
                split.share(part)
            );
            view! {
                <rect x=LEFT.to_string() y=(y - 11).to_string() width="13" height="13"
                    fill=PATTERNS.url(Fill::of(part)) class="chart-segment" />
                <text x=(LEFT + 20).to_string() y=y.to_string() class="chart-label">{text}</text>
            }
        })
        .collect_view();
    let (decode_bar, decode_label) = match request.decode {
        Some(decode) if decode.duration.0 > 0 => (
            Some(view! {
                <rect x=LEFT.to_string() y=DECODE_TOP.to_string() width=WIDTH.to_string()
                    height=BAR_HEIGHT.to_string() fill=PATTERNS.url(Fill::Rest) class="chart-segment" />
            }),
            format!(
                "decode {} ({} tokens)",
                decode.duration, decode.tokens_after_first
            ),
        ),
        _ => (None, "no decode recorded".to_owned()),
    };
    let end_label = match request.end_to_end {
        Some(e2e) => format!("last token {e2e}"),
        None => String::new(),
    };
    let description = format!(
        "Time to first token {ttft}, drawn to scale on the top bar: queue wait {}, prefill {}, emit {}. \
         The axis is broken after the first token: {} is drawn below on a second, much smaller scale.",
        split.queue_wait, split.prefill, split.emit, decode_label
    );
    let right = format!("{}", LEFT + WIDTH);
    view! {
        <figure class="timeline-chart">
            <svg viewBox="0 0 360 228" role="img" aria-labelledby="wt-chart-title wt-chart-desc" focusable="false">
                <title id="wt-chart-title">"Timeline of the worked request"</title>
                <desc id="wt-chart-desc">{description}</desc>
                {PATTERNS.defs(&[Fill::Queue, Fill::Prefill, Fill::Emit, Fill::Rest])}
                <text x=LEFT.to_string() y="14" class="chart-axis">"arrival 0"</text>
                <text x=right.clone() y="14" class="chart-axis" text-anchor="end">{format!("first token {ttft}")}</text>
                {segments}
                {legend}
                <path d="M8 126 L352 126" class="chart-rule" />
                <path d="M170 120 L178 132 M180 120 L188 132" class="chart-break" />
                <text x=LEFT.to_string() y="146" class="chart-axis">{format!("first token {ttft}")}</text>
                <text x=right y="146" class="chart-axis" text-anchor="end">{end_label}</text>
                {decode_bar}
                <rect x=LEFT.to_string() y="195" width="13" height="13" fill=PATTERNS.url(Fill::Rest) class="chart-segment" />
                <text x=(LEFT + 20).to_string() y="206" class="chart-label">{decode_label}</text>
                <text x=LEFT.to_string() y="222" class="chart-note">"second scale: the axis is broken after the first token"</text>
            </svg>
            <figcaption>
                "The top bar is time to first token, with queue wait, prefill and emit to scale. "
                "The bottom bar is decode on a second, much smaller scale: the axis is broken after the \
                 first token because decode lasts far longer."
            </figcaption>
        </figure>
    }
}
