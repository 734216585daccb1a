//! Everything the app keeps in the browser, and the only module that touches
//! `localStorage`.
//!
//! Keys are namespaced (`ttft-lab/v1/<name>`) and every value is wrapped as
//! `{"version": N, "value": …}`, where N is that value's own version. What
//! each value is, its name, version, merge and pruning rule, is declared in
//! `crate::learner_state` as a [`Spec`]; this module keeps values without
//! knowing what they mean. A [`Store`] sits on a small [`Backend`] trait so
//! that tests can hand it storage that refuses, fails or holds damaged
//! data. A [`Stored<T>`] is one named value: a reactive signal that loads
//! once, writes on every change, and merges changes made in another tab.
//!
//! What can go wrong, and what the learner sees (in the status area fed by
//! [`Store::notices`]):
//! - storage missing or refused (private mode, a sandboxed iframe, disabled
//!   by policy): the app runs in memory and says once that nothing will be
//!   kept;
//! - a write fails (quota): the learner is told; what was stored before
//!   stays as it was, and the change lives on in the page until reload;
//! - stored data is damaged or from an unknown version: a copy is set aside
//!   under `ttft-lab/v1/<name>/set-aside/<ms>`, the value starts clean, and
//!   the learner is told where the copy is.
//!
//! What it deliberately does not do: know what any value means (merging and
//! pruning are the value's business), use cookies or IndexedDB, or sync anywhere but
//! between tabs of one browser.

use leptos::prelude::*;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::any::Any;
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};

/// Every key this app writes starts with this.
pub const PREFIX: &str = "ttft-lab/v1/";

/// The full storage key for a value's name.
pub fn key_for(name: &str) -> String {
    format!("{PREFIX}{name}")
}

/// Why the browser's storage did not do what was asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StorageError {
    /// There is no storage to use (missing, refused, or disabled).
    Unavailable { reason: String },
    /// Reading a key failed.
    Read { key: String, reason: String },
    /// Writing a key failed, typically because the quota is full.
    Write { key: String, reason: String },
}

impl fmt::Display for StorageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StorageError::Unavailable { reason } => write!(f, "this browser's storage cannot be used ({reason})"),
            StorageError::Read { key, reason } => write!(f, "could not read {key} ({reason})"),
            StorageError::Write { key, reason } => write!(f, "could not save {key} ({reason})"),
        }
    }
}

impl std::error::Error for StorageError {}

/// Where values are kept: the browser's `localStorage`, memory, or a test's
/// stand-in.
pub trait Backend: Send + Sync {
    /// The value under `key`, or `None` when there is none.
    fn get(&self, key: &str) -> Result<Option<String>, StorageError>;
    /// Stores `value` under `key`.
    fn set(&self, key: &str, value: &str) -> Result<(), StorageError>;
    /// Deletes `key`; deleting a missing key is not an error.
    fn remove(&self, key: &str) -> Result<(), StorageError>;
}

/// Values held in memory for this page only.
#[derive(Default)]
pub struct MemoryBackend {
    values: Mutex<BTreeMap<String, String>>,
}

impl MemoryBackend {
    /// Every key held, in order.
    pub fn keys(&self) -> Vec<String> {
        self.values.lock().unwrap_or_else(PoisonError::into_inner).keys().cloned().collect()
    }
}

impl Backend for MemoryBackend {
    fn get(&self, key: &str) -> Result<Option<String>, StorageError> {
        Ok(self.values.lock().unwrap_or_else(PoisonError::into_inner).get(key).cloned())
    }
    fn set(&self, key: &str, value: &str) -> Result<(), StorageError> {
        self.values.lock().unwrap_or_else(PoisonError::into_inner).insert(key.to_owned(), value.to_owned());
        Ok(())
    }
    fn remove(&self, key: &str) -> Result<(), StorageError> {
        self.values.lock().unwrap_or_else(PoisonError::into_inner).remove(key);
        Ok(())
    }
}

/// The browser's `localStorage`, looked up on every call so that this type
/// holds no JavaScript value and can be shared freely.
pub struct BrowserBackend;

