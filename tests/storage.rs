//! Browser tests of `storage`: what the learner's saved work survives.
//!
//! They run in headless Chromium through wasm-bindgen-test (see
//! `.cargo/config.toml` and `webdriver.json`): storage that refuses every
//! call, stored data that is damaged or from an unknown version, a write
//! that fails because the quota is full (with a stand-in backend and with
//! the real `localStorage`), two tabs changing the checklist at once, and
//! trace answers stored by position read back under their request ids.
//! What they deliberately do not test: rendering (the end-to-end tests do),
//! and the checklist's merge rule itself (native tests in `learner_state::checklist` do).

#![cfg(target_arch = "wasm32")]

use leptos::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use ttft_lab::learner_state::checklist::Checklist;
use ttft_core::answer::{LearnerAnswer, ShareEntry};
use ttft_lab::learner_state;
use ttft_lab::storage::{key_for, wrap, Backend, BrowserBackend, MemoryBackend, NoticeKind, Spec, Store, StorageError, Stored};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// Storage that refuses everything, like a sandboxed iframe or a browser
/// with site data disabled.
struct Refusing;

impl Backend for Refusing {
    fn get(&self, _: &str) -> Result<Option<String>, StorageError> {
        Err(StorageError::Unavailable { reason: "SecurityError: access denied".into() })
    }
    fn set(&self, _: &str, _: &str) -> Result<(), StorageError> {
        Err(StorageError::Unavailable { reason: "SecurityError: access denied".into() })
    }
    fn remove(&self, _: &str) -> Result<(), StorageError> {
        Err(StorageError::Unavailable { reason: "SecurityError: access denied".into() })
    }
}

/// Memory storage whose writes fail once `full` is set, like a full quota.
#[derive(Default)]
struct Quota {
    inner: MemoryBackend,
    full: AtomicBool,
}

impl Backend for Quota {
    fn get(&self, key: &str) -> Result<Option<String>, StorageError> {
        self.inner.get(key)
    }
    fn set(&self, key: &str, value: &str) -> Result<(), StorageError> {
        if self.full.load(Ordering::SeqCst) {
            return Err(StorageError::Write { key: key.into(), reason: "QuotaExceededError".into() });
        }
        self.inner.set(key, value)
    }
    fn remove(&self, key: &str) -> Result<(), StorageError> {
        self.inner.remove(key)
    }
}

fn notices(store: &Store) -> Vec<(NoticeKind, String)> {
    store.notices().get_untracked().into_iter().map(|n| (n.kind, n.text)).collect()
}

fn ticked(items: &[(&str, i64)]) -> Checklist {
    let mut c = Checklist::default();
    for (id, at) in items {
        c.mark(id, true, *at);
    }
    c
}

#[wasm_bindgen_test]
fn unavailable_storage_runs_in_memory_and_says_so_once() {
    let store = Store::open(Arc::new(Refusing));
    assert!(!store.keeps());
    let said = notices(&store);
    assert_eq!(said.len(), 1, "{said:?}");
    assert_eq!(said[0].0, NoticeKind::Warning);
    assert!(said[0].1.contains("not letting the page save"), "{}", said[0].1);
    assert!(said[0].1.contains("SecurityError"), "{}", said[0].1);

    let checklist = Stored::open(&store, learner_state::checklist());
    assert_eq!(checklist.update(|c| c.mark("split", true, 1)), Ok(()));
    assert!(checklist.get().is_done("split"), "the tick lives on in memory");
    assert_eq!(notices(&store).len(), 1, "working in memory is said once, not on every change");
}

#[wasm_bindgen_test]
fn damaged_data_is_set_aside_and_the_value_starts_clean() {
    for (name, text) in [("checklist", "{\"version\":1,\"value\":{\"items\":"), ("answers", "{\"version\":9,\"value\":{}}")] {
        let memory = Arc::new(MemoryBackend::default());
        memory.set(&key_for(name), text).unwrap_or_default();
        let store = Store::open(memory.clone());
        let stored = Stored::open(&store, Spec::new(name, "checklist", 1, Checklist::merge));

        assert_eq!(stored.get(), Checklist::default(), "{name} starts clean");
        let keys = memory.keys();
        let aside: Vec<&String> = keys.iter().filter(|k| k.starts_with(&format!("ttft-lab/v1/{name}/set-aside/"))).collect();
        assert_eq!(aside.len(), 1, "{keys:?}");
        assert_eq!(memory.get(aside[0]), Ok(Some(text.to_owned())), "the copy is the damaged text, byte for byte");
        assert_eq!(memory.get(&key_for(name)), Ok(None), "the damaged value is not read again");
        let said = notices(&store);
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(said[0].1.contains("could not be read") && said[0].1.contains(aside[0].as_str()), "{}", said[0].1);
    }
}

