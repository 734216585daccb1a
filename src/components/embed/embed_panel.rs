//! "Embed this part": the disclosure under every part (outside embed mode)
//! that gives an instructor the iframe snippet to paste into a course page.
//!
//! Only instructors open it, so what it needs (the snippet writer, the
//! origin checker, the clipboard) is a wasm of its own
//! (`src/bin/embed-panel-part.rs`), which `part-loader.js` fetches the
//! first time the panel opens; every part's page holds only the disclosure
//! ([`EmbedPanel`]), a loading line, and, if the code cannot arrive, an
//! alert with Retry. What the part shows is [`EmbedCode`].
//!
//! The snippet comes from the core (`ttft_core::embed::snippet::iframe_snippet`:
//! escaped, with a `title`, lazy loading and no `sandbox`) and is shown as
//! text in a read-only box with a Copy button (the Clipboard API, or, where
//! that is refused, the text selected for the instructor to copy; either
//! way the outcome is announced). An optional field takes the course
//! page's origin, checked live by the core; a valid origin is added to the
//! snippet as `origin=`, the allow-list that lets the embedded page post
//! results to that page. The panel also gives the parent script's line for
//! hosts without H5P's resizer, and the core's two-sentence note on where
//! progress is kept.
//!
//! What it deliberately does not do: insert the snippet into the page,
//! accept an origin the core refuses, or remember what was typed once the
//! learner leaves the part.

use crate::components::on_demand::{OnDemandPart, PartLoad, PartStatus};
use leptos::html::Textarea;
use leptos::prelude::*;
use ttft_core::course_part::CoursePart;
use ttft_core::embed::origin::{parse_origin, Origin, OriginError};
use ttft_core::embed::query::ContentSource;
use ttft_core::embed::snippet::{iframe_snippet, resizer_script_tag, SnippetRequest, STORAGE_NOTE};
use wasm_bindgen::{JsCast, JsValue};

/// The height the snippet starts at, before the page's first height message.
const START_HEIGHT: u32 = 800;

/// Reads the origins field: empty is no allow-list; otherwise each
/// comma-separated entry must pass the core's check.
pub fn read_origins(text: &str) -> Result<Vec<Origin>, Vec<OriginError>> {
    let mut good = Vec::new();
    let mut bad = Vec::new();
    for entry in text.split(',').filter(|e| !e.trim().is_empty()) {
        match parse_origin(entry) {
            Ok(o) if !good.contains(&o) => good.push(o),
            Ok(_) => {}
            Err(e) => bad.push(e),
        }
    }
    if bad.is_empty() {
        Ok(good)
    } else {
        Err(bad)
    }
}

/// The page's own address without query or fragment.
pub fn page_url() -> String {
    crate::address::origin_and_path()
}

/// Copies `text`: through the Clipboard API when the browser allows it,
/// otherwise by selecting the text in `fallback` for the person to copy.
/// Resolves to what to announce.
pub async fn copy_text(text: String, fallback: Option<web_sys::HtmlTextAreaElement>) -> String {
    if write_clipboard(&text).await {
        return "Copied.".to_owned();
    }
    match fallback {
        Some(area) => {
            let _ = area.focus();
            area.select();
            "The browser did not allow copying; the text is selected: press Ctrl+C (or Command+C) to copy it.".to_owned()
        }
        None => "The browser did not allow copying; select the text and copy it.".to_owned(),
    }
}

/// `navigator.clipboard.writeText(text)`, false when missing or refused.
async fn write_clipboard(text: &str) -> bool {
    let Some(window) = web_sys::window() else {
        return false;
    };
    let navigator: JsValue = window.navigator().into();
    let Ok(clipboard) = js_sys::Reflect::get(&navigator, &JsValue::from_str("clipboard")) else {
        return false;
    };
    if clipboard.is_undefined() || clipboard.is_null() {
        return false;
    }
    let Ok(write) = js_sys::Reflect::get(&clipboard, &JsValue::from_str("writeText")) else {
        return false;
    };
    let Some(write) = write.dyn_ref::<js_sys::Function>() else {
        return false;
    };
    let Ok(promise) = write.call1(&clipboard, &JsValue::from_str(text)) else {
        return false;
    };
    let Ok(promise) = promise.dyn_into::<js_sys::Promise>() else {
        return false;
    };
    wasm_bindgen_futures::JsFuture::from(promise).await.is_ok()
}

/// The panel's own wasm: `embed-panel-part.js`, `embed-panel-part_bg.wasm`.
pub const PART: OnDemandPart = OnDemandPart { name: "embed-panel" };

/// Where the part mounts [`EmbedCode`].
pub const ROOT: &str = "embed-panel-root";

/// The Embed panel under `part`: a closed disclosure that fetches the
/// panel's code the first time it opens. The part reads which authored
/// content the page shows from the address itself, as the page does.
#[component]
pub fn EmbedPanel(
    /// The part the snippet embeds.
    part: CoursePart,
) -> impl IntoView {
    let state = RwSignal::new(PartLoad::Closed);
    let config = move || JsValue::from_str(part.id());
    PART.follow(state, config);
    let on_toggle = move |ev: leptos::ev::Event| {
        let open = event_target::<web_sys::HtmlDetailsElement>(&ev).open();
        if open && state.get_untracked() == PartLoad::Closed {
            PART.open(state, &config());
        }
    };
    view! {
        <details class="embed-panel" data-not-embedded="" on:toggle=on_toggle>
            <summary>"Embed this part"</summary>
            <PartStatus
                part=PART
                state=state
                loading="Loading the embed code\u{2026}"
                help="It is fetched only when you open this panel."
                failed="The embed code could not load."
                closed=ViewFn::from(|| ())
            />
            <div id=ROOT></div>
        </details>
    }
}

