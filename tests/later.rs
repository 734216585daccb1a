//! Browser tests of `components::later`: a mount in steps draws each
//! `Later` in a task of its own, off the document, and hands over nodes
//! that are exactly what one render would have drawn; outside a mount in
//! steps a `Later` draws at once. Content that arrives once the app is in
//! the page is drawn in the same steps (`draw_in_steps`).

#![cfg(target_arch = "wasm32")]

use leptos::prelude::*;
use std::cell::RefCell;
use std::rc::Rc;
use ttft_lab::components::later::{
    draw_in_steps, in_steps, mount_in_steps, mounted, when_in_page, Later,
};
use wasm_bindgen_test::*;

mod support;

use support::next_task;

wasm_bindgen_test_configure!(run_in_browser);


/// A page with nested `Later`s around numbered paragraphs.
fn page() -> impl IntoView {
    view! {
        <div class="page">
            <p>"1"</p>
            <Later>
                <p>"2"</p>
                <Later><p>"3"</p></Later>
                <p>"4"</p>
            </Later>
            <p>"5"</p>
            <Later><p>"6"</p></Later>
        </div>
    }
}

fn text_of(host: &web_sys::HtmlElement) -> String {
    host.text_content().unwrap_or_default()
}

#[wasm_bindgen_test]
async fn a_mount_in_steps_hands_over_every_later_in_order_once() {
    let handed: Rc<RefCell<Vec<String>>> = Rc::default();
    let seen = Rc::clone(&handed);
    let handle = mount_in_steps(page, move |host| {
        seen.borrow_mut().push(text_of(&host));
        mounted();
    })
    .expect("a host element");
    // The first render draws only what is outside every `Later`.
    assert!(in_steps());
    let waited = Rc::new(RefCell::new(false));
    let flag = Rc::clone(&waited);
    when_in_page(move || *flag.borrow_mut() = true);
    assert!(
        !*waited.borrow(),
        "what waits for the page runs only once the nodes are in"
    );
    for _ in 0..20 {
        if !handed.borrow().is_empty() {
            break;
        }
        next_task().await;
    }
    assert_eq!(
        *handed.borrow(),
        vec!["123456".to_owned()],
        "every step drawn, in the page's order, handed over once"
    );
    assert!(!in_steps());
    assert!(*waited.borrow(), "mounted() runs what waited");
    // Nothing more is handed over later.
    next_task().await;
    assert_eq!(handed.borrow().len(), 1);
    drop(handle);
}

thread_local! {
    /// The labels of the `Mark`s drawn so far.
    static DRAWN: RefCell<Vec<&'static str>> = const { RefCell::new(Vec::new()) };
}

/// A paragraph that notes when it is drawn.
#[component]
fn Mark(label: &'static str) -> impl IntoView {
    DRAWN.with(|d| d.borrow_mut().push(label));
    view! { <p>{label}</p> }
}

fn drawn() -> Vec<&'static str> {
    DRAWN.with(|d| d.borrow().clone())
}

/// Waits for the microtasks queued so far (not for another task).
async fn microtasks() {
    let _ = wasm_bindgen_futures::JsFuture::from(js_sys::Promise::resolve(
        &wasm_bindgen::JsValue::NULL,
    ))
    .await;
}

#[wasm_bindgen_test]
async fn each_later_is_drawn_in_a_task_of_its_own_off_the_document() {
    DRAWN.with(|d| d.borrow_mut().clear());
    let body_before = document()
        .body()
        .and_then(|b| b.text_content())
        .unwrap_or_default();
    let host_seen: Rc<RefCell<Option<web_sys::HtmlElement>>> = Rc::default();
    let host_slot = Rc::clone(&host_seen);
    let _handle = mount_in_steps(
        || {
            view! {
                <Mark label="a" />
                <Later><Mark label="b" /><Later><Mark label="c" /></Later></Later>
                <Later><Mark label="d" /></Later>
            }
        },
        move |host| {
            *host_slot.borrow_mut() = Some(host);
            mounted();
        },
    )
    .expect("a host element");
    assert_eq!(
        drawn(),
        vec!["a"],
        "the first render draws only what is outside every Later"
    );
    microtasks().await;
    assert_eq!(
        drawn(),
        vec!["a"],
        "the steps wait for tasks of their own, not microtasks"
    );
    for _ in 0..20 {
        if host_seen.borrow().is_some() {
            break;
        }
        let body_now = document()
            .body()
            .and_then(|b| b.text_content())
            .unwrap_or_default();
        assert_eq!(
            body_now, body_before,
            "the document does not change while the steps run"
        );
        next_task().await;
    }
    // Breadth first: the Laters of the first render, then the one inside b.
    assert_eq!(drawn(), vec!["a", "b", "d", "c"]);
    let host = host_seen.borrow().clone().expect("handed over");
    assert!(
        !host.is_connected(),
        "the nodes stay off the document until the caller moves them"
    );
    assert_eq!(
        text_of(&host),
        "abcd",
        "the page's order, whatever the drawing order"
    );
}

