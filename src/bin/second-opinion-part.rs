//! The interview's AI second opinion (`components::second_opinion`), as a
//! wasm of its own: the provider settings, the request and the streamed
//! call, the grade beside the self-score and the call's timings. Trunk
//! builds it beside the page as it does the simulate part's
//! (`src/bin/simulate-part.rs`); `part-loader.js` imports it the first
//! time the learner opens the step, so a learner who never asks an AI
//! never fetches it.
//!
//! It mounts into `#second-opinion-root`, which the interview's page
//! renders (`second_opinion::host`), with what the page gives it (a
//! `PartConfig` as JSON) and the rubric and question from the course it
//! embeds, and keeps nothing of the learner's work itself:
//! the page sends the work again whenever it changes (`work`), and the
//! part fires "ttft-second-opinion-score" to set a dimension ("Adopt AI
//! score") and "ttft-second-opinion-grade" with each grade. Its own store
//! keeps only the provider settings.

use std::cell::Cell;
use ttft_lab::components::on_demand::{fire, mount_part, part_panic_hook, unmount_part};
use ttft_lab::components::second_opinion::host::{GRADE_EVENT, PART, SCORE_EVENT};
use ttft_lab::components::second_opinion::{Opinion, PartConfig, ScoreToSet, SecondOpinionPanel};
use ttft_lab::connection::Online;
use ttft_lab::learner_state::interview_work::InterviewWork;
use ttft_lab::storage::Store;
use leptos::prelude::*;
use ttft_core::content::InterviewPart;
use wasm_bindgen::prelude::*;

thread_local! {
    /// The work as the page last sent it, for the mounted part.
    static WORK: Cell<Option<RwSignal<InterviewWork>>> = const { Cell::new(None) };
}

const ROOT: &str = "second-opinion-root";

/// Tells the page, with `detail` as JSON.
fn tell(event: &str, detail: &impl serde::Serialize) {
    if let Ok(json) = serde_json::to_string(detail) {
        fire(event, Some(&json));
    }
}

/// Says why the part cannot mount (the page shows it with Retry); false.
fn cannot_mount(reason: &str) -> bool {
    PART.failed(reason);
    false
}

/// Starts mounting the part into `#second-opinion-root` with `config` (a
/// `PartConfig` as JSON); false when there is no such element, or when
/// the configuration or the course cannot be read (which it says, with
/// "ttft-second-opinion-failed").
#[wasm_bindgen]
pub fn mount(config: String) -> bool {
    let Ok(PartConfig { work }) = serde_json::from_str::<PartConfig>(&config) else {
        return cannot_mount("it could not read what the page gave it; reload the page");
    };
    let Ok(InterviewPart { interview, rubric }) = ttft_lab::course::load_interview() else {
        return cannot_mount("its copy of the interview question could not be read");
    };
    let question = ttft_core::second_opinion::request::question_text(&interview);
    let work = RwSignal::new(work);
    WORK.with(|w| w.set(Some(work)));
    mount_part("second-opinion", ROOT, move || {
        provide_context(Online::watch());
        provide_context(Store::open_for_part());
        let opinion = Opinion::new();
        Effect::new(move |_| tell(GRADE_EVENT, &opinion.pending()));
        let set_score = Callback::new(|(dimension, score): (String, u8)| {
            tell(SCORE_EVENT, &ScoreToSet { dimension, score });
        });
        view! {
            <SecondOpinionPanel rubric=rubric question=question work=work.into() set_score=set_score opinion=opinion />
        }
    })
}

/// The learner's work as it now stands (an `InterviewWork` as JSON).
#[wasm_bindgen]
pub fn work(json: String) {
    let Ok(now) = serde_json::from_str::<InterviewWork>(&json) else { return };
    if let Some(work) = WORK.with(Cell::get) {
        if work.try_with_untracked(|w| *w != now) == Some(true) {
            work.set(now);
        }
    }
}

/// Unmounts the part, if it is mounted.
#[wasm_bindgen]
pub fn unmount() {
    unmount_part();
}

fn main() {
    part_panic_hook(
        ROOT,
        "The second opinion stopped because of a bug. Reload the page to start it again; \
         your answer and scores are kept.",
    );
}
