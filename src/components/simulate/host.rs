//! The simulate part's place in the page's own wasm: its heading and
//! introduction, which read at once, and `#simulate-root`, where the part's
//! own wasm (`src/bin/simulate-part.rs`) mounts the rest once
//! `part-loader.js` has fetched and started it (`on_demand::OnDemandPart`). The page's wasm holds
//! none of the part's code, so no other part pays for it.
//!
//! While it loads, a status line says so; if it cannot load, an alert says
//! what the browser said, with Retry. Leaving the part unmounts it (which
//! ends its simulator worker); coming back mounts it again without fetching
//! anything. What it deliberately does not do: know anything of the
//! simulator.

use crate::components::on_demand::{OnDemandPart, PartLoad, PartStatus};
use leptos::prelude::*;
use wasm_bindgen::JsValue;

/// The part's own wasm: `simulate-part.js`, `simulate-part_bg.wasm`.
pub const PART: OnDemandPart = OnDemandPart { name: "simulate" };

/// The simulate part.
#[component]
pub fn SimulateHost() -> impl IntoView {
    let state = RwSignal::new(PartLoad::Loading);
    PART.follow(state, || JsValue::UNDEFINED);
    #[cfg(target_arch = "wasm32")]
    {
        // After the root is in the document (when the app is starting, once
        // it is all in the page): mount at once if the part's wasm runs
        // already, else fetch it.
        crate::components::later::when_in_page(move || {
            request_animation_frame(move || PART.open(state, &JsValue::UNDEFINED))
        });
    }
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
            <PartStatus
                part=PART
                state=state
                loading="Loading the simulator\u{2026}"
                help="It runs here in your browser, so it is fetched only when this part opens."
                failed="The simulator could not load, so nothing can be run yet."
            />
            <div id="simulate-root"></div>
        </article>
    }
}
