//! Reading a learner's file in the browser, slice by slice, into the
//! importer, so a 200 MB trace never freezes the page.
//!
//! Each slice (1 MiB) is read with `Blob.slice` + `arrayBuffer()`, decoded by
//! one streaming `TextDecoder` (so a character split across two slices comes
//! out whole), and fed to [`ttft_import::Importer`]. Every await of
//! `arrayBuffer()` returns to the event loop (the read completes in a task
//! of its own), so the progress bar paints and the Cancel button answers
//! between slices; every [`YIELD_EVERY`] slices the loop also yields with a
//! `setTimeout(0)` promise, so timers and input queued behind the reads get
//! their turn. Not after every slice: Chromium clamps a chain of
//! `setTimeout(0)` to 4 ms each, half a second over a 136 MB file. Cancelling is a new run number: the loop
//! sees it after its next await and drops the importer.
//!
//! What it deliberately does not do: compute anything about the requests
//! (the importer and `ttft_import::report` do), or send the file anywhere.

use js_sys::Promise;
use leptos::prelude::*;
use ttft_import::{Import, Importer, Layout, Progress, UnknownFormat};
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;
use web_sys::{File, TextDecodeOptions, TextDecoder};

/// Bytes read from the file per step.
pub const SLICE_BYTES: f64 = 1_048_576.0;

/// Slices read between explicit `setTimeout(0)` yields.
pub const YIELD_EVERY: u32 = 8;

/// How a read ended.
pub enum ReadEnd {
    /// The whole file was read.
    Done(Import),
    /// Its start matched no supported format.
    Unknown(UnknownFormat),
    /// A newer run (or Cancel) took over.
    Cancelled,
    /// The browser could not read the file.
    Failed(String),
}

/// What a read reports while it works.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Slices are being read: bytes of the file read so far, and the
    /// importer's progress.
    Reading { read: u64, progress: Progress },
    /// Everything is read; a single-document format is being parsed.
    Parsing,
}

/// Waits for the event loop to run once (a `setTimeout(0)` promise), so the
/// page can paint and handle clicks between slices.
pub async fn yield_to_browser() {
    let promise = Promise::new(&mut |resolve, _reject| {
        if let Some(w) = web_sys::window() {
            let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 0);
        } else {
            let _ = resolve.call0(&JsValue::UNDEFINED);
        }
    });
    let _ = JsFuture::from(promise).await;
}

fn describe(e: &JsValue) -> String {
    e.as_string()
        .or_else(|| {
            js_sys::Reflect::get(e, &JsValue::from_str("message"))
                .ok()
                .and_then(|m| m.as_string())
        })
        .unwrap_or_else(|| "the browser gave no reason".to_owned())
}

/// Reads `file` slice by slice into an importer. `still_current` is asked
/// after every await; once it says no, the read stops and drops its work.
/// `report` is told how far it has got after each slice.
pub async fn read_file(
    file: File,
    still_current: impl Fn() -> bool,
    report: impl Fn(Step),
) -> ReadEnd {
    let total = file.size();
    let Ok(decoder) = TextDecoder::new_with_label("utf-8") else {
        return ReadEnd::Failed("this browser has no UTF-8 text decoder".to_owned());
    };
    let stream = TextDecodeOptions::new();
    stream.set_stream(true);
    let mut importer: Option<Importer> = None;
    let mut offset = 0.0;
    let mut slices = 0u32;
    while offset < total {
        let end = (offset + SLICE_BYTES).min(total);
        let blob = match file.slice_with_f64_and_f64(offset, end) {
            Ok(b) => b,
            Err(e) => return ReadEnd::Failed(describe(&e)),
        };
        let buffer = match JsFuture::from(blob.array_buffer()).await {
            Ok(b) => b,
            Err(e) => return ReadEnd::Failed(describe(&e)),
        };
        if !still_current() {
            return ReadEnd::Cancelled;
        }
        let text = match decoder
            .decode_with_buffer_source_and_options(&js_sys::Object::from(buffer), &stream)
        {
            Ok(t) => t,
            Err(e) => return ReadEnd::Failed(describe(&e)),
        };
        offset = end;
        let current = match importer.as_mut() {
            Some(i) => i,
            None => match Importer::detect(&text) {
                Ok(i) => importer.insert(i),
                Err(unknown) => return ReadEnd::Unknown(unknown),
            },
        };
        current.feed(&text);
        report(Step::Reading {
            read: offset as u64,
            progress: current.progress(),
        });
        slices += 1;
        if slices % YIELD_EVERY == 0 {
            yield_to_browser().await;
            if !still_current() {
                return ReadEnd::Cancelled;
            }
        }
    }
    // The decoder may still hold the start of a character the file cut off.
    let rest = decoder.decode().unwrap_or_default();
    let mut importer = match importer {
        Some(i) => i,
        None => match Importer::detect(&rest) {
            Ok(i) => i,
            Err(unknown) => return ReadEnd::Unknown(unknown),
        },
    };
    if !rest.is_empty() {
        importer.feed(&rest);
    }
    if importer.format().layout() == Layout::Document {
        report(Step::Parsing);
        yield_to_browser().await;
        if !still_current() {
            return ReadEnd::Cancelled;
        }
    }
    ReadEnd::Done(importer.finish())
}

/// Offers `text` as a download named `name` (a Blob URL on a temporary
/// link), then releases the URL.
pub fn download(text: &str, name: &str, mime: &str) -> Result<(), String> {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options)
        .map_err(|e| describe(&e))?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(|e| describe(&e))?;
    let link = document().create_element("a").map_err(|e| describe(&e))?;
    let _ = link.set_attribute("href", &url);
    let _ = link.set_attribute("download", name);
    let _ = link.set_attribute("hidden", "");
    let body = document().body().ok_or("the page has no body")?;
    let _ = body.append_child(&link);
    if let Ok(link) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(link) {
        link.click();
        link.remove();
    }
    // Revoke after the click has started the download.
    set_timeout(
        move || {
            let _ = web_sys::Url::revoke_object_url(&url);
        },
        std::time::Duration::from_secs(10),
    );
    Ok(())
}
