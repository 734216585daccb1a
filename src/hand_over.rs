//! The way out of a build with only some parts, to the build that shows
//! the part the learner moves to.
//!
//! A learner who opens one part, on the site or embedded in another (but
//! not in a learning system), gets the smallest build of this app that
//! shows it: the shell is in every build, and each `src/bin/*-part.rs` adds
//! one group of parts (Cargo.toml's [features]): the lesson and the worked
//! timeline (`lesson-part`, about a third of the full app's bytes), the
//! trace exercise (`trace-part`), the configuration choice (`choice-part`),
//! each of those with an instructor's own exercise in place of the course's
//! (`authored-trace-part`, `authored-choice-part`), the authoring page
//! (`author-part`),
//! the interview (`interview-part`), the import page (`import-part`), the
//! simulate part's host (`simulate-host`). A part loads what it alone needs
//! and no more, so it works sooner on a slow phone. index.html's start-up
//! script picks the build (`data-app-build` on `<html>`), and Trunk.toml's
//! loader starts it.
//!
//! Following a link to a part the build does not show, or going back to
//! one, hands the page over instead of showing the part: this build's nodes
//! go, the part's static first view takes their place exactly as on a fresh
//! load of its address (index.html's `ttftShowFirstView`), and the next
//! build is fetched and started (Trunk.toml's `ttftStartAppFor`), which
//! takes over from that view as any build does on a fresh load, focus on
//! `<main>` and anything typed included. The next build is the one a fresh
//! load of the new address would start (the trace exercise's from the
//! lesson, say), or the full app, which shows every part and never hands
//! over, when that build has already run in this page: a learner moving
//! about loads each part's build once at most, and then the full app.
//! The address changes as with any move between parts and nothing reloads.
//! What the learner saved is in storage, which the next build reads as it
//! starts; what this page could not save (a browser that keeps nothing, a
//! full quota) goes with the page as JSON on `window`
//! ([`crate::storage::Unsaved`]), which the next build's store reads
//! through until it is saved.
//!
//! Until the next build runs, a click on a link to a part in the first
//! view, or the back button, shows that part's first view in place, as the
//! navigation would; if the next build then finds the address names a part
//! it lacks, it hands the page on in turn.
//!
//! After that this build stays loaded but answers nothing: its listeners
//! for the back button and for other tabs' saves see [`handed_over`] and
//! return, so it never writes over what the next build saves. In the full
//! build nothing is handed over ([`served_here`] is true for every part).

use crate::storage::{Store, Unsaved};
use std::cell::{Cell, RefCell};
use ttft_core::course_part::CoursePart;

thread_local! {
    static HANDED_OVER: Cell<bool> = const { Cell::new(false) };
    /// The page's store, for what it could not keep.
    static PAGE_STORE: RefCell<Option<Store>> = const { RefCell::new(None) };
}

/// The name of the global that carries [`Unsaved`] work, as JSON, from
/// this build to the next.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
const UNSAVED_GLOBAL: &str = "ttftUnsavedWork";

/// Records the page's store (`Store::open_browser`), whose unsaved work a
/// hand-over carries.
pub fn set_page_store(store: &Store) {
    PAGE_STORE.with(|s| *s.borrow_mut() = Some(store.clone()));
}

/// The work the page before handed over (and forgets it); nothing on a
/// fresh load, or when what it left cannot be read.
pub fn take_unsaved() -> Unsaved {
    #[cfg(target_arch = "wasm32")]
    {
        in_browser::take_global()
            .and_then(|text| serde_json::from_str(&text).ok())
            .unwrap_or_default()
    }
    #[cfg(not(target_arch = "wasm32"))]
    Unsaved::new()
}

/// What the page's store could not keep, to hand over.
fn unsaved_of_page() -> Unsaved {
    PAGE_STORE.with(|s| s.borrow().as_ref().map(Store::unsaved)).unwrap_or_default()
}

/// Whether this build shows `part` itself: every part in the full app; in
/// a build of a few, the parts its features add (Cargo.toml). `src/lib.rs`'s `part_view` shows a part
/// under the same features.
pub fn served_here(part: CoursePart) -> bool {
    match part {
        CoursePart::Lesson | CoursePart::Timeline => cfg!(feature = "lesson"),
        CoursePart::Trace => cfg!(feature = "trace"),
        CoursePart::Choice => cfg!(feature = "choice"),
        CoursePart::Author => cfg!(feature = "authoring"),
        CoursePart::Interview => cfg!(feature = "interview"),
        CoursePart::Import => cfg!(feature = "import"),
        CoursePart::Simulate => cfg!(feature = "simulate"),
    }
}

/// Whether this build shows the address `search` as it asks: its part, and
/// for the trace and choice parts an instructor's own exercise (`content=`,
/// `src=`) only in a build with the authored feature (the trace and choice
/// builds show the course's own; other parts ignore those keys). index.html's
/// start-up script picks the build by the same rule; an address it read
/// differently starts here and is handed over at once (`crate::start`).
pub fn serves_address(search: &str) -> bool {
    let part = CoursePart::from_search(search);
    let authored = matches!(part, CoursePart::Trace | CoursePart::Choice)
        && crate::components::embed::Embedding::from_query(search).options().content.is_some();
    served_here(part) && (!authored || cfg!(feature = "authored"))
}

