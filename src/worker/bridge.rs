//! The page's side of a worker: starts it, says when it is ready, failed
//! to load or stopped, sends it requests and hands its replies to the part.
//!
//! A worker's files load only when [`Bridge::start`] runs, or the first
//! [`Bridge::restart`] of a [`Bridge::new`] (when the part opens), from
//! `worker-loader.js?bin=<name>` beside the page. It can fail to load in
//! three ways, each a [`Event::LoadFailed`] with the browser's
//! reason: the loader or glue script does not arrive (the worker's `error`
//! event), the wasm does not arrive or compile (the loader posts
//! `load-failed`), or nothing happens for [`LOAD_TIMEOUT_MS`]. A worker
//! that fails after it was ready is [`Event::Stopped`]. [`Bridge::restart`]
//! ends the worker at once (`terminate`, whatever it is doing: this is how
//! Cancel works) and starts a fresh one; events from an ended worker are
//! never delivered. Dropping the bridge ends its worker.
//!
//! What it deliberately does not do: know what a part asks, or retry on
//! its own; the part shows the failure and a Retry button.

use super::wire::{self, Protocol};
use js_sys::{Array, ArrayBuffer};
use std::cell::{Cell, RefCell};
use std::marker::PhantomData;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{ErrorEvent, Event as DomEvent, MessageEvent, Worker};

/// How long a worker may take to say it is ready before the page says it
/// could not load (a slow phone on a slow network takes a few seconds).
pub const LOAD_TIMEOUT_MS: i32 = 60_000;

/// What a worker tells its part.
#[derive(Debug)]
pub enum Event<R> {
    /// It runs and listens.
    Ready,
    /// A reply, with its body.
    Reply(R, Option<ArrayBuffer>),
    /// Its files could not be loaded or started (why, in words).
    LoadFailed(String),
    /// It stopped after it had started (why, in words).
    Stopped(String),
}

type Listener = Closure<dyn FnMut(MessageEvent)>;
type Catcher = Closure<dyn FnMut(DomEvent)>;

struct Running {
    worker: Worker,
    _listener: Listener,
    _catcher: Catcher,
    _timer: Option<Closure<dyn FnMut()>>,
}

struct Inner<P: Protocol> {
    on_event: Box<dyn Fn(Event<P::Response>)>,
    running: RefCell<Option<Running>>,
    /// Which start the live worker is; events from older ones are dropped.
    generation: Cell<u64>,
    ready: Cell<bool>,
    _protocol: PhantomData<P>,
}

/// The page's handle on one worker of protocol `P`.
pub struct Bridge<P: Protocol> {
    inner: Rc<Inner<P>>,
}

impl<P: Protocol> Bridge<P> {
    /// Starts worker `P::BIN` and reports to `on_event` from now on.
    pub fn start(on_event: impl Fn(Event<P::Response>) + 'static) -> Bridge<P> {
        let bridge = Bridge::new(on_event);
        bridge.restart();
        bridge
    }

    /// A bridge whose worker starts at the first [`Bridge::restart`].
    pub fn new(on_event: impl Fn(Event<P::Response>) + 'static) -> Bridge<P> {
        Bridge {
            inner: Rc::new(Inner {
                on_event: Box::new(on_event),
                running: RefCell::new(None),
                generation: Cell::new(0),
                ready: Cell::new(false),
                _protocol: PhantomData,
            }),
        }
    }

    /// True once a worker has been started (each start, and each stop,
    /// moves the generation on from 0).
    pub fn has_started(&self) -> bool {
        self.inner.generation.get() != 0
    }

    /// True once the worker has said it listens.
    pub fn is_ready(&self) -> bool {
        self.inner.ready.get()
    }

    /// Sends a request, transferring `body`'s buffer (it is empty here
    /// afterwards). An error when there is no ready worker.
    pub fn send(&self, request: &P::Request, body: Option<&ArrayBuffer>) -> Result<(), String> {
        let running = self.inner.running.borrow();
        let Some(running) = running.as_ref().filter(|_| self.is_ready()) else {
            return Err("the worker is not ready".to_owned());
        };
        let message = Array::of2(&JsValue::from_str(wire::REQUEST), &JsValue::from_str(&wire::encode(request)));
        let sent = match body {
            Some(buffer) => {
                message.push(buffer);
                running.worker.post_message_with_transfer(&message, &Array::of1(buffer))
            }
            None => running.worker.post_message(&message),
        };
        sent.map_err(|e| describe(&e))
    }

