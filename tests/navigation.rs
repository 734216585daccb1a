//! Browser tests of `navigation`: an app drawn in steps (off the page, in
//! several tasks) shows, once it is in the page, the part the address names
//! then, even when the address moved while it was being drawn (a build
//! handing the page over follows links in the next part's first view until
//! the full app is in: `hand_over`).

#![cfg(target_arch = "wasm32")]

use leptos::prelude::*;
use std::cell::RefCell;
use std::rc::Rc;
use ttft_lab::components::later::{mount_in_steps, mounted, Later};
use ttft_lab::navigation::Navigator;
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

mod support;

use support::next_task;

wasm_bindgen_test_configure!(run_in_browser);


/// Sets the address's query, keeping the test runner's path.
fn set_search(search: &str, push: bool) {
    let window = web_sys::window().expect("a window");
    let history = window.history().expect("a history");
    let path = window.location().pathname().expect("a path");
    let url = format!("{path}{search}");
    if push {
        history.push_state_with_url(&JsValue::NULL, "", Some(&url)).expect("pushState");
    } else {
        history.replace_state_with_url(&JsValue::NULL, "", Some(&url)).expect("replaceState");
    }
}

/// The part on show, with a block drawn later so that the mount takes more
/// than one task.
fn shell() -> impl IntoView {
    let nav = Navigator::start();
    view! {
        <p class="part">{move || nav.current().id()}</p>
        <Later><p>"drawn later"</p></Later>
    }
}

#[wasm_bindgen_test]
async fn the_app_follows_an_address_that_moved_while_it_was_drawn() {
    set_search("?part=lesson", false);
    let host_text: Rc<RefCell<Option<web_sys::HtmlElement>>> = Rc::default();
    let keep = Rc::clone(&host_text);
    let handle = mount_in_steps(shell, move |host| {
        *keep.borrow_mut() = Some(host);
        mounted();
    })
    .expect("a host element");
    // The first step has read the address; the rest is still to be drawn.
    set_search("?part=trace", true);
    for _ in 0..10 {
        next_task().await;
    }
    let host = host_text.borrow().clone().expect("the mount finished");
    let shown = host
        .query_selector(".part")
        .ok()
        .flatten()
        .and_then(|p| p.text_content())
        .unwrap_or_default();
    assert_eq!(shown, "trace", "the part the address names once the app is in");
    drop(handle);
    set_search("", false);
}
