//! The status area for saved work: what the store has to tell the learner,
//! and the copies of unreadable data it set aside.
//!
//! The notices are a polite live region that is always in the page, so
//! screen readers announce a notice when it appears; each can be
//! dismissed. Below it, only while there are any, the set-aside copies are
//! listed in a disclosure, each with Download (to keep it as a file) and
//! Delete (to free space, which a full storage needs); what each action did
//! is announced in the live region. The panel sits outside the live region
//! so that its buttons are not read out on every change. What it
//! deliberately does not do: decide what to say about storage (the store
//! words notices) or read a copy's contents.

use crate::components::practice::history::{download, saved_at};
use crate::learner_state;
use crate::storage::{Notice, NoticeKind, SetAside, Store};
use leptos::prelude::*;
use ttft_latency::time::group_thousands;

/// Notices about saving (storage unavailable or full, a save that failed,
/// data set aside) and the set-aside copies.
#[component]
pub fn StorageStatus(
    /// The app's store.
    store: Store,
) -> impl IntoView {
    let notices = store.notices();
    let dismiss = store.clone();
    view! {
        <div class="storage-status" role="status" aria-live="polite" aria-label="Saved work">
            <For
                each=move || notices.get()
                key=|n| n.id
                children=move |notice: Notice| {
                    let store = dismiss.clone();
                    let class = match notice.kind {
                        NoticeKind::Info => "notice notice-info",
                        NoticeKind::Warning => "notice notice-warning",
                        NoticeKind::Error => "notice notice-error",
                    };
                    let id = notice.id;
                    view! {
                        <div class=class>
                            <p>{notice.text}</p>
                            <button type="button" class="notice-dismiss" on:click=move |_| store.dismiss(id)>
                                "Dismiss"
                            </button>
                        </div>
                    }
                }
            />
        </div>
        <SetAsidePanel store=store />
    }
}

/// How a copy is named for the learner: "your checklist, set aside 1 Dec
/// 2026, 06:10".
fn copy_name(copy: &SetAside) -> String {
    let what = learner_state::describe(&copy.name);
    match copy.at_ms {
        Some(ms) => format!("your {what}, set aside {}", saved_at(ms).0),
        None => format!("your {what}, set aside"),
    }
}

/// `text` with its first letter in upper case. The names are the app's own
/// English (`learner_state::describe`), so ASCII is enough, and it keeps the
/// Unicode case tables (about 6 KB) out of every build.
fn sentence_case(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|first| std::iter::once(first.to_ascii_uppercase()).chain(chars).collect())
        .unwrap_or_default()
}

/// The file a copy downloads as: `ttft-lab-set-aside-trace-hint-trace-1764569400000.json`.
pub fn copy_filename(copy: &SetAside) -> String {
    let name: String = copy
        .name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    match copy.at_ms {
        Some(ms) => format!("ttft-lab-set-aside-{name}-{ms}.json"),
        None => format!("ttft-lab-set-aside-{name}.json"),
    }
}

/// The set-aside copies, in a disclosure; hidden while there are none.
#[component]
fn SetAsidePanel(
    /// The app's store, which lists and deletes the copies.
    store: Store,
) -> impl IntoView {
    let copies = store.set_aside_copies();
    let count = move || match copies.with(Vec::len) {
        1 => "1 set-aside copy of saved work".to_owned(),
        n => format!("{n} set-aside copies of saved work"),
    };
    view! {
        <section class="set-aside" aria-labelledby="set-aside-title" hidden=move || copies.with(Vec::is_empty)>
            <details>
                <summary id="set-aside-title">{count}</summary>
                <p>
                    "When saved work could not be read, it was kept here instead of being thrown away. \
                     Download a copy to keep it as a file; delete it to free space in this browser."
                </p>
                <ul class="set-aside-list">
                    <For
                        each=move || copies.get()
                        key=|c| c.key.clone()
                        children=move |copy: SetAside| copy_item(store.clone(), copy)
                    />
                </ul>
            </details>
        </section>
    }
}

fn copy_item(store: Store, copy: SetAside) -> impl IntoView {
    let name = copy_name(&copy);
    let size = format!("{} characters", group_thousands(copy.size as u64));
    let on_download = {
        let (store, copy, name) = (store.clone(), copy.clone(), name.clone());
        move |_| {
            let filename = copy_filename(&copy);
            let said = match store.set_aside_text(&copy.key) {
                Ok(Some(text)) => match download(&filename, &text) {
                    Ok(()) => (
                        NoticeKind::Info,
                        format!("Downloaded the copy of {name} as {filename}."),
                    ),
                    Err(e) => (
                        NoticeKind::Error,
                        format!("Could not download the copy of {name}: {e}."),
                    ),
                },
                Ok(None) => (
                    NoticeKind::Warning,
                    format!("The copy of {name} is no longer in this browser."),
                ),
                Err(e) => (
                    NoticeKind::Error,
                    format!("Could not read the copy of {name}: {e}."),
                ),
            };
            store.notify(said.0, said.1);
        }
    };
    let on_delete = {
        let name = name.clone();
        move |_| {
            match store.delete_set_aside(&copy.key) {
                Ok(()) => store.notify(NoticeKind::Info, format!("Deleted the copy of {name}.")),
                Err(e) => store.notify(
                    NoticeKind::Error,
                    format!("Could not delete the copy of {name}: {e}."),
                ),
            }
            // The button is gone with its copy: keyboard users go on from
            // the list's summary, or from the page when the list is gone.
            let remaining = !store.set_aside_copies().with_untracked(Vec::is_empty);
            request_animation_frame(move || {
                let id = if remaining { "set-aside-title" } else { "main" };
                if let Some(el) = document().get_element_by_id(id) {
                    if let Ok(el) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(el) {
                        let _ = el.focus();
                    }
                }
            });
        }
    };
    view! {
        <li class="set-aside-item">
            <span class="set-aside-what">{format!("{} ({size})", sentence_case(&name))}</span>
            <button type="button" on:click=on_download>
                "Download"<span class="visually-hidden">{format!(" the copy of {name}")}</span>
            </button>
            <button type="button" on:click=on_delete>
                "Delete"<span class="visually-hidden">{format!(" the copy of {name}")}</span>
            </button>
        </li>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_download_under_their_value_and_time() {
        let copy = SetAside::from_key("ttft-lab/v1/trace/hint-trace/set-aside/1764569400000", 4);
        assert_eq!(
            copy.as_ref().map(copy_filename).as_deref(),
            Some("ttft-lab-set-aside-trace-hint-trace-1764569400000.json")
        );
        let odd = SetAside::from_key("ttft-lab/v1/checklist/set-aside/x", 4);
        assert_eq!(
            odd.as_ref().map(copy_filename).as_deref(),
            Some("ttft-lab-set-aside-checklist.json")
        );
        assert_eq!(sentence_case("your checklist"), "Your checklist");
        assert_eq!(sentence_case(""), "");
    }
}
