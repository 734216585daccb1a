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
//! The rule everything here follows: nothing saved is ever lost. What can go
//! wrong, and what the learner sees (in the status area fed by
//! [`Store::notices`]):
//! - storage missing or refused (private mode, a sandboxed iframe, disabled
//!   by policy): the app runs in memory and says once that nothing will be
//!   kept;
//! - storage that reads but will not take a write (its quota is full): the
//!   app keeps reading it, so everything saved is shown, and says so;
//! - a write fails: the learner is told at every failed save; what was
//!   stored before stays as it was, and the change lives on in the page
//!   until reload; the next save that works says so;
//! - stored data is damaged, or from a version this one cannot read, here
//!   or written by another tab: a copy is set aside under
//!   `ttft-lab/v1/<name>/set-aside/<ms>` before anything is written over it,
//!   and the learner is told where the copy is. When the copy cannot be
//!   made, or another tab runs a newer version of the app, this tab stops
//!   writing that value and says why;
//! - set-aside copies are listed ([`Store::set_aside_copies`]) so the
//!   learner can download or delete them; the same text is set aside once.
//!
//! What it deliberately does not do: know what any value means (merging and
//! pruning are the value's business), use cookies or IndexedDB, or sync
//! anywhere but between tabs of one browser.

use leptos::prelude::*;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::any::Any;
use std::collections::HashMap;
use ttft_latency::small_map::SmallMap;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

/// Every key this app writes starts with this.
pub const PREFIX: &str = "ttft-lab/v1/";

/// What separates a value's key from the stamp of a copy set aside from it.
const SET_ASIDE: &str = "/set-aside/";

/// The key written and removed to learn whether storage takes writes; the
/// notice that it does not is about this key.
const PROBE: &str = "ttft-lab/v1/probe";

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
    /// Not written, on purpose: the key holds something this tab cannot read
    /// and could not set aside (another tab's newer version, or a copy that
    /// did not fit), and writing would replace it.
    Held { key: String },
}

impl fmt::Display for StorageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StorageError::Unavailable { reason } => {
                write!(f, "this browser's storage cannot be used ({reason})")
            }
            StorageError::Read { key, reason } => write!(f, "could not read {key} ({reason})"),
            StorageError::Write { key, reason } => write!(f, "could not save {key} ({reason})"),
            StorageError::Held { key } => write!(
                f,
                "did not save {key}, so as not to replace what is stored there"
            ),
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
    /// Every key held, this app's and any other's.
    fn keys(&self) -> Result<Vec<String>, StorageError>;
    /// What a page before this one handed over and is not saved yet
    /// (only a store opened carrying it holds any).
    fn carried(&self) -> Unsaved {
        Unsaved::new()
    }
}

/// Values held in memory for this page only.
#[derive(Default)]
pub struct MemoryBackend {
    values: Mutex<SmallMap<String, String>>,
}

impl Backend for MemoryBackend {
    fn get(&self, key: &str) -> Result<Option<String>, StorageError> {
        Ok(self
            .values
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(key)
            .cloned())
    }
    fn set(&self, key: &str, value: &str) -> Result<(), StorageError> {
        self.values
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(key.to_owned(), value.to_owned());
        Ok(())
    }
    fn remove(&self, key: &str) -> Result<(), StorageError> {
        self.values
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(key);
        Ok(())
    }
    fn keys(&self) -> Result<Vec<String>, StorageError> {
        Ok(self
            .values
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .keys()
            .cloned()
            .collect())
    }
}

/// What one page changed but could not keep: every value it wrote when it
/// ran in memory, and the latest text of each value whose save the browser
/// refused. A build with only some parts hands it to the full app with the
/// page (`hand_over`), which opens its store with it
/// ([`Store::open_carrying`]), so moving on loses nothing the learner did.
pub type Unsaved = SmallMap<String, String>;

/// A backend read through what a page handed over: a value it could not
/// save reads as the page left it until it is saved here.
struct Carried {
    inner: Arc<dyn Backend>,
    unsaved: Mutex<Unsaved>,
}

