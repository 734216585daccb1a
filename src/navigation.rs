//! Moving between the course's parts without reloading, and the back
//! button.
//!
//! Links are real `<a href="?part=trace">` elements, so they work without
//! the app, open in a new tab, and can be copied. A plain left click on one
//! is intercepted: the address changes with `history.pushState`, the part's
//! signal changes, and focus moves to `<main>` so keyboard and screen-reader
//! users start at the new content. The back and forward buttons fire
//! `popstate`, which reads the part from the address again.
//!
//! What it deliberately does not do: nested routes, or any part of the
//! address but `?part=` (lesson sections are plain `#anchors` the browser
//! handles).

use leptos::prelude::*;
use ttft_core::course_part::CoursePart;
use wasm_bindgen::JsValue;
use web_sys::MouseEvent;

/// The part on show, shared through context.
#[derive(Clone, Copy, Debug)]
pub struct Navigator {
    part: RwSignal<CoursePart>,
}

impl Navigator {
    /// Reads the part from the address and follows the back button.
    pub fn start() -> Navigator {
        let part = RwSignal::new(CoursePart::from_search(&current_search()));
        // Only a browser has a back button (natively the release step
        // renders the first view once).
        #[cfg(target_arch = "wasm32")]
        {
            let _ = window_event_listener(leptos::ev::popstate, move |_| {
                if crate::hand_over::handed_over() {
                    let now = CoursePart::from_search(&current_search());
                    crate::hand_over::moved_while_handing_over(now);
                    return;
                }
                follow_address(part);
            });
            // The address can move while the app is drawn off the page: a
            // build handing the page over follows a link in the next part's
            // first view (`hand_over`) until this app is in. Once it is,
            // the part it shows is the one the address names.
            crate::components::later::when_in_page(move || follow_address(part));
        }
        Navigator { part }
    }

    /// The part on show (tracked).
    pub fn current(&self) -> CoursePart {
        self.part.get()
    }

    /// The part on show, without tracking (for event handlers).
    pub fn current_untracked(&self) -> CoursePart {
        self.part.get_untracked()
    }

    /// Handles a click on a link: a plain left click on a link to a part of
    /// this page is followed in place; anything else (a new-tab click, an
    /// external link, a #section) is left to the browser.
    pub fn follow(&self, event: &MouseEvent, href: &str) {
        if !is_plain_click(event) {
            return;
        }
        if let Some(part) = CoursePart::from_href(href) {
            event.prevent_default();
            self.go(part, href);
        }
    }

    /// Shows `part`, recording `href` in the history.
    pub fn go(&self, part: CoursePart, href: &str) {
        if let Ok(history) = window().history() {
            let _ = history.push_state_with_url(&JsValue::NULL, "", Some(href));
        }
        // A build without this part gives the page to one with it instead.
        if !crate::hand_over::served_here(part) {
            crate::hand_over::to_next_build(part);
            return;
        }
        self.part.set(part);
        window().scroll_to_with_x_and_y(0.0, 0.0);
        focus_main();
    }
}

/// Shows the part the address names, if another is on show.
#[cfg(target_arch = "wasm32")]
fn follow_address(part: RwSignal<CoursePart>) {
    let now = CoursePart::from_search(&current_search());
    // Following a #section link also fires popstate; re-rendering the same
    // part would throw away what the learner typed.
    if part.get_untracked() != now {
        if !crate::hand_over::served_here(now) {
            crate::hand_over::to_next_build(now);
            return;
        }
        part.set(now);
    }
}

/// A plain left click, which the page may follow in place; one with a
/// modifier (a new tab or window) is the browser's.
pub fn is_plain_click(event: &MouseEvent) -> bool {
    event.button() == 0 && !event.ctrl_key() && !event.meta_key() && !event.shift_key() && !event.alt_key()
}

/// Moves keyboard focus to `<main>`: where a keyboard user goes on from
/// when the control they used is gone (a new part, a dismissed notice).
pub fn focus_main() {
    if let Some(main) = document().get_element_by_id("main") {
        if let Ok(main) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(main) {
            let _ = main.focus();
        }
    }
}

/// The address's query string, `?part=trace`.
fn current_search() -> String {
    crate::address::search()
}

/// Scrolls to the element the address's `#fragment` names, for deep links
/// into lesson sections, which only exist once the app has rendered.
pub fn scroll_to_fragment() {
    let hash = window().location().hash().unwrap_or_default();
    let id = hash.trim_start_matches('#');
    if id.is_empty() {
        return;
    }
    let decoded = js_sys::decode_uri_component(id)
        .ok()
        .and_then(|s| s.as_string())
        .unwrap_or_else(|| id.to_owned());
    if let Some(target) = document().get_element_by_id(&decoded) {
        // The lesson's sections after the first are drawn only when they
        // come near the viewport (style/main.css), at an estimated height
        // until then. A script's scroll lands where those estimates put the
        // target, and the browser does not hold it there as the sections
        // above are drawn at their real heights (it does for its own scroll
        // to an address's #fragment): `#checklist` ended 590 px above the
        // top of the window. So a page that arrives at a fragment draws
        // every section at once, as it did before they waited.
        if let Some(root) = document().document_element() {
            let _ = root.set_attribute("data-drawn", "");
        }
        target.scroll_into_view();
    }
}
