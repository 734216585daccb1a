//! The fill patterns every chart draws the parts of a time to first token
//! with, defined once: queue wait hatched, prefill solid, emit dotted, the
//! time after or outside those three in horizontal lines, and a TTFT that
//! cannot be split hatched the other way. Together with each part's text
//! label they keep the charts readable without colour.
//!
//! Each chart names its patterns under a prefix of its own (`wt`, `tx`,
//! `imp`), because two charts can be on one page (the authoring preview)
//! and an SVG id must be unique in the document. A chart renders the
//! `<defs>` for the patterns it uses with [`ChartPatterns::defs`] and
//! fills its shapes with [`ChartPatterns::url`].
//!
//! [`hundredths`] writes a chart's lengths, held as whole hundredths of a
//! drawing unit, with integer arithmetic only.
//!
//! What it deliberately does not do: choose colours (the `pat-*` classes in
//! `style/main.css` do), lay out a legend, or know which chart needs which
//! pattern (each chart lists its own).

use leptos::prelude::*;
use ttft_latency::Part;

/// A length in hundredths of a unit of the drawing, written with two
/// decimals. Integer arithmetic only: a build whose charts use it carries
/// no float formatting for them (about 10 KB of wasm before gzip).
pub fn hundredths(length: u64) -> String {
    format!("{}.{:02}", length / 100, length % 100)
}

/// One fill pattern, named for what it stands for in a chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fill {
    /// Hatched at 45 degrees: queue wait (and, in a histogram, bins over
    /// the target).
    Queue,
    /// Solid: prefill.
    Prefill,
    /// Dotted: emit.
    Emit,
    /// Horizontal lines: decode in the worked timeline, time no part
    /// accounts for in an imported trace.
    Rest,
    /// Thin hatching at -45 degrees: a TTFT the file does not split.
    Whole,
}

impl Fill {
    /// The pattern a part of TTFT is drawn with.
    pub const fn of(part: Part) -> Self {
        match part {
            Part::QueueWait => Fill::Queue,
            Part::Prefill => Fill::Prefill,
            Part::Emit => Fill::Emit,
        }
    }

    /// What follows the prefix in the pattern's id.
    const fn suffix(self) -> &'static str {
        match self {
            Fill::Queue => "queue",
            Fill::Prefill => "prefill",
            Fill::Emit => "emit",
            Fill::Rest => "rest",
            Fill::Whole => "whole",
        }
    }
}

/// The patterns of one chart, under that chart's id prefix.
#[derive(Clone, Copy, Debug)]
pub struct ChartPatterns {
    prefix: &'static str,
}

impl ChartPatterns {
    /// Patterns whose ids start `{prefix}-pat-`.
    pub const fn new(prefix: &'static str) -> Self {
        Self { prefix }
    }

    /// The id of `fill`'s pattern, e.g. `wt-pat-queue`.
    pub fn id(self, fill: Fill) -> String {
        format!("{}-pat-{}", self.prefix, fill.suffix())
    }

    /// The value of a `fill` attribute that draws with `fill`'s pattern.
    pub fn url(self, fill: Fill) -> String {
        format!("url(#{})", self.id(fill))
    }

    /// The `<defs>` element defining `fills`, in the order given.
    pub fn defs(self, fills: &[Fill]) -> impl IntoView {
        let patterns = fills.iter().map(|&fill| self.pattern(fill)).collect_view();
        view! { <defs>{patterns}</defs> }
    }

    /// One `<pattern>` element.
    fn pattern(self, fill: Fill) -> AnyView {
        let id = self.id(fill);
        match fill {
            Fill::Queue => view! {
                <pattern id=id width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
                    <rect width="6" height="6" class="pat-bg" />
                    <line x1="0" y1="0" x2="0" y2="6" class="pat-ink" stroke-width="2.5" />
                </pattern>
            }
            .into_any(),
            Fill::Prefill => view! {
                <pattern id=id width="6" height="6" patternUnits="userSpaceOnUse">
                    <rect width="6" height="6" class="pat-solid" />
                </pattern>
            }
            .into_any(),
            Fill::Emit => view! {
                <pattern id=id width="5" height="5" patternUnits="userSpaceOnUse">
                    <rect width="5" height="5" class="pat-bg" />
                    <circle cx="2.5" cy="2.5" r="1.3" class="pat-dot" />
                </pattern>
            }
            .into_any(),
            Fill::Rest => view! {
                <pattern id=id width="6" height="6" patternUnits="userSpaceOnUse">
                    <rect width="6" height="6" class="pat-bg" />
                    <line x1="0" y1="3" x2="6" y2="3" class="pat-ink" stroke-width="1.5" />
                </pattern>
            }
            .into_any(),
            Fill::Whole => view! {
                <pattern id=id width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(-45)">
                    <rect width="6" height="6" class="pat-bg" />
                    <line x1="0" y1="0" x2="0" y2="6" class="pat-ink" stroke-width="1" />
                </pattern>
            }
            .into_any(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_length_has_two_decimals() {
        assert_eq!(hundredths(0), "0.00");
        assert_eq!(hundredths(800), "8.00");
        assert_eq!(hundredths(17_125), "171.25");
        assert_eq!(hundredths(34_405), "344.05");
    }

    #[test]
    fn ids_and_urls_carry_the_chart_prefix() {
        let wt = ChartPatterns::new("wt");
        assert_eq!(wt.id(Fill::Queue), "wt-pat-queue");
        assert_eq!(wt.url(Fill::of(Part::Emit)), "url(#wt-pat-emit)");
        assert_eq!(
            ChartPatterns::new("imp").url(Fill::Whole),
            "url(#imp-pat-whole)"
        );
    }

    #[test]
    fn every_part_has_its_own_pattern() {
        let fills: Vec<Fill> = Part::ALL.into_iter().map(Fill::of).collect();
        assert_eq!(fills, [Fill::Queue, Fill::Prefill, Fill::Emit]);
    }
}