impl BrowserBackend {
    fn storage() -> Result<web_sys::Storage, StorageError> {
        let window = web_sys::window().ok_or_else(|| StorageError::Unavailable { reason: "no window".into() })?;
        match window.local_storage() {
            Ok(Some(storage)) => Ok(storage),
            Ok(None) => Err(StorageError::Unavailable { reason: "the browser has no localStorage".into() }),
            Err(e) => Err(StorageError::Unavailable { reason: describe_js(&e) }),
        }
    }
}

fn reason_of(e: &StorageError) -> String {
    match e {
        StorageError::Unavailable { reason } | StorageError::Read { reason, .. } | StorageError::Write { reason, .. } => {
            reason.clone()
        }
    }
}

impl Backend for BrowserBackend {
    fn get(&self, key: &str) -> Result<Option<String>, StorageError> {
        Self::storage()?.get_item(key).map_err(|e| StorageError::Read { key: key.into(), reason: describe_js(&e) })
    }
    fn set(&self, key: &str, value: &str) -> Result<(), StorageError> {
        Self::storage()?.set_item(key, value).map_err(|e| StorageError::Write { key: key.into(), reason: describe_js(&e) })
    }
    fn remove(&self, key: &str) -> Result<(), StorageError> {
        Self::storage()?.remove_item(key).map_err(|e| StorageError::Write { key: key.into(), reason: describe_js(&e) })
    }
}

/// A JavaScript exception's name and message, e.g. `QuotaExceededError`.
fn describe_js(value: &wasm_bindgen::JsValue) -> String {
    let field = |name: &str| {
        js_sys::Reflect::get(value, &wasm_bindgen::JsValue::from_str(name)).ok().and_then(|v| v.as_string())
    };
    match (field("name"), field("message")) {
        (Some(name), Some(message)) if !message.is_empty() => format!("{name}: {message}"),
        (Some(name), _) => name,
        (None, Some(message)) => message,
        (None, None) => value.as_string().unwrap_or_else(|| "the browser refused".into()),
    }
}

/// How serious a notice is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoticeKind {
    /// Worth knowing; nothing was lost.
    Info,
    /// Something will not be kept, or was set aside.
    Warning,
    /// A save failed.
    Error,
}

/// A message for the learner about their saved work.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    /// Stable within the page, for dismissing.
    pub id: u64,
    /// How serious it is.
    pub kind: NoticeKind,
    /// What happened and what it means for the learner's work.
    pub text: String,
}

/// Takes another tab's new text for a key; returns false once the value it
/// feeds is gone (its reactive owner was disposed), so it can be dropped.
type Listener = Arc<dyn Fn(Option<String>) -> bool + Send + Sync>;

/// The app's storage: a backend, whether it keeps anything past this page,
/// the notices for the status area, and the values listening for changes
/// from other tabs. Cheap to clone; clones share everything.
#[derive(Clone)]
pub struct Store {
    backend: Arc<dyn Backend>,
    keeps: bool,
    notices: RwSignal<Vec<Notice>>,
    next_notice: Arc<Mutex<u64>>,
    listeners: Arc<Mutex<Vec<(String, Listener)>>>,
}

impl Store {
    /// The browser's `localStorage` when it works, memory otherwise (with a
    /// notice saying so). Also starts listening for changes from other tabs.
    pub fn open_browser() -> Store {
        let store = Store::open(Arc::new(BrowserBackend));
        if store.keeps {
            store.listen_to_other_tabs();
        }
        store
    }

    /// A store over `backend` if it accepts a write and a delete; a store in
    /// memory, with a notice saying so, if it does not.
    pub fn open(backend: Arc<dyn Backend>) -> Store {
        let probe = format!("{PREFIX}probe");
        match backend.set(&probe, "1").and_then(|()| backend.remove(&probe)) {
            Ok(()) => Store::with_backend(backend),
            Err(e) => Store::in_memory(&reason_of(&e)),
        }
    }

    /// A store over any backend, trusted to keep values.
    pub fn with_backend(backend: Arc<dyn Backend>) -> Store {
        Store {
            backend,
            keeps: true,
            notices: RwSignal::new(Vec::new()),
            next_notice: Arc::new(Mutex::new(0)),
            listeners: Arc::new(Mutex::new(Vec::new())),
        }
    }

