//! The simulate part's page (`?part=simulate`), as a wasm of its own: the
//! settings form, the runs, the sweep, the experiments and their views.
//! Trunk builds it beside the page (`data-type="worker"`: fixed names, no
//! preload; `data-bindgen-target="web"`: ES-module glue);
//! `part-loader.js` imports it the first
//! time the part opens, so the lesson and the other parts never fetch it.
//! It runs on the page's main thread and mounts into `#simulate-root`,
//! which the page's own wasm renders (`components::simulate::host`); the
//! simulator itself runs in a worker again (`sim-worker`).

use ttft_lab::components::on_demand::{mount_part, part_panic_hook, unmount_part};
use ttft_lab::components::simulate::simulate_page::SimulatePage;
use wasm_bindgen::prelude::*;

/// Starts mounting the part into `#simulate-root`; false when there is no
/// such element (the learner has left the part). See
/// `on_demand::mount_part`.
#[wasm_bindgen(js_name = mount)]
pub fn mount_simulate() -> bool {
    mount_part("simulate", "simulate-root", SimulatePage)
}

/// Unmounts the part (which ends its simulator worker), if it is mounted.
#[wasm_bindgen(js_name = unmount)]
pub fn unmount_simulate() {
    unmount_part();
}

fn main() {
    part_panic_hook(
        "simulate-root",
        "The simulate part stopped because of a bug. Reload the page to start it again; \
         nothing you saved elsewhere in the course is affected.",
    );
}