impl Carried {
    fn unsaved(&self) -> std::sync::MutexGuard<'_, Unsaved> {
        self.unsaved.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Backend for Carried {
    fn get(&self, key: &str) -> Result<Option<String>, StorageError> {
        match self.unsaved().get(key) {
            Some(text) => Ok(Some(text.clone())),
            None => self.inner.get(key),
        }
    }
    fn set(&self, key: &str, value: &str) -> Result<(), StorageError> {
        let saved = self.inner.set(key, value);
        let mut unsaved = self.unsaved();
        match saved {
            Ok(()) => {
                unsaved.remove(key);
            }
            // Still not saved: the page's latest, as before.
            Err(_) => {
                if let Some(text) = unsaved.get_mut(key) {
                    value.clone_into(text);
                }
            }
        }
        saved
    }
    fn remove(&self, key: &str) -> Result<(), StorageError> {
        self.unsaved().remove(key);
        self.inner.remove(key)
    }
    fn keys(&self) -> Result<Vec<String>, StorageError> {
        let mut keys = self.inner.keys()?;
        for key in self.unsaved().keys() {
            if !keys.contains(key) {
                keys.push(key.clone());
            }
        }
        Ok(keys)
    }
    fn carried(&self) -> Unsaved {
        self.unsaved().clone()
    }
}

/// The browser's `localStorage`, looked up on every call so that this type
/// holds no JavaScript value and can be shared freely.
pub struct BrowserBackend;

impl BrowserBackend {
    fn storage() -> Result<web_sys::Storage, StorageError> {
        let window = web_sys::window().ok_or_else(|| StorageError::Unavailable {
            reason: "no window".into(),
        })?;
        match window.local_storage() {
            Ok(Some(storage)) => Ok(storage),
            Ok(None) => Err(StorageError::Unavailable {
                reason: "the browser has no localStorage".into(),
            }),
            Err(e) => Err(StorageError::Unavailable {
                reason: describe_js(&e),
            }),
        }
    }
}

fn reason_of(e: &StorageError) -> String {
    match e {
        StorageError::Unavailable { reason }
        | StorageError::Read { reason, .. }
        | StorageError::Write { reason, .. } => reason.clone(),
        StorageError::Held { .. } => "held on purpose".into(),
    }
}

impl Backend for BrowserBackend {
    fn get(&self, key: &str) -> Result<Option<String>, StorageError> {
        Self::storage()?
            .get_item(key)
            .map_err(|e| StorageError::Read {
                key: key.into(),
                reason: describe_js(&e),
            })
    }
    fn set(&self, key: &str, value: &str) -> Result<(), StorageError> {
        Self::storage()?
            .set_item(key, value)
            .map_err(|e| StorageError::Write {
                key: key.into(),
                reason: describe_js(&e),
            })
    }
    fn remove(&self, key: &str) -> Result<(), StorageError> {
        Self::storage()?
            .remove_item(key)
            .map_err(|e| StorageError::Write {
                key: key.into(),
                reason: describe_js(&e),
            })
    }
    fn keys(&self) -> Result<Vec<String>, StorageError> {
        let storage = Self::storage()?;
        let read = |e: wasm_bindgen::JsValue| StorageError::Read {
            key: "(the list of keys)".into(),
            reason: describe_js(&e),
        };
        let n = storage.length().map_err(read)?;
        let mut keys = Vec::new();
        for i in 0..n {
            if let Some(key) = storage.key(i).map_err(read)? {
                keys.push(key);
            }
        }
        Ok(keys)
    }
}

/// A JavaScript exception's name and message, e.g. `QuotaExceededError`.
fn describe_js(value: &wasm_bindgen::JsValue) -> String {
    let field = |name: &str| {
        js_sys::Reflect::get(value, &wasm_bindgen::JsValue::from_str(name))
            .ok()
            .and_then(|v| v.as_string())
    };
    match (field("name"), field("message")) {
        (Some(name), Some(message)) if !message.is_empty() => format!("{name}: {message}"),
        (Some(name), _) => name,
        (None, Some(message)) => message,
        (None, None) => value
            .as_string()
            .unwrap_or_else(|| "the browser refused".into()),
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
    /// The storage key it is about, when a newer notice about the same key
    /// replaces it (a save that failed again, then worked).
    pub about: Option<String>,
}

/// A copy of stored text that could not be read, kept rather than lost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetAside {
    /// Its own storage key.
    pub key: String,
    /// The name of the value it was set aside from (`checklist`).
    pub name: String,
    /// When it was set aside, in milliseconds since the epoch, when the key
    /// says.
    pub at_ms: Option<i64>,
    /// Its length in UTF-16 code units, what the browser's quota counts.
    pub size: usize,
}

impl SetAside {
    /// Reads a storage key as a set-aside copy's; `None` for any other key.
    pub fn from_key(key: &str, size: usize) -> Option<SetAside> {
        let rest = key.strip_prefix(PREFIX)?;
        let (name, stamp) = rest.rsplit_once(SET_ASIDE)?;
        let digits: String = stamp.chars().take_while(char::is_ascii_digit).collect();
        Some(SetAside {
            key: key.to_owned(),
            name: name.to_owned(),
            at_ms: digits.parse().ok(),
            size,
        })
    }
}

/// Takes another tab's new text for a key; returns false once the value it
/// feeds is gone (its reactive owner was disposed), so it can be dropped.
/// A value's listener: what the event said was written, then what the
/// storage holds now.
type Listener = Arc<dyn Fn(Option<&str>, Option<&str>) -> bool + Send + Sync>;

/// The app's storage: a backend, whether it keeps anything past this page,
/// the notices for the status area, the set-aside copies, and the values
/// listening for changes from other tabs. Cheap to clone; clones share
/// everything.
#[derive(Clone)]
pub struct Store {
    backend: Arc<dyn Backend>,
    keeps: bool,
    notices: RwSignal<Vec<Notice>>,
    set_aside: RwSignal<Vec<SetAside>>,
    next_notice: Arc<Mutex<u64>>,
    listeners: Arc<Mutex<Vec<(String, Listener)>>>,
    /// The latest text of each value whose last save was refused.
    refused: Arc<Mutex<Unsaved>>,
}

impl Store {
    /// The browser's `localStorage` when it can be read, memory otherwise
    /// (with a notice saying so). Also starts listening for changes from
    /// other tabs.
    pub fn open_browser() -> Store {
        let store = Store::open_carrying(Arc::new(BrowserBackend), crate::hand_over::take_unsaved());
        if store.keeps {
            store.listen_to_other_tabs();
        }
        crate::hand_over::set_page_store(&store);
        store
    }

