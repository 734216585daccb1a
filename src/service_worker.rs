//! The page's side of the service worker that lets ttft-lab open offline
//! (`sw.js`, written at release time by `scripts/service-worker.mjs` from
//! `content/app/service-worker.js`).
//!
//! [`start`] registers it only where the release said there is one (its
//! `<meta name="ttft-lab-service-worker">` tag names the script: `trunk
//! serve` and the component tests have none), and only after the page has
//! loaded and the app is interactive, so it adds nothing before the first
//! part can be used. It passes on what the learner needs to hear as
//! [`WorkerNews`]: a new version has installed and waits, or a file could
//! not be fetched offline. [`reload_to_update`] is the one way a new version
//! takes over: the learner pressed Reload. It looks for a new version
//! again when the connection comes back. A version put in charge by
//! another tab does not reload this one; the page is told instead.
//!
//! What it deliberately does not do: register inside an embed (the caller
//! decides; see `components::offline_status`), cache anything itself, or
//! touch what the learner saved (that is `localStorage`, which works with
//! or without a worker).

use leptos::prelude::*;
use leptos::task::spawn_local;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::time::Duration;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{
    MessageEvent, RegistrationOptions, ServiceWorkerContainer, ServiceWorkerRegistration,
    ServiceWorkerState,
};

/// What the service worker has to tell the learner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WorkerNews {
    /// A new version is installed and takes over on Reload (or has already
    /// taken over from another tab, and this page still runs the old one).
    UpdateReady,
    /// A file the page asked for is not kept on this device and the network
    /// could not be reached.
    NeedsConnection,
}

/// The tag the release writes into `index.html`, naming the worker's script.
const MARKER: &str = "meta[name=\"ttft-lab-service-worker\"]";
/// The message that puts a waiting version in charge (see the worker).
const ACTIVATE: &str = "ttft-lab:activate";
/// The message the worker sends when a file needs a connection.
const NEEDS_CONNECTION: &str = "ttft-lab:needs-connection";

thread_local! {
    /// The registration, once the browser has it.
    static REGISTRATION: RefCell<Option<ServiceWorkerRegistration>> = const { RefCell::new(None) };
    /// Whether the learner pressed Reload: only then does a change of
    /// worker reload the page.
    static ASKED: Cell<bool> = const { Cell::new(false) };
    /// Whether a worker controlled this page before: the first worker
    /// taking charge on a first visit is no news.
    static HAD_CONTROLLER: Cell<bool> = const { Cell::new(false) };
}

/// The script the release names, if it names one.
fn script_url() -> Option<String> {
    document()
        .query_selector(MARKER)
        .ok()
        .flatten()?
        .get_attribute("content")
        .filter(|s| !s.is_empty())
}

/// `navigator.serviceWorker`, where the browser has it (only in a secure
/// context: https, or this machine).
fn container() -> Option<ServiceWorkerContainer> {
    let navigator = window().navigator();
    let value = js_sys::Reflect::get(&navigator, &JsValue::from_str("serviceWorker")).ok()?;
    (!value.is_undefined() && !value.is_null()).then(|| value.unchecked_into())
}

/// Registers the release's service worker once the page has loaded, and
/// passes what it says to `on_news`. Does nothing in a build without one
/// or a browser without service workers.
pub fn start(on_news: impl Fn(WorkerNews) + 'static) {
    if cfg!(not(target_arch = "wasm32")) {
        // Rendered natively for the first view: there is no page to
        // register a worker for.
        return;
    }
    let (Some(script), Some(container)) = (script_url(), container()) else {
        return;
    };
    let on_news: Rc<dyn Fn(WorkerNews)> = Rc::new(on_news);
    listen(&container, Rc::clone(&on_news));
    let go = move || spawn_local(register(script, on_news));
    if document().ready_state() == "complete" {
        // Still after the app is interactive: `start` runs while it mounts,
        // which may take a few tasks (`components::later`).
        crate::components::later::when_in_page(move || set_timeout(go, Duration::ZERO));
    } else {
        let once = Closure::once_into_js(go);
        let _ = window().add_event_listener_with_callback("load", once.unchecked_ref());
    }
}

