//! Everything the app keeps for the learner, in one place: each value's
//! type and how two tabs' copies merge (one module each), and here, in
//! [`Kept`], its storage key, the version of its stored form and the words
//! that name it for the learner. Finding where "Checked 2 times" is kept is
//! a look at this list.
//!
//! | value | key under `ttft-lab/v1/` | version |
//! |---|---|---|
//! | lesson checklist ticks ([`checklist::Checklist`]) | `checklist` | 1 |
//! | trace exercise answers, checks, reveal ([`trace_work::TraceWork`]) | `trace/<exercise id>` | 2 (1: answers by position) |
//! | configuration choice inputs, checks, reveals ([`choice_work::ChoiceWork`]) | `choice/<exercise id>` | 2 (1: work by position) |
//! | interview answer, hints shown, self-score ([`interview_work::InterviewWork`]) | `interview/<question id>` | 1 |
//! | saved self-scores (`ttft_core::history::SavedScores`) | `scores/<question id>` | 1 |
//! | AI grader endpoint, no key ([`endpoint::SavedEndpoint`]) | `second-opinion/endpoint` | 1 |
//! | AI provider key, in `sessionStorage` (or `localStorage` when remembered) | `second-opinion/key` | plain text |
//!
//! Copies of stored text that could not be read are kept under
//! `<key>/set-aside/<ms>` (see `crate::storage`).
//!
//! Components get a value through the function here that declares it
//! (`storage::open_for_app(learner_state::trace_work(&exercise))`) and
//! change it through its methods; `crate::storage` keeps it. What this
//! module deliberately does not do: touch storage itself, or hold any
//! latency arithmetic.

pub mod checklist;
pub mod choice_work;
pub mod endpoint;
pub mod interview_work;
pub mod merge;
pub mod scores;
pub mod trace_work;

use crate::storage::Spec;
use checklist::Checklist;
use choice_work::ChoiceWork;
use endpoint::SavedEndpoint;
use interview_work::InterviewWork;
use std::sync::Arc;
use trace_work::TraceWork;
use ttft_core::content::{ConfigExercise, TraceExercise};
use ttft_core::history::SavedScores;

/// Every kind of value the app keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kept {
    /// The lesson's completion checklist; unticks older than the merge
    /// horizon are pruned.
    Checklist,
    /// The learner's work on a trace exercise.
    TraceWork,
    /// The learner's work on a configuration choice.
    ChoiceWork,
    /// The learner's work on an interview question.
    InterviewWork,
    /// The self-scores saved for an interview question.
    SavedScores,
    /// The AI second opinion's endpoint.
    Endpoint,
    /// The AI provider key (kept by `crate::key_storage`, not `storage`).
    ApiKey,
}

impl Kept {
    /// All of them.
    pub const ALL: [Kept; 7] = [
        Kept::Checklist,
        Kept::TraceWork,
        Kept::ChoiceWork,
        Kept::InterviewWork,
        Kept::SavedScores,
        Kept::Endpoint,
        Kept::ApiKey,
    ];

    /// The name under the prefix, for values kept once, or the start of
    /// it, followed by the content id, for values kept per exercise.
    pub fn name(self) -> &'static str {
        match self {
            Kept::Checklist => "checklist",
            Kept::TraceWork => "trace/",
            Kept::ChoiceWork => "choice/",
            Kept::InterviewWork => "interview/",
            Kept::SavedScores => "scores/",
            Kept::Endpoint => "second-opinion/endpoint",
            Kept::ApiKey => "second-opinion/key",
        }
    }

    /// The version of its stored form.
    pub fn version(self) -> u32 {
        match self {
            Kept::TraceWork | Kept::ChoiceWork => 2,
            Kept::Checklist
            | Kept::InterviewWork
            | Kept::SavedScores
            | Kept::Endpoint
            | Kept::ApiKey => 1,
        }
    }

    /// What the learner calls it, after "your".
    pub fn label(self) -> &'static str {
        match self {
            Kept::Checklist => "checklist",
            Kept::TraceWork => "trace exercise answers",
            Kept::ChoiceWork => "configuration choice answers",
            Kept::InterviewWork => "interview answer",
            Kept::SavedScores => "saved scores",
            Kept::Endpoint => "AI grader settings",
            Kept::ApiKey => "AI provider key",
        }
    }

    /// The kind a stored name belongs to (`trace/hint-trace` is trace
    /// work); `None` for a name the app does not write.
    pub fn of_name(name: &str) -> Option<Kept> {
        Kept::ALL.into_iter().find(|k| {
            let n = k.name();
            if n.ends_with('/') {
                name.strip_prefix(n).is_some_and(|id| !id.is_empty())
            } else {
                name == n
            }
        })
    }

    fn spec<T>(self, id: &str, merge: crate::storage::Merge<T>) -> Spec<T> {
        Spec::new(
            format!("{}{id}", self.name()),
            self.label(),
            self.version(),
            merge,
        )
    }
}

