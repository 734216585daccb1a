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
use ttft_core::exercises::trace_exercise::{LearnerAnswer, ShareEntry};
use ttft_lab::learner_state;
use ttft_lab::learner_state::checklist::Checklist;
use ttft_lab::storage::{
    key_for, wrap, Backend, BrowserBackend, MemoryBackend, NoticeKind, Spec, StorageError, Store,
    Stored,
};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// Storage that refuses everything, like a sandboxed iframe or a browser
/// with site data disabled.
struct Refusing;

impl Backend for Refusing {
    fn get(&self, _: &str) -> Result<Option<String>, StorageError> {
        Err(StorageError::Unavailable {
            reason: "SecurityError: access denied".into(),
        })
    }
    fn set(&self, _: &str, _: &str) -> Result<(), StorageError> {
        Err(StorageError::Unavailable {
            reason: "SecurityError: access denied".into(),
        })
    }
    fn remove(&self, _: &str) -> Result<(), StorageError> {
        Err(StorageError::Unavailable {
            reason: "SecurityError: access denied".into(),
        })
    }
    fn keys(&self) -> Result<Vec<String>, StorageError> {
        Err(StorageError::Unavailable {
            reason: "SecurityError: access denied".into(),
        })
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
            return Err(StorageError::Write {
                key: key.into(),
                reason: "QuotaExceededError".into(),
            });
        }
        self.inner.set(key, value)
    }
    fn remove(&self, key: &str) -> Result<(), StorageError> {
        self.inner.remove(key)
    }
    fn keys(&self) -> Result<Vec<String>, StorageError> {
        self.inner.keys()
    }
}

fn notices(store: &Store) -> Vec<(NoticeKind, String)> {
    store
        .notices()
        .get_untracked()
        .into_iter()
        .map(|n| (n.kind, n.text))
        .collect()
}

/// The texts of the copies set aside from `key`, oldest first.
fn copies_of(backend: &dyn Backend, key: &str) -> Vec<String> {
    let mut keys: Vec<String> = backend
        .keys()
        .unwrap_or_default()
        .into_iter()
        .filter(|k| k.starts_with(&format!("{key}/set-aside/")))
        .collect();
    keys.sort();
    keys.iter()
        .filter_map(|k| backend.get(k).ok().flatten())
        .collect()
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
    assert!(
        said[0].1.contains("not letting the page save"),
        "{}",
        said[0].1
    );
    assert!(said[0].1.contains("SecurityError"), "{}", said[0].1);

    let checklist = Stored::open(&store, learner_state::checklist());
    assert_eq!(checklist.update(|c| c.mark("split", true, 1)), Ok(()));
    assert!(
        checklist.get().is_done("split"),
        "the tick lives on in memory"
    );
    assert_eq!(
        notices(&store).len(),
        1,
        "working in memory is said once, not on every change"
    );
}