/// Whether this build took the page over from another (and forgets it):
/// the part's `<main>` then gets focus, as after any move between parts.
pub fn arrived_by_hand_over() -> bool {
    #[cfg(target_arch = "wasm32")]
    {
        in_browser::take_arrival()
    }
    #[cfg(not(target_arch = "wasm32"))]
    false
}

/// True once this build has given the page to another.
pub fn handed_over() -> bool {
    HANDED_OVER.with(Cell::get)
}

/// The window event a build fires just before it hands the page over:
/// a part that holds work back for a moment (the interview's answer,
/// saved after a pause in typing) saves it now, as it does when the page
/// is hidden, since this build's parts are never left the usual way.
pub const LEAVING_EVENT: &str = "ttft-handing-over";

/// The global a build sets on `window` as it hands the page over, so that
/// the next build, taking over, moves focus to its `<main>` even when the
/// part's first view had not arrived to hold it.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
const ARRIVING_GLOBAL: &str = "ttftHandedOver";

/// Gives the page to the build that shows `part` (the address names it
/// already). Natively there is no page: it only records the hand-over.
pub fn to_next_build(part: CoursePart) {
    if HANDED_OVER.with(|h| h.replace(true)) {
        return;
    }
    // Work held back is saved (or, storage refusing, kept to hand over).
    #[cfg(target_arch = "wasm32")]
    in_browser::announce_leaving();
    let unsaved = unsaved_of_page();
    #[cfg(target_arch = "wasm32")]
    in_browser::hand_over(part, &unsaved);
    #[cfg(not(target_arch = "wasm32"))]
    let _ = (part, unsaved);
}