/// What the learner calls a stored name (`trace/hint-trace` is "trace
/// exercise answers"); the name itself for one the app does not write.
pub fn describe(name: &str) -> String {
    Kept::of_name(name).map_or_else(|| name.to_owned(), |k| k.label().to_owned())
}

/// The full key of the AI provider key, in either web storage.
pub const API_KEY: &str = "ttft-lab/v1/second-opinion/key";

/// The lesson's completion checklist; unticks older than the merge
/// horizon are pruned.
pub fn checklist() -> Spec<Checklist> {
    Kept::Checklist
        .spec("", Checklist::merge)
        .pruned(Checklist::prune)
}

/// The learner's work on `exercise`. Format 1 (answers by position) is
/// read as the answers to the exercise's requests in their present order.
pub fn trace_work(exercise: &TraceExercise) -> Spec<TraceWork> {
    let ids: Vec<String> = exercise.requests.iter().map(|r| r.id.clone()).collect();
    Kept::TraceWork
        .spec(&exercise.id, TraceWork::merge)
        .upgraded(Arc::new(move |version, value| {
            TraceWork::upgrade(version, value, &ids)
        }))
}

/// The learner's work on the configuration choice `exercise`. Format 1
/// (work by position) is read as the work on the exercise's workloads in
/// their present order.
pub fn choice_work(exercise: &ConfigExercise) -> Spec<ChoiceWork> {
    let ids: Vec<String> = exercise.workloads.iter().map(|w| w.id.clone()).collect();
    Kept::ChoiceWork
        .spec(&exercise.id, ChoiceWork::merge)
        .upgraded(Arc::new(move |version, value| {
            ChoiceWork::upgrade(version, value, &ids)
        }))
}

/// The learner's work on the interview question `question_id`.
pub fn interview_work(question_id: &str) -> Spec<InterviewWork> {
    Kept::InterviewWork.spec(question_id, InterviewWork::merge)
}

/// The self-scores saved for the interview question `question_id`; the
/// stamps of entries deleted before the merge horizon are pruned.
pub fn saved_scores(question_id: &str) -> Spec<SavedScores> {
    Kept::SavedScores
        .spec(question_id, SavedScores::merge)
        .pruned(scores::prune)
}

/// The AI second opinion's endpoint.
pub fn endpoint() -> Spec<SavedEndpoint> {
    Kept::Endpoint.spec("", SavedEndpoint::merge)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::PREFIX;

    #[test]
    fn every_name_is_its_own() {
        for kind in Kept::ALL {
            let name = if kind.name().ends_with('/') {
                format!("{}some-id", kind.name())
            } else {
                kind.name().to_owned()
            };
            assert_eq!(Kept::of_name(&name), Some(kind), "{name}");
            assert!(!kind.label().is_empty());
        }
        assert_eq!(API_KEY, format!("{PREFIX}{}", Kept::ApiKey.name()));
        assert_eq!(
            Kept::of_name("trace/"),
            None,
            "a per-exercise name needs its id"
        );
        assert_eq!(Kept::of_name("probe"), None);
        assert_eq!(describe("scores/ttft-interview"), "saved scores");
        assert_eq!(describe("something/else"), "something/else");
        assert_eq!(checklist().key(), "ttft-lab/v1/checklist");
        assert_eq!(endpoint().key(), "ttft-lab/v1/second-opinion/endpoint");
        assert_eq!(saved_scores("q").key(), "ttft-lab/v1/scores/q");
    }
}