#[wasm_bindgen_test]
fn damaged_data_is_set_aside_and_the_value_starts_clean() {
    for (name, text) in [
        ("checklist", "{\"version\":1,\"value\":{\"items\":"),
        ("answers", "{\"version\":9,\"value\":{}}"),
    ] {
        let memory = Arc::new(MemoryBackend::default());
        memory.set(&key_for(name), text).unwrap_or_default();
        let store = Store::open(memory.clone());
        let stored = Stored::open(&store, Spec::new(name, "checklist", 1, Checklist::merge));

        assert_eq!(stored.get(), Checklist::default(), "{name} starts clean");
        let keys = memory.keys().unwrap_or_default();
        let aside: Vec<&String> = keys
            .iter()
            .filter(|k| k.starts_with(&format!("ttft-lab/v1/{name}/set-aside/")))
            .collect();
        assert_eq!(aside.len(), 1, "{keys:?}");
        assert_eq!(
            memory.get(aside[0]),
            Ok(Some(text.to_owned())),
            "the copy is the damaged text, byte for byte"
        );
        assert_eq!(
            memory.get(&key_for(name)),
            Ok(None),
            "the damaged value is not read again"
        );
        let said = notices(&store);
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(
            said[0].1.contains("could not be read") && said[0].1.contains(aside[0].as_str()),
            "{}",
            said[0].1
        );
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
    assert!(
        matches!(result, Err(StorageError::Write { .. })),
        "{result:?}"
    );
    assert_eq!(
        quota.get(&checklist.key()),
        before,
        "what was stored before is intact"
    );
    assert!(
        checklist.get().is_done("clocks"),
        "the change stays on the page"
    );
    let said = notices(&store);
    assert_eq!(said.len(), 1, "{said:?}");
    assert_eq!(said[0].0, NoticeKind::Error);
    assert!(
        said[0].1.contains("Could not save") && said[0].1.contains("unchanged"),
        "{}",
        said[0].1
    );

    let _ = checklist.update(|c| c.mark("memory", true, 30));
    assert_eq!(notices(&store).len(), 1, "the same failure is said once");
}

#[wasm_bindgen_test]
fn the_real_local_storage_reports_a_full_quota_and_keeps_the_old_value() {
    let store = Store::open(Arc::new(BrowserBackend));
    assert!(store.keeps(), "headless Chromium has localStorage");
    let name = "test/quota";
    let answer: Stored<String> = Stored::open(
        &store,
        Spec::new(name, "answer", 1, |mine: &String, _| mine.clone()),
    );
    assert_eq!(answer.set("a short answer".into()), Ok(()));
    let before = BrowserBackend.get(&answer.key());

    // Far beyond the 5 MiB per-origin quota of Chromium's localStorage.
    let result = answer.set("x".repeat(12 * 1024 * 1024));
    assert!(
        matches!(&result, Err(StorageError::Write { reason, .. }) if reason.contains("Quota")),
        "{result:?}"
    );
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
    assert_eq!(
        stored,
        wrap(1, &both).unwrap_or_default(),
        "storage ends with both ticks"
    );

    // A later untick in one tab wins over the older tick in the other
    // (made now: an untick older than the merge horizon is pruned).
    assert_eq!(
        list1.update(|c| c.mark("split", false, ttft_lab::storage::now_ms())),
        Ok(())
    );
    tab2.receive(&key, shared.get(&key).unwrap_or_default());
    assert!(!list2.get().is_done("split"));
    assert!(list2.get().is_done("clocks"));

    // Another tab's damaged write is set aside before this tab writes its
    // own value in its place.
    shared.set(&key, "{nonsense").unwrap_or_default();
    tab2.receive(&key, Some("{nonsense".into()));
    assert!(list2.get().is_done("clocks"));
    assert_eq!(
        copies_of(&*shared, &key),
        ["{nonsense"],
        "the damaged text is kept, byte for byte"
    );
    assert_eq!(
        shared.get(&key),
        Ok(wrap(1, &list2.get()).ok()),
        "this tab's value is stored in its place"
    );
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
    let Ok(course) = ttft_lab::course::load() else {
        panic!("the embedded course loads")
    };
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
    assert_eq!(
        w.answer(&ids[1]).share_percent,
        Some(ShareEntry::Text("96.9".into()))
    );
    assert_eq!(
        w.answer(&ids[2]).share_percent,
        Some(ShareEntry::Text("60.6".into()))
    );
    assert_eq!(w.answer(&ids[0]), LearnerAnswer::default());
    assert_eq!(
        memory.get(&key),
        Ok(Some(old.clone())),
        "reading alone writes nothing"
    );
    assert!(
        notices(&store).is_empty(),
        "an upgrade is not a problem: {:?}",
        notices(&store)
    );
    assert!(
        memory
            .keys()
            .unwrap_or_default()
            .iter()
            .all(|k| !k.contains("set-aside")),
        "nothing is set aside"
    );

    // The next save writes format 2, keyed by request id.
    assert_eq!(work.update(|w| w.set_revealed(true, 10)), Ok(()));
    let saved = memory.get(&key).unwrap_or_default().unwrap_or_default();
    let json: serde_json::Value = serde_json::from_str(&saved).unwrap_or_default();
    assert_eq!(json["version"], 2, "{saved}");
    assert_eq!(
        json["value"]["answers"][&ids[1]]["share_percent"], "96.9",
        "{saved}"
    );
    assert_eq!(
        json["value"]["checked"][&ids[2]]["share_percent"], "60.6",
        "{saved}"
    );

    // Content that reorders its rows still finds each answer on its request.
    exercise.requests.reverse();
    let tab = Store::open(memory.clone());
    let reordered = Stored::open(&tab, learner_state::trace_work(&exercise));
    let shown = reordered
        .get()
        .answers_in_order(exercise.requests.iter().map(|r| r.id.as_str()));
    let by_id: Vec<(String, LearnerAnswer)> = exercise
        .requests
        .iter()
        .map(|r| r.id.clone())
        .zip(shown)
        .filter(|(_, a)| *a != LearnerAnswer::default())
        .collect();
    assert_eq!(by_id.len(), 2);
    for (id, answer) in by_id {
        assert_eq!(answer, w.answer(&id), "{id} keeps its own answer");
    }
}

/// The notices' kinds and texts, and their ids (a new id is a new
/// announcement in the live region).
fn notices_with_ids(store: &Store) -> Vec<(u64, NoticeKind, String)> {
    store
        .notices()
        .get_untracked()
        .into_iter()
        .map(|n| (n.id, n.kind, n.text))
        .collect()
}

#[wasm_bindgen_test]
fn another_tab_on_a_newer_version_is_never_written_over() {
    let shared = Arc::new(MemoryBackend::default());
    let tab = Store::open(shared.clone());
    let list = Stored::open(&tab, learner_state::checklist());
    let key = list.key();
    assert_eq!(list.update(|c| c.mark("split", true, 100)), Ok(()));

    // A tab running a newer version of the app writes format 99.
    let newer = r#"{"version":99,"value":{"items":{"split":{"when":"later"}}}}"#;
    shared.set(&key, newer).unwrap_or_default();
    tab.receive(&key, Some(newer.into()));

    let result = list.update(|c| c.mark("clocks", true, 200));
    assert_eq!(result, Err(StorageError::Held { key: key.clone() }));
    assert_eq!(
        shared.get(&key),
        Ok(Some(newer.to_owned())),
        "the newer tab's value stays as it is"
    );
    assert!(
        copies_of(&*shared, &key).is_empty(),
        "nothing to set aside: it is not replaced"
    );
    assert!(
        list.get().is_done("clocks"),
        "the change stays on this page"
    );
    let said = notices(&tab);
    assert_eq!(said.len(), 1, "{said:?}");
    assert_eq!(said[0].0, NoticeKind::Warning);
    assert!(
        said[0].1.contains("newer version") && said[0].1.contains("reload"),
        "{}",
        said[0].1
    );

    // The same tab later finds a value it can read (the newer tab's was
    // removed): it merges and saves again, and says so.
    shared.remove(&key).unwrap_or_default();
    tab.receive(&key, None);
    assert_eq!(shared.get(&key), Ok(wrap(1, &list.get()).ok()));
    assert!(list.get().is_done("split") && list.get().is_done("clocks"));
    let said = notices(&tab);
    assert_eq!(said.len(), 1, "the hold's notice is replaced: {said:?}");
    assert_eq!(said[0].0, NoticeKind::Info);
    assert!(said[0].1.contains("saved again"), "{}", said[0].1);
}

#[wasm_bindgen_test]
fn a_stale_event_never_writes_over_what_another_tab_stored_since() {
    let shared = Arc::new(MemoryBackend::default());
    let tab = Store::open(shared.clone());
    let list = Stored::open(&tab, learner_state::checklist());
    let key = list.key();
    assert_eq!(list.update(|c| c.mark("split", true, 100)), Ok(()));

    // Another tab removed the value and then a newer version wrote its own;
    // this tab, busy meanwhile, hears of the removal only now. Taken alone,
    // that event would have it write its value back over the newer one.
    let newer = r#"{"version":99,"value":{"future":true}}"#;
    shared.set(&key, newer).unwrap_or_default();
    tab.receive(&key, None);
    assert_eq!(shared.get(&key), Ok(Some(newer.to_owned())), "the newer value stays");
    assert_eq!(
        list.update(|c| c.mark("clocks", true, 200)),
        Err(StorageError::Held { key: key.clone() }),
        "and this tab stops writing, as for a newer value heard directly"
    );

    // A stale event still brings its ticks: merged here, written only if
    // what is stored now can be read.
    shared.set(&key, &wrap(1, &ticked(&[("memory", 300)])).unwrap_or_default()).unwrap_or_default();
    tab.receive(&key, wrap(1, &ticked(&[("percentiles", 250)])).ok());
    let all = ticked(&[("split", 100), ("clocks", 200), ("percentiles", 250), ("memory", 300)]);
    assert_eq!(list.get(), all);
    assert_eq!(shared.get(&key), Ok(wrap(1, &all).ok()), "the merge is stored over the readable value");
}

#[wasm_bindgen_test]
fn the_same_damaged_text_is_set_aside_once() {
    let shared = Arc::new(MemoryBackend::default());
    let tab = Store::open(shared.clone());
    let list = Stored::open(&tab, learner_state::checklist());
    let key = list.key();
    assert_eq!(list.update(|c| c.mark("split", true, 100)), Ok(()));
    for _ in 0..3 {
        shared.set(&key, "{damaged").unwrap_or_default();
        tab.receive(&key, Some("{damaged".into()));
    }
    assert_eq!(copies_of(&*shared, &key), ["{damaged"]);
    assert_eq!(tab.set_aside_copies().get_untracked().len(), 1);
    assert_eq!(shared.get(&key), Ok(wrap(1, &list.get()).ok()));
}

#[wasm_bindgen_test]
fn damaged_data_that_cannot_be_set_aside_is_not_written_over() {
    let quota = Arc::new(Quota::default());
    let key = key_for("checklist");
    quota.set(&key, "{damaged").unwrap_or_default();
    quota.full.store(true, Ordering::SeqCst);
    let store = Store::open(quota.clone());
    let list = Stored::open(&store, learner_state::checklist());

    assert_eq!(list.get(), Checklist::default());
    let result = list.update(|c| c.mark("split", true, 100));
    assert_eq!(result, Err(StorageError::Held { key: key.clone() }));
    assert_eq!(
        quota.get(&key),
        Ok(Some("{damaged".to_owned())),
        "the only copy is still there"
    );
    let said = notices(&store);
    assert!(
        said.iter()
            .any(|(_, t)| t.contains("could not be set aside") && t.contains("will not save")),
        "{said:?}"
    );

    // Another tab's damaged write, with no room for a copy, is not replaced either.
    let shared = Arc::new(Quota::default());
    let tab = Store::open(shared.clone());
    let list = Stored::open(&tab, learner_state::checklist());
    assert_eq!(list.update(|c| c.mark("split", true, 100)), Ok(()));
    shared.set(&key, "{theirs").unwrap_or_default();
    shared.full.store(true, Ordering::SeqCst);
    tab.receive(&key, Some("{theirs".into()));
    assert_eq!(shared.get(&key), Ok(Some("{theirs".to_owned())));
    assert_eq!(
        list.update(|c| c.mark("clocks", true, 200)),
        Err(StorageError::Held { key: key.clone() })
    );
    assert_eq!(shared.get(&key), Ok(Some("{theirs".to_owned())));
}

#[wasm_bindgen_test]
fn full_storage_still_shows_what_is_saved_and_reports_every_failed_save() {
    let quota = Arc::new(Quota::default());
    let saved = ticked(&[("split", 100)]);
    let key = key_for("checklist");
    quota
        .set(&key, &wrap(1, &saved).unwrap_or_default())
        .unwrap_or_default();
    quota
        .set(&format!("{key}/set-aside/5"), "{old damaged copy")
        .unwrap_or_default();
    quota.full.store(true, Ordering::SeqCst);

    let store = Store::open(quota.clone());
    assert!(store.keeps(), "storage that reads is still used");
    let list = Stored::open(&store, learner_state::checklist());
    assert_eq!(list.get(), saved, "everything saved is shown");
    let said = notices(&store);
    assert_eq!(said.len(), 1, "{said:?}");
    assert_eq!(said[0].0, NoticeKind::Error);
    assert!(
        said[0].1.contains("storage is full") && said[0].1.contains("set-aside"),
        "{}",
        said[0].1
    );
    assert_eq!(
        store.set_aside_copies().get_untracked().len(),
        1,
        "the copy that could be deleted is listed"
    );

    // Each failed save is reported anew, so the live region says it again.
    assert!(list.update(|c| c.mark("clocks", true, 200)).is_err());
    let first = notices_with_ids(&store);
    assert!(list.update(|c| c.mark("memory", true, 300)).is_err());
    let second = notices_with_ids(&store);
    assert_eq!(first.len(), 2, "{first:?}");
    assert_eq!(
        second.len(),
        2,
        "one notice per value, replaced: {second:?}"
    );
    assert_ne!(first[1].0, second[1].0, "a new announcement");
    assert!(
        first[1].2.starts_with("Could not save your checklist:"),
        "{}",
        first[1].2
    );
    assert!(
        second[1].2.contains("again (2 saves in a row)"),
        "{}",
        second[1].2
    );
    assert!(
        second[1].2.contains("Deleting set-aside copies"),
        "{}",
        second[1].2
    );
    assert_eq!(
        quota.get(&key),
        Ok(wrap(1, &saved).ok()),
        "what was saved is unchanged"
    );

    // Deleting the copy frees space; the next save keeps every change.
    assert_eq!(
        store.delete_set_aside(&format!("{key}/set-aside/5")),
        Ok(())
    );
    assert!(store.set_aside_copies().get_untracked().is_empty());
    quota.full.store(false, Ordering::SeqCst);
    assert_eq!(list.update(|c| c.mark("split", true, 400)), Ok(()));
    let kept: Checklist = ttft_lab::storage::read(
        &quota.get(&key).unwrap_or_default().unwrap_or_default(),
        &learner_state::checklist(),
    )
    .unwrap_or_default();
    assert!(
        ["split", "clocks", "memory"]
            .iter()
            .all(|id| kept.is_done(id)),
        "{kept:?}"
    );
    let said = notices(&store);
    assert!(
        said.iter()
            .any(|(k, t)| *k == NoticeKind::Info && t.contains("saved again")),
        "{said:?}"
    );
    assert!(
        !said.iter().any(|(_, t)| t.starts_with("Could not save")),
        "the failure is no longer claimed: {said:?}"
    );
    assert!(
        !said.iter().any(|(_, t)| t.contains("storage is full")),
        "nor the full storage: {said:?}"
    );
}

#[wasm_bindgen_test]
fn set_aside_copies_are_listed_and_only_they_can_be_deleted() {
    let memory = Arc::new(MemoryBackend::default());
    let key = key_for("checklist");
    memory.set(&key, "{damaged").unwrap_or_default();
    memory
        .set("someone-else/set-aside/1", "not ours")
        .unwrap_or_default();
    let store = Store::open(memory.clone());
    let _list = Stored::open(&store, learner_state::checklist());
    let copies = store.set_aside_copies().get_untracked();
    assert_eq!(copies.len(), 1, "{copies:?}");
    assert_eq!(copies[0].name, "checklist");
    assert_eq!(copies[0].size, "{damaged".len());
    assert_eq!(
        store.set_aside_text(&copies[0].key),
        Ok(Some("{damaged".to_owned()))
    );

    assert_eq!(
        store.delete_set_aside(&key),
        Ok(()),
        "not a set-aside key: left alone"
    );
    assert_eq!(store.delete_set_aside("someone-else/set-aside/1"), Ok(()));
    assert_eq!(
        memory.get("someone-else/set-aside/1"),
        Ok(Some("not ours".to_owned()))
    );
    assert_eq!(store.delete_set_aside(&copies[0].key), Ok(()));
    assert_eq!(memory.get(&copies[0].key), Ok(None));
    assert!(store.set_aside_copies().get_untracked().is_empty());
}

/// Fills the real `localStorage` until it refuses even one more character,
/// under keys that start with `fill/`; hands back those keys.
fn fill_local_storage() -> Vec<String> {
    let mut keys = Vec::new();
    let mut size = 1 << 20;
    while size >= 1 {
        let key = format!("fill/{}", keys.len());
        if BrowserBackend.set(&key, &"x".repeat(size)).is_ok() {
            keys.push(key);
        } else {
            size /= 2;
        }
    }
    keys
}

#[wasm_bindgen_test]
fn the_real_local_storage_when_full_still_shows_what_is_saved() {
    let key = key_for("checklist");
    let saved = ticked(&[("split", 100)]);
    let _ = BrowserBackend.set(&key, &wrap(1, &saved).unwrap_or_default());
    let filled = fill_local_storage();

    let store = Store::open(Arc::new(BrowserBackend));
    let list = Stored::open(&store, learner_state::checklist());
    let shown = list.get();
    let said = notices(&store);
    let failed = list.update(|c| c.mark("clocks", true, 200));
    let after = BrowserBackend.get(&key);

    for k in &filled {
        let _ = BrowserBackend.remove(k);
    }
    let _ = BrowserBackend.remove(&key);
    assert!(store.keeps());
    assert_eq!(
        shown, saved,
        "the tick saved before the storage filled up is shown"
    );
    assert!(
        said.iter().any(|(_, t)| t.contains("storage is full")),
        "{said:?}"
    );
    assert!(
        matches!(&failed, Err(StorageError::Write { reason, .. }) if reason.contains("Quota")),
        "{failed:?}"
    );
    assert_eq!(
        after,
        Ok(wrap(1, &saved).ok()),
        "what was saved is unchanged"
    );
}

#[wasm_bindgen_test]
fn old_unticks_are_pruned_from_storage_without_tabs_writing_back_and_forth() {
    use ttft_lab::learner_state::checklist::Tick;
    let now = ttft_lab::storage::now_ms();
    let long_ago = now - ttft_lab::learner_state::merge::MERGE_HORIZON_MS - 60_000;
    let mut stored = Checklist::default();
    stored.items.insert(
        "split".into(),
        Tick {
            changed_ms: long_ago,
            done: true,
        },
    );
    stored.items.insert(
        "clocks".into(),
        Tick {
            changed_ms: long_ago,
            done: false,
        },
    );
    let shared = Arc::new(MemoryBackend::default());
    let key = key_for("checklist");
    let old_text = wrap(1, &stored).unwrap_or_default();
    shared.set(&key, &old_text).unwrap_or_default();

    let tab = Store::open(shared.clone());
    let list = Stored::open(&tab, learner_state::checklist());
    assert!(list.get().is_done("split") && !list.get().is_done("clocks"));
    assert_eq!(list.update(|c| c.mark("memory", true, now)), Ok(()));
    let saved: Checklist = ttft_lab::storage::read(
        &shared.get(&key).unwrap_or_default().unwrap_or_default(),
        &learner_state::checklist(),
    )
    .unwrap_or_default();
    assert_eq!(
        saved.items.keys().map(String::as_str).collect::<Vec<_>>(),
        ["memory", "split"],
        "the old untick is gone"
    );

    // A tab of an older version, which keeps every stamp, writes its value
    // with the old untick: this tab merges it without writing back, so the
    // two tabs do not answer each other for ever.
    let mut theirs = stored.clone();
    theirs.mark("memory", true, now);
    let theirs_text = wrap(1, &theirs).unwrap_or_default();
    shared.set(&key, &theirs_text).unwrap_or_default();
    tab.receive(&key, Some(theirs_text.clone()));
    assert_eq!(
        shared.get(&key),
        Ok(Some(theirs_text)),
        "nothing new to say, so nothing written"
    );
    assert!(list.get().is_done("memory") && list.get().is_done("split"));
}

// What a page could not keep goes with it when the lesson-only build hands
// the page to the full app (`hand_over`): `Store::unsaved` there,
// `Store::open_carrying` here.

#[wasm_bindgen_test]
fn work_kept_in_memory_is_carried_to_the_next_store() {
    let store = Store::open(Arc::new(Refusing));
    let checklist = Stored::open(&store, learner_state::checklist());
    assert_eq!(checklist.update(|c| c.mark("split", true, 1)), Ok(()));
    let unsaved = store.unsaved();
    assert_eq!(unsaved.len(), 1, "{unsaved:?}");

    let next = Store::open_carrying(Arc::new(Refusing), unsaved);
    assert!(!next.keeps(), "still in memory, and still says so");
    assert_eq!(notices(&next).len(), 1);
    let again = Stored::open(&next, learner_state::checklist());
    assert!(again.get().is_done("split"), "the tick came along");
}

#[wasm_bindgen_test]
fn a_refused_save_is_carried_and_saved_once_storage_takes_writes() {
    let backend = Arc::new(Quota::default());
    let store = Store::open(backend.clone());
    let checklist = Stored::open(&store, learner_state::checklist());
    assert_eq!(checklist.update(|c| c.mark("queue", true, 1)), Ok(()));
    backend.full.store(true, Ordering::SeqCst);
    assert!(checklist.update(|c| c.mark("split", true, 2)).is_err());
    let unsaved = store.unsaved();
    assert_eq!(unsaved.len(), 1, "{unsaved:?}");

    // The next app, on the same full storage, reads the page's latest.
    let next = Store::open_carrying(backend.clone(), unsaved);
    let again = Stored::open(&next, learner_state::checklist());
    let now = again.get();
    assert!(now.is_done("queue") && now.is_done("split"), "{now:?}");
    let stored = Stored::open(&Store::open(backend.clone()), learner_state::checklist());
    assert!(!stored.get().is_done("split"), "not saved yet");

    // Storage takes writes again: the next change saves the carried one too.
    backend.full.store(false, Ordering::SeqCst);
    assert_eq!(again.update(|c| c.mark("prefill", true, 3)), Ok(()));
    let stored = Stored::open(&Store::open(backend.clone()), learner_state::checklist());
    let saved = stored.get();
    assert!(saved.is_done("queue") && saved.is_done("split") && saved.is_done("prefill"), "{saved:?}");
    assert!(next.unsaved().is_empty());
}

#[wasm_bindgen_test]
fn work_carried_in_and_not_saved_yet_is_handed_on_again() {
    // A page handed over what it could not save; the next opens on storage
    // that takes writes, and hands the page on before that value changes.
    let key = key_for("checklist");
    let text = wrap(1, &ticked(&[("split", 1)])).unwrap_or_default();
    let carried = [(key.clone(), text.clone())].into_iter().collect();
    let next = Store::open_carrying(Arc::new(MemoryBackend::default()), carried);
    assert_eq!(next.unsaved().get(&key), Some(&text), "handed on as it came");

    // Once saved here, it is not carried any more.
    let checklist = Stored::open(&next, learner_state::checklist());
    assert!(checklist.get().is_done("split"));
    assert_eq!(checklist.update(|c| c.mark("clocks", true, 2)), Ok(()));
    assert!(next.unsaved().is_empty(), "{:?}", next.unsaved());
}

#[wasm_bindgen_test]
fn a_store_that_saved_everything_carries_nothing() {
    let store = Store::open(Arc::new(MemoryBackend::default()));
    let checklist = Stored::open(&store, learner_state::checklist());
    assert_eq!(checklist.update(|c| c.mark("split", true, 1)), Ok(()));
    assert!(store.unsaved().is_empty());
}