    /// A store that keeps values for this page only, and says why once.
    pub fn in_memory(reason: &str) -> Store {
        let mut store = Store::with_backend(Arc::new(MemoryBackend::default()));
        store.keeps = false;
        store.notify(
            NoticeKind::Warning,
            format!(
                "This browser is not letting the page save anything ({reason}). Everything works, \
                 but your ticks and answers will be gone when you close or reload the page."
            ),
        );
        store
    }

    /// True when values outlive the page.
    pub fn keeps(&self) -> bool {
        self.keeps
    }

    /// The notices for the status area, oldest first.
    pub fn notices(&self) -> ReadSignal<Vec<Notice>> {
        self.notices.read_only()
    }

    /// Adds a notice unless the same text is already showing, so a failing
    /// save repeated on every keystroke is said once.
    pub fn notify(&self, kind: NoticeKind, text: String) {
        if self.notices.with_untracked(|list| list.iter().any(|n| n.text == text)) {
            return;
        }
        let id = {
            let mut next = self.next_notice.lock().unwrap_or_else(PoisonError::into_inner);
            *next += 1;
            *next
        };
        self.notices.update(|list| list.push(Notice { id, kind, text }));
    }

    /// Removes a notice the learner has read.
    pub fn dismiss(&self, id: u64) {
        self.notices.update(|list| list.retain(|n| n.id != id));
    }

    /// Passes a change another tab made to the values listening for `key`.
    /// The browser's `storage` event calls this; tests call it directly.
    pub fn receive(&self, key: &str, new_value: Option<String>) {
        let matching: Vec<Listener> = self
            .listeners
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
            .filter(|(k, _)| k == key)
            .map(|(_, l)| Arc::clone(l))
            .collect();
        let mut gone = Vec::new();
        for listener in matching {
            if !listener(new_value.clone()) {
                gone.push(listener);
            }
        }
        if !gone.is_empty() {
            // A value opened inside a part that has since been left: its
            // signal is disposed, so it must not be fed again.
            self.listeners
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .retain(|(_, l)| !gone.iter().any(|g| Arc::ptr_eq(g, l)));
        }
    }

    fn listen(&self, key: String, listener: Listener) {
        self.listeners.lock().unwrap_or_else(PoisonError::into_inner).push((key, listener));
    }

    fn listen_to_other_tabs(&self) {
        use wasm_bindgen::closure::Closure;
        use wasm_bindgen::JsCast;
        let Some(window) = web_sys::window() else { return };
        let store = self.clone();
        let on_storage = Closure::<dyn Fn(web_sys::StorageEvent)>::new(move |event: web_sys::StorageEvent| {
            if let Some(key) = event.key() {
                if key.starts_with(PREFIX) {
                    store.receive(&key, event.new_value());
                }
            }
        });
        if window.add_event_listener_with_callback("storage", on_storage.as_ref().unchecked_ref()).is_ok() {
            // The listener lives as long as the page.
            on_storage.forget();
        }
    }
}

/// Milliseconds since the Unix epoch, for set-aside keys and merge stamps.
pub fn now_ms() -> i64 {
    #[cfg(target_arch = "wasm32")]
    {
        js_sys::Date::now() as i64
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis() as i64)
            .unwrap_or(0)
    }
}

#[derive(Serialize)]
struct WrapperOut<'a, T> {
    version: u32,
    value: &'a T,
}

#[derive(Deserialize)]
struct WrapperIn {
    version: u32,
    value: serde_json::Value,
}

/// Why a stored text could not be read as a value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unreadable {
    /// Not the wrapper, or the value inside does not fit the type.
    Damaged(String),
    /// Written by a newer version of the app, in a format this one does
    /// not know yet.
    Newer(u32),
    /// An older format this version no longer reads.
    UnknownVersion(u32),
}

impl fmt::Display for Unreadable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unreadable::Damaged(why) => write!(f, "it is damaged ({why})"),
            Unreadable::Newer(v) => {
                write!(f, "it was saved by a newer version of ttft-lab, in format {v}, which this version does not read")
            }
            Unreadable::UnknownVersion(v) => write!(f, "it was saved in format {v}, which this version does not read"),
        }
    }
}

/// How two versions of a value combine: `merge(mine, theirs)`. It should be
/// symmetric, so two tabs that merge each other's changes agree.
pub type Merge<T> = fn(&T, &T) -> T;

/// Drops, at the given time in milliseconds, what no merge can need any
/// more (old change stamps of deleted items). It must keep everything the
/// learner can see.
pub type Prune<T> = fn(&mut T, i64);

