//! What a part says while code it loads on demand (a worker, a part's own
//! wasm) is on its way, and when it could not arrive: one status line with
//! a sentence of why it is fetched only now, or one alert with what the
//! browser said and Retry. The import part, the simulate part, the
//! simulator's engine, the AI second opinion and the embed panel all say
//! it the same way.
//!
//! Also how a part with a wasm of its own is loaded, mounted and left
//! ([`OnDemandPart`] on the page's side, [`mount_part`] on the part's).

use leptos::prelude::*;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// "Loading …": a status, with why it is fetched only now.
#[component]
pub fn OnDemandLoading(text: &'static str, help: &'static str) -> impl IntoView {
    view! {
        <div class="reader-loading" role="status">
            <p>{text}</p>
            <p class="field-help">{help}</p>
        </div>
    }
}

/// "… could not load": an alert with the browser's reason and Retry.
#[component]
pub fn OnDemandFailed(headline: &'static str, reason: String, on_retry: Callback<()>) -> impl IntoView {
    view! {
        <div class="notice notice-error reader-failed" role="alert">
            <p><strong>{headline}</strong></p>
            <p>{format!("The browser said: {reason}.")}</p>
            <p>"Check that you are online, then try again."</p>
            <button type="button" on:click=move |_| on_retry.run(())>"Retry"</button>
        </div>
    }
}

/// What a part's host shows of its own wasm: `closed` before it is asked
/// for (Loading when there is none), the loading line, the failure with
/// Retry (which loads it again), nothing once it is in.
#[component]
pub fn PartStatus(
    /// The part.
    part: OnDemandPart,
    /// Where it stands.
    state: RwSignal<PartLoad>,
    /// The loading line.
    loading: &'static str,
    /// Why it is fetched only now.
    help: &'static str,
    /// What could not load.
    failed: &'static str,
    /// What shows before it is asked for.
    #[prop(optional)]
    closed: Option<ViewFn>,
) -> impl IntoView {
    let retry = Callback::new(move |()| {
        state.set(PartLoad::Loading);
        part.retry();
    });
    move || match state.get() {
        PartLoad::Closed if closed.is_some() => closed.as_ref().map(ViewFn::run).into_any(),
        PartLoad::Closed | PartLoad::Loading => view! { <OnDemandLoading text=loading help=help /> }.into_any(),
        PartLoad::Failed(reason) => view! { <OnDemandFailed headline=failed reason=reason on_retry=retry /> }.into_any(),
        PartLoad::Mounted => ().into_any(),
    }
}

/// Where a part's own wasm stands, as its host shows it.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub enum PartLoad {
    /// Not asked for yet (a part the learner opens with a button).
    Closed,
    /// On its way, or drawing itself.
    Loading,
    /// In the page.
    Mounted,
    /// It could not arrive or start: what the browser said.
    Failed(String),
}

/// A part with a wasm of its own, which `part-loader.js` fetches the first
/// time the part opens (`<name>-part.js` and `<name>-part_bg.wasm`), and
/// which mounts itself into an element its host renders. The host side:
/// load it, mount it with a configuration, call what it exports, unmount
/// it. The part side is [`mount_part`].
#[derive(Clone, Copy, Debug)]
pub struct OnDemandPart {
    /// The part's name: the loader's `data-ttft-part`, the events'
    /// "ttft-<name>-ready", "-mounted" and "-failed", and its place in
    /// `window.ttftParts`.
    pub name: &'static str,
}

/// Fires `event` on `window`, with `detail` as its text when there is one:
/// how a part and its host tell each other things.
pub fn fire(event: &str, detail: Option<&str>) {
    let init = web_sys::CustomEventInit::new();
    if let Some(detail) = detail {
        init.set_detail(&JsValue::from_str(detail));
    }
    if let Ok(event) = web_sys::CustomEvent::new_with_event_init_dict(event, &init) {
        let _ = window().dispatch_event(&event);
    }
}

/// The text an event [`fire`]d with, if any.
pub fn detail(event: &web_sys::Event) -> Option<String> {
    event.dyn_ref::<web_sys::CustomEvent>()?.detail().as_string()
}

/// The loader's address, relative to the page.
pub const PART_LOADER: &str = "./part-loader.js";

#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
impl OnDemandPart {
    fn get(holder: &JsValue, key: &str) -> Option<JsValue> {
        let v = js_sys::Reflect::get(holder, &JsValue::from_str(key)).ok()?;
        (!v.is_undefined() && !v.is_null()).then_some(v)
    }

    /// Calls `window.ttftParts[name][function](arg)`, once the part's wasm
    /// has started; `None` before (or when it has no such function).
    pub fn call(self, function: &str, arg: Option<&JsValue>) -> Option<JsValue> {
        let parts = Self::get(&window().into(), "ttftParts")?;
        let part = Self::get(&parts, self.name)?;
        let f = Self::get(&part, function)?.dyn_into::<js_sys::Function>().ok()?;
        match arg {
            Some(arg) => f.call1(&JsValue::NULL, arg).ok(),
            None => f.call0(&JsValue::NULL).ok(),
        }
    }

    /// True once the part's wasm has started.
    pub fn started(self) -> bool {
        Self::get(&window().into(), "ttftParts").and_then(|p| Self::get(&p, self.name)).is_some()
    }