#[wasm_bindgen_test]
fn a_failed_write_is_reported_and_the_stored_value_stays() {
    let quota = Arc::new(Quota::default());
    let store = Store::open(quota.clone());
    assert!(store.keeps());
    let checklist = Stored::open(&store, learner_state::checklist());
    assert_eq!(checklist.update(|c| c.mark("split", true, 10)), Ok(()));
    let before = quota.get(&checklist.key());
    assert!(matches!(&before, Ok(Some(_))));

    quota.full.store(true, Ordering::SeqCst);
    let result = checklist.update(|c| c.mark("clocks", true, 20));
    assert!(matches!(result, Err(StorageError::Write { .. })), "{result:?}");
    assert_eq!(quota.get(&checklist.key()), before, "what was stored before is intact");
    assert!(checklist.get().is_done("clocks"), "the change stays on the page");
    let said = notices(&store);
    assert_eq!(said.len(), 1, "{said:?}");
    assert_eq!(said[0].0, NoticeKind::Error);
    assert!(said[0].1.contains("Could not save") && said[0].1.contains("unchanged"), "{}", said[0].1);

    let _ = checklist.update(|c| c.mark("memory", true, 30));
    assert_eq!(notices(&store).len(), 1, "the same failure is said once");
}

#[wasm_bindgen_test]
fn the_real_local_storage_reports_a_full_quota_and_keeps_the_old_value() {
    let store = Store::open(Arc::new(BrowserBackend));
    assert!(store.keeps(), "headless Chromium has localStorage");
    let name = "test/quota";
    let answer: Stored<String> = Stored::open(&store, Spec::new(name, "answer", 1, |mine: &String, _| mine.clone()));
    assert_eq!(answer.set("a short answer".into()), Ok(()));
    let before = BrowserBackend.get(&answer.key());

    // Far beyond the 5 MiB per-origin quota of Chromium's localStorage.
    let result = answer.set("x".repeat(12 * 1024 * 1024));
    assert!(matches!(&result, Err(StorageError::Write { reason, .. }) if reason.contains("Quota")), "{result:?}");
    assert_eq!(BrowserBackend.get(&answer.key()), before);
    let _ = BrowserBackend.remove(&answer.key());
}

#[wasm_bindgen_test]
fn two_tabs_changing_the_checklist_keep_both_changes() {
    // Two tabs share one localStorage; each has its own store and signal.
    let shared = Arc::new(MemoryBackend::default());
    let tab1 = Store::open(shared.clone());
    let tab2 = Store::open(shared.clone());
    let list1 = Stored::open(&tab1, learner_state::checklist());
    let list2 = Stored::open(&tab2, learner_state::checklist());
    let key = list1.key();

    // Both tick before either hears of the other; tab2's write lands last.
    assert_eq!(list1.update(|c| c.mark("split", true, 100)), Ok(()));
    let written_by_tab1 = shared.get(&key).unwrap_or_default();
    assert_eq!(list2.update(|c| c.mark("clocks", true, 200)), Ok(()));
    let written_by_tab2 = shared.get(&key).unwrap_or_default();

    // The browser then tells each tab about the other's write.
    tab2.receive(&key, written_by_tab1);
    tab1.receive(&key, written_by_tab2);

    let both = ticked(&[("split", 100), ("clocks", 200)]);
    assert_eq!(list1.get(), both);
    assert_eq!(list2.get(), both);
    let stored = shared.get(&key).unwrap_or_default().unwrap_or_default();
    assert_eq!(stored, wrap(1, &both).unwrap_or_default(), "storage ends with both ticks");

    // A later untick in one tab wins over the older tick in the other.
    assert_eq!(list1.update(|c| c.mark("split", false, 300)), Ok(()));
    tab2.receive(&key, shared.get(&key).unwrap_or_default());
    assert!(!list2.get().is_done("split"));
    assert!(list2.get().is_done("clocks"));

    // Another tab's damaged write is ignored, not merged or set aside.
    tab2.receive(&key, Some("{nonsense".into()));
    assert!(list2.get().is_done("clocks"));
}

