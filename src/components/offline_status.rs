//! The status area for ttft-lab as an installed, offline-capable app: a new
//! version is ready (with Reload, and Not now), or the part on show needs a
//! connection because a file it loads was never fetched online on this
//! device.
//!
//! Like the saved-work notices, these sit in a polite live region that is
//! always in the page, so a notice is announced when it appears; each is
//! said once per page visit. The page never reloads by itself: a new
//! version waits until the learner presses Reload, so nothing they are
//! typing is cut off.
//!
//! Embedded in another site's page the worker is not registered at all and
//! this shows nothing: there the browser keeps the iframe's storage apart
//! for each site that embeds it, so a worker would download a separate
//! copy of the whole app per course site; the course page around it needs
//! the network anyway; and the host page is no business of ours. An
//! embedded part works exactly as before, online.
//!
//! What it deliberately does not do: decide what is cached (the worker
//! does) or reload on its own.

use crate::navigation::{focus_main, Navigator};
use ttft_core::course_part::CoursePart;
use crate::service_worker::{self, WorkerNews};
use leptos::prelude::*;
use ttft_latency::small_map::SmallSet;

/// Where the new-version offer stands in this page visit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Offer {
    /// No new version seen.
    None,
    /// Shown, waiting for the learner.
    Shown,
    /// The learner chose Not now; not shown again in this visit.
    Declined,
}

/// Registers the service worker (outside an embed) and shows what it has
/// to say.
#[component]
pub fn OfflineStatus(
    /// The part on show, named when it needs a connection.
    nav: Navigator,
) -> impl IntoView {
    let offer = RwSignal::new(Offer::None);
    // The part whose connection notice shows, and every part already told.
    let needs = RwSignal::new(None::<CoursePart>);
    let told = StoredValue::new(SmallSet::<&'static str>::new());
    service_worker::start(move |news| match news {
        WorkerNews::UpdateReady => {
            if offer.get_untracked() == Offer::None {
                offer.set(Offer::Shown);
            }
        }
        WorkerNews::NeedsConnection => {
            let part = nav.current_untracked();
            let first = told
                .try_update_value(|t| t.insert(part.id()))
                .unwrap_or(false);
            if first {
                needs.set(Some(part));
            }
        }
    });
    let update = move || {
        (offer.get() == Offer::Shown).then(|| {
            view! {
                <div class="notice notice-info">
                    <p>
                        "A new version of ttft-lab is ready. Reload to use it; your saved work stays in \
                         this browser."
                    </p>
                    <button type="button" class="primary" on:click=move |_| service_worker::reload_to_update()>
                        "Reload now"
                    </button>
                    <button type="button" class="notice-dismiss" on:click=move |_| {
                        offer.set(Offer::Declined);
                        focus_main();
                    }>
                        "Not now"
                    </button>
                </div>
            }
        })
    };
    let connection = move || {
        needs.get().map(|part| {
            view! {
                <div class="notice">
                    <p>
                        {format!(
                            "{} needs a connection the first time: it loads files that have not been \
                             opened online on this device, so no copy of them is kept here yet. \
                             Everything you opened before works offline, and your saved work is kept.",
                            part.label(),
                        )}
                    </p>
                    <button type="button" class="notice-dismiss" on:click=move |_| {
                        needs.set(None);
                        focus_main();
                    }>
                        "Dismiss"
                    </button>
                </div>
            }
        })
    };
    view! {
        <div class="storage-status" role="status" aria-live="polite" aria-label="App version and connection" data-not-embedded="">
            {update}
            {connection}
        </div>
    }
}
