//! Reading a learner's trace through the trace reader, a Web Worker
//! (`crate::worker::import`), so neither a 200 MB file nor the format
//! parsers ever sit on the page's main thread.
//!
//! [`TraceReader::start`] starts the worker when the import part opens and
//! reports everything as a [`Note`]. A file goes in slices of
//! [`SLICE_BYTES`] (smaller at first), read with `Blob.slice` +
//! `arrayBuffer()`, [`READS`] at a time, and transferred to the worker; at
//! most [`AHEAD`] slices are sent before the worker says it has read one, so memory stays flat however large the file. Pasted text
//! and the example go in one message. The results come back in batches,
//! each read in a short task of its own. A read asked for before the worker
//! is ready waits for it; a new read, or Cancel, ends the worker at once
//! and starts a fresh one, so nothing of an old read can arrive late.
//!
//! What it deliberately does not do: compute anything about the requests
//! (the worker's importer and `ttft_import::report` do), or send the file
//! anywhere but to the page's own worker.

use crate::worker::bridge::{kept_apart, Bridge, Event};
use crate::worker::import::{Answer, Ask, Gathered, Reader};
use js_sys::{ArrayBuffer, Promise, Uint8Array};
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::rc::Rc;
use ttft_import::{Import, UnknownFormat};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::File;

/// Bytes read from the file per step. Each slice is a round trip (read,
/// transfer, parse, progress back, the page's status updated); at 1 MiB a
/// 136 MB trace made 136 of them, and their overhead was a large part of
/// the import's time.
pub const SLICE_BYTES: f64 = 4.0 * 1_048_576.0;

/// The first slices are smaller ([`slice_len`]): the worker's wasm starts in
/// the browser's baseline code, and a function running when its optimised
/// code is ready goes on in the baseline code until it returns, so a whole
/// first 4 MiB slice was parsed unoptimised (about 200 ms, against 10 to 15
/// ms for each slice after it). A small first slice hands over to the
/// optimised code after a few milliseconds.
const FIRST_SLICES: [f64; 2] = [256.0 * 1024.0, 1_048_576.0];

/// Reads of the file the browser has under way at once: a 4 MiB slice takes
/// it 10 to 15 ms, about as long as the worker takes to parse one, so with
/// one read at a time the worker waited for each (two in flight read a
/// 136 MB file in about half the time of one).
pub const READS: usize = 2;

/// The length of the slice numbered `index` (from 0).
pub fn slice_len(index: usize) -> f64 {
    FIRST_SLICES.get(index).copied().unwrap_or(SLICE_BYTES)
}

/// Slices sent ahead of the worker's progress: the page reads the next
/// while the worker parses, and at most this many are in flight.
pub const AHEAD: u32 = 3;

/// What the trace reader tells the page.
#[derive(Debug)]
pub enum Note {
    /// The worker's files could not be loaded (why).
    LoadFailed(String),
    /// The worker stopped in the middle of a read (why); a fresh one is
    /// starting.
    Stopped(String),
    /// The file's bytes read so far, requests found, lines or records skipped.
    Reading { read: u64, requests: usize, problems: usize },
    /// Everything is read; a single-document format is being parsed.
    Parsing,
    /// The results are arriving: requests received so far.
    Receiving { requests: usize },
    /// The whole file was read.
    Done(Import),
    /// Its start matched no supported format.
    Unknown(UnknownFormat),
    /// The browser could not read the file, or the result could not be read.
    Failed(String),
}

/// What a read is of.
enum Job {
    File(File),
    Text(String),
    Example,
}

struct State {
    on_ready: Box<dyn Fn()>,
    on_note: Box<dyn Fn(Note)>,
    /// Which read is current; a pump whose read is past stops.
    run: Cell<u64>,
    /// A read under way in the worker.
    busy: Cell<bool>,
    /// Slices the pump may send before the next progress answer.
    credits: Cell<u32>,
    /// Wakes the pump when a credit arrives or the read ends.
    waiter: RefCell<Option<js_sys::Function>>,
    /// A read that waits for the worker to be ready.
    pending: RefCell<Option<Job>>,
    gathered: RefCell<Gathered>,
}

impl State {
    fn wake(&self) {
        if let Some(resolve) = self.waiter.borrow_mut().take() {
            let _ = resolve.call0(&JsValue::UNDEFINED);
        }
    }