#[wasm_bindgen_test]
fn a_value_whose_part_was_left_stops_listening_without_breaking_the_page() {
    // A part opens a value under its own reactive owner, then the learner
    // leaves the part and the owner is disposed. Another tab's change to the
    // same key must neither panic nor reach the disposed signal.
    let shared = Arc::new(MemoryBackend::default());
    let tab = Store::open(shared.clone());
    let owner = Owner::new();
    let key = owner.with(|| Stored::open(&tab, learner_state::checklist()).key());
    owner.cleanup();
    drop(owner);

    let other = wrap(1, &ticked(&[("split", 100)])).ok();
    tab.receive(&key, other.clone());
    tab.receive(&key, other);

    // A value opened afterwards still hears other tabs.
    let list = Stored::open(&tab, learner_state::checklist());
    tab.receive(&key, wrap(1, &ticked(&[("clocks", 200)])).ok());
    assert!(list.get().is_done("clocks"));
}

#[wasm_bindgen_test]
fn trace_answers_stored_by_position_are_kept_under_their_request_ids() {
    let Ok(course) = ttft_lab::course::load() else { panic!("the embedded course loads") };
    let mut exercise = course.trace_exercise.clone();
    let ids: Vec<String> = exercise.requests.iter().map(|r| r.id.clone()).collect();
    assert!(ids.len() >= 3, "{ids:?}");
    // Format 1, as the app wrote it: the second and third requests answered,
    // the first left as padding, and a check of the same answers.
    let second = r#"{"dominant":"prefill","share_percent":"96.9","investigate":null}"#;
    let third = r#"{"dominant":"queue_wait","share_percent":"60.6","investigate":null}"#;
    let old = format!(
        r#"{{"version":1,"value":{{"answers":[{{}},{second},{third}],"checked":[{{}},{second},{third}],"attempts":2,"revealed":false,"changed_ms":5}}}}"#
    );
    let memory = Arc::new(MemoryBackend::default());
    let key = learner_state::trace_work(&exercise).key();
    memory.set(&key, &old).unwrap_or_default();
    let store = Store::open(memory.clone());
    let work = Stored::open(&store, learner_state::trace_work(&exercise));

    let w = work.get();
    assert_eq!(w.attempts, 2);
    assert_eq!(w.answer(&ids[1]).share_percent, Some(ShareEntry::Text("96.9".into())));
    assert_eq!(w.answer(&ids[2]).share_percent, Some(ShareEntry::Text("60.6".into())));
    assert_eq!(w.answer(&ids[0]), LearnerAnswer::default());
    assert_eq!(memory.get(&key), Ok(Some(old.clone())), "reading alone writes nothing");
    assert!(notices(&store).is_empty(), "an upgrade is not a problem: {:?}", notices(&store));
    assert!(memory.keys().iter().all(|k| !k.contains("set-aside")), "nothing is set aside");

    // The next save writes format 2, keyed by request id.
    assert_eq!(work.update(|w| w.set_revealed(true, 10)), Ok(()));
    let saved = memory.get(&key).unwrap_or_default().unwrap_or_default();
    let json: serde_json::Value = serde_json::from_str(&saved).unwrap_or_default();
    assert_eq!(json["version"], 2, "{saved}");
    assert_eq!(json["value"]["answers"][&ids[1]]["share_percent"], "96.9", "{saved}");
    assert_eq!(json["value"]["checked"][&ids[2]]["share_percent"], "60.6", "{saved}");

    // Content that reorders its rows still finds each answer on its request.
    exercise.requests.reverse();
    let tab = Store::open(memory.clone());
    let reordered = Stored::open(&tab, learner_state::trace_work(&exercise));
    let shown = reordered.get().answers_in_order(exercise.requests.iter().map(|r| r.id.as_str()));
    let by_id: Vec<(String, LearnerAnswer)> =
        exercise.requests.iter().map(|r| r.id.clone()).zip(shown).filter(|(_, a)| *a != LearnerAnswer::default()).collect();
    assert_eq!(by_id.len(), 2);
    for (id, answer) in by_id {
        assert_eq!(answer, w.answer(&id), "{id} keeps its own answer");
    }
}