    /// Ends the worker at once, whatever it is doing, and starts a fresh
    /// one (Cancel, and Retry after a failure).
    pub fn restart(&self) {
        stop(&self.inner);
        // Natively (the first view) no worker starts: the part shows what
        // it shows while its worker is still loading.
        if cfg!(not(target_arch = "wasm32")) {
            return;
        }
        let generation = self.inner.generation.get();
        let url = wire::loader_url(P::BIN);
        let worker = match Worker::new(&url) {
            Ok(w) => w,
            Err(e) => {
                (self.inner.on_event)(Event::LoadFailed(describe(&e)));
                return;
            }
        };
        let weak = Rc::downgrade(&self.inner);
        let listener = Listener::new(move |event: MessageEvent| {
            let Some(inner) = weak.upgrade().filter(|i| i.generation.get() == generation) else {
                return;
            };
            let message = Array::from(&event.data());
            let head = message.get(1).as_string().unwrap_or_default();
            match message.get(0).as_string().as_deref() {
                Some(wire::READY) => {
                    inner.ready.set(true);
                    (inner.on_event)(Event::Ready);
                }
                Some(wire::REPLY) => kept_apart(replied::<P> as fn(&Inner<P>, &str, JsValue))(&inner, &head, message.get(2)),
                Some(wire::LOAD_FAILED) => failed(&inner, head),
                Some(wire::STOPPED) => failed(&inner, head),
                _ => {}
            }
        });
        let weak = Rc::downgrade(&self.inner);
        let catcher = Catcher::new(move |event: DomEvent| {
            let Some(inner) = weak.upgrade().filter(|i| i.generation.get() == generation) else {
                return;
            };
            // A script that does not arrive fires a plain `error` event with
            // no message; an exception in the worker fires an ErrorEvent.
            let reason = event
                .dyn_ref::<ErrorEvent>()
                .map(ErrorEvent::message)
                .filter(|m| !m.is_empty())
                .unwrap_or_else(|| "its script did not arrive".to_owned());
            event.prevent_default();
            failed(&inner, reason);
        });
        worker.set_onmessage(Some(listener.as_ref().unchecked_ref()));
        worker.set_onerror(Some(catcher.as_ref().unchecked_ref()));
        let weak = Rc::downgrade(&self.inner);
        let timer = Closure::<dyn FnMut()>::new(move || {
            let Some(inner) = weak.upgrade().filter(|i| i.generation.get() == generation) else {
                return;
            };
            if !inner.ready.get() {
                failed(&inner, format!("it did not start within {} seconds", LOAD_TIMEOUT_MS / 1000));
            }
        });
        let timer = web_sys::window()
            .and_then(|w| {
                w.set_timeout_with_callback_and_timeout_and_arguments_0(timer.as_ref().unchecked_ref(), LOAD_TIMEOUT_MS)
                    .ok()
            })
            .map(|_| timer);
        *self.inner.running.borrow_mut() = Some(Running { worker, _listener: listener, _catcher: catcher, _timer: timer });
    }
}

impl<P: Protocol> Drop for Bridge<P> {
    fn drop(&mut self) {
        stop(&self.inner);
    }
}

/// Ends the live worker, if any; nothing it says afterwards is delivered.
fn stop<P: Protocol>(inner: &Inner<P>) {
    inner.generation.set(inner.generation.get() + 1);
    inner.ready.set(false);
    let Some(running) = inner.running.borrow_mut().take() else { return };
    running.worker.set_onmessage(None);
    running.worker.set_onerror(None);
    running.worker.terminate();
    // This may run inside one of these closures (a failure it reported), and
    // a pending load timer still holds its own, so they are not dropped
    // here: each is a few bytes, once per start, and does nothing now that
    // its generation is past.
    std::mem::forget(running._listener);
    std::mem::forget(running._catcher);
    std::mem::forget(running._timer);
}

/// `f`, as a pointer that neither the compiler nor wasm-opt can see
/// through, so that the function it points to stays one of its own: the
/// browser compiles a wasm function whole at its first call, and a rarely
/// taken branch that is inlined into a function called early (a worker's
/// listener, at its first message) is compiled then, on the main thread,
/// as the part opens. `#[inline(never)]` alone is not enough: wasm-opt
/// inlines every function that has a single caller.
pub fn kept_apart<F: Copy>(f: F) -> F {
    std::hint::black_box(f)
}

/// Reads a reply and reports it, or the failure to read it. Kept apart
/// from the worker's listener ([`kept_apart`]): reading every reply a
/// protocol has is most of the listener's code, which the worker's first
/// message (`ready`, as the part opens) would compile. This way the first
/// reply does, after the learner has asked for something.
#[inline(never)]
fn replied<P: Protocol>(inner: &Inner<P>, head: &str, body: JsValue) {
    match wire::decode::<P::Response>(head) {
        Ok(reply) => (inner.on_event)(Event::Reply(reply, body.dyn_into::<ArrayBuffer>().ok())),
        Err(reason) => failed(inner, reason),
    }
}

/// Reports a failure (load or stop, by whether it had started) and ends
/// the worker: a worker that failed is not used again.
fn failed<P: Protocol>(inner: &Inner<P>, reason: String) {
    let was_ready = inner.ready.get();
    stop(inner);
    (inner.on_event)(if was_ready { Event::Stopped(reason) } else { Event::LoadFailed(reason) });
}

fn describe(e: &JsValue) -> String {
    e.as_string()
        .or_else(|| js_sys::Reflect::get(e, &JsValue::from_str("message")).ok().and_then(|m| m.as_string()))
        .unwrap_or_else(|| "the browser gave no reason".to_owned())
}