#[wasm_bindgen_test]
fn outside_a_mount_in_steps_later_draws_at_once() {
    assert!(!in_steps());
    let host = document().create_element("div").expect("an element");
    let host: web_sys::HtmlElement = wasm_bindgen::JsCast::unchecked_into(host);
    let handle = leptos::mount::mount_to(host.clone(), page);
    assert_eq!(text_of(&host), "123456");
    // The same markup as a mount in steps, and no wrapper element.
    assert_eq!(
        host.query_selector_all("div.page > p")
            .map(|l| l.length())
            .unwrap_or(0),
        6
    );
    drop(handle);
}

#[wasm_bindgen_test]
async fn content_that_arrives_later_is_drawn_in_steps_in_the_page_then_done() {
    DRAWN.with(|d| d.borrow_mut().clear());
    let arrived = RwSignal::new(false);
    let host = document().create_element("div").expect("an element");
    let host: web_sys::HtmlElement = wasm_bindgen::JsCast::unchecked_into(host);
    document().body().expect("a body").append_child(&host).expect("in the page");
    let handle = leptos::mount::mount_to(host.clone(), move || {
        move || {
            arrived.get().then(|| {
                view! {
                    <Mark label="a" />
                    <Later><Mark label="b" /><Later><Mark label="c" /></Later></Later>
                    <Later><Mark label="d" /></Later>
                }
            })
        }
    });
    let done: Rc<RefCell<Option<Vec<&'static str>>>> = Rc::default();
    let done_seen = Rc::clone(&done);
    let waited = Rc::new(RefCell::new(false));
    let flag = Rc::clone(&waited);
    draw_in_steps(
        move || {
            arrived.set(true);
            when_in_page(move || *flag.borrow_mut() = true);
        },
        move || *done_seen.borrow_mut() = Some(drawn()),
    );
    microtasks().await;
    assert!(drawn().is_empty(), "the drawing starts in a task of its own");
    for _ in 0..20 {
        if done.borrow().is_some() {
            break;
        }
        next_task().await;
    }
    // Breadth first, as in a mount in steps (drawn at once, it would be
    // a, b, c, d), and every one before `done`.
    assert_eq!(
        *done.borrow(),
        Some(vec!["a", "b", "d", "c"]),
        "done comes once every Later is drawn in its step, and not before"
    );
    assert!(!in_steps(), "the steps are over");
    assert!(*waited.borrow(), "what waited for the page ran at the end");
    assert_eq!(text_of(&host), "abcd", "drawn in place, in the page's order");
    drop(handle);
    host.remove();
}

#[wasm_bindgen_test]
async fn content_that_arrives_during_a_mount_in_steps_joins_it() {
    DRAWN.with(|d| d.borrow_mut().clear());
    let arrived = RwSignal::new(false);
    let handed: Rc<RefCell<Option<String>>> = Rc::default();
    let slot = Rc::clone(&handed);
    let _handle = mount_in_steps(
        move || {
            view! {
                <Later><Mark label="a" /></Later>
                {move || arrived.get().then(|| view! { <Later><Mark label="late" /></Later> })}
            }
        },
        move |host| {
            *slot.borrow_mut() = Some(text_of(&host));
            mounted();
        },
    )
    .expect("a host element");
    let done = Rc::new(RefCell::new(false));
    let done_seen = Rc::clone(&done);
    draw_in_steps(move || arrived.set(true), move || *done_seen.borrow_mut() = true);
    for _ in 0..20 {
        if handed.borrow().is_some() {
            break;
        }
        next_task().await;
    }
    assert!(*done.borrow(), "done follows at once when joining a mount");
    assert_eq!(
        handed.borrow().as_deref(),
        Some("alate"),
        "the content arrived is in what the mount hands over"
    );
}