/// The back or forward button, after a hand-over: until the next build has
/// started, the page shows the first view of the part the address now
/// names (or the loading line until its view is in); once it
/// has, that build follows the address itself. A #section link fires the
/// same event: the view of the part already on show stays, with what the
/// learner typed in it (as `navigation` does for the app's own parts).
pub fn moved_while_handing_over(part: CoursePart) {
    #[cfg(target_arch = "wasm32")]
    if !in_browser::shows_first_view_of(part) {
        in_browser::show_first_view_of(part, false);
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = part;
}

#[cfg(target_arch = "wasm32")]
mod in_browser {
    use super::CoursePart;
    use wasm_bindgen::{JsCast, JsValue};

    /// Takes the handed-over work's JSON off `window`.
    pub(super) fn take_global() -> Option<String> {
        let window = web_sys::window()?;
        let key = JsValue::from_str(super::UNSAVED_GLOBAL);
        let text = js_sys::Reflect::get(&window, &key).ok()?.as_string();
        let _ = js_sys::Reflect::delete_property(&window, &key);
        text
    }

    /// Fires [`super::LEAVING_EVENT`] on `window`, synchronously.
    pub(super) fn announce_leaving() {
        let Some(window) = web_sys::window() else { return };
        if let Ok(event) = web_sys::Event::new(super::LEAVING_EVENT) {
            let _ = window.dispatch_event(&event);
        }
    }

    /// Takes the hand-over's arrival mark off `window`.
    pub(super) fn take_arrival() -> bool {
        let Some(window) = web_sys::window() else { return false };
        let key = JsValue::from_str(super::ARRIVING_GLOBAL);
        let arrived = js_sys::Reflect::get(&window, &key).ok().is_some_and(|v| v.is_truthy());
        let _ = js_sys::Reflect::delete_property(&window, &key);
        arrived
    }

    pub(super) fn hand_over(part: CoursePart, unsaved: &super::Unsaved) {
        let Some(window) = web_sys::window() else { return };
        let Some(document) = window.document() else { return };
        let _ = js_sys::Reflect::set(&window, &JsValue::from_str(super::ARRIVING_GLOBAL), &JsValue::TRUE);
        if !unsaved.is_empty() {
            if let Ok(text) = serde_json::to_string(unsaved) {
                let _ = js_sys::Reflect::set(&window, &JsValue::from_str(super::UNSAVED_GLOBAL), &JsValue::from_str(&text));
            }
        }
        // The parts with a wasm of their own (`components::on_demand`) are
        // unmounted: the simulate part's page ends with its worker (a run
        // under way stops) instead of running on unseen, and the second
        // opinion's call is cancelled; this build's own app stays,
        // answering nothing (above).
        if let Some(parts) = js_sys::Reflect::get(&window, &JsValue::from_str("ttftParts"))
            .ok()
            .and_then(|p| p.dyn_into::<js_sys::Object>().ok())
        {
            for name in js_sys::Object::keys(&parts).iter() {
                let unmount = js_sys::Reflect::get(&parts, &name)
                    .and_then(|part| js_sys::Reflect::get(&part, &JsValue::from_str("unmount")))
                    .ok()
                    .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
                if let Some(unmount) = unmount {
                    let _ = unmount.call0(&JsValue::NULL);
                }
            }
        }
        // A build that hands on before it took the page over (the address
        // moved while it arrived) leaves the next part's first view, and
        // what the learner has typed in it, in place with its loading line.
        let keep_view = shows_first_view_of(part);
        // This build's nodes go; index.html's own scripts, data blocks and
        // <noscript> stay.
        if let Some(body) = document.body() {
            let children = body.children();
            let ours: Vec<web_sys::Element> = (0..children.length())
                .filter_map(|i| children.item(i))
                .filter(|c| !matches!(c.tag_name().as_str(), "SCRIPT" | "NOSCRIPT"))
                .filter(|c| !(keep_view && matches!(c.id().as_str(), "first-view" | "boot")))
                .collect();
            for child in ours {
                child.remove();
            }
        }
        if let Some(root) = document.document_element() {
            let _ = root.remove_attribute("data-ready");
        }
        if !keep_view {
            move_to(part);
        }
        follow_links_until_ready(&document);
        call(&window, "ttftStartAppFor", &JsValue::UNDEFINED);
    }

    /// Until the next build runs, a plain click on a link to a part in the
    /// first view moves there as the app's navigation would (the address,
    /// the part's first view, focus), instead of loading the page anew,
    /// which would lose what this page keeps in memory only.
    fn follow_links_until_ready(document: &web_sys::Document) {
        use wasm_bindgen::closure::Closure;
        let on_click = Closure::<dyn Fn(web_sys::MouseEvent)>::new(move |event: web_sys::MouseEvent| {
            let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
            let ready = document.document_element().is_some_and(|r| r.has_attribute("data-ready"));
            if ready || !crate::navigation::is_plain_click(&event) || event.default_prevented() {
                return;
            }
            let Some(link) = event
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                .and_then(|e| e.closest("a[href]").ok().flatten())
            else {
                return;
            };
            let Some(href) = link.get_attribute("href") else { return };
            let Some(part) = CoursePart::from_href(&href) else { return };
            event.prevent_default();
            if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
                let _ = history.push_state_with_url(&JsValue::NULL, "", Some(&href));
            }
            move_to(part);
        });
        if document
            .add_event_listener_with_callback("click", on_click.as_ref().unchecked_ref())
            .is_ok()
        {
            // It lives as long as the page, and does nothing once the full
            // app runs.
            on_click.forget();
        }
    }

    /// Shows `part`'s first view at the top of the page with focus on its
    /// `<main>`, where a keyboard user starts after any move between parts
    /// (the next build moves focus to its own `<main>` when it takes over).
    /// The view is a file of its own (fetched once), so index.html's
    /// script scrolls and moves focus once the view is in.
    fn move_to(part: CoursePart) {
        show_first_view_of(part, true);
    }

    /// True when `part`'s first view is the one on show.
    pub(super) fn shows_first_view_of(part: CoursePart) -> bool {
        let Some(document) = web_sys::window().and_then(|w| w.document()) else { return false };
        let shown = document.document_element().and_then(|root| root.get_attribute("data-first-view"));
        shown.as_deref() == Some(part.id()) && document.get_element_by_id("first-view").is_some()
    }

    /// Until the next build runs (no `data-ready`): the title, and `part`'s
    /// first view in place of the one on show (index.html's
    /// `ttftShowFirstView`), with focus on its `<main>` if `focus`.
    pub(super) fn show_first_view_of(part: CoursePart, focus: bool) {
        let Some(window) = web_sys::window() else { return };
        let Some(document) = window.document() else { return };
        let Some(root) = document.document_element() else { return };
        if root.has_attribute("data-ready") {
            return;
        }
        document.set_title(&part.document_title());
        let _ = root.set_attribute("data-first-view", part.id());
        if let Some(view) = document.get_element_by_id("first-view") {
            view.remove();
        }
        call(&window, "ttftShowFirstView", &JsValue::from_bool(focus));
    }

    /// Calls `window[name](argument)`, a function of index.html's; a page
    /// without it (a test page) has nothing to call.
    fn call(window: &web_sys::Window, name: &str, argument: &JsValue) {
        if let Some(f) = js_sys::Reflect::get(window, &JsValue::from_str(name))
            .ok()
            .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        {
            let _ = f.call1(&JsValue::NULL, argument);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_full_build_serves_every_part() {
        // The tests build the full app (the default features).
        for part in CoursePart::ALL.iter().chain(CoursePart::UNLISTED.iter()) {
            assert!(served_here(*part), "{part:?}");
        }
    }

    #[test]
    fn the_full_build_serves_every_address() {
        for search in ["", "?part=trace", "?part=choice&content=e30", "?part=trace&src=./mine.json", "?part=author"] {
            assert!(serves_address(search), "{search:?}");
        }
    }

    #[test]
    fn a_hand_over_is_recorded_once() {
        assert!(!handed_over());
        to_next_build(CoursePart::Trace);
        assert!(handed_over());
        to_next_build(CoursePart::Choice);
        assert!(handed_over());
    }
}
