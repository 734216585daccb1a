//! The page's handle on the simulator's worker (`crate::worker::sim`): one
//! job at a time, in order, each reported as a [`Note`].
//!
//! Jobs asked for before the worker is ready wait for it (a run from the
//! address waits this way). A job's requests arrive in batches and are
//! gathered here; the run is handed over whole. Cancel ends the worker at
//! once (`Bridge::restart`) and drops the jobs waiting; a fresh worker gets
//! the replay trace again, which the page keeps for that reason.
//!
//! What it deliberately does not do: read settings or compute a figure
//! (the worker and `ttft_sim` do).

use crate::worker::bridge::{kept_apart, Bridge, Event};
use crate::worker::sim::{Answer, Ask, Received, RunResult, Simulator, Slot};
use js_sys::{ArrayBuffer, Uint8Array};
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::rc::Rc;
use ttft_sim::sweep::{SweepProgress, SweepResult};
use ttft_sim::SettingsError;

/// What the simulator tells the page.
#[derive(Debug)]
pub enum Note {
    /// Its files could not be loaded (why).
    LoadFailed(String),
    /// It stopped in the middle of a job (why); a fresh one is starting.
    Stopped(String),
    /// A run has got this far.
    Progress { slot: Slot, fraction: f64, arrived: usize, ended: usize, simulated_ms: f64 },
    /// A run's requests are crossing: received so far.
    Receiving { requests: usize },
    /// A finished run.
    Ran { slot: Slot, run: Box<RunResult> },
    /// A sweep has got this far.
    Sweeping(SweepProgress),
    /// A finished sweep and the settings it ran from.
    Swept { query: String, result: SweepResult },
    /// A run as CSV text.
    Exported(String),
    /// A replay trace is ready (name, requests kept, left out, has arrivals).
    TraceReady { name: String, requests: usize, skipped: usize, has_arrivals: bool },
    /// A replay trace could not be used.
    TraceFailed { name: String, reason: String },
    /// A guided experiment's verdict (`Answer::Rate`, `HeadOfLine` or
    /// `KvPressure`).
    Checked(Answer),
    /// The settings of a job cannot be used.
    Invalid(SettingsError),
    /// A result could not be read.
    Failed(String),
}

/// A job for the worker, with the body it sends.
#[derive(Clone, Debug)]
pub struct Job {
    pub ask: Ask,
    pub body: Option<Rc<Vec<u8>>>,
}

impl Job {
    pub fn new(ask: Ask) -> Job {
        Job { ask, body: None }
    }
}

struct State {
    on_ready: Box<dyn Fn()>,
    on_note: Box<dyn Fn(Note)>,
    waiting: RefCell<VecDeque<Job>>,
    busy: Cell<bool>,
    received: RefCell<Received>,
    /// The trace the worker must hold (sent again to a fresh worker).
    trace: RefCell<Option<Job>>,
}

/// The simulate part's worker.
pub struct Lab {
    bridge: Rc<Bridge<Simulator>>,
    state: Rc<State>,
}

impl Lab {
    /// Starts the worker, in the next task: creating it is first-call work
    /// that would lengthen the part's first draw on a phone, and jobs asked
    /// before then wait, as for any worker not ready yet.
    ///
    /// `on_ready` hears that the worker has started, and `on_note`
    /// everything after. They are apart because the browser compiles a
    /// wasm function whole at its first call: the first message, as the
    /// part opens, is the start, and it then compiles only `on_ready`, not
    /// the page's handling of every result.
    pub fn start(on_ready: impl Fn() + 'static, on_note: impl Fn(Note) + 'static) -> Lab {
        let state = Rc::new(State {
            on_ready: Box::new(on_ready),
            on_note: Box::new(on_note),
            waiting: RefCell::new(VecDeque::new()),
            busy: Cell::new(false),
            received: RefCell::new(Received::default()),
            trace: RefCell::new(None),
        });
        let bridge = Rc::new_cyclic(|weak: &std::rc::Weak<Bridge<Simulator>>| {
            let weak = weak.clone();
            let state = Rc::clone(&state);
            Bridge::new(move |event| heard(&state, weak.upgrade(), event))
        });
        // Unless the part was left, or Cancel or Retry started it, first.
        let soon = Rc::downgrade(&bridge);
        crate::components::later::next_task(move || {
            if let Some(bridge) = soon.upgrade().filter(|b| !b.has_started()) {
                bridge.restart();
            }
        });
        Lab { bridge, state }
    }

    /// Queues a job; it is sent when the worker is ready and free.
    pub fn ask(&self, job: Job) {
        if matches!(job.ask, Ask::Trace { .. } | Ask::ExampleTrace) {
            self.state.trace.replace(Some(job.clone()));
        }
        self.state.waiting.borrow_mut().push_back(job);
        next(&self.bridge, &self.state);
    }