    /// Starts loading the part's wasm: through the loader when it is on
    /// the page already (a Retry), else by adding it (it starts on its own).
    pub fn load(self) {
        let again = Self::get(&window().into(), "ttftPartLoad")
            .and_then(|l| Self::get(&l, self.name))
            .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
        if let Some(load) = again {
            let _ = load.call0(&JsValue::NULL);
            return;
        }
        let document = document();
        let selector = format!("script[data-ttft-part=\"{}\"]", self.name);
        if let Ok(Some(old)) = document.query_selector(&selector) {
            old.remove();
        }
        if let Ok(script) = document.create_element("script") {
            let _ = script.set_attribute("src", PART_LOADER);
            let _ = script.set_attribute("data-ttft-part", self.name);
            if let Some(head) = document.head() {
                let _ = head.append_child(&script);
            }
        }
    }

    /// Tries again after a failure: loads what did not arrive or start, or,
    /// when the wasm runs but could not mount, says it is ready again (so
    /// [`follow`](Self::follow) mounts it afresh).
    pub fn retry(self) {
        if !self.started() {
            self.load();
        } else {
            fire(&format!("ttft-{}-ready", self.name), None);
        }
    }

    /// Mounts the part with `config` if its wasm runs; true when it started
    /// to (it fires "ttft-<name>-mounted" once it is in the page).
    pub fn mount(self, config: &JsValue) -> bool {
        self.call("mount", Some(config)).and_then(|v| v.as_bool()) == Some(true)
    }

    /// Says, from the part's own wasm, why it cannot mount: its host
    /// shows `reason` with Retry ("ttft-<name>-failed").
    pub fn failed(self, reason: &str) {
        fire(&format!("ttft-{}-failed", self.name), Some(reason));
    }

    /// Follows the part's events into `state` for as long as the calling
    /// component lives, and unmounts the part when it goes: once the wasm
    /// has started it is mounted with `config()`.
    pub fn follow(self, state: RwSignal<PartLoad>, config: impl Fn() -> JsValue + 'static) {
        #[cfg(target_arch = "wasm32")]
        {
            let name = self.name;
            let ready = window_event_listener_untyped(&format!("ttft-{name}-ready"), move |_| {
                if state.get_untracked() != PartLoad::Closed {
                    self.mount(&config());
                }
            });
            let mounted = window_event_listener_untyped(&format!("ttft-{name}-mounted"), move |_| {
                state.set(PartLoad::Mounted);
            });
            let failed = window_event_listener_untyped(&format!("ttft-{name}-failed"), move |e| {
                let reason = detail(&e).unwrap_or_else(|| "the browser gave no reason".to_owned());
                state.set(PartLoad::Failed(reason));
            });
            on_cleanup(move || {
                ready.remove();
                mounted.remove();
                failed.remove();
                let _ = self.call("unmount", None);
            });
        }
        #[cfg(not(target_arch = "wasm32"))]
        let _ = (state, config);
    }

    /// Opens the part: mounts it at once if its wasm runs already, else
    /// fetches it (and [`follow`](Self::follow) mounts it when it starts).
    pub fn open(self, state: RwSignal<PartLoad>, config: &JsValue) {
        state.set(PartLoad::Loading);
        if !self.mount(config) && !self.started() {
            self.load();
        }
    }
}

/// The part side of an [`OnDemandPart`], for the part's own wasm: mounts
/// `app` into the element `#<root_id>` (false when there is none: the
/// learner has left the part). The part is drawn off the page in short
/// tasks (`components::later`), starting in the next one, then put in the
/// root in one, and "ttft-<name>-mounted" fires on `window`. Mounting again
/// unmounts the one before; a mount that finishes after the learner left
/// and came back is not put in the page.
pub fn mount_part<F, N>(name: &'static str, root_id: &'static str, app: F) -> bool
where
    F: FnOnce() -> N + 'static,
    N: IntoView + 'static,
{
    use crate::components::later::{mount_in_steps, mounted, move_children, next_task};
    unmount_part();
    if part_root(root_id).is_none() {
        return false;
    }
    let generation = GENERATION.with(|g| {
        g.set(g.get() + 1);
        g.get()
    });
    // In a task after the one that started this wasm (or that the learner's
    // click ran in): each is short that way.
    next_task(move || {
        if GENERATION.with(|g| g.get()) != generation || part_root(root_id).is_none() {
            return;
        }
        let handle = mount_in_steps(app, move |host| {
            if GENERATION.with(|g| g.get()) != generation {
                return;
            }
            let Some(root) = part_root(root_id) else { return };
            move_children(&host, &root);
            mounted();
            fire(&format!("ttft-{name}-mounted"), None);
        });
        MOUNTED.with(|m| *m.borrow_mut() = handle.map(|h| Box::new(h) as Box<dyn std::any::Any>));
    });
    true
}

/// Unmounts the part [`mount_part`] mounted, if it is mounted.
pub fn unmount_part() {
    GENERATION.with(|g| g.set(g.get() + 1));
    let old = MOUNTED.with(|m| m.borrow_mut().take());
    drop(old);
}

/// A panic hook for a part's own wasm: says, where the part was, that it
/// stopped, instead of leaving a part that no longer answers.
pub fn part_panic_hook(root_id: &'static str, message: &'static str) {
    std::panic::set_hook(Box::new(move |info| {
        console_error_panic_hook::hook(info);
        if let Some(root) = part_root(root_id) {
            root.set_text_content(Some(message));
            let _ = root.set_attribute("role", "alert");
        }
    }));
}

fn part_root(id: &str) -> Option<web_sys::HtmlElement> {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
}

thread_local! {
    /// The part's wasm's mounted part; dropping it unmounts it.
    static MOUNTED: std::cell::RefCell<Option<Box<dyn std::any::Any>>> = const { std::cell::RefCell::new(None) };
    /// Which mount is the latest.
    static GENERATION: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}
