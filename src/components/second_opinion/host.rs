//! The second-opinion step's place in the interview's page: its heading,
//! what it is, and "Open the second opinion", which fetches the step's own
//! wasm (`src/bin/second-opinion-part.rs`, through `part-loader.js`) and
//! mounts it into `#second-opinion-root`. No learner who does not open it
//! pays for the AI client, and the interview's page holds none of it.
//!
//! The page stays the one keeper of the learner's work: it gives the part
//! the work when it mounts it and again whenever it changes (the part's
//! `work`), sets a dimension of the self-score when the part asks
//! ("ttft-second-opinion-score", "Adopt AI score"), and keeps the latest
//! grade the part tells it of ("ttft-second-opinion-grade") for the
//! self-score's Save. While the part loads, a status line says so; if it
//! cannot load, an alert says what the browser said, with Retry. Once
//! open, focus moves to its first field. Leaving the interview unmounts it;
//! opening it again later in the visit fetches nothing.

use crate::components::on_demand::{OnDemandPart, PartLoad, PartStatus};
use crate::components::second_opinion::{OpinionToSave, PartConfig};
use crate::learner_state::interview_work::InterviewWork;
use crate::storage::Stored;
use leptos::prelude::*;
use wasm_bindgen::JsValue;

/// The part's own wasm: `second-opinion-part.js`, `second-opinion-part_bg.wasm`.
pub const PART: OnDemandPart = OnDemandPart { name: "second-opinion" };

/// The event the part fires to set a dimension of the self-score (its
/// detail a `ScoreToSet` as JSON).
pub const SCORE_EVENT: &str = "ttft-second-opinion-score";

/// The event the part fires with each grade (its detail an
/// `Option<PendingOpinion>` as JSON).
pub const GRADE_EVENT: &str = "ttft-second-opinion-grade";

/// The "Second opinion (optional)" step.
#[component]
pub fn SecondOpinionHost(
    /// The learner's work: the answer to send and the self-score to compare.
    work: Stored<InterviewWork>,
    /// Where the grade is kept for the self-score's Save.
    opinion: OpinionToSave,
) -> impl IntoView {
    let state = RwSignal::new(PartLoad::Closed);
    let signal = work.signal();
    let config = move || -> JsValue {
        let config = PartConfig {
            work: signal.get_untracked(),
        };
        serde_json::to_string(&config).map_or(JsValue::UNDEFINED, |c| JsValue::from_str(&c))
    };
    PART.follow(state, config);
    #[cfg(target_arch = "wasm32")]
    {
        use crate::components::on_demand::detail;
        use wasm_bindgen::JsCast;
        let to_set = {
            let work = work.clone();
            window_event_listener_untyped(SCORE_EVENT, move |e| {
                let Some(set) = detail(&e).and_then(|d| serde_json::from_str::<super::ScoreToSet>(&d).ok()) else {
                    return;
                };
                let _ = work.update(|w| {
                    if w.score.set(&set.dimension, set.score).is_ok() {
                        w.touch(crate::storage::now_ms());
                    }
                });
            })
        };
        let graded = window_event_listener_untyped(GRADE_EVENT, move |e| {
            if let Some(pending) = detail(&e).and_then(|d| serde_json::from_str(&d).ok()) {
                opinion.0.set(pending);
            }
        });
        on_cleanup(move || {
            to_set.remove();
            graded.remove();
        });
        // The work, to the part, whenever it changes while the part is in.
        Effect::new(move |_| {
            if state.get() != PartLoad::Mounted {
                return;
            }
            if let Ok(json) = signal.with(serde_json::to_string) {
                let _ = PART.call("work", Some(&JsValue::from_str(&json)));
            }
        });
        // Once the learner opened it, to its first field.
        Effect::new(move |was: Option<PartLoad>| {
            let now = state.get();
            if now == PartLoad::Mounted && was.is_some_and(|w| w != PartLoad::Mounted) {
                if let Ok(Some(first)) =
                    document().query_selector("#second-opinion-root :is(select, input, textarea, button)")
                {
                    if let Some(first) = first.dyn_ref::<web_sys::HtmlElement>() {
                        let _ = first.focus();
                    }
                }
            }
            now
        });
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = opinion;
    let open = move |_| PART.open(state, &config());
    view! {
        <div class="second-opinion" role="group" aria-labelledby="so-heading">
            <h3 id="so-heading">"Second opinion (optional)"</h3>
            <p>
                "An AI model can grade your answer against the same rubric, with your own provider key. "
                "It is a second opinion only: the score you save is still yours, and you choose dimension by "
                "dimension whether to take the AI's."
            </p>
            <PartStatus
                part=PART
                state=state
                loading="Loading the second opinion\u{2026}"
                help="It is fetched only when you open it."
                failed="The second opinion could not load."
                closed=ViewFn::from(move || view! {
                    <p>
                        <button type="button" aria-describedby="so-open-help" on:click=open>"Open the second opinion"</button>
                    </p>
                    <p id="so-open-help" class="field-help">
                        "Its settings and AI client load when you open it, so the rest of the page does not wait for them."
                    </p>
                })
            />
            <div id="second-opinion-root"></div>
        </div>
    }
}
