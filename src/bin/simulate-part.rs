//! The simulate part's page (`?part=simulate`), as a wasm of its own: the
//! settings form, the runs, the sweep, the experiments and their views.
//! Trunk builds it beside the page (`data-type="worker"`: fixed names, no
//! preload; `data-bindgen-target="web"`: ES-module glue);
//! `simulate-loader.js` imports it the first
//! time the part opens, so the lesson and the other parts never fetch it.
//! It runs on the page's main thread and mounts into `#simulate-root`,
//! which the page's own wasm renders (`components::simulate::host`); the
//! simulator itself runs in a worker again (`sim-worker`).

use std::cell::{Cell, RefCell};
use ttft_lab::components::later::{mount_in_steps, mounted, move_children, next_task};
use ttft_lab::components::simulate::simulate_page::SimulatePage;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

thread_local! {
    /// The mounted part; dropping it unmounts it (and ends its worker).
    static MOUNTED: RefCell<Option<Box<dyn std::any::Any>>> = const { RefCell::new(None) };
    /// Which mount is the latest: one that finishes after the learner left
    /// and came back is not put in the page.
    static GENERATION: Cell<u64> = const { Cell::new(0) };
}

/// Starts mounting the part into `#simulate-root`; false when there is no
/// such element (the learner has left the part). The part is drawn off the
/// page in short tasks (`components::later`), starting in the next one,
/// then put in `#simulate-root` in one, and "ttft-simulate-mounted" fires
/// on `window`.
#[wasm_bindgen]
pub fn mount_simulate() -> bool {
    unmount_simulate();
    if root().is_none() {
        return false;
    }
    let generation = GENERATION.with(|g| {
        g.set(g.get() + 1);
        g.get()
    });
    // In a task after the one that started this wasm (or that the learner's
    // click ran in): each is short that way.
    next_task(move || {
        if GENERATION.with(|g| g.get()) != generation || root().is_none() {
            return;
        }
        let handle = mount_in_steps(SimulatePage, move |host| {
            if GENERATION.with(|g| g.get()) != generation {
                return;
            }
            let Some(root) = root() else { return };
            move_children(&host, &root);
            mounted();
            if let Some(window) = web_sys::window() {
                if let Ok(event) = web_sys::CustomEvent::new("ttft-simulate-mounted") {
                    let _ = window.dispatch_event(&event);
                }
            }
        });
        MOUNTED.with(|m| *m.borrow_mut() = handle.map(|h| Box::new(h) as Box<dyn std::any::Any>));
    });
    true
}

fn root() -> Option<web_sys::HtmlElement> {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("simulate-root"))
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
}

/// Unmounts the part, if it is mounted.
#[wasm_bindgen]
pub fn unmount_simulate() {
    GENERATION.with(|g| g.set(g.get() + 1));
    let old = MOUNTED.with(|m| m.borrow_mut().take());
    drop(old);
}

fn main() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        // Say so where the part was, instead of leaving a page that no
        // longer answers.
        if let Some(root) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id("simulate-root"))
        {
            root.set_text_content(Some(
                "The simulate part stopped because of a bug. Reload the page to start it again; \
                 nothing you saved elsewhere in the course is affected.",
            ));
            let _ = root.set_attribute("role", "alert");
        }
    }));
}