    /// The browser's storage for a part with a wasm of its own
    /// (`components::on_demand`): as [`open_browser`](Self::open_browser),
    /// but it neither takes what a hand-over carried nor stands for the
    /// page's store in one, which are the page's own wasm's.
    pub fn open_for_part() -> Store {
        let store = Store::open(Arc::new(BrowserBackend));
        if store.keeps {
            store.listen_to_other_tabs();
        }
        store
    }

    /// A store over `backend` if it can be read. When it can be read but
    /// refuses a small write (a full quota), the store still reads it, so
    /// the learner sees everything saved, and says that changes cannot be
    /// kept for now. A store in memory, with a notice saying so, when it
    /// cannot even be read.
    pub fn open(backend: Arc<dyn Backend>) -> Store {
        if let Err(e) = backend.get(PROBE) {
            return Store::in_memory(&reason_of(&e));
        }
        match backend.set(PROBE, "1").and_then(|()| backend.remove(PROBE)) {
            Ok(()) => Store::with_backend(backend),
            Err(e) => {
                let _ = backend.remove(PROBE);
                let store = Store::with_backend(backend);
                let free = if store.set_aside.with_untracked(Vec::is_empty) {
                    ""
                } else {
                    " Deleting set-aside copies (listed below) frees space."
                };
                store.notify_about(
                    PROBE,
                    NoticeKind::Error,
                    format!(
                        "This browser is not taking changes to your saved work ({}), most likely because its \
                         storage is full. Everything saved before is shown and stays as it is; what you change \
                         now stays on this page until you reload, and each save that fails is reported here.{free}",
                        reason_of(&e)
                    ),
                );
                store
            }
        }
    }

