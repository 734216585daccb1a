//! The practice parts of the course: the trace exercise, the configuration
//! choice and the interview question (with its self-score and history).
//!
//! Each part is one module with one page component, rendered from the
//! course content. Each keeps the learner's work in one plain value
//! (answers, attempts, what is revealed) stored through
//! `crate::storage::Stored` under its own key, so it survives a reload and
//! merges between tabs; every verdict and figure on show is computed from
//! that value by `ttft_core`. What this module deliberately does not do:
//! share state between parts, or hold any latency arithmetic.

pub mod config_choice;
pub mod history;
pub mod interview;
pub mod self_score;
pub mod trace_exercise;

use crate::storage::{Merge, MemoryBackend, Store, Stored};
use leptos::prelude::*;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::any::Any;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

/// The app's store from context, or a store in memory when there is none
/// (a component mounted on its own in a test).
pub fn store_from_context() -> Store {
    use_context::<Store>().unwrap_or_else(|| Store::with_backend(Arc::new(MemoryBackend::default())))
}

/// The stored values the practice parts have opened, kept on the app's
/// root owner so that they outlive the part on show.
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

/// Opens the stored value `name` once for the whole app and hands back the
/// same value every time a part mounts again.
///
/// Why: a `Stored` keeps listening for other tabs' changes for as long as
/// the store lives, so its signal must live as long too. Opened inside a
/// part, the signal would be disposed when the learner moves to another
/// part, and the next change from another tab would reach a dead signal.
/// Opening it under the app's root owner, once, avoids that and keeps one
/// listener per value.
pub fn open_for_app<T>(name: &str, label: &str, merge: Merge<T>) -> Stored<T>
where
    T: Serialize + DeserializeOwned + Clone + Default + PartialEq + Send + Sync + 'static,
{
    let store = store_from_context();
    let Some(root) = app_root() else {
        return Stored::open(&store, name, label, merge);
    };
    let opened = root.with(|| {
        use_context::<OpenedValues>().unwrap_or_else(|| {
            let fresh = OpenedValues::default();
            provide_context(fresh.clone());
            fresh
        })
    });
    let mut values = opened.0.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(found) = values.get(name).and_then(|v| v.downcast_ref::<Stored<T>>()) {
        return found.clone();
    }
    let stored = root.with(|| Stored::open(&store, name, label, merge));
    values.insert(name.to_owned(), Box::new(stored.clone()));
    stored
}

/// An element id made from content ids: lower case, letters, digits and
/// dashes only (`H2` and `share` give `tx-h2-share`).
pub fn dom_id(parts: &[&str]) -> String {
    let mut out = String::new();
    for part in parts {
        if !out.is_empty() {
            out.push('-');
        }
        out.extend(part.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' }));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dom_ids_are_lower_case_words() {
        assert_eq!(dom_id(&["tx", "H2", "share"]), "tx-h2-share");
        assert_eq!(dom_id(&["cc", "live hints!"]), "cc-live-hints-");
    }
}
