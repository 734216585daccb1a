//! The authoring page's preview (`components::authoring::preview`), as a
//! wasm of its own: the trace and configuration exercises, showing an
//! instructor's file as learners will see it. Trunk builds it beside the
//! page as it does the embed panel's (`src/bin/embed-panel-part.rs`);
//! `part-loader.js` imports it the first time the authoring page has a
//! file with no problems to preview, so the page itself carries neither
//! exercise.
//!
//! It mounts into `#author-preview-root` with what the page sends (the
//! exercise to show and the file, `preview::preview_config`), and again,
//! in place of the last, whenever the page sends a changed file. Answers
//! typed into the preview are kept under its own ids.

use leptos::prelude::*;
use ttft_lab::components::authoring::preview::{
    read_preview_config, AuthoringPreview, PREVIEW, PREVIEW_ROOT,
};
use ttft_lab::components::on_demand::{mount_part, part_panic_hook, unmount_part};
use ttft_lab::storage::Store;
use wasm_bindgen::prelude::*;

/// Starts mounting the preview of the file `config` carries; false when
/// there is no `#author-preview-root`, or when the file cannot be read
/// (which it says, with "ttft-author-preview-failed").
#[wasm_bindgen]
pub fn mount(config: String) -> bool {
    let (kind, file) = match read_preview_config(&config) {
        Ok(read) => read,
        Err(why) => {
            PREVIEW.failed(&why);
            return false;
        }
    };
    mount_part(PREVIEW.name, PREVIEW_ROOT, move || {
        provide_context(Store::open_for_part());
        view! { <AuthoringPreview file=file kind=kind /> }
    })
}

/// Unmounts the preview, if it is mounted.
#[wasm_bindgen]
pub fn unmount() {
    unmount_part();
}

fn main() {
    part_panic_hook(
        PREVIEW_ROOT,
        "The preview stopped because of a bug. Copy your file out of the editor, then reload the page to see the preview again.",
    );
}