    /// Ends the current read on the page's side.
    fn end_run(&self) {
        self.run.set(self.run.get() + 1);
        self.busy.set(false);
        self.gathered.replace(Gathered::default());
        self.wake();
    }
}

/// The page's handle on the trace reader.
pub struct TraceReader {
    bridge: Rc<Bridge<Reader>>,
    state: Rc<State>,
}

impl TraceReader {
    /// Starts the worker. `on_ready` hears that it has started (files can
    /// be read), and `on_note` everything after; they are apart so that the
    /// first message, as the page opens, compiles only `on_ready` (the
    /// browser compiles a wasm function whole at its first call).
    pub fn start(on_ready: impl Fn() + 'static, on_note: impl Fn(Note) + 'static) -> TraceReader {
        let state = Rc::new(State {
            on_ready: Box::new(on_ready),
            on_note: Box::new(on_note),
            run: Cell::new(0),
            busy: Cell::new(false),
            credits: Cell::new(0),
            waiter: RefCell::new(None),
            pending: RefCell::new(None),
            gathered: RefCell::new(Gathered::default()),
        });
        // The bridge's handler needs the bridge (to start a waiting read),
        // which exists only once `start` returns: it holds a weak handle.
        let slot: Rc<RefCell<std::rc::Weak<Bridge<Reader>>>> = Rc::default();
        let handler_state = Rc::clone(&state);
        let handler_slot = Rc::clone(&slot);
        let bridge = Rc::new(Bridge::<Reader>::start(move |event| {
            let bridge = handler_slot.borrow().upgrade();
            heard(&handler_state, bridge, event);
        }));
        *slot.borrow_mut() = Rc::downgrade(&bridge);
        TraceReader { bridge, state }
    }

    /// Reads a picked or dropped file.
    pub fn read_file(&self, file: File) {
        self.begin(Job::File(file));
    }

    /// Reads pasted text.
    pub fn read_text(&self, text: String) {
        self.begin(Job::Text(text));
    }

    /// Reads the course's example trace.
    pub fn read_example(&self) {
        self.begin(Job::Example);
    }

    /// Stops the read at once: the worker is ended and a fresh one started.
    pub fn cancel(&self) {
        self.state.pending.replace(None);
        self.state.end_run();
        self.bridge.restart();
    }

    /// Tries again to start a worker that could not load.
    pub fn retry(&self) {
        self.bridge.restart();
    }

    fn begin(&self, job: Job) {
        if self.state.busy.get() {
            // An old read's answers must not reach the new one.
            self.cancel();
        }
        self.state.end_run();
        if self.bridge.is_ready() {
            launch(&self.bridge, &self.state, job);
        } else {
            self.state.pending.replace(Some(job));
        }
    }
}

impl Drop for TraceReader {
    fn drop(&mut self) {
        // Stops any pump, which drops its handle on the bridge; the bridge
        // ends the worker when the last handle goes.
        self.state.pending.replace(None);
        self.state.end_run();
    }
}

fn note(state: &State, n: Note) {
    (state.on_note)(n);
}

/// Sends a read to a ready worker.
fn launch(bridge: &Rc<Bridge<Reader>>, state: &Rc<State>, job: Job) {
    state.busy.set(true);
    let sent = match job {
        Job::Example => bridge.send(&Ask::Example, None),
        Job::Text(text) => bridge.send(&Ask::Text, Some(&Uint8Array::from(text.as_bytes()).buffer())),
        Job::File(file) => {
            state.credits.set(AHEAD);
            let run = state.run.get();
            let sent = bridge.send(&Ask::Open, None);
            if sent.is_ok() {
                spawn_local(pump(Rc::clone(bridge), Rc::clone(state), run, file));
            }
            sent
        }
    };
    if let Err(reason) = sent {
        state.end_run();
        note(state, Note::Failed(reason));
    }
}

/// Waits until `state` has a credit or the read has ended.
async fn credit(state: &State, run: u64) {
    while state.credits.get() == 0 && state.run.get() == run {
        let promise = Promise::new(&mut |resolve, _| {
            state.waiter.replace(Some(resolve));
        });
        let _ = JsFuture::from(promise).await;
    }
}

/// The file's next slices, each read as soon as it is asked for.
struct Slicer {
    file: File,
    total: f64,
    offset: f64,
    index: usize,
}

