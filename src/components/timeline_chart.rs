//! The worked timeline drawn as a bar: queue wait, prefill and emit on one
//! scale, then decode on a scale of its own.
//!
//! Decode usually lasts tens of times longer than the first token takes, so
//! on one honest axis the three parts of TTFT would be a sliver. The axis is
//! therefore broken after the first token, the break is drawn, and the
//! caption says so. Each part has its own fill pattern and a text label, so
//! nothing depends on colour. Widths come from the core's shares.
//!
//! What it deliberately does not do: compute a duration (every figure is the
//! core's, formatted by the core's types) or animate.

use leptos::prelude::*;
use ttft_core::{Part, RequestSplit};

/// Left edge of the drawing.
const LEFT: f64 = 8.0;
/// Width given to time to first token.
const TTFT_WIDTH: f64 = 220.0;
/// Where decode's own scale starts, after the break.
const DECODE_LEFT: f64 = 252.0;
/// Width given to decode.
const DECODE_WIDTH: f64 = 220.0;
const BAR_TOP: f64 = 26.0;
const BAR_HEIGHT: f64 = 34.0;

fn pattern_id(part: Part) -> &'static str {
    match part {
        Part::QueueWait => "wt-pat-queue",
        Part::Prefill => "wt-pat-prefill",
        Part::Emit => "wt-pat-emit",
    }
}

/// The chart for one split, inside a figure whose caption explains the
/// broken axis.
pub fn timeline_chart(request: &RequestSplit) -> impl IntoView {
    let split = request.split;
    let ttft = split.ttft();
    let mut x = LEFT;
    let segments = Part::ALL
        .into_iter()
        .map(|part| {
            let width = split.share(part).percent().unwrap_or(0.0) * TTFT_WIDTH / 100.0;
            let start = x;
            x += width;
            view! {
                <rect
                    x=format!("{start:.2}")
                    y=BAR_TOP.to_string()
                    width=format!("{:.2}", width.max(0.0))
                    height=BAR_HEIGHT.to_string()
                    fill=format!("url(#{})", pattern_id(part))
                    class="chart-segment"
                />
            }
        })
        .collect_view();
    let legend = Part::ALL
        .into_iter()
        .enumerate()
        .map(|(row, part)| {
            let y = 84.0 + row as f64 * 22.0;
            let text = format!("{} {} ({})", part.label(), split.part(part), split.share(part));
            view! {
                <rect x=LEFT.to_string() y=format!("{}", y - 12.0) width="14" height="14"
                    fill=format!("url(#{})", pattern_id(part)) class="chart-segment" />
                <text x=format!("{}", LEFT + 20.0) y=y.to_string() class="chart-label">{text}</text>
            }
        })
        .collect_view();
    let (decode_bar, decode_label) = match request.decode {
        Some(decode) if decode.duration.0 > 0 => (
            Some(view! {
                <rect x=DECODE_LEFT.to_string() y=BAR_TOP.to_string() width=DECODE_WIDTH.to_string()
                    height=BAR_HEIGHT.to_string() fill="url(#wt-pat-decode)" class="chart-segment" />
            }),
            format!("decode {} ({} tokens)", decode.duration, decode.tokens_after_first),
        ),
        _ => (None, "no decode recorded".to_owned()),
    };
    let end_label = match request.end_to_end {
        Some(e2e) => format!("last token {e2e}"),
        None => String::new(),
    };
    let description = format!(
        "Time to first token {ttft}: queue wait {}, prefill {}, emit {}, drawn to scale on the left. \
         The axis is broken after the first token: {} is drawn on a separate, much smaller scale on the right.",
        split.queue_wait, split.prefill, split.emit, decode_label
    );
    view! {
        <figure class="timeline-chart">
            <svg viewBox="0 0 480 150" role="img" aria-labelledby="wt-chart-title wt-chart-desc" focusable="false">
                <title id="wt-chart-title">"Timeline of the worked request"</title>
                <desc id="wt-chart-desc">{description.clone()}</desc>
                <defs>
                    <pattern id="wt-pat-queue" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
                        <rect width="6" height="6" class="pat-bg" />
                        <line x1="0" y1="0" x2="0" y2="6" class="pat-ink" stroke-width="2.5" />
                    </pattern>
                    <pattern id="wt-pat-prefill" width="6" height="6" patternUnits="userSpaceOnUse">
                        <rect width="6" height="6" class="pat-solid" />
                    </pattern>
                    <pattern id="wt-pat-emit" width="5" height="5" patternUnits="userSpaceOnUse">
                        <rect width="5" height="5" class="pat-bg" />
                        <circle cx="2.5" cy="2.5" r="1.3" class="pat-dot" />
                    </pattern>
                    <pattern id="wt-pat-decode" width="6" height="6" patternUnits="userSpaceOnUse">
                        <rect width="6" height="6" class="pat-bg" />
                        <line x1="0" y1="3" x2="6" y2="3" class="pat-ink" stroke-width="1.5" />
                    </pattern>
                </defs>
                <text x=LEFT.to_string() y="18" class="chart-axis">"arrival 0"</text>
                <text x=format!("{}", LEFT + TTFT_WIDTH) y="18" class="chart-axis" text-anchor="end">
                    {format!("first token {ttft}")}
                </text>
                <text x=format!("{}", DECODE_LEFT + DECODE_WIDTH) y="18" class="chart-axis" text-anchor="end">
                    {end_label}
                </text>
                {segments}
                {decode_bar}
                <path d="M233 20 L239 66 M241 20 L247 66" class="chart-break" />
                {legend}
                <rect x=DECODE_LEFT.to_string() y="72" width="14" height="14" fill="url(#wt-pat-decode)" class="chart-segment" />
                <text x=format!("{}", DECODE_LEFT + 20.0) y="84" class="chart-label">{decode_label}</text>
                <text x=format!("{}", DECODE_LEFT + 20.0) y="106" class="chart-note">"axis broken: own scale"</text>
            </svg>
            <figcaption>
                "Left of the break, queue wait, prefill and emit are to scale within TTFT. "
                "Right of the break, decode has its own, much smaller scale, because it lasts far longer."
            </figcaption>
        </figure>
    }
}
