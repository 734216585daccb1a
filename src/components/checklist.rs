//! The lesson's completion checklist: tickable, remembered, merged between
//! tabs.
//!
//! The ticks live in a [`Stored<Checklist>`] the app opens once and shares
//! through [`Progress`]; this component only shows them and records changes.
//! What it deliberately does not do: decide what "done" means for the course
//! (the items are content) or merge anything itself (see `learner_state::checklist`).

use crate::components::prose::Prose;
use crate::learner_state::checklist::Checklist;
use crate::storage::{now_ms, Stored};
use leptos::prelude::*;
use ttft_core::content::ChecklistItem;

/// The learner's checklist ticks, shared through context.
#[derive(Clone)]
pub struct Progress(pub Stored<Checklist>);

/// The completion checklist with a running count.
#[component]
pub fn CompletionChecklist(
    /// The items, in the lesson's order.
    items: Vec<ChecklistItem>,
) -> impl IntoView {
    let Some(Progress(stored)) = use_context::<Progress>() else {
        return view! { <p>"The checklist cannot be shown: its saved state is not available."</p> }
            .into_any();
    };
    let ids: Vec<String> = items.iter().map(|i| i.id.clone()).collect();
    let total = ids.len();
    let ticks = stored.signal();
    let done = move || ticks.with(|c| c.count_done(ids.iter().map(String::as_str)));
    let rows = items
        .into_iter()
        .map(|item| {
            let id = item.id.clone();
            let input_id = format!("check-{}", item.id);
            let stored = stored.clone();
            let checked = {
                let id = id.clone();
                move || ticks.with(|c| c.is_done(&id))
            };
            view! {
                <li>
                    <input
                        type="checkbox"
                        id=input_id.clone()
                        prop:checked=checked
                        on:change=move |ev| {
                            let done = event_target_checked(&ev);
                            let _ = stored.update(|c| c.mark(&id, done, now_ms()));
                        }
                    />
                    <label for=input_id>
                        <Prose text=item.text />
                    </label>
                </li>
            }
        })
        .collect_view();
    view! {
        <div class="checklist">
            <ul class="checklist-items" aria-label="Completion checklist">{rows}</ul>
            <p class="checklist-count" role="status" aria-live="polite" aria-label="Checklist progress">{move || format!("{} of {} done", done(), total)}</p>
        </div>
    }
    .into_any()
}
