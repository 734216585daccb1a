//! The self-score: the rubric's dimensions, each a 0/1/2 radio group with
//! what earns each score beside it, the running total and the readiness
//! verdict, and "Save score" once every dimension is scored.
//!
//! The total, the progress line and the verdict in words all come from
//! `ttft_core::rubric` (`RubricScore::assess`); the saved entry is made by
//! `ttft_core::history::Entry::new` with the hints used and the answer's
//! length, and, when the learner asked the AI grader about this very answer,
//! the second opinion (`second_opinion::OpinionToSave::for_saving`), shown between
//! the verdict and Save. What it deliberately does not do: apply the
//! readiness rule itself, or show the saved scores (that is `history`).

use crate::components::practice::dom_id;
use crate::components::practice::history::HistoryStatus;
use crate::components::prose::Prose;
use crate::components::second_opinion::OpinionToSave;
use crate::learner_state::interview_work::InterviewWork;
use crate::storage::{now_ms, Stored};
use leptos::prelude::*;
use ttft_core::content::{Dimension, Rubric};
use ttft_core::history::{Entry, SavedScores};
use ttft_core::rubric::MAX_SCORE;

/// The self-score form.
#[component]
pub fn SelfScore(
    /// The rubric to score against.
    rubric: Rubric,
    /// The learner's work, which holds the score in progress.
    work: Stored<InterviewWork>,
    /// The saved scores, where "Save score" adds an entry.
    saved: Stored<SavedScores>,
    /// The history's status line, which announces the save.
    status: HistoryStatus,
    /// The answer's length in characters as it stands.
    answer_chars: Signal<usize>,
    /// The AI second opinion of this visit, saved with the score.
    #[prop(optional)]
    opinion: Option<OpinionToSave>,
    /// What goes between the verdict and Save (the second-opinion step).
    #[prop(optional)]
    before_save: Option<ViewFn>,
) -> impl IntoView {
    let signal = work.signal();
    let results = crate::components::embed::results::use_results();
    let rubric = std::sync::Arc::new(rubric);
    let readiness = {
        let rubric = std::sync::Arc::clone(&rubric);
        Memo::new(move |_| signal.with(|w| w.score.assess(&rubric)))
    };
    let groups = rubric
        .dimensions
        .iter()
        .map(|d| dimension(d, work.clone()))
        .collect_view();
    let complete = move || readiness.with(|r| r.scored == r.dimensions);
    let on_save = {
        let rubric = std::sync::Arc::clone(&rubric);
        move |_| {
            let (score, hints, answer) =
                signal.with_untracked(|w| (w.score.clone(), w.hints_shown, w.answer.clone()));
            if readiness.with_untracked(|r| r.scored != r.dimensions) {
                return;
            }
            if let Some(e) = score.out_of_range() {
                status.say(format!(
                    "This score was not saved: {e}. Choose 0, 1 or 2 again for that dimension."
                ));
                return;
            }
            let chars = u32::try_from(answer_chars.get_untracked()).unwrap_or(u32::MAX);
            let mut entry = Entry::new(now_ms(), &score, &rubric, hints, chars);
            let with_ai = opinion.and_then(|o| o.for_saving(&answer, &score));
            let also = if with_ai.is_some() {
                " with the AI's second opinion"
            } else {
                ""
            };
            if let Some(ai) = with_ai {
                entry = entry.with_second_opinion(ai);
            }
            let verdict = readiness.with_untracked(|r| r.to_string());
            let result = saved.update(|s| s.add(entry, now_ms()));
            if result.is_ok() {
                results.score_saved(&score, &rubric);
            }
            status.say(match result {
                Ok(()) => format!("Saved{also}: {verdict}. It is at the top of your saved scores."),
                Err(_) => format!("Scored {verdict}, but it could not be kept in this browser."),
            });
        }
    };
    let on_clear = move |_| {
        let _ = work.update(|w| {
            w.score = Default::default();
            w.touch(now_ms());
        });
    };
    let verdict_class = move || {
        readiness.with(|r| {
            if r.ready() {
                "readiness readiness-ready"
            } else if r.scored == r.dimensions {
                "readiness readiness-not-ready"
            } else {
                "readiness"
            }
        })
    };
    view! {
        <div class="self-score">
            <p>
                "Score your own answer on each dimension against what earns each score. "
                {readiness.with_untracked(|r| format!("{}. ", r.rule()))}
                <Prose text=rubric.threshold_note.clone() />
            </p>
            <form class="score-form" on:submit=|ev| ev.prevent_default()>
                {groups}
                <div class=verdict_class role="status" aria-live="polite" aria-label="Your total and readiness">
                    <p class="score-total">{move || readiness.with(|r| r.progress())}</p>
                    <p class="score-verdict">{move || readiness.with(|r| format!("{r}."))}</p>
                </div>
                {before_save.map(|v| v.run())}
                <div class="practice-actions">
                    <button
                        type="button"
                        class="primary"
                        disabled=move || !complete()
                        aria-describedby="score-save-note"
                        on:click=on_save
                    >
                        "Save score"
                    </button>
                    <button type="button" on:click=on_clear>"Clear scores"</button>
                </div>
                <p id="score-save-note" class="note-small">
                    {move || {
                        if complete() {
                            "Saving keeps this score with the time, the hints you used and your answer's length."
                        } else {
                            "Score all five dimensions to save."
                        }
                    }}
                </p>
            </form>
        </div>
    }
}

fn dimension(d: &Dimension, work: Stored<InterviewWork>) -> impl IntoView {
    let signal = work.signal();
    let group = dom_id(&["score", &d.id]);
    let radios = (0..=MAX_SCORE)
        .map(|score| {
            let id = format!("{group}-{score}");
            let did = d.id.clone();
            let checked = {
                let did = did.clone();
                move || signal.with(|w| w.score.get(&did) == Some(score))
            };
            let what = d
                .levels
                .get(usize::from(score))
                .cloned()
                .unwrap_or_default();
            let work = work.clone();
            view! {
                <div class="score-option">
                    <input
                        type="radio"
                        id=id.clone()
                        name=group.clone()
                        prop:checked=checked
                        on:change=move |_| {
                            let _ = work.update(|w| {
                                let _ = w.score.set(&did, score);
                                w.touch(now_ms());
                            });
                        }
                    />
                    <label for=id>
                        <span class="score-number">{score.to_string()}</span>
                        <span class="score-what"><Prose text=what /></span>
                    </label>
                </div>
            }
        })
        .collect_view();
    view! {
        <fieldset class="dimension">
            <legend><Prose text=d.title.clone() /></legend>
            {radios}
        </fieldset>
    }
}
