//! The status area for saved work: what the store has to tell the learner.
//!
//! A polite live region that is always in the page, so screen readers
//! announce a notice when it appears. Each notice can be dismissed. What it
//! deliberately does not do: decide what to say (the store words notices).

use crate::storage::{Notice, NoticeKind, Store};
use leptos::prelude::*;

/// Notices about saving: storage unavailable, a save that failed, data set
/// aside.
#[component]
pub fn StorageStatus(
    /// The app's store.
    store: Store,
) -> impl IntoView {
    let notices = store.notices();
    view! {
        <div class="storage-status" role="status" aria-live="polite" aria-label="Saved work">
            <For
                each=move || notices.get()
                key=|n| n.id
                children=move |notice: Notice| {
                    let store = store.clone();
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
    }
}