/// The authored content the snippet for `part` should load: what the
/// address carries, for the two parts that show an instructor's exercise.
pub fn content_for(part: CoursePart) -> Option<ContentSource> {
    matches!(part, CoursePart::Trace | CoursePart::Choice)
        .then(|| crate::components::embed::Embedding::from_address().options().content.clone())
        .flatten()
}

/// What the open panel shows for one part (the panel's own wasm mounts it).
#[component]
pub fn EmbedCode(
    /// The part the snippet embeds.
    part: CoursePart,
    /// Authored content the snippet should load, if the page shows some.
    content: Option<ContentSource>,
) -> impl IntoView {
    let origins_text = RwSignal::new(String::new());
    let announce = RwSignal::new(String::new());
    let area: NodeRef<Textarea> = NodeRef::new();
    let page = page_url();
    let checked = Memo::new(move |_| origins_text.with(|t| read_origins(t)));
    let snippet = {
        let page = page.clone();
        let content = content.clone();
        move || {
            let origins = checked.with(|c| c.clone().unwrap_or_default());
            iframe_snippet(&SnippetRequest {
                page_url: page.clone(),
                part,
                origins,
                content: content.clone(),
                height: START_HEIGHT,
            })
        }
    };
    let errors = move || {
        checked.with(|c| match c {
            Ok(_) => Vec::new(),
            Err(es) => es.iter().map(ToString::to_string).collect::<Vec<_>>(),
        })
    };
    let invalid = move || checked.with(Result::is_err);
    let on_copy = {
        let snippet = snippet.clone();
        move |_| {
            let text = snippet();
            let fallback = area.get_untracked();
            announce.set(String::new());
            leptos::task::spawn_local(async move {
                let said = copy_text(text, fallback).await;
                announce.try_set(said);
            });
        }
    };
    let origin_note = move || {
        checked.with(|c| match c {
            Ok(list) if list.is_empty() => {
                "No origin given: the page sizes itself but sends no results.".to_owned()
            }
            Ok(list) => format!(
                "Results will be sent only to {}.",
                list.iter()
                    .map(Origin::as_str)
                    .collect::<Vec<_>>()
                    .join(" and ")
            ),
            Err(_) => "The snippet leaves out what is not a valid origin.".to_owned(),
        })
    };
    // Only where the page's address is known (a browser's): a line
    // pointing nowhere would mislead.
    let script_line = (!page.is_empty()).then(|| resizer_script_tag(&page));
    view! {
        <div class="embed-panel-body">
            <p>
                "Paste this into your course page to show this part on its own, without the site's navigation. \
                 It resizes itself to its content."
            </p>
            <div class="field embed-origin-field" class:field-invalid=invalid>
                <label for="embed-origin">"Your course page's origin (optional)"</label>
                <input
                    type="text"
                    id="embed-origin"
                    inputmode="url"
                    autocomplete="off"
                    spellcheck="false"
                    placeholder="https://courses.example.edu"
                    aria-describedby="embed-origin-help embed-origin-error"
                    aria-invalid=move || if invalid() { "true" } else { "false" }
                    prop:value=move || origins_text.get()
                    on:input=move |ev| origins_text.set(event_target_value(&ev))
                />
                <p id="embed-origin-help" class="note-small">
                    "Name the scheme and host of the page that will hold the iframe (several: separate them \
                     with commas). Only that page then receives a result statement each time a learner \
                     checks an exercise or saves a self-score. "
                    {origin_note}
                </p>
                <ul id="embed-origin-error" class="field-error">
                    {move || errors().into_iter().map(|e| view! { <li>{e}</li> }).collect_view()}
                </ul>
            </div>
            <label for="embed-snippet">"Code to paste"</label>
            <textarea id="embed-snippet" class="embed-snippet" readonly rows="4" node_ref=area prop:value=snippet></textarea>
            <div class="practice-actions">
                <button type="button" on:click=on_copy>"Copy"</button>
                <span class="embed-copied" role="status" aria-live="polite" aria-label="Copy result">{move || announce.get()}</span>
            </div>
            <p>
                "If your page does not already load H5P's resizer script, add this line once, anywhere on it, \
                 so the iframe takes the height of its content:"
            </p>
            <pre class="embed-script"><code>{script_line}</code></pre>
            <p class="embed-storage-note">{STORAGE_NOTE}</p>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str, expected: Result<Vec<&str>, usize>) {
        let got = read_origins(text)
            .map(|v| v.iter().map(|o| o.as_str().to_owned()).collect::<Vec<_>>())
            .map_err(|e| e.len());
        let expected = expected.map(|v| v.into_iter().map(str::to_owned).collect::<Vec<_>>());
        assert_eq!(got, expected, "{text:?}");
    }

    #[test]
    fn origins_are_read_by_the_core() {
        check("", Ok(vec![]));
        check("  ", Ok(vec![]));
        check(
            "https://LMS.example.edu/",
            Ok(vec!["https://lms.example.edu"]),
        );
        check(
            "https://a.example, https://a.example,http://localhost:3000",
            Ok(vec!["https://a.example", "http://localhost:3000"]),
        );
        check("*", Err(1));
        check("https://a.example, http://evil.example, lms", Err(2));
    }
}