impl Slicer {
    /// Starts the read of the next slice; `None` past the file's end.
    fn next(&mut self) -> Option<Result<JsFuture, String>> {
        if self.offset >= self.total {
            return None;
        }
        let end = (self.offset + slice_len(self.index)).min(self.total);
        let blob = match self.file.slice_with_f64_and_f64(self.offset, end) {
            Ok(blob) => blob,
            Err(e) => return Some(Err(describe(&e))),
        };
        self.offset = end;
        self.index += 1;
        Some(Ok(JsFuture::from(blob.array_buffer())))
    }
}

/// Sends the file's slices as the worker takes them, then its end. Up to
/// [`READS`] slices are being read while the pump waits for the worker.
async fn pump(bridge: Rc<Bridge<Reader>>, state: Rc<State>, run: u64, file: File) {
    let total = file.size();
    let mut slicer = Slicer { file, total, offset: 0.0, index: 0 };
    let mut reads: VecDeque<JsFuture> = VecDeque::with_capacity(READS);
    let fail = |reason: String| {
        state.end_run();
        note(&state, Note::Failed(reason));
    };
    let mut refill = |reads: &mut VecDeque<JsFuture>| -> Result<(), String> {
        while reads.len() < READS {
            match slicer.next() {
                Some(read) => reads.push_back(read?),
                None => break,
            }
        }
        Ok(())
    };
    if let Err(reason) = refill(&mut reads) {
        return fail(reason);
    }
    while let Some(read) = reads.pop_front() {
        let buffer = match read.await {
            Ok(b) => b,
            Err(e) => return fail(describe(&e)),
        };
        if state.run.get() != run {
            return;
        }
        if let Err(reason) = refill(&mut reads) {
            return fail(reason);
        }
        credit(&state, run).await;
        if state.run.get() != run {
            return;
        }
        let Ok(buffer) = buffer.dyn_into::<ArrayBuffer>() else {
            return fail("the browser returned no bytes".to_owned());
        };
        state.credits.set(state.credits.get().saturating_sub(1));
        if let Err(reason) = bridge.send(&Ask::Slice, Some(&buffer)) {
            return fail(reason);
        }
    }
    if let Err(reason) = bridge.send(&Ask::End, None) {
        fail(reason);
    }
}

/// What the worker said, as a note for the page.
fn heard(state: &Rc<State>, bridge: Option<Rc<Bridge<Reader>>>, event: Event<Answer>) {
    match event {
        Event::Ready => {
            (state.on_ready)();
            let job = state.pending.borrow_mut().take();
            if let (Some(job), Some(bridge)) = (job, bridge) {
                launch(&bridge, state, job);
            }
        }
        Event::LoadFailed(reason) => {
            state.pending.replace(None);
            state.end_run();
            note(state, Note::LoadFailed(reason));
        }
        Event::Stopped(reason) => {
            state.pending.replace(None);
            state.end_run();
            note(state, Note::Stopped(reason));
            if let Some(bridge) = bridge {
                bridge.restart();
            }
        }
        Event::Reply(answer, body) => kept_apart(replied as fn(&State, Answer, Option<ArrayBuffer>))(state, answer, body),
    }
}

/// What a reply means to the page, kept apart from [`heard`]
/// (`bridge::kept_apart`): the worker's first message, as the page opens,
/// then compiles only what `ready` needs.
#[inline(never)]
fn replied(state: &State, answer: Answer, body: Option<ArrayBuffer>) {
    let bytes = |body: Option<ArrayBuffer>| body.map(|b| Uint8Array::new(&b).to_vec()).unwrap_or_default();
    match answer {
        Answer::Progress { read, requests, problems } => {
            state.credits.set(state.credits.get() + 1);
            state.wake();
            note(state, Note::Reading { read, requests, problems });
        }
        Answer::Parsing => note(state, Note::Parsing),
        Answer::Unknown { seen } => {
            state.end_run();
            note(state, Note::Unknown(UnknownFormat { seen }));
        }
        Answer::Requests { total } => {
            let added = state.gathered.borrow_mut().batch(&bytes(body), total);
            match added {
                Ok(()) => {
                    let requests = state.gathered.borrow().len();
                    note(state, Note::Receiving { requests });
                }
                Err(reason) => {
                    state.end_run();
                    note(state, Note::Failed(reason));
                }
            }
        }
        Answer::Done => {
            let gathered = state.gathered.replace(Gathered::default());
            state.end_run();
            note(state, match gathered.done(&bytes(body)) {
                Ok(imp) => Note::Done(imp),
                Err(reason) => Note::Failed(reason),
            });
        }
    }
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
