//! The one module that calls `fetch`: a streaming POST to the learner's
//! configured chat-completions endpoint, for the AI second opinion.
//!
//! The request goes straight from this browser to the URL given; the key,
//! when there is one, travels only in its `Authorization` header. A
//! redirect is not followed (`redirect: "manual"`, then reported as
//! `CallFailure::Redirected`), so the key reaches only the address the
//! learner saw in the request preview; "manual" rather than "error" because
//! both stop the browser from following, but only "manual" lets the page
//! say that a redirect, not the network, was the reason. No referrer is
//! sent (`referrerPolicy: "no-referrer"`): the provider learns nothing about
//! the page that called it. An error body is read only as far as the
//! characters shown (`ttft_core::second_opinion::reply_limit::ErrorBody`), then the download
//! is cancelled. The body
//! is read chunk by chunk through the response's `ReadableStream` reader and
//! each chunk is handed to the caller with the instant it arrived
//! (`performance.now()`, the page's monotonic clock), so the caller can
//! feed `ttft_core::second_opinion::stream::GradingStream` and time the call.
//!
//! Cancelling, a timeout and a stall all go through one [`Abort`]: it
//! records why, then aborts the `AbortController`, which makes the pending
//! `fetch` or `read()` reject; the rejection is then reported as the reason
//! recorded, not as a network error. What it deliberately does not do:
//! decide when to time out (the caller's timer does), parse the stream
//! (`ttft_core::second_opinion::sse`), or send anything without being asked.

use js_sys::{Promise, Uint8Array};
use std::cell::RefCell;
use std::rc::Rc;
use ttft_core::second_opinion::failures::CallFailure;
use ttft_core::second_opinion::provider::ApiKey;
use ttft_core::second_opinion::reply_limit::ErrorBody;
use ttft_latency::time::Micros;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// A way to stop one call, remembering why it was stopped.
#[derive(Clone)]
pub struct Abort {
    controller: Option<web_sys::AbortController>,
    reason: Rc<RefCell<Option<CallFailure>>>,
}

impl Abort {
    /// A fresh handle for one call.
    pub fn new() -> Abort {
        Abort {
            controller: web_sys::AbortController::new().ok(),
            reason: Rc::new(RefCell::new(None)),
        }
    }

    /// Stops the call, which then fails with `why` (the first reason given
    /// wins). Aborting after the call ended does nothing.
    pub fn abort(&self, why: CallFailure) {
        {
            let mut reason = self.reason.borrow_mut();
            if reason.is_none() {
                *reason = Some(why);
            }
        }
        if let Some(c) = &self.controller {
            c.abort();
        }
    }

    /// Why the call was stopped, if it was.
    fn reason(&self) -> Option<CallFailure> {
        self.reason.borrow().clone()
    }

    /// The reason recorded, or `otherwise` when nothing aborted the call.
    fn explain(&self, otherwise: CallFailure) -> CallFailure {
        self.reason().unwrap_or(otherwise)
    }
}

impl Default for Abort {
    fn default() -> Abort {
        Abort::new()
    }
}

/// The page's monotonic clock (`performance.now()`), in microseconds.
pub fn now() -> Micros {
    let ms = web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now());
    Micros::from_ms_f64(ms).unwrap_or(Micros(0))
}

/// Awaits a promise, turning a rejection into `abort`'s reason or `otherwise`.
async fn settle(
    promise: Promise,
    abort: &Abort,
    otherwise: CallFailure,
) -> Result<JsValue, CallFailure> {
    JsFuture::from(promise)
        .await
        .map_err(|_| abort.explain(otherwise))
}

