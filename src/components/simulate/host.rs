//! The simulate part's place in the page's own wasm: its heading and
//! introduction, which read at once, and `#simulate-root`, where the part's
//! own wasm (`src/bin/simulate-part.rs`) mounts the rest once
//! `simulate-loader.js` has fetched and started it. The page's wasm holds
//! none of the part's code, so no other part pays for it.
//!
//! While it loads, a status line says so; if it cannot load, an alert says
//! what the browser said, with Retry. Leaving the part unmounts it (which
//! ends its simulator worker); coming back mounts it again without fetching
//! anything. What it deliberately does not do: know anything of the
//! simulator.

use crate::components::on_demand::{OnDemandFailed, OnDemandLoading};
use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The loader's address, relative to the page.
pub const LOADER: &str = "./simulate-loader.js";

#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
enum Load {
    Loading,
    Mounted,
    Failed(String),
}

/// Calls `window.ttftSimulate[name]()` (the part's entry points, once its
/// wasm has started) or, when `part` is false, `window[name]()` (the
/// loader's); `None` when there is no such function yet.
fn call(name: &str, part: bool) -> Option<JsValue> {
    let mut holder: JsValue = window().into();
    if part {
        holder = js_sys::Reflect::get(&holder, &JsValue::from_str("ttftSimulate")).ok()?;
        if holder.is_undefined() || holder.is_null() {
            return None;
        }
    }
    let f = js_sys::Reflect::get(&holder, &JsValue::from_str(name)).ok()?.dyn_into::<js_sys::Function>().ok()?;
    f.call0(&JsValue::NULL).ok()
}

/// Starts loading the part's wasm: through the loader when it is on the
/// page already (a Retry), else by adding it (it starts on its own).
fn load() {
    if call("ttftSimulateLoad", false).is_some() {
        return;
    }
    let document = document();
    if let Ok(Some(old)) = document.query_selector("script[data-ttft-simulate-loader]") {
        old.remove();
    }
    if let Ok(script) = document.create_element("script") {
        let _ = script.set_attribute("src", LOADER);
        let _ = script.set_attribute("data-ttft-simulate-loader", "");
        if let Some(head) = document.head() {
            let _ = head.append_child(&script);
        }
    }
}

/// Starts mounting the part if its wasm runs; true when it did (it fires
/// "ttft-simulate-mounted" once it is in the page).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
fn mount() -> bool {
    call("mount", true).and_then(|v| v.as_bool()) == Some(true)
}

/// The simulate part.
#[component]
pub fn SimulateHost() -> impl IntoView {
    let state = RwSignal::new(Load::Loading);
    #[cfg(target_arch = "wasm32")]
    {
        // The part's wasm has started: mount it. It draws off the page in
        // short tasks and says when it is in; the loading line stays until
        // then.
        let ready = window_event_listener_untyped("ttft-simulate-ready", move |_| {
            mount();
        });
        let mounted = window_event_listener_untyped("ttft-simulate-mounted", move |_| {
            state.set(Load::Mounted);
        });
        let failed = window_event_listener_untyped("ttft-simulate-failed", move |e| {
            let reason = e
                .dyn_ref::<web_sys::CustomEvent>()
                .and_then(|c| c.detail().as_string())
                .unwrap_or_else(|| "the browser gave no reason".to_owned());
            state.set(Load::Failed(reason));
        });
        on_cleanup(move || {
            ready.remove();
            mounted.remove();
            failed.remove();
            let _ = call("unmount", true);
        });
        // After the root is in the document (when the app is starting, once
        // it is all in the page): mount at once if the part's wasm runs
        // already, else fetch it.
        crate::components::later::when_in_page(move || {
            request_animation_frame(move || {
                if !mount() && call("unmount", true).is_none() {
                    // Not started yet (or it failed): fetch it.
                    load();
                }
            })
        });
    }
    let retry = Callback::new(move |()| {
        state.set(Load::Loading);
        load();
    });
    view! {
        <article class="simulate-page">
            <h1 id="page-title">"Simulate a serving engine"</h1>
            <p>
                "Choose a workload and an engine, run them, and watch what the lesson describes happen: as load nears \
                 what the engine can serve, requests wait longer before their prompt is processed, while prefill \
                 stays about the same. Each simulated request is split into queue wait, prefill and emit exactly as \
                 a real trace is."
            </p>
            <p class="notice notice-info">{ttft_sim::TEACHING_NOTE}</p>
            {move || match state.get() {
                Load::Loading => view! {
                    <OnDemandLoading
                        text="Loading the simulator\u{2026}"
                        help="It runs here in your browser, so it is fetched only when this part opens."
                    />
                }
                .into_any(),
                Load::Failed(reason) => view! {
                    <OnDemandFailed headline="The simulator could not load, so nothing can be run yet." reason=reason on_retry=retry />
                }
                .into_any(),
                Load::Mounted => ().into_any(),
            }}
            <div id="simulate-root"></div>
        </article>
    }
}
