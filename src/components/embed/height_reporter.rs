//! Telling the parent page how tall the embedded page is, whenever that
//! changes, so the host can size its iframe and no inner scrollbar appears.
//!
//! A `ResizeObserver` watches `<html>` (whose height is the content's: the
//! stylesheet leaves it `auto`), so opening a reveal, adding an error or a
//! window narrowing that rewraps text is reported at once, and nothing runs
//! while nothing changes: no timer. Each change is posted in both dialects
//! the core defines (`ttft_core::embed`): ttft-lab's own
//! `{type: "ttft-lab:height", version: 1, height}` and H5P's resizer
//! exchange (`hello`, then `prepareResize`/`resizePrepared`/`resize`), whose
//! iframe side is the core's [`H5pChild`]. Course pages that already load
//! H5P's `h5p-resizer.js` therefore size the page with no change.
//!
//! **Where height messages go.** When the embed address names allowed
//! parent origins (`origin=`), height messages go to those origins only,
//! like results. When it names none, they go to `*`. That is safe because
//! these messages carry nothing but a number of pixels (and H5P's fixed
//! action words): no answer, score, id or text of the learner's. Any page
//! may frame a public static page anyway, and a height tells it no more
//! than it could learn by framing it. Without `*` an instructor who pastes
//! the snippet without an allow-list would get a fixed-height iframe, which
//! is the very thing this module exists to avoid. Results are different and
//! never go to `*` (see `results`).
//!
//! Messages from the parent are acted on only when `event.source` is the
//! parent window; they can only ask the page to measure again or to answer
//! the handshake, never change what it shows.
//!
//! What it deliberately does not do: build or read message shapes (the core
//! does), size anything itself, or run when the page is not in a frame.

use std::cell::RefCell;
use std::rc::Rc;
use ttft_core::embed::height::{own_height_message, ChildAction, H5pChild};
use ttft_core::embed::origin::Origin;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// The target origins height messages are posted to: the allow-list when
/// there is one, otherwise `*` (see the module's notes on why that is safe
/// for a message that holds only a height).
pub fn height_targets(origins: &[Origin]) -> Vec<String> {
    if origins.is_empty() {
        vec!["*".to_owned()]
    } else {
        origins.iter().map(|o| o.as_str().to_owned()).collect()
    }
}

/// What the reporter remembers between changes.
#[derive(Default)]
struct Reporter {
    child: H5pChild,
    last: Option<u32>,
}

/// Starts reporting the page's height to its parent frame. Does nothing
/// when the page is not framed. The observer and listener live as long as
/// the page, so they are handed to the browser (`forget`).
pub fn start_height_reporter(origins: &[Origin]) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Ok(Some(parent)) = window.parent() else {
        return;
    };
    if js_sys::Object::is(parent.as_ref(), window.as_ref()) {
        return;
    }
    let Some(document) = window.document() else {
        return;
    };
    let Some(root) = document.document_element() else {
        return;
    };
    let targets = height_targets(origins);
    let state = Rc::new(RefCell::new(Reporter::default()));

    let post = {
        let parent = parent.clone();
        Rc::new(move |message: &serde_json::Value| {
            let Ok(value) = js_sys::JSON::parse(&message.to_string()) else {
                return;
            };
            for target in &targets {
                // A parent whose origin is not `target` simply does not get it.
                let _ = parent.post_message(&value, target);
            }
        })
    };

    let report = {
        let post = Rc::clone(&post);
        let state = Rc::clone(&state);
        let window = window.clone();
        let root = root.clone();
        Rc::new(move |force: bool| {
            let height = root.get_bounding_client_rect().height().ceil().max(0.0) as u32;
            let client = window
                .inner_height()
                .ok()
                .and_then(|v| v.as_f64())
                .unwrap_or(0.0)
                .ceil()
                .max(0.0) as u32;
            let h5p = {
                let mut s = state.borrow_mut();
                if !force && s.last == Some(height) {
                    return;
                }
                s.last = Some(height);
                s.child.on_size(height, client)
            };
            post(&own_height_message(height));
            post(&h5p);
        })
    };

    let on_resize = {
        let report = Rc::clone(&report);
        Closure::<dyn FnMut(js_sys::Array, web_sys::ResizeObserver)>::new(
            move |_entries, _observer| report(false),
        )
    };
    if let Ok(observer) = web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()) {
        observer.observe(&root);
        on_resize.forget();
    }

    let on_message =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |event: web_sys::MessageEvent| {
            let from_parent = event
                .source()
                .is_some_and(|s| js_sys::Object::is(&s, parent.as_ref()));
            if !from_parent {
                return;
            }
            let Some(text) = js_sys::JSON::stringify(&event.data())
                .ok()
                .and_then(|s| s.as_string())
            else {
                return;
            };
            let Ok(data) = serde_json::from_str::<serde_json::Value>(&text) else {
                return;
            };
            let action = state.borrow_mut().child.on_parent_message(&data);
            match action {
                ChildAction::Send { message } => post(&message),
                ChildAction::Remeasure => report(true),
                ChildAction::Nothing => {}
            }
        });
    if window
        .add_event_listener_with_callback("message", on_message.as_ref().unchecked_ref())
        .is_ok()
    {
        on_message.forget();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ttft_core::embed::origin::parse_origin;

    fn check(origins: &[&str], expected: &[&str]) {
        let parsed: Vec<Origin> = origins
            .iter()
            .filter_map(|o| parse_origin(o).ok())
            .collect();
        assert_eq!(height_targets(&parsed), expected);
    }

    #[test]
    fn heights_go_to_the_allow_list_or_to_anyone() {
        check(&[], &["*"]);
        check(&["https://lms.example.edu"], &["https://lms.example.edu"]);
        check(
            &["https://a.example", "http://localhost:3000"],
            &["https://a.example", "http://localhost:3000"],
        );
    }
}