/// Reads a value stored in an older format: `upgrade(version, value)`.
pub type Upgrade<T> = Arc<dyn Fn(u32, serde_json::Value) -> Result<T, String> + Send + Sync>;

/// A value that needs no pruning.
pub fn keep_all<T>(_: &mut T, _: i64) {}

/// How one value is kept: its name under [`PREFIX`], the words that name it
/// for the learner, the version of its stored form, how two tabs' copies
/// merge, what can be dropped before it is written, and how older forms
/// are read. `crate::learner_state` declares one for each value.
pub struct Spec<T> {
    /// The name under the prefix (`trace/hint-trace`).
    pub name: String,
    /// What the learner calls it (`your trace exercise answers`).
    pub label: String,
    /// The version written into the wrapper, and the only one read as is.
    pub version: u32,
    /// How two tabs' copies combine.
    pub merge: Merge<T>,
    /// What is dropped before saving.
    pub prune: Prune<T>,
    /// How an older version is read, when one can be.
    pub upgrade: Option<Upgrade<T>>,
}

impl<T> Clone for Spec<T> {
    fn clone(&self) -> Self {
        Spec {
            name: self.name.clone(),
            label: self.label.clone(),
            version: self.version,
            merge: self.merge,
            prune: self.prune,
            upgrade: self.upgrade.clone(),
        }
    }
}

impl<T> Spec<T> {
    /// A value with no pruning and no older versions.
    pub fn new(name: impl Into<String>, label: impl Into<String>, version: u32, merge: Merge<T>) -> Spec<T> {
        Spec { name: name.into(), label: label.into(), version, merge, prune: keep_all, upgrade: None }
    }

    /// The same, pruned by `prune` before every save.
    pub fn pruned(self, prune: Prune<T>) -> Spec<T> {
        Spec { prune, ..self }
    }

    /// The same, reading older versions with `upgrade`.
    pub fn upgraded(self, upgrade: Upgrade<T>) -> Spec<T> {
        Spec { upgrade: Some(upgrade), ..self }
    }

    /// The storage key.
    pub fn key(&self) -> String {
        key_for(&self.name)
    }
}

/// Wraps a value with its version, as it is stored.
pub fn wrap<T: Serialize>(version: u32, value: &T) -> Result<String, serde_json::Error> {
    serde_json::to_string(&WrapperOut { version, value })
}

/// Reads a stored text back into a value: as is at the spec's version,
/// through its upgrade at an older one.
pub fn read<T: DeserializeOwned>(text: &str, spec: &Spec<T>) -> Result<T, Unreadable> {
    let wrapper: WrapperIn = serde_json::from_str(text).map_err(|e| Unreadable::Damaged(e.to_string()))?;
    match wrapper.version.cmp(&spec.version) {
        std::cmp::Ordering::Equal => serde_json::from_value(wrapper.value).map_err(|e| Unreadable::Damaged(e.to_string())),
        std::cmp::Ordering::Greater => Err(Unreadable::Newer(wrapper.version)),
        std::cmp::Ordering::Less => match &spec.upgrade {
            Some(upgrade) => upgrade(wrapper.version, wrapper.value).map_err(Unreadable::Damaged),
            None => Err(Unreadable::UnknownVersion(wrapper.version)),
        },
    }
}

/// One named value kept in the store, as a signal.
pub struct Stored<T: Send + Sync + 'static> {
    spec: Arc<Spec<T>>,
    value: RwSignal<T>,
    store: Store,
}

impl<T: Send + Sync + 'static> Clone for Stored<T> {
    fn clone(&self) -> Self {
        Stored { spec: Arc::clone(&self.spec), value: self.value, store: self.store.clone() }
    }
}

