//! Drawing a part in several short tasks instead of one long one.
//!
//! Taking over a part's first view draws the whole part. On a phone (4x
//! CPU) that was one task of 300 to 450 ms, more than half of it V8
//! compiling, on first call, the wasm functions the part's views use; a
//! page cannot answer a tap during such a task, and Lighthouse counts all
//! of it past 50 ms as blocking time. [`Later`] marks content that may be
//! drawn in a task of its own. While a mount is [`mount_in_steps`], a
//! `Later` draws nothing at first and queues its content; the queue is
//! drawn one entry a task (an entry's own `Later`s join the queue), all
//! off the document, and only when it is empty does the caller put the
//! finished nodes in the page, in one task. So the learner never sees a
//! part half drawn: the first view stays until the app is complete, and
//! the app's markup is exactly what it would have been in one go.
//!
//! The same steps draw content that arrives once the app is in the page
//! ([`draw_in_steps`]: an instructor's exercise when its file has been
//! read), in the page but hidden by its caller until the last step.
//! Anywhere else (natively, for the static first view; in the browser once
//! started, when the learner moves between parts; in component tests) a
//! `Later` draws its content at once.
//!
//! What it deliberately does not do: decide what is worth a task of its
//! own (the components wrap their larger blocks), or show anything while
//! the steps run (the first view or the caller's loading line does).

use leptos::prelude::*;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use std::sync::{Arc, Mutex};

/// What the mount under way still has to draw, one entry a task.
type Queue = Rc<RefCell<VecDeque<Box<dyn FnOnce()>>>>;

/// A mount's queue with its last step, waiting for its [`Hold`]s to end.
type Parked = (Queue, Box<dyn FnOnce()>);

