//! Where a learner hands the page a trace: a labelled file picker, a marked
//! zone to drop a file on, a paste box with its own button, and a button
//! that loads the course's example trace.
//!
//! The picker is the way in for keyboard and screen-reader users; the drop
//! zone is a convenience around it, never the only way. The page says,
//! right here, that the file stays in the browser. What this component
//! deliberately does not do: read or parse anything; it hands the file or
//! text to the page.
//!
//! It shows at once, before the trace reader has arrived: its controls are
//! disabled and its status line says the reader is loading, so nothing
//! below moves when the reader is ready (issue #12: layout shift).

use leptos::ev;
use leptos::prelude::*;
use ttft_import::Format;
use wasm_bindgen::JsCast;
use web_sys::{DragEvent, File, HtmlInputElement};

/// The trace input area.
#[component]
pub fn DropZone(
    /// Called with a picked or dropped file.
    on_file: Callback<File>,
    /// Called with pasted text.
    on_text: Callback<String>,
    /// Called when the learner asks for the course's example trace.
    on_example: Callback<()>,
    /// Whether the trace reader has arrived; until then every control is
    /// disabled and the status line says it is loading.
    #[prop(into)]
    ready: Signal<bool>,
) -> impl IntoView {
    let waiting = move || !ready.get();
    let over = RwSignal::new(false);
    let pasted = RwSignal::new(String::new());
    let paste_error = RwSignal::new(None::<&'static str>);

    let picked = move |e: ev::Event| {
        if !ready.get_untracked() {
            return;
        }
        let Some(input) = e
            .target()
            .and_then(|t| t.dyn_into::<HtmlInputElement>().ok())
        else {
            return;
        };
        if let Some(file) = input.files().and_then(|list| list.get(0)) {
            on_file.run(file);
        }
        // Let the same file be chosen again after a cancel.
        input.set_value("");
    };
    let drop = move |e: DragEvent| {
        e.prevent_default();
        over.set(false);
        if !ready.get_untracked() {
            return;
        }
        if let Some(file) = e
            .data_transfer()
            .and_then(|d| d.files())
            .and_then(|list| list.get(0))
        {
            on_file.run(file);
        }
    };
    let import_pasted = move |_| {
        if !ready.get_untracked() {
            return;
        }
        let text = pasted.get_untracked();
        if text.trim().is_empty() {
            paste_error.set(Some("Paste the file's text into the box first."));
            return;
        }
        paste_error.set(None);
        on_text.run(text);
    };
    let formats = Format::ALL
        .iter()
        .map(|f| view! { <li>{f.name()}</li> })
        .collect_view();

    view! {
        <section class="import-input" aria-labelledby="import-input-title">
            <h2 id="import-input-title">"Your trace"</h2>
            <p class="import-privacy">
                <strong>"Your file stays in this browser. "</strong>
                "It is read and split on this page; nothing is uploaded or sent anywhere."
            </p>
            <div
                class="drop-zone"
                class:drop-over=move || over.get()
                on:dragover=move |e: DragEvent| {
                    e.prevent_default();
                    over.set(true);
                }
                on:dragleave=move |_| over.set(false)
                on:drop=drop
            >
                <p class="drop-zone-hint">
                    <span role="status" aria-label="Trace reader">
                        {move || waiting().then_some("Loading the trace reader\u{2026}")}
                    </span>
                    <span aria-hidden="true">{move || ready.get().then_some("Drop a trace file here, or")}</span>
                </p>
                <label for="import-file" class="file-label">"Choose a trace file"</label>
                <input
                    id="import-file"
                    type="file"
                    on:change=picked
                    aria-describedby="import-file-help"
                    disabled=waiting
                />
                <p id="import-file-help" class="field-help">
                    "A vLLM span export, a benchmark tool's results file or a CSV; up to 200 MB. The format is \
                     told from the content, not the name."
                </p>
            </div>
            <details class="formats">
                <summary>"Formats this page reads"</summary>
                <ul>{formats}</ul>
            </details>
            <div class="paste">
                <label for="import-paste">"Or paste a file's text"</label>
                <textarea
                    id="import-paste"
                    rows="4"
                    spellcheck="false"
                    aria-describedby="import-paste-error"
                    prop:value=move || pasted.get()
                    on:input=move |e| pasted.set(event_target_value(&e))
                    disabled=waiting
                ></textarea>
                <p id="import-paste-error" class="field-error" role="alert">{move || paste_error.get()}</p>
                <div class="import-buttons">
                    <button type="button" on:click=import_pasted disabled=waiting>"Import pasted text"</button>
                    <button type="button" on:click=move |_| on_example.run(()) disabled=waiting>
                        "Load the course's example trace"
                    </button>
                </div>
            </div>
        </section>
    }
}
