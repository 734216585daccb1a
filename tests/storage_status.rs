//! Browser tests of the status area for saved work: the set-aside copies
//! panel, mounted on its own over a store in memory, used as a keyboard
//! user would (buttons by their accessible text), and what ends up in
//! storage and in the live region.
//!
//! What they deliberately do not test: the store's own rules (`storage.rs`
//! does) or the whole page (the end-to-end tests do).

#![cfg(target_arch = "wasm32")]

use leptos::prelude::*;
use std::sync::Arc;
use ttft_lab::components::storage_status::StorageStatus;
use ttft_lab::learner_state;
use ttft_lab::storage::{key_for, Backend, MemoryBackend, Store, Stored};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// Lets the page's scheduled updates run.
async fn tick() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        if let Some(w) = web_sys::window() {
            let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 10);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// A fresh element to mount into.
fn host() -> web_sys::HtmlElement {
    let doc = document();
    let el = doc
        .create_element("div")
        .ok()
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
    let Some(el) = el else {
        panic!("a div can be made")
    };
    if let Some(body) = doc.body() {
        let _ = body.append_child(&el);
    }
    el
}

/// The element under `root` that `selector` finds first, as an HTML element.
fn find(root: &web_sys::HtmlElement, selector: &str) -> Option<web_sys::HtmlElement> {
    root.query_selector(selector)
        .ok()
        .flatten()
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
}

fn text_of(root: &web_sys::HtmlElement, selector: &str) -> String {
    root.query_selector(selector)
        .ok()
        .flatten()
        .and_then(|e| e.text_content())
        .unwrap_or_default()
}

#[wasm_bindgen_test]
async fn set_aside_copies_are_shown_named_and_deleted_from_storage() {
    let memory = Arc::new(MemoryBackend::default());
    let key = key_for("checklist");
    memory.set(&key, "{damaged").unwrap_or_default();
    let store = Store::open(memory.clone());
    let _list = Stored::open(&store, learner_state::checklist());
    let root = host();
    let mounted = store.clone();
    let _handle = leptos::mount::mount_to(
        root.clone(),
        move || view! { <StorageStatus store=mounted.clone() /> },
    );
    tick().await;

    let panel = root.query_selector("section.set-aside").ok().flatten();
    assert!(
        panel.as_ref().is_some_and(|p| !p.has_attribute("hidden")),
        "the panel shows while there is a copy"
    );
    assert_eq!(
        text_of(&root, "#set-aside-title"),
        "1 set-aside copy of saved work"
    );
    let what = text_of(&root, ".set-aside-what");
    assert!(
        what.starts_with("Your checklist, set aside ") && what.ends_with("(8 characters)"),
        "{what}"
    );
    assert!(
        find(&root, ".set-aside-item + .set-aside-item").is_none(),
        "one copy, one item"
    );
    let download = find(&root, ".set-aside-item button:first-of-type")
        .and_then(|b| b.text_content())
        .unwrap_or_default();
    assert!(
        download.starts_with("Download the copy of your checklist, set aside "),
        "{download}"
    );
    let Some(delete) = find(&root, ".set-aside-item button:last-of-type") else {
        panic!("a Delete button")
    };
    let name = delete.text_content().unwrap_or_default();
    assert!(
        name.starts_with("Delete the copy of your checklist, set aside "),
        "an accessible name of its own: {name}"
    );

    delete.click();
    tick().await;
    let copies: Vec<String> = memory
        .keys()
        .unwrap_or_default()
        .into_iter()
        .filter(|k| k.contains("/set-aside/"))
        .collect();
    assert!(
        copies.is_empty(),
        "the copy is gone from storage: {copies:?}"
    );
    let status = text_of(&root, "[role=status]");
    assert!(
        status.contains("Deleted the copy of your checklist"),
        "announced in the live region: {status}"
    );
    let panel = root.query_selector("section.set-aside").ok().flatten();
    assert!(
        panel.is_some_and(|p| p.has_attribute("hidden")),
        "no copies, no panel"
    );
    assert_eq!(
        memory.get(&key),
        Ok(None),
        "the value itself is not touched by deleting a copy"
    );
}
