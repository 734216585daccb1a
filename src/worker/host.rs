//! The worker's side of the bridge: listens for the page's requests, hands
//! each one to the part's handler, and posts the handler's replies as soon
//! as it makes them (each body's buffer transferred to the page).
//!
//! It says [`READY`](super::wire::READY) once it listens: messages the page
//! sent before then would be lost, so the page waits for it. A panic posts
//! [`STOPPED`](super::wire::STOPPED) with where it happened, so the page can
//! say the reader stopped instead of waiting for ever. What it deliberately
//! does not do: read anything but the messages it is sent.

use super::wire::{self, Protocol};
use js_sys::{Array, ArrayBuffer, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

fn scope() -> Option<DedicatedWorkerGlobalScope> {
    js_sys::global().dyn_into::<DedicatedWorkerGlobalScope>().ok()
}

/// Posts `[kind, head, body]` to the page, transferring the body's buffer.
fn post(scope: &DedicatedWorkerGlobalScope, kind: &str, head: &str, body: Option<Vec<u8>>) {
    let message = Array::of2(&JsValue::from_str(kind), &JsValue::from_str(head));
    let result = match body {
        Some(bytes) => {
            let buffer = Uint8Array::from(bytes.as_slice()).buffer();
            message.push(&buffer);
            scope.post_message_with_transfer(&message, &Array::of1(&buffer))
        }
        None => scope.post_message(&message),
    };
    if result.is_err() {
        web_sys::console::error_1(&JsValue::from_str("the worker could not post a reply"));
    }
}

/// Tells the page the worker stopped (from the panic hook).
pub fn stopped(reason: &str) {
    if let Some(scope) = scope() {
        post(&scope, wire::STOPPED, reason, None);
    }
}

/// Serves protocol `P`: every request goes to `handle` with its body's
/// bytes and a function that posts one reply. Runs until the page
/// terminates the worker.
pub fn serve<P: Protocol>(
    mut handle: impl FnMut(P::Request, Option<Vec<u8>>, &mut dyn FnMut(P::Response, Option<Vec<u8>>))
        + 'static,
) {
    let Some(scope) = scope() else {
        web_sys::console::error_1(&JsValue::from_str("not running in a dedicated worker"));
        return;
    };
    let replies = scope.clone();
    let listener = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
        let message = Array::from(&event.data());
        if message.get(0).as_string().as_deref() != Some(wire::REQUEST) {
            return;
        }
        let head = message.get(1).as_string().unwrap_or_default();
        let body = message
            .get(2)
            .dyn_into::<ArrayBuffer>()
            .ok()
            .map(|b| Uint8Array::new(&b).to_vec());
        let request = match wire::decode::<P::Request>(&head) {
            Ok(r) => r,
            Err(reason) => {
                post(&replies, wire::STOPPED, &reason, None);
                return;
            }
        };
        handle(request, body, &mut |reply, body| {
            post(&replies, wire::REPLY, &wire::encode(&reply), body);
        });
    });
    scope.set_onmessage(Some(listener.as_ref().unchecked_ref()));
    // The worker lives as long as its listener: until the page ends it.
    listener.forget();
    post(&scope, wire::READY, "", None);
}
