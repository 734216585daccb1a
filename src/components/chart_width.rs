//! How wide the import and simulator charts are drawn: the width of their
//! `viewBox`, in the units their text is sized in (12 and 13). Drawn 640
//! units wide, a chart shown on a phone about 330 px wide shrinks that text
//! to 6 px; so on a window at most 40rem wide (the stylesheet's phone
//! breakpoint) charts are drawn 360 units wide instead, and drawn again
//! when the window crosses it (a phone turned on its side).
//!
//! A chart reads [`chart_width`] inside the closure that draws its SVG, so
//! only the SVG is drawn again: its table and the state of its
//! `<details>` stay as they were. The worked timeline and the trace
//! exercise's chart are drawn 360 wide at every width and do not use it.

use ttft_latency::{Micros, Share};

/// The width on a wider window.
pub const WIDE: f64 = 640.0;
/// The width on a narrow one.
pub const NARROW: f64 = 360.0;

/// Where a chart label centred on `x` should be anchored so that it stays
/// inside `left..right`: its `text-anchor`, and the `x` to write.
/// `half` is about half the label's width.
pub fn anchor_within(x: f64, half: f64, left: f64, right: f64) -> (&'static str, f64) {
    if x - half < left {
        ("start", left.min(x))
    } else if x + half > right {
        ("end", right.max(x))
    } else {
        ("middle", x)
    }
}

/// Where `value` falls on an axis of `0..=axis` drawn `length` long,
/// kept within the axis.
pub fn along(value: Micros, axis: Micros, length: f64) -> f64 {
    Share { part: value, whole: axis }.percent().unwrap_or(0.0).clamp(0.0, 100.0) * length / 100.0
}

/// About half the width of `text` in a chart's 12- or 13-unit font: a
/// generous 8 units a character, as wide as DejaVu Sans's digits and `%`
/// at 13 units, so a label placed by it does not run into its neighbour.
pub fn half_width(text: &str) -> f64 {
    text.chars().count() as f64 * 4.0
}

/// The width charts are drawn at now. Read in a reactive closure, it draws
/// the chart again when the window crosses the breakpoint.
#[cfg(target_arch = "wasm32")]
pub fn chart_width() -> f64 {
    use leptos::prelude::Get;
    NARROW_WINDOW.with(|n| if n.get() { NARROW } else { WIDE })
}

/// Natively (the static first views, which draw no chart) always wide.
#[cfg(not(target_arch = "wasm32"))]
pub fn chart_width() -> f64 {
    WIDE
}

#[cfg(target_arch = "wasm32")]
thread_local! {
    /// Whether the window is narrow, kept by one listener for the page's
    /// life: reference-counted, so no component's owner disposes of it.
    static NARROW_WINDOW: leptos::prelude::ArcRwSignal<bool> = watch_window();
}

#[cfg(target_arch = "wasm32")]
fn watch_window() -> leptos::prelude::ArcRwSignal<bool> {
    use leptos::prelude::{ArcRwSignal, Set};
    use wasm_bindgen::prelude::*;
    // The same breakpoint as the stylesheet's phone rules.
    const QUERY: &str = "(max-width: 40rem)";
    let Some(list) = web_sys::window().and_then(|w| w.match_media(QUERY).ok().flatten()) else {
        return ArcRwSignal::new(false);
    };
    let narrow = ArcRwSignal::new(list.matches());
    let (signal, watched) = (narrow.clone(), list.clone());
    let on_change = Closure::<dyn FnMut()>::new(move || signal.set(watched.matches()));
    if list
        .add_event_listener_with_callback("change", on_change.as_ref().unchecked_ref())
        .is_ok()
    {
        // One listener for the page's life.
        on_change.forget();
    }
    narrow
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_label_stays_inside_its_plot() {
        assert_eq!(anchor_within(200.0, 40.0, 96.0, 344.0), ("middle", 200.0));
        assert_eq!(anchor_within(110.0, 40.0, 96.0, 344.0), ("start", 96.0));
        assert_eq!(anchor_within(330.0, 40.0, 96.0, 344.0), ("end", 344.0));
        // A line at the very edge: the label starts or ends at the line.
        assert_eq!(anchor_within(96.0, 40.0, 96.0, 344.0), ("start", 96.0));
        assert_eq!(anchor_within(344.0, 40.0, 96.0, 344.0), ("end", 344.0));
        assert_eq!(half_width("target 1,000 ms"), 60.0);
    }

    #[test]
    fn a_value_falls_along_its_axis_and_stays_on_it() {
        let axis = Micros::from_ms(2_000);
        assert_eq!(along(Micros::from_ms(500), axis, 200.0), 50.0);
        assert_eq!(along(Micros::ZERO, axis, 200.0), 0.0);
        assert_eq!(along(Micros::from_ms(5_000), axis, 200.0), 200.0);
        assert_eq!(along(Micros(-1), axis, 200.0), 0.0);
        assert_eq!(along(Micros::from_ms(1), Micros::ZERO, 200.0), 0.0);
    }
}