thread_local! {
    /// The queue of the mount in steps under way, if any.
    static CURRENT: RefCell<Option<Queue>> = const { RefCell::new(None) };
    /// How many [`Hold`]s keep that mount from ending.
    static HOLDS: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
    /// That mount's last step, parked while a [`Hold`] lasts.
    static PARKED: RefCell<Option<Parked>> = const { RefCell::new(None) };
    /// What waits for that mount's nodes to be in the page.
    static WHEN_IN_PAGE: RefCell<Vec<Box<dyn FnOnce()>>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` once what is being drawn is in the page: at once, unless a
/// mount in steps is under way, then when its caller says [`mounted`].
pub fn when_in_page(f: impl FnOnce() + 'static) {
    if in_steps() {
        WHEN_IN_PAGE.with(|w| w.borrow_mut().push(Box::new(f)));
    } else {
        f();
    }
}

/// Said by a mount in steps' caller once it has put the nodes in the page:
/// runs what [`when_in_page`] kept.
pub fn mounted() {
    let waiting = WHEN_IN_PAGE.with(|w| std::mem::take(&mut *w.borrow_mut()));
    for f in waiting {
        f();
    }
}

/// True while a mount in steps is under way (so a `Later` queues).
pub fn in_steps() -> bool {
    CURRENT.with(|c| c.borrow().is_some())
}

fn enqueue(draw: Box<dyn FnOnce()>) -> Result<(), Box<dyn FnOnce()>> {
    CURRENT.with(|c| match c.borrow().as_ref() {
        Some(queue) => {
            queue.borrow_mut().push_back(draw);
            Ok(())
        }
        None => Err(draw),
    })
}

/// Keeps the mount in steps under way from ending (its nodes out of the
/// page, the first view in it) until it is dropped: for content that
/// arrives while the app starts and that the first view already shows (an
/// instructor's exercise whose file index.html read first), so that the
/// app never replaces it with its own loading line. `None` when no mount
/// is under way. What the content draws meanwhile (`draw_in_steps`) joins
/// the mount's steps.
pub fn hold() -> Option<Hold> {
    if !in_steps() {
        return None;
    }
    HOLDS.with(|h| h.set(h.get() + 1));
    Some(Hold(()))
}

/// See [`hold`]: the mount goes on once every `Hold` is dropped.
pub struct Hold(());

impl Drop for Hold {
    fn drop(&mut self) {
        let left = HOLDS.with(|h| {
            let left = h.get().saturating_sub(1);
            h.set(left);
            left
        });
        if left == 0 {
            if let Some((queue, finish)) = PARKED.with(|p| p.borrow_mut().take()) {
                next_task(move || step(queue, finish));
            }
        }
    }
}

/// Content that may be drawn in a task of its own while the app starts
/// (see the module's notes); elsewhere, at once.
#[component]
pub fn Later(children: Children) -> impl IntoView {
    let ready = RwSignal::new(false);
    if enqueue(Box::new(move || {
        let _ = ready.try_set(true);
    }))
    .is_err()
    {
        // Not starting: the content, at once and with no reactive wrapper.
        return children().into_any();
    }
    // `ready` changes once, from false to true, so this draws once.
    let content = Arc::new(Mutex::new(Some(children)));
    (move || {
        ready
            .get()
            .then(|| content.lock().ok().and_then(|mut c| c.take()).map(|c| c()))
            .flatten()
    })
    .into_any()
}

/// Mounts `app` into a new element that is not in the document, draws
/// every [`Later`] in it in tasks of their own, then calls `done` with that
/// element (holding the app's nodes) in one more task, for the caller to
/// move them where they belong. Dropping the handle unmounts the app,
/// wherever its nodes are by then.
pub fn mount_in_steps<F, N>(
    app: F,
    done: impl FnOnce(web_sys::HtmlElement) + 'static,
) -> Option<leptos::mount::UnmountHandle<N::State>>
where
    F: FnOnce() -> N + 'static,
    N: IntoView,
{
    use wasm_bindgen::JsCast;
    let host = document()
        .create_element("div")
        .ok()
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())?;
    let queue: Queue = Rc::default();
    CURRENT.with(|c| *c.borrow_mut() = Some(Rc::clone(&queue)));
    let handle = leptos::mount::mount_to(host.clone(), app);
    let finish = {
        let host = host.clone();
        move || done(host)
    };
    next_task(move || step(queue, Box::new(finish)));
    Some(handle)
}

/// Draws, in the page, what `draw` sets in motion (a signal it sets, whose
/// view holds `Later`s) in short tasks as [`mount_in_steps`] does: `draw`
/// runs in a task of its own, each `Later` it brings in a task after, and
/// `done` in the task after the last, followed by what waited for the nodes
/// to be in the page ([`when_in_page`]). The caller keeps what is drawn out
/// of sight until `done` (`hidden`), so that the learner never sees it half
/// drawn. While a mount in steps is under way, `draw` joins it instead (its
/// nodes are off the document until that mount ends) and `done` follows at
/// once.
pub fn draw_in_steps(draw: impl FnOnce() + 'static, done: impl FnOnce() + 'static) {
    next_task(move || {
        if in_steps() {
            draw();
            done();
            return;
        }
        let queue: Queue = Rc::default();
        CURRENT.with(|c| *c.borrow_mut() = Some(Rc::clone(&queue)));
        draw();
        let finish = move || {
            done();
            mounted();
        };
        next_task(move || step(queue, Box::new(finish)));
    });
}

/// Moves the nodes a mount in steps drew (in `host`) to the end of `into`,
/// in order: what each caller's `done` does with them.
pub fn move_children(host: &web_sys::HtmlElement, into: &web_sys::Element) {
    while let Some(node) = host.first_child() {
        if into.append_child(&node).is_err() {
            break;
        }
    }
}

/// Draws the next queued entry (its drawing, and the `Later`s in it that
/// join the queue, happen in this task's microtasks), or, with nothing
/// left, ends the steps and calls `finish`.
fn step(queue: Queue, finish: Box<dyn FnOnce()>) {
    let next = queue.borrow_mut().pop_front();
    match next {
        Some(draw) => {
            draw();
            next_task(move || step(queue, finish));
        }
        None if HOLDS.with(|h| h.get()) > 0 => {
            PARKED.with(|p| *p.borrow_mut() = Some((queue, finish)));
        }
        None => {
            CURRENT.with(|c| {
                let mut c = c.borrow_mut();
                if c.as_ref().is_some_and(|q| Rc::ptr_eq(q, &queue)) {
                    *c = None;
                }
            });
            finish();
        }
    }
}

/// Runs `f` in a task of its own, as soon as the browser has one free: a
/// message to ourselves, which (unlike a timer nested this deep) waits for
/// nothing else.
pub fn next_task(f: impl FnOnce() + 'static) {
    post(Box::new(f));
}

/// [`next_task`]'s work, once for every caller (each generic caller would
/// otherwise carry its own copy in every build).
fn post(f: Box<dyn FnOnce()>) {
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;
    struct Channel {
        port: web_sys::MessagePort,
        waiting: Queue,
        _on_message: Closure<dyn FnMut()>,
    }
    thread_local! {
        static CHANNEL: Option<Channel> = {
            let channel = web_sys::MessageChannel::new().ok();
            channel.map(|channel| {
                let waiting: Queue = Rc::default();
                let to_run = Rc::clone(&waiting);
                let on_message = Closure::<dyn FnMut()>::new(move || {
                    let f = to_run.borrow_mut().pop_front();
                    if let Some(f) = f {
                        f();
                    }
                });
                channel.port1().set_onmessage(Some(on_message.as_ref().unchecked_ref()));
                Channel { port: channel.port2(), waiting, _on_message: on_message }
            })
        };
    }
    let posted = CHANNEL.with(|channel| match channel {
        Some(channel) => {
            channel.waiting.borrow_mut().push_back(f);
            if channel.port.post_message(&JsValue::NULL).is_ok() {
                Ok(())
            } else {
                Err(channel.waiting.borrow_mut().pop_back())
            }
        }
        None => Err(Some(f)),
    });
    if let Err(Some(f)) = posted {
        set_timeout(f, std::time::Duration::ZERO);
    }
}