    /// [`Store::open`], reading through `unsaved`, what the page before
    /// this app handed over (`hand_over`): each of those values reads as
    /// that page left it until it is saved here. In memory (storage that
    /// cannot be read) they are this page's values from the start.
    pub fn open_carrying(backend: Arc<dyn Backend>, unsaved: Unsaved) -> Store {
        if unsaved.is_empty() {
            return Store::open(backend);
        }
        let store = Store::open(Arc::new(Carried {
            inner: backend,
            unsaved: Mutex::new(unsaved.clone()),
        }));
        if !store.keeps {
            for (key, text) in &unsaved {
                let _ = store.backend.set(key, text);
            }
        }
        store
    }

    /// What this page changed and could not keep ([`Unsaved`]): in memory,
    /// every value of this app's; otherwise each value whose last save the
    /// browser refused, as this page holds it, and what the page before
    /// handed over that is not saved yet (a page can hand over in turn).
    pub fn unsaved(&self) -> Unsaved {
        let mut unsaved = self.backend.carried();
        if !self.keeps {
            for key in self.backend.keys().unwrap_or_default() {
                if let (true, Ok(Some(text))) = (key.starts_with(PREFIX), self.backend.get(&key)) {
                    unsaved.insert(key, text);
                }
            }
        }
        let refused = self.refused.lock().unwrap_or_else(PoisonError::into_inner);
        unsaved.extend(refused.iter().map(|(k, v)| (k.clone(), v.clone())));
        unsaved
    }