/// Posts `body` (JSON) to `url` and streams the reply. `on_headers` runs
/// once a 2xx response has arrived; `on_bytes` gets each body chunk with
/// its arrival instant and may stop the call by returning a failure.
/// Returns the instant the body ended.
pub async fn post_streaming(
    url: &str,
    body: &str,
    key: Option<&ApiKey>,
    abort: &Abort,
    mut on_headers: impl FnMut(),
    mut on_bytes: impl FnMut(&[u8], Micros) -> Result<(), CallFailure>,
) -> Result<Micros, CallFailure> {
    let unreadable = |what: &str| CallFailure::Unreadable {
        reason: what.to_owned(),
    };
    let window = web_sys::window().ok_or_else(|| unreadable("no browser window"))?;
    let headers = web_sys::Headers::new().map_err(|_| unreadable("headers could not be made"))?;
    headers
        .set("Content-Type", "application/json")
        .map_err(|_| unreadable("headers could not be set"))?;
    headers
        .set("Accept", "text/event-stream")
        .map_err(|_| unreadable("headers could not be set"))?;
    if let Some(k) = key {
        // A key with a character a header cannot hold is refused here, by the
        // browser, before anything is sent.
        headers.set("Authorization", &k.bearer()).map_err(|_| {
            unreadable("the key holds a character an HTTP header cannot carry; paste it again")
        })?;
    }
    let init = web_sys::RequestInit::new();
    init.set_method("POST");
    init.set_mode(web_sys::RequestMode::Cors);
    init.set_redirect(web_sys::RequestRedirect::Manual);
    init.set_referrer_policy(web_sys::ReferrerPolicy::NoReferrer);
    init.set_headers(&headers);
    init.set_body(&JsValue::from_str(body));
    init.set_signal(abort.controller.as_ref().map(|c| c.signal()).as_ref());
    if let Some(why) = abort.reason() {
        return Err(why);
    }

    let response: web_sys::Response = settle(
        window.fetch_with_str_and_init(url, &init),
        abort,
        CallFailure::Network,
    )
    .await?
    .dyn_into()
    .map_err(|_| unreadable("the browser returned something other than a response"))?;

    if response.type_() == web_sys::ResponseType::Opaqueredirect {
        return Err(CallFailure::Redirected);
    }
    let status = response.status();
    if !(200..300).contains(&status) {
        let retry_after = response.headers().get("Retry-After").ok().flatten();
        let body = read_error_body(&response, abort).await;
        if let Some(why) = abort.reason() {
            return Err(why);
        }
        return Err(CallFailure::Http {
            status,
            retry_after,
            body,
        });
    }
    on_headers();

    let reader = body_reader(&response)?;
    loop {
        let (chunk, at) = next_chunk(&reader, abort).await?;
        let Some(bytes) = chunk else { return Ok(at) };
        if let Err(failure) = on_bytes(&bytes, at) {
            // Stop the download too: nothing more is wanted.
            abort.abort(failure.clone());
            quietly(reader.cancel());
            return Err(abort.explain(failure));
        }
    }
}

/// Lets `promise` settle with nobody waiting for it: cancelling a reader
/// whose download was already aborted rejects, and a rejection nobody
/// handles would be reported as an uncaught error.
fn quietly(promise: Promise) {
    wasm_bindgen_futures::spawn_local(async move {
        let _ = JsFuture::from(promise).await;
    });
}

/// The response body's stream reader.
fn body_reader(
    response: &web_sys::Response,
) -> Result<web_sys::ReadableStreamDefaultReader, CallFailure> {
    let unreadable = |what: &str| CallFailure::Unreadable {
        reason: what.to_owned(),
    };
    let stream = response
        .body()
        .ok_or_else(|| unreadable("the response has no body"))?;
    stream
        .get_reader()
        .dyn_into()
        .map_err(|_| unreadable("the response body cannot be read as a stream"))
}

/// The next chunk of a body and the instant it arrived; `None` at the end.
async fn next_chunk(
    reader: &web_sys::ReadableStreamDefaultReader,
    abort: &Abort,
) -> Result<(Option<Vec<u8>>, Micros), CallFailure> {
    // A read result is a plain `{done, value}` object, not an instance of
    // any class, so it is read by property rather than cast.
    let result = settle(reader.read(), abort, CallFailure::Network).await?;
    let at = now();
    let done = js_sys::Reflect::get(&result, &JsValue::from_str("done"))
        .ok()
        .and_then(|d| d.as_bool());
    if done.unwrap_or(true) {
        return Ok((None, at));
    }
    let value =
        js_sys::Reflect::get(&result, &JsValue::from_str("value")).unwrap_or(JsValue::UNDEFINED);
    if !value.is_instance_of::<Uint8Array>() {
        return Err(CallFailure::Unreadable {
            reason: "a chunk of the body was not bytes".to_owned(),
        });
    }
    Ok((Some(Uint8Array::new(&value).to_vec()), at))
}

/// The start of an error body, as far as it is shown; the rest is not
/// downloaded. `None` when nothing could be read.
async fn read_error_body(response: &web_sys::Response, abort: &Abort) -> Option<String> {
    let reader = body_reader(response).ok()?;
    let mut body = ErrorBody::new();
    loop {
        match next_chunk(&reader, abort).await {
            Ok((Some(bytes), _)) => {
                if body.push(&bytes) {
                    quietly(reader.cancel());
                    break;
                }
            }
            Ok((None, _)) => break,
            Err(_) => {
                quietly(reader.cancel());
                break;
            }
        }
    }
    Some(body.text())
}
