//! The AI second opinion on the interview answer: the learner's own
//! OpenAI-compatible endpoint and key (`settings`), the request shown before
//! it is sent and the streamed call with progress, Cancel and plain errors
//! (`grading`), the grade beside the self-score with "Adopt AI score"
//! (`comparison`), and the call's own client-side timings (`timings`).
//!
//! The grade is kept in an [`Opinion`] for this page visit only; when the
//! learner saves their score, `self_score` asks [`Opinion::for_saving`] for
//! what goes into the history (model, AI scores, adopted dimensions), and
//! only when the grade is of the answer as it now stands.
//!
//! It is the one part of the course that needs the network. When the
//! browser says it is offline (`crate::connection`), the step says so in
//! its own live region and Send waits, before the learner tries, instead of
//! failing late.
//!
//! What it deliberately does not do: build the request, read the stream,
//! check the reply or compute any timing (all `ttft_core::second_opinion`), call
//! `fetch` (`crate::http`), or keep the key (`crate::key_storage`).

pub mod comparison;
pub mod grading;
pub mod settings;
pub mod timings;

use crate::connection::Online;
use crate::learner_state::interview_work::InterviewWork;
use crate::storage::Stored;
use leptos::prelude::*;
use ttft_latency::small_map::SmallSet;
use std::sync::Arc;
use ttft_core::content::Rubric;
use ttft_core::history::SecondOpinion;
use ttft_core::rubric::RubricScore;
use ttft_core::second_opinion::reply::AiGrade;
use ttft_core::second_opinion::stream::ClientTiming;

/// A grade that arrived and passed the core's check.
#[derive(Clone, Debug, PartialEq)]
pub struct Graded {
    /// The model that graded, as the learner named it.
    pub model: String,
    /// The checked grade.
    pub grade: AiGrade,
    /// The call's client-side timings.
    pub timing: ClientTiming,
    /// The answer exactly as it was sent.
    pub answer: String,
    /// Dimensions where the learner pressed "Adopt AI score".
    pub adopted: SmallSet<String>,
}

/// The latest grade of this page visit, shared by the step and the
/// self-score's Save.
#[derive(Clone, Copy)]
pub struct Opinion(pub RwSignal<Option<Graded>>);

impl Default for Opinion {
    fn default() -> Opinion {
        Opinion::new()
    }
}

impl Opinion {
    /// No grade yet.
    pub fn new() -> Opinion {
        Opinion(RwSignal::new(None))
    }

    /// What to save beside `score` for `answer`: the grade, when it is of
    /// this very answer; `None` otherwise.
    pub fn for_saving(&self, answer: &str, score: &RubricScore) -> Option<SecondOpinion> {
        self.0.with_untracked(|g| {
            let g = g.as_ref().filter(|g| g.answer == answer)?;
            Some(SecondOpinion::new(
                &g.model,
                g.grade.as_rubric_score().scores,
                &g.adopted,
                score,
            ))
        })
    }
}

/// The "Second opinion (optional)" step: settings, preview and send, the
/// result beside the self-score, and the call's timings.
#[component]
pub fn SecondOpinionStep(
    /// The rubric the grader is asked to apply.
    rubric: Rubric,
    /// The question, scenario and deliverables as the grader reads them.
    question: String,
    /// The learner's work: the answer to send and the self-score to compare.
    work: Stored<InterviewWork>,
    /// Where the grade is kept for the self-score's Save.
    opinion: Opinion,
) -> impl IntoView {
    let rubric = Arc::new(rubric);
    let (endpoint, key) = settings::open_endpoint();
    let online = Online::from_context();
    let offline_note = move || {
        (!online.get()).then(|| view! {
            <p class="notice">
                "You are offline. The second opinion sends your answer to your AI provider, so it needs a \
                 connection; everything else in the course works without one, and Send works again once \
                 you are back online."
            </p>
        })
    };
    view! {
        <div class="second-opinion" role="group" aria-labelledby="so-heading">
            <h3 id="so-heading">"Second opinion (optional)"</h3>
            <p>
                "An AI model can grade your answer against the same rubric, with your own provider key. "
                "It is a second opinion only: the score you save is still yours, and you choose dimension by "
                "dimension whether to take the AI's."
            </p>
            <div class="so-connection" role="status" aria-live="polite" aria-label="Connection">{offline_note}</div>
            <settings::EndpointSettingsPanel endpoint=endpoint.clone() key=key />
            <grading::GradingCall
                rubric=Arc::clone(&rubric)
                question=question
                work=work.clone()
                endpoint=endpoint
                key=key
                opinion=opinion
            />
            <comparison::Comparison rubric=rubric work=work opinion=opinion />
        </div>
    }
}
