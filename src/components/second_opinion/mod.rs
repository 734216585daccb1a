//! The AI second opinion on the interview answer: the learner's own
//! OpenAI-compatible endpoint and key (`settings`), the request shown before
//! it is sent and the streamed call with progress, Cancel and plain errors
//! (`grading`), the grade beside the self-score with "Adopt AI score"
//! (`comparison`), and the call's own client-side timings (`timings`).
//!
//! It is a wasm of its own (`src/bin/second-opinion-part.rs`), fetched only
//! when the learner opens the step: the interview's page holds just the
//! step's heading, its button and the exchange with the part (`host`). The
//! part is given the learner's work as it stands (the rubric and the
//! question it embeds itself), and is sent the work again whenever it
//! changes; it asks the
//! page to set a dimension of the self-score ("Adopt AI score") and tells
//! it of every grade ([`PendingOpinion`]), which the self-score's Save
//! keeps beside the score ([`OpinionToSave::for_saving`]) when the grade is
//! of the answer as it now stands.
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
pub mod host;
pub mod settings;
pub mod timings;

use crate::connection::Online;
use crate::learner_state::interview_work::InterviewWork;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};
use ttft_latency::small_map::{SmallMap, SmallSet};
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

/// The latest grade of this visit to the step, in the part: the call sets
/// it, the comparison shows it, and the page is told of it
/// ([`Opinion::pending`]).
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

    /// What the page keeps of the grade for its Save: `None` before one.
    pub fn pending(&self) -> Option<PendingOpinion> {
        self.0.with(|g| {
            g.as_ref().map(|g| PendingOpinion {
                answer: g.answer.clone(),
                model: g.model.clone(),
                scores: g.grade.as_rubric_score().scores,
                adopted: g.adopted.clone(),
            })
        })
    }
}

/// A grade as the part tells the page of it, for the self-score's Save.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PendingOpinion {
    /// The answer exactly as it was sent.
    pub answer: String,
    /// The model that graded, as the learner named it.
    pub model: String,
    /// The AI's score by dimension id.
    pub scores: SmallMap<String, u8>,
    /// Dimensions where the learner pressed "Adopt AI score".
    pub adopted: SmallSet<String>,
}

impl PendingOpinion {
    /// What to save beside `score` for `answer`: the grade, when it is of
    /// this very answer; `None` otherwise.
    pub fn for_saving(&self, answer: &str, score: &RubricScore) -> Option<SecondOpinion> {
        (self.answer == answer)
            .then(|| SecondOpinion::new(&self.model, self.scores.clone(), &self.adopted, score))
    }
}

/// The latest grade the part told the page of, kept by the interview for
/// the self-score's Save.
#[derive(Clone, Copy)]
pub struct OpinionToSave(pub RwSignal<Option<PendingOpinion>>);

impl Default for OpinionToSave {
    fn default() -> OpinionToSave {
        OpinionToSave::new()
    }
}

impl OpinionToSave {
    /// No grade yet.
    pub fn new() -> OpinionToSave {
        OpinionToSave(RwSignal::new(None))
    }

    /// What to save beside `score` for `answer` (see
    /// [`PendingOpinion::for_saving`]).
    pub fn for_saving(&self, answer: &str, score: &RubricScore) -> Option<SecondOpinion> {
        self.0.with_untracked(|p| p.as_ref()?.for_saving(answer, score))
    }
}

/// What the page gives the part when it mounts it. The rubric and the
/// question the part takes from the course it embeds itself, so that the
/// page need not write them out.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PartConfig {
    /// The learner's work as it stands.
    pub work: InterviewWork,
}

/// A dimension of the self-score to set, as the part asks the page.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoreToSet {
    /// The dimension's id.
    pub dimension: String,
    /// Its new score.
    pub score: u8,
}

/// The step's working part, in the part's own wasm: the connection line,
/// settings, preview and send, the result beside the self-score, and the
/// call's timings. The page renders the heading and introduction around it
/// (`host`).
#[component]
pub fn SecondOpinionPanel(
    /// The rubric the grader is asked to apply.
    rubric: Rubric,
    /// The question, scenario and deliverables as the grader reads them.
    question: String,
    /// The learner's work as the interview holds it: the answer to send and
    /// the self-score to compare.
    work: Signal<InterviewWork>,
    /// Sets one dimension of the self-score where the interview keeps it.
    set_score: Callback<(String, u8)>,
    /// This visit's grade.
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
        <div class="so-connection" role="status" aria-live="polite" aria-label="Connection">{offline_note}</div>
        <settings::EndpointSettingsPanel endpoint=endpoint.clone() key=key />
        <grading::GradingCall
            rubric=Arc::clone(&rubric)
            question=question
            work=work
            endpoint=endpoint
            key=key
            opinion=opinion
        />
        <comparison::Comparison rubric=rubric work=work set_score=set_score opinion=opinion />
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pending(answer: &str) -> PendingOpinion {
        let mut scores = SmallMap::new();
        scores.insert("latency-metrics".to_owned(), 2);
        scores.insert("dominant-delay".to_owned(), 1);
        let mut adopted = SmallSet::new();
        adopted.insert("latency-metrics".to_owned());
        adopted.insert("dominant-delay".to_owned());
        PendingOpinion {
            answer: answer.to_owned(),
            model: " mock-grader-1 ".to_owned(),
            scores,
            adopted,
        }
    }

    #[test]
    fn a_grade_is_saved_only_with_the_answer_it_graded() {
        let mut own = RubricScore::default();
        own.set("latency-metrics", 2).unwrap();
        own.set("dominant-delay", 0).unwrap();
        let saved = pending("my answer").for_saving("my answer", &own).unwrap();
        assert_eq!(saved.model, "mock-grader-1");
        assert_eq!(saved.scores.get("dominant-delay"), Some(&1));
        // Adopted, then changed again: the learner's own, not adopted.
        assert!(saved.adopted.contains("latency-metrics"));
        assert!(!saved.adopted.contains("dominant-delay"));
        assert_eq!(pending("my answer").for_saving("my answer, edited", &own), None);
    }

    #[test]
    fn what_the_page_and_the_part_exchange_reads_back_as_sent() {
        // Two builds, one wire: each message is read as it was written.
        let config = PartConfig {
            work: InterviewWork {
                answer: "queue wait dominates".to_owned(),
                hints_shown: 2,
                ..Default::default()
            },
        };
        let back: PartConfig = serde_json::from_str(&serde_json::to_string(&config).unwrap()).unwrap();
        assert_eq!(back, config);
        let grade = Some(pending("an answer"));
        let back: Option<PendingOpinion> = serde_json::from_str(&serde_json::to_string(&grade).unwrap()).unwrap();
        assert_eq!(back, grade);
        let none: Option<PendingOpinion> = serde_json::from_str("null").unwrap();
        assert_eq!(none, None);
        let set = ScoreToSet {
            dimension: "dominant-delay".to_owned(),
            score: 2,
        };
        let back: ScoreToSet = serde_json::from_str(&serde_json::to_string(&set).unwrap()).unwrap();
        assert_eq!(back, set);
    }
}
