//! The "Embed this part" panel's code (`components::embed::embed_panel`),
//! as a wasm of its own: the snippet writer, the origin checker and the
//! clipboard, which only an instructor who opens the panel needs. Trunk
//! builds it beside the page as it does the second opinion's
//! (`src/bin/second-opinion-part.rs`); `part-loader.js` imports it the
//! first time the panel opens.
//!
//! It mounts [`EmbedCode`] into `#embed-panel-root`, which the panel's
//! disclosure renders, for the part the page names (its id, as the
//! configuration), with the authored content the address carries. It
//! keeps nothing: what was typed goes when the learner leaves the part.

use leptos::prelude::*;
use ttft_core::course_part::CoursePart;
use ttft_lab::components::embed::embed_panel::{content_for, EmbedCode, PART, ROOT};
use ttft_lab::components::on_demand::{mount_part, part_panic_hook, unmount_part};
use wasm_bindgen::prelude::*;

/// Starts mounting the panel for the part `config` names (its id); false
/// when there is no `#embed-panel-root`, or no such part (which it says,
/// with "ttft-embed-panel-failed").
#[wasm_bindgen]
pub fn mount(config: String) -> bool {
    let Some(part) = CoursePart::from_id(&config) else {
        PART.failed("it could not read which part to embed; reload the page");
        return false;
    };
    let content = content_for(part);
    mount_part(PART.name, ROOT, move || view! { <EmbedCode part=part content=content /> })
}

/// Unmounts the panel, if it is mounted.
#[wasm_bindgen]
pub fn unmount() {
    unmount_part();
}

fn main() {
    part_panic_hook(
        ROOT,
        "The embed panel stopped because of a bug. Reload the page to open it again; your work is kept.",
    );
}