    /// A store over any backend, trusted to keep values.
    pub fn with_backend(backend: Arc<dyn Backend>) -> Store {
        let store = Store {
            backend,
            keeps: true,
            notices: RwSignal::new(Vec::new()),
            set_aside: RwSignal::new(Vec::new()),
            next_notice: Arc::new(Mutex::new(0)),
            listeners: Arc::new(Mutex::new(Vec::new())),
            refused: Arc::new(Mutex::new(Unsaved::new())),
        };
        store.refresh_set_aside();
        store
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

    /// Adds a notice unless the same text is already showing, so a message
    /// repeated on every keystroke is said once.
    pub fn notify(&self, kind: NoticeKind, text: String) {
        if self
            .notices
            .with_untracked(|list| list.iter().any(|n| n.text == text))
        {
            return;
        }
        let id = self.next_id();
        self.notices.update(|list| {
            list.push(Notice {
                id,
                kind,
                text,
                about: None,
            })
        });
    }

    /// Says something about `key`, replacing what was said about it before,
    /// as a new notice so that the live region announces it again.
    pub fn notify_about(&self, key: &str, kind: NoticeKind, text: String) {
        let id = self.next_id();
        self.notices.update(|list| {
            list.retain(|n| n.about.as_deref() != Some(key));
            list.push(Notice {
                id,
                kind,
                text,
                about: Some(key.to_owned()),
            });
        });
    }

    /// Removes what was said about `key`, once it no longer holds.
    fn forget_about(&self, key: &str) {
        if self
            .notices
            .with_untracked(|list| list.iter().any(|n| n.about.as_deref() == Some(key)))
        {
            self.notices
                .update(|list| list.retain(|n| n.about.as_deref() != Some(key)));
        }
    }

    fn next_id(&self) -> u64 {
        let mut next = self
            .next_notice
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        *next += 1;
        *next
    }

    /// Removes a notice the learner has read.
    pub fn dismiss(&self, id: u64) {
        self.notices.update(|list| list.retain(|n| n.id != id));
    }

    /// The copies of unreadable data kept in this browser, oldest first.
    pub fn set_aside_copies(&self) -> ReadSignal<Vec<SetAside>> {
        self.set_aside.read_only()
    }

    /// The text of a set-aside copy, to download it.
    pub fn set_aside_text(&self, key: &str) -> Result<Option<String>, StorageError> {
        if SetAside::from_key(key, 0).is_none() {
            return Ok(None);
        }
        self.backend.get(key)
    }

    /// Deletes a set-aside copy (and nothing else: any other key is left
    /// alone).
    pub fn delete_set_aside(&self, key: &str) -> Result<(), StorageError> {
        if SetAside::from_key(key, 0).is_none() {
            return Ok(());
        }
        let result = self.backend.remove(key);
        self.refresh_set_aside();
        result
    }

    /// Reads the list of set-aside copies again.
    fn refresh_set_aside(&self) {
        let keys = self.backend.keys().unwrap_or_default();
        let mut copies: Vec<SetAside> = keys
            .iter()
            .filter_map(|k| {
                let size = SetAside::from_key(k, 0)
                    .and_then(|_| self.backend.get(k).ok().flatten())
                    .map(|text| text.encode_utf16().count())?;
                SetAside::from_key(k, size)
            })
            .collect();
        // A handful of copies at most: the short sort keeps every build a
        // few kilobytes smaller than the standard library's would.
        ttft_latency::short_sort::sort_short_by(&mut copies, |a, b| (a.at_ms, &a.key).cmp(&(b.at_ms, &b.key)));
        if self.set_aside.with_untracked(|now| now != &copies) {
            let _ = self.set_aside.try_set(copies);
        }
    }

    /// Keeps `text`, which came from outside this browser under `name` and
    /// cannot be read (a learning system's saved progress), as a set-aside
    /// copy the learner can download; hands back its key.
    pub fn set_aside(&self, name: &str, text: &str) -> Result<String, StorageError> {
        self.keep_copy(name, text)
    }

    /// Keeps a copy of `text`, which was stored under `name` and cannot be
    /// read, under a set-aside key; hands back that key. Text already set
    /// aside for `name` is not copied again.
    fn keep_copy(&self, name: &str, text: &str) -> Result<String, StorageError> {
        let prefix = format!("{}{SET_ASIDE}", key_for(name));
        let keys = self.backend.keys().unwrap_or_default();
        if let Some(same) = keys.iter().find(|k| {
            k.starts_with(&prefix) && self.backend.get(k).ok().flatten().as_deref() == Some(text)
        }) {
            return Ok(same.clone());
        }
        let stamp = now_ms();
        let mut aside = format!("{prefix}{stamp}");
        let mut n = 1;
        while keys.contains(&aside) {
            n += 1;
            aside = format!("{prefix}{stamp}-{n}");
        }
        self.backend.set(&aside, text)?;
        self.refresh_set_aside();
        Ok(aside)
    }

    /// Passes a change another tab made to the values listening for `key`.
    /// The browser's `storage` event calls this; tests call it directly.
    ///
    /// An event can be stale by the time this tab handles it: a tab whose
    /// main thread was busy hears of a write after later ones have landed
    /// (a newer version's value, say, written since). So each value takes
    /// in what the event says and then what the storage holds now, and
    /// decides whether to write from the second (`Stored::absorb`).
    pub fn receive(&self, key: &str, new_value: Option<String>) {
        if SetAside::from_key(key, 0).is_some() {
            self.refresh_set_aside();
            return;
        }
        let now = self.backend.get(key).unwrap_or_else(|_| new_value.clone());
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
            if !listener(new_value.as_deref(), now.as_deref()) {
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
        self.listeners
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push((key, listener));
    }

    fn listen_to_other_tabs(&self) {
        use wasm_bindgen::closure::Closure;
        use wasm_bindgen::JsCast;
        let Some(window) = web_sys::window() else {
            return;
        };
        let store = self.clone();
        let on_storage =
            Closure::<dyn Fn(web_sys::StorageEvent)>::new(move |event: web_sys::StorageEvent| {
                // Once a build of a few parts has handed the page over, the
                // full app merges other tabs' saves; this one must not
                // write back a merge that lacks what the full app saved.
                if crate::hand_over::handed_over() {
                    return;
                }
                if let Some(key) = event.key() {
                    if key.starts_with(PREFIX) {
                        store.receive(&key, event.new_value());
                    }
                }
            });
        if window
            .add_event_listener_with_callback("storage", on_storage.as_ref().unchecked_ref())
            .is_ok()
        {
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

/// The stored wrapper's version alone (the value is skipped unread).
#[derive(Deserialize)]
struct VersionIn {
    version: u32,
}

/// The stored wrapper's value (its version read before, by [`VersionIn`]).
#[derive(Deserialize)]
struct WrapperIn<T> {
    value: T,
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
            Unreadable::UnknownVersion(v) => write!(
                f,
                "it was saved in format {v}, which this version does not read"
            ),
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
    pub fn new(
        name: impl Into<String>,
        label: impl Into<String>,
        version: u32,
        merge: Merge<T>,
    ) -> Spec<T> {
        Spec {
            name: name.into(),
            label: label.into(),
            version,
            merge,
            prune: keep_all,
            upgrade: None,
        }
    }

    /// The same, pruned by `prune` before every save.
    pub fn pruned(self, prune: Prune<T>) -> Spec<T> {
        Spec { prune, ..self }
    }

    /// The same, reading older versions with `upgrade`.
    pub fn upgraded(self, upgrade: Upgrade<T>) -> Spec<T> {
        Spec {
            upgrade: Some(upgrade),
            ..self
        }
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
    // The version first, then the text again as that version: reading a
    // `serde_json::Value` into each stored type would bring a second
    // deserializer per type into every build, and a stored value is small.
    let damaged = |e: serde_json::Error| Unreadable::Damaged(e.to_string());
    let VersionIn { version } = serde_json::from_str(text).map_err(damaged)?;
    match version.cmp(&spec.version) {
        std::cmp::Ordering::Equal => {
            serde_json::from_str::<WrapperIn<T>>(text).map(|w| w.value).map_err(damaged)
        }
        std::cmp::Ordering::Greater => Err(Unreadable::Newer(version)),
        std::cmp::Ordering::Less => match &spec.upgrade {
            Some(upgrade) => {
                let old = serde_json::from_str::<WrapperIn<serde_json::Value>>(text).map_err(damaged)?;
                upgrade(version, old.value).map_err(Unreadable::Damaged)
            }
            None => Err(Unreadable::UnknownVersion(version)),
        },
    }
}

/// One named value kept in the store, as a signal.
pub struct Stored<T: Send + Sync + 'static> {
    spec: Arc<Spec<T>>,
    value: RwSignal<T>,
    store: Store,
    /// Saves that failed in a row.
    failures: Arc<AtomicU32>,
    /// True while the key holds something this tab must not write over.
    held: Arc<AtomicBool>,
}

impl<T: Send + Sync + 'static> Clone for Stored<T> {
    fn clone(&self) -> Self {
        Stored {
            spec: Arc::clone(&self.spec),
            value: self.value,
            store: self.store.clone(),
            failures: Arc::clone(&self.failures),
            held: Arc::clone(&self.held),
        }
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
        let stored = Stored {
            spec: Arc::new(spec),
            value: RwSignal::new(T::default()),
            store: store.clone(),
            failures: Arc::new(AtomicU32::new(0)),
            held: Arc::new(AtomicBool::new(false)),
        };
        let label = &stored.spec.label;
        let initial = match store.backend.get(&key) {
            Ok(None) => T::default(),
            Ok(Some(text)) => match read::<T>(&text, &stored.spec) {
                Ok(mut value) => {
                    (stored.spec.prune)(&mut value, now_ms());
                    value
                }
                Err(why) => {
                    match store.keep_copy(&stored.spec.name, &text) {
                        Ok(aside) => {
                            let _ = store.backend.remove(&key);
                            store.notify(
                                NoticeKind::Warning,
                                format!(
                                    "Your saved {label} could not be read: {why}. It starts fresh; a copy of the \
                                     old data is kept in this browser under \u{201c}{aside}\u{201d}."
                                ),
                            );
                        }
                        Err(e) => stored.hold(format!(
                            "Your saved {label} could not be read: {why}. It could not be set aside either ({}), \
                             so this page will not save your {label} over it. Free some space (delete set-aside \
                             copies, if any are listed below) and reload.",
                            reason_of(&e)
                        )),
                    }
                    T::default()
                }
            },
            Err(e) => {
                stored.hold(format!(
                    "Could not read your {label} ({}), so it starts empty here, and this page will not save it \
                     over what is stored. Reload to try again.",
                    reason_of(&e)
                ));
                T::default()
            }
        };
        stored.value.set(initial);
        let this = stored.clone();
        store.listen(
            key,
            Arc::new(move |heard: Option<&str>, now: Option<&str>| this.absorb(heard, now)),
        );
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

    /// Stops writing this value, and says why.
    fn hold(&self, why: String) {
        self.held.store(true, Ordering::SeqCst);
        self.store
            .notify_about(&self.key(), NoticeKind::Warning, why);
    }

    /// Writes again after a hold, when the key no longer holds anything
    /// this tab cannot read.
    fn release(&self) {
        if self.held.swap(false, Ordering::SeqCst) {
            self.store.notify_about(
                &self.key(),
                NoticeKind::Info,
                format!(
                    "Your {} can be read here again, and is saved again from this page.",
                    self.spec.label
                ),
            );
        }
    }

    fn save(&self) -> Result<(), StorageError> {
        let key = self.key();
        if self.held.load(Ordering::SeqCst) {
            return Err(StorageError::Held { key });
        }
        let prune = self.spec.prune;
        self.value.update_untracked(|v| prune(v, now_ms()));
        let text = self
            .value
            .with_untracked(|v| wrap(self.spec.version, v))
            .map_err(|e| StorageError::Write {
                key: key.clone(),
                reason: e.to_string(),
            })?;
        let saved = self.store.backend.set(&key, &text);
        {
            let mut refused = self.store.refused.lock().unwrap_or_else(PoisonError::into_inner);
            if saved.is_ok() {
                refused.remove(&key);
            } else {
                refused.insert(key.clone(), text);
            }
        }
        match saved {
            Ok(()) => {
                // Storage takes writes again: "not taking changes" is over.
                self.store.forget_about(PROBE);
                if self.failures.swap(0, Ordering::SeqCst) > 0 {
                    self.store.notify_about(
                        &key,
                        NoticeKind::Info,
                        format!("Your {} is saved again, with the changes that could not be saved before.", self.spec.label),
                    );
                }
                Ok(())
            }
            Err(e) => {
                let n = self
                    .failures
                    .fetch_add(1, Ordering::SeqCst)
                    .saturating_add(1);
                let again = if n == 1 {
                    String::new()
                } else {
                    format!(", again ({n} saves in a row)")
                };
                let free = if self.store.set_aside.with_untracked(Vec::is_empty) {
                    ""
                } else {
                    " Deleting set-aside copies (listed below) frees space."
                };
                self.store.notify_about(
                    &key,
                    NoticeKind::Error,
                    format!(
                        "Could not save your {}{again}: the browser refused ({}). What was saved before is unchanged; \
                         your latest changes stay on this page until you reload.{free}",
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
    /// end up with the same value and neither loses its changes. What this
    /// tab cannot read is set aside before anything is written over it; a
    /// newer version's value is left alone, and this tab stops writing.
    ///
    /// `heard` is what the event said was written, `text` what the storage
    /// holds now: when they differ (the event is stale), what was heard is
    /// merged in without a write, and only what is there now decides what
    /// happens to the storage.
    fn absorb(&self, heard: Option<&str>, text: Option<&str>) -> bool {
        // The value's owner may have been disposed (a part the learner left):
        // then there is nothing to merge into, and the listener is dropped.
        let Some(mut mine) = self.value.try_get_untracked() else {
            return false;
        };
        let now = now_ms();
        if heard != text {
            if let Some(Ok(mut theirs)) = heard.map(|t| read::<T>(t, &self.spec)) {
                (self.spec.prune)(&mut theirs, now);
                let merged = (self.spec.merge)(&mine, &theirs);
                if merged != mine {
                    self.value.set(merged.clone());
                    mine = merged;
                }
            }
        }
        let label = &self.spec.label;
        let theirs = match text.map(|t| (t, read::<T>(t, &self.spec))) {
            None => None,
            Some((_, Ok(mut theirs))) => {
                (self.spec.prune)(&mut theirs, now);
                Some(theirs)
            }
            Some((_, Err(Unreadable::Newer(v)))) => {
                // Writing this tab's older form over it would throw the newer
                // tab's work away, and setting it aside at every change would
                // fill the storage with copies: stop writing instead.
                self.hold(format!(
                    "Another tab saved your {label} with a newer version of ttft-lab (format {v}). So as not \
                     to overwrite it, this page no longer saves your {label}; reload it to continue with the \
                     newer version."
                ));
                return true;
            }
            Some((t, Err(why))) => match self.store.keep_copy(&self.spec.name, t) {
                Ok(aside) => {
                    let _ = self.store.backend.remove(&self.key());
                    self.store.notify(
                        NoticeKind::Warning,
                        format!(
                            "Another tab saved your {label} in a form this page cannot read: {why}. A copy is \
                             kept in this browser under \u{201c}{aside}\u{201d}, and this page's {label} is \
                             kept in its place."
                        ),
                    );
                    None
                }
                Err(e) => {
                    self.hold(format!(
                        "Another tab saved your {label} in a form this page cannot read: {why}. It could not be \
                         set aside ({}), so this page no longer saves your {label} over it. Free some space \
                         (delete set-aside copies, if any are listed below) and reload.",
                        reason_of(&e)
                    ));
                    return true;
                }
            },
        };
        self.release();
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

/// The app's store from context, or a store in memory when there is none
/// (a component mounted on its own in a test).
pub fn store_from_context() -> Store {
    use_context::<Store>()
        .unwrap_or_else(|| Store::with_backend(Arc::new(MemoryBackend::default())))
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
    if let Some(found) = values
        .get(&spec.name)
        .and_then(|v| v.downcast_ref::<Stored<T>>())
    {
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
        assert!(matches!(
            read("{not json", &spec(1)),
            Err(Unreadable::Damaged(_))
        ));
        assert!(matches!(
            read("{\"version\":1,\"value\":\"x\"}", &spec(1)),
            Err(Unreadable::Damaged(_))
        ));
        assert_eq!(
            read("{\"version\":7,\"value\":[]}", &spec(1)),
            Err(Unreadable::Newer(7))
        );
        assert_eq!(
            read("{\"version\":1,\"value\":[]}", &spec(2)),
            Err(Unreadable::UnknownVersion(1))
        );
    }

    #[test]
    fn older_versions_go_through_the_upgrade() {
        let upgrade: Upgrade<Vec<u8>> =
            Arc::new(|version, value| match (version, value.as_u64()) {
                (1, Some(n)) => Ok(vec![0; n as usize]),
                _ => Err("not a count".into()),
            });
        let spec = spec(2).upgraded(upgrade);
        assert_eq!(
            read("{\"version\":1,\"value\":3}", &spec),
            Ok(vec![0, 0, 0])
        );
        assert_eq!(
            read("{\"version\":1,\"value\":\"x\"}", &spec),
            Err(Unreadable::Damaged("not a count".into()))
        );
        assert_eq!(read("{\"version\":2,\"value\":[5]}", &spec), Ok(vec![5]));
    }

    #[test]
    fn set_aside_keys_name_their_value_and_time() {
        let copy = SetAside::from_key("ttft-lab/v1/trace/hint-trace/set-aside/1700000000000-2", 9);
        assert_eq!(
            copy,
            Some(SetAside {
                key: "ttft-lab/v1/trace/hint-trace/set-aside/1700000000000-2".into(),
                name: "trace/hint-trace".into(),
                at_ms: Some(1_700_000_000_000),
                size: 9,
            })
        );
        assert_eq!(SetAside::from_key("ttft-lab/v1/checklist", 9), None);
        assert_eq!(SetAside::from_key("other/checklist/set-aside/1", 9), None);
    }
}