impl<T> Stored<T>
where
    T: Serialize + DeserializeOwned + Clone + Default + PartialEq + Send + Sync + 'static,
{
    /// Loads the value `spec` declares (starting from `T::default()` when
    /// there is nothing, or when what is there cannot be read, which is then
    /// set aside) and starts merging changes from other tabs.
    pub fn open(store: &Store, spec: Spec<T>) -> Stored<T> {
        let key = spec.key();
        let label = &spec.label;
        let initial = match store.backend.get(&key) {
            Ok(None) => T::default(),
            Ok(Some(text)) => match read::<T>(&text, &spec) {
                Ok(mut value) => {
                    (spec.prune)(&mut value, now_ms());
                    value
                }
                Err(why) => {
                    set_aside(store, &spec.name, label, &key, &text, &why);
                    T::default()
                }
            },
            Err(e) => {
                store.notify(NoticeKind::Warning, format!("Could not read your {label}, so it starts empty: {e}."));
                T::default()
            }
        };
        let stored = Stored { spec: Arc::new(spec), value: RwSignal::new(initial), store: store.clone() };
        let this = stored.clone();
        store.listen(key, Arc::new(move |text: Option<String>| this.absorb(text.as_deref())));
        stored
    }

    /// The storage key.
    pub fn key(&self) -> String {
        self.spec.key()
    }

    /// The current value, tracked (a view that reads it updates with it).
    pub fn get(&self) -> T {
        self.value.get()
    }

    /// The value as a read-only signal.
    pub fn signal(&self) -> ReadSignal<T> {
        self.value.read_only()
    }

    /// Replaces the value and saves it.
    pub fn set(&self, value: T) -> Result<(), StorageError> {
        self.value.set(value);
        self.save()
    }

    /// Changes the value in place and saves it. When saving fails the
    /// learner is told, the change stays on the page, and what was stored
    /// before is untouched.
    pub fn update(&self, change: impl FnOnce(&mut T)) -> Result<(), StorageError> {
        self.value.update(change);
        self.save()
    }

    fn save(&self) -> Result<(), StorageError> {
        let key = self.key();
        let prune = self.spec.prune;
        self.value.update_untracked(|v| prune(v, now_ms()));
        let text = self
            .value
            .with_untracked(|v| wrap(self.spec.version, v))
            .map_err(|e| StorageError::Write { key: key.clone(), reason: e.to_string() })?;
        match self.store.backend.set(&key, &text) {
            Ok(()) => Ok(()),
            Err(e) => {
                self.store.notify(
                    NoticeKind::Error,
                    format!(
                        "Could not save your {}: the browser refused ({}). What was saved before is unchanged; \
                         your latest change stays on this page until you reload.",
                        self.spec.label,
                        reason_of(&e)
                    ),
                );
                Err(e)
            }
        }
    }

    /// Takes in what another tab stored: merges it with this tab's value,
    /// and writes the merge back when it differs from theirs, so both tabs
    /// end up with the same value and neither loses its changes.
    fn absorb(&self, text: Option<&str>) -> bool {
        // The value's owner may have been disposed (a part the learner left):
        // then there is nothing to merge into, and the listener is dropped.
        let Some(mine) = self.value.try_get_untracked() else {
            return false;
        };
        let now = now_ms();
        // A removed key or an unreadable value from another tab gives
        // nothing to merge; this tab's value stands and is written back.
        let theirs = text.and_then(|t| read::<T>(t, &self.spec).ok()).map(|mut theirs| {
            (self.spec.prune)(&mut theirs, now);
            theirs
        });
        let mut merged = match &theirs {
            Some(theirs) => (self.spec.merge)(&mine, theirs),
            None => mine.clone(),
        };
        (self.spec.prune)(&mut merged, now);
        if merged != mine {
            self.value.set(merged.clone());
        }
        // Theirs is compared pruned, so a tab that prunes and one that does
        // not (an older version) do not write back and forth for ever.
        if theirs.as_ref() != Some(&merged) && merged != T::default() {
            let _ = self.save();
        }
        true
    }
}

/// Keeps a copy of unreadable stored text under a set-aside key, removes the
/// original so the value starts clean, and tells the learner.
fn set_aside(store: &Store, name: &str, label: &str, key: &str, text: &str, why: &Unreadable) {
    let aside = format!("{PREFIX}{name}/set-aside/{}", now_ms());
    match store.backend.set(&aside, text) {
        Ok(()) => {
            let _ = store.backend.remove(key);
            store.notify(
                NoticeKind::Warning,
                format!(
                    "Your saved {label} could not be read: {why}. It starts fresh; a copy of the old data \
                     is kept in this browser under \u{201c}{aside}\u{201d}."
                ),
            );
        }
        Err(e) => store.notify(
            NoticeKind::Warning,
            format!(
                "Your saved {label} could not be read: {why}. It starts fresh, and the old data could not be \
                 set aside ({}), so your next change replaces it.",
                reason_of(&e)
            ),
        ),
    }
}