    /// True while a job runs or waits.
    pub fn busy(&self) -> bool {
        self.state.busy.get() || !self.state.waiting.borrow().is_empty()
    }

    /// Ends the worker at once and drops the waiting jobs; a fresh worker
    /// starts (and gets the replay trace again).
    pub fn cancel(&self) {
        self.state.waiting.borrow_mut().clear();
        self.state.busy.set(false);
        self.state.received.replace(Received::default());
        self.requeue_trace();
        self.bridge.restart();
    }

    /// Starts the worker again after it failed to load.
    pub fn retry(&self) {
        self.requeue_trace();
        self.bridge.restart();
    }

    fn requeue_trace(&self) {
        if let Some(job) = self.state.trace.borrow().clone() {
            self.state.waiting.borrow_mut().push_front(job);
        }
    }
}

fn note(state: &State, n: Note) {
    (state.on_note)(n);
}

/// Sends the next waiting job, if the worker is ready and free.
fn next(bridge: &Bridge<Simulator>, state: &State) {
    if state.busy.get() || !bridge.is_ready() {
        return;
    }
    let Some(job) = state.waiting.borrow_mut().pop_front() else { return };
    state.busy.set(true);
    state.received.replace(Received::default());
    let body = job.body.as_ref().map(|b| Uint8Array::from(b.as_slice()).buffer());
    if let Err(reason) = bridge.send(&job.ask, body.as_ref()) {
        state.busy.set(false);
        note(state, Note::Failed(reason));
    }
}

fn heard(state: &Rc<State>, bridge: Option<Rc<Bridge<Simulator>>>, event: Event<Answer>) {
    match event {
        Event::Ready => (state.on_ready)(),
        Event::LoadFailed(reason) => {
            state.waiting.borrow_mut().clear();
            state.busy.set(false);
            note(state, Note::LoadFailed(reason));
        }
        Event::Stopped(reason) => {
            state.waiting.borrow_mut().clear();
            state.busy.set(false);
            if let Some(job) = state.trace.borrow().clone() {
                state.waiting.borrow_mut().push_front(job);
            }
            note(state, Note::Stopped(reason));
            if let Some(bridge) = &bridge {
                bridge.restart();
            }
            return;
        }
        Event::Reply(answer, body) => kept_apart(replied as fn(&State, Answer, Option<ArrayBuffer>))(state, answer, body),
    }
    if let Some(bridge) = bridge {
        next(&bridge, state);
    }
}

/// What a reply means to the page, kept apart from [`heard`]
/// (`bridge::kept_apart`): the worker's first message, as the part opens,
/// then compiles only what `ready` needs.
#[inline(never)]
fn replied(state: &State, answer: Answer, body: Option<ArrayBuffer>) {
    let bytes = |body: Option<ArrayBuffer>| body.map(|b| Uint8Array::new(&b).to_vec()).unwrap_or_default();
    let finished = |n: Note| {
        state.busy.set(false);
        note(state, n);
    };
    match answer {
        Answer::Progress { slot, fraction, arrived, ended, simulated_ms } => {
            note(state, Note::Progress { slot, fraction, arrived, ended, simulated_ms })
        }
        Answer::Requests => {
            let added = state.received.borrow_mut().batch(&bytes(body));
            match added {
                Ok(()) => {
                    let requests = state.received.borrow().len();
                    note(state, Note::Receiving { requests });
                }
                Err(reason) => finished(Note::Failed(reason)),
            }
        }
        Answer::Ran { slot } => {
            let received = state.received.replace(Received::default());
            finished(match received.done(&bytes(body)) {
                Ok(run) => Note::Ran { slot, run: Box::new(run) },
                Err(reason) => Note::Failed(reason),
            });
        }
        Answer::Sweeping { progress } => note(state, Note::Sweeping(progress)),
        Answer::Swept { query, result } => finished(Note::Swept { query, result }),
        Answer::Exported => finished(Note::Exported(String::from_utf8_lossy(&bytes(body)).into_owned())),
        Answer::TraceReady { name, requests, skipped, has_arrivals } => {
            finished(Note::TraceReady { name, requests, skipped, has_arrivals })
        }
        Answer::TraceFailed { name, reason } => {
            state.trace.replace(None);
            finished(Note::TraceFailed { name, reason })
        }
        Answer::Invalid { error } => finished(Note::Invalid(error)),
        Answer::Failed { reason } => finished(Note::Failed(reason)),
        checked @ (Answer::Rate(_) | Answer::HeadOfLine(_) | Answer::KvPressure(_)) => {
            finished(Note::Checked(checked))
        }
    }
}