/// Follows the worker's messages and changes of the worker in charge.
fn listen(container: &ServiceWorkerContainer, on_news: Rc<dyn Fn(WorkerNews)>) {
    HAD_CONTROLLER.set(container.controller().is_some());
    let told = Rc::clone(&on_news);
    let on_message = Closure::<dyn Fn(MessageEvent)>::new(move |event: MessageEvent| {
        let kind = js_sys::Reflect::get(&event.data(), &JsValue::from_str("type"))
            .ok()
            .and_then(|t| t.as_string());
        if kind.as_deref() == Some(NEEDS_CONNECTION) {
            told(WorkerNews::NeedsConnection);
        }
    });
    container.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    let on_change = Closure::<dyn Fn()>::new(move || {
        if ASKED.get() {
            let _ = window().location().reload();
        } else if HAD_CONTROLLER.replace(true) {
            on_news(WorkerNews::UpdateReady);
        }
    });
    container.set_oncontrollerchange(Some(on_change.as_ref().unchecked_ref()));
    on_change.forget();
}

async fn register(script: String, on_news: Rc<dyn Fn(WorkerNews)>) {
    let Some(workers) = container() else { return };
    let options = RegistrationOptions::new();
    options.set_scope("./");
    let registration = match JsFuture::from(workers.register_with_options(&script, &options)).await
    {
        Ok(r) => match r.dyn_into::<ServiceWorkerRegistration>() {
            Ok(r) => r,
            // A browser (or an extension, or a test harness) that blocks
            // service workers may answer with nothing at all: no offline
            // use, and nothing else changes.
            Err(_) => return,
        },
        Err(e) => {
            // Offline, the browser cannot check for a new version; that is
            // not worth a word. Online, a host that serves sw.js wrongly is.
            if window().navigator().on_line() {
                leptos::logging::warn!("ttft-lab will not open offline: {e:?}");
            }
            return;
        }
    };
    // A version that installed while no page of this scope was open waits
    // already, and finds no update event to fire.
    if registration.waiting().is_some() && workers.controller().is_some() {
        on_news(WorkerNews::UpdateReady);
    }
    let watched = registration.clone();
    let on_found = Closure::<dyn Fn()>::new(move || {
        let Some(installing) = watched.installing() else { return };
        let worker = installing.clone();
        let on_news = Rc::clone(&on_news);
        let on_state = Closure::<dyn Fn()>::new(move || {
            let update = worker.state() == ServiceWorkerState::Installed
                && container().is_some_and(|c| c.controller().is_some());
            if update {
                on_news(WorkerNews::UpdateReady);
            }
        });
        installing.set_onstatechange(Some(on_state.as_ref().unchecked_ref()));
        on_state.forget();
    });
    registration.set_onupdatefound(Some(on_found.as_ref().unchecked_ref()));
    on_found.forget();
    // Opened offline, the browser could not look for a new version; it
    // looks again when the connection comes back.
    let checked = registration.clone();
    let _ = window_event_listener(leptos::ev::online, move |_| {
        if let Ok(looking) = checked.update() {
            spawn_local(async move {
                let _ = JsFuture::from(looking).await;
            });
        }
    });
    REGISTRATION.with(|r| *r.borrow_mut() = Some(registration));
}

/// Puts the waiting version in charge, then reloads this page once it has
/// taken over; reloads at once when the new version is already in charge.
pub fn reload_to_update() {
    let waiting = REGISTRATION.with(|r| r.borrow().as_ref().and_then(|r| r.waiting()));
    let Some(waiting) = waiting else {
        let _ = window().location().reload();
        return;
    };
    ASKED.set(true);
    let message = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&message, &"type".into(), &ACTIVATE.into());
    if waiting.post_message(&message).is_err() {
        let _ = window().location().reload();
    }
}