/// The app's store from context, or a store in memory when there is none
/// (a component mounted on its own in a test).
pub fn store_from_context() -> Store {
    use_context::<Store>().unwrap_or_else(|| Store::with_backend(Arc::new(MemoryBackend::default())))
}

/// The stored values the parts have opened, kept on the app's root owner
/// so that they outlive the part on show.
#[derive(Clone, Default)]
struct OpenedValues(Arc<Mutex<HashMap<String, Box<dyn Any + Send + Sync>>>>);

/// The owner at the top of the current reactive tree: the mounted app.
fn app_root() -> Option<Owner> {
    let mut owner = Owner::current()?;
    while let Some(parent) = owner.parent() {
        owner = parent;
    }
    Some(owner)
}

/// Opens the value `spec` declares once for the whole app, in the store
/// from context, and hands back the same value every time a part mounts
/// again.
///
/// Why: a `Stored` keeps listening for other tabs' changes for as long as
/// the store lives, so its signal must live as long too. Opened inside a
/// part, the signal would be disposed when the learner moves to another
/// part, and the next change from another tab would reach a dead signal.
/// Opening it under the app's root owner, once, avoids that and keeps one
/// listener per value.
pub fn open_for_app<T>(spec: Spec<T>) -> Stored<T>
where
    T: Serialize + DeserializeOwned + Clone + Default + PartialEq + Send + Sync + 'static,
{
    let store = store_from_context();
    let Some(root) = app_root() else {
        return Stored::open(&store, spec);
    };
    let opened = root.with(|| {
        use_context::<OpenedValues>().unwrap_or_else(|| {
            let fresh = OpenedValues::default();
            provide_context(fresh.clone());
            fresh
        })
    });
    let mut values = opened.0.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(found) = values.get(&spec.name).and_then(|v| v.downcast_ref::<Stored<T>>()) {
        return found.clone();
    }
    let name = spec.name.clone();
    let stored = root.with(|| Stored::open(&store, spec));
    values.insert(name, Box::new(stored.clone()));
    stored
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(version: u32) -> Spec<Vec<u8>> {
        Spec::new("test", "test value", version, |a, _| a.clone())
    }

    fn check_wrap<T: Serialize + DeserializeOwned + Clone + PartialEq + fmt::Debug>(value: T) {
        let text = wrap(3, &value).unwrap_or_default();
        assert!(text.starts_with("{\"version\":3,"), "{text}");
        let spec: Spec<T> = Spec::new("test", "test value", 3, |a: &T, _| a.clone());
        assert_eq!(read::<T>(&text, &spec), Ok(value));
    }

    #[test]
    fn values_round_trip_with_their_version() {
        check_wrap(vec![1u8, 2, 3]);
        check_wrap(String::from("an answer with \"quotes\" and é"));
    }

    #[test]
    fn unreadable_text_is_named() {
        assert!(matches!(read("{not json", &spec(1)), Err(Unreadable::Damaged(_))));
        assert!(matches!(read("{\"version\":1,\"value\":\"x\"}", &spec(1)), Err(Unreadable::Damaged(_))));
        assert_eq!(read("{\"version\":7,\"value\":[]}", &spec(1)), Err(Unreadable::Newer(7)));
        assert_eq!(read("{\"version\":1,\"value\":[]}", &spec(2)), Err(Unreadable::UnknownVersion(1)));
    }

    #[test]
    fn older_versions_go_through_the_upgrade() {
        let upgrade: Upgrade<Vec<u8>> = Arc::new(|version, value| match (version, value.as_u64()) {
            (1, Some(n)) => Ok(vec![0; n as usize]),
            _ => Err("not a count".into()),
        });
        let spec = spec(2).upgraded(upgrade);
        assert_eq!(read("{\"version\":1,\"value\":3}", &spec), Ok(vec![0, 0, 0]));
        assert_eq!(read("{\"version\":1,\"value\":\"x\"}", &spec), Err(Unreadable::Damaged("not a count".into())));
        assert_eq!(read("{\"version\":2,\"value\":[5]}", &spec), Ok(vec![5]));
    }
}
