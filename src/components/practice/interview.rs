//! The interview question, laid out like a study sheet in seven steps: the
//! question with its scenario and trace; hints revealed one at a time; the
//! learner's written answer; the reference answer behind a reveal; the
//! self-score; the saved scores; follow-up questions with model answers.
//!
//! The answer, the number of hints shown and the score in progress are one
//! [`InterviewWork`] value, stored under its own key. The answer box saves
//! about 300 ms after typing stops, and at once when the box loses focus or
//! the page is hidden or closed, so a reload never loses it. Its count is of
//! Unicode scalar values (what a learner calls characters), and at the
//! content's limit further input is refused and the count says so.
//!
//! What it deliberately does not do: grade the answer (the learner scores
//! it against the rubric, `self_score`), or keep the saved scores
//! (`history`).

use crate::components::later::Later;
use crate::components::practice::history::{HistoryStatus, ScoreHistory};
use crate::components::practice::self_score::SelfScore;
use crate::components::practice::trace_exercise::TraceTable;
use crate::components::prose::Prose;
use crate::components::second_opinion::host::SecondOpinionHost;
use crate::components::second_opinion::OpinionToSave;
use crate::course::InterviewContext;
use crate::learner_state;
use crate::learner_state::interview_work::InterviewWork;
use crate::storage::{now_ms, open_for_app, Stored};
use leptos::prelude::*;
use std::time::Duration;
use ttft_core::content::{Interview, Rubric, TraceRow};
use ttft_core::history::SavedScores;
use ttft_core::rubric::RubricScore;

/// How long typing must pause before the answer is saved.
const SAVE_AFTER: Duration = Duration::from_millis(300);

/// An answer text held to a limit of Unicode scalar values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FittedAnswer {
    /// The text, cut at the limit when it was longer.
    pub text: String,
    /// Its length in Unicode scalar values.
    pub chars: usize,
    /// True when the text is at the limit (further input is refused).
    pub at_limit: bool,
    /// True when text had to be cut off.
    pub cut: bool,
}

/// Holds `text` to `limit` Unicode scalar values.
pub fn fit_answer(text: &str, limit: usize) -> FittedAnswer {
    match text.char_indices().nth(limit) {
        Some((end, _)) => {
            let kept = text.get(..end).unwrap_or_default().to_owned();
            FittedAnswer {
                text: kept,
                chars: limit,
                at_limit: true,
                cut: true,
            }
        }
        None => {
            let chars = text.chars().count();
            FittedAnswer {
                text: text.to_owned(),
                chars,
                at_limit: chars >= limit,
                cut: false,
            }
        }
    }
}

/// What the count under the answer box says.
pub fn count_text(chars: usize, limit: usize) -> String {
    if chars >= limit {
        format!("{chars} / {limit} characters: the limit. Further text is not accepted.")
    } else {
        format!("{chars} / {limit} characters")
    }
}

/// The interview question part.
#[component]
pub fn InterviewPage(
    /// The question and everything around it.
    interview: Interview,
    /// The trace the question refers to.
    rows: Vec<TraceRow>,
) -> impl IntoView {
    let work: Stored<InterviewWork> = open_for_app(learner_state::interview_work(&interview.id));
    let saved: Stored<SavedScores> = open_for_app(learner_state::saved_scores(&interview.id));
    let rubric: Option<Rubric> = use_context::<InterviewContext>().map(|c| c.0.rubric.clone());
    let max_total = rubric.as_ref().map_or(0, ttft_core::rubric::max_total);
    let status = HistoryStatus::new();
    let limit = interview.answer_limit;

    let list = |items: &[String]| {
        items
            .iter()
            .map(|t| view! { <li><Prose text=t.clone() /></li> })
            .collect_view()
    };
    let (answer_box, answer_chars) = answer_box(work.clone(), limit);
    let opinion = OpinionToSave::new();
    // Built inside its `Later`, so that its components' set-up waits for
    // that task too.
    let score_part = {
        let (work, saved) = (work.clone(), saved.clone());
        move || match rubric {
            Some(rubric) => {
                let step = {
                    let work = work.clone();
                    ViewFn::from(move || view! { <SecondOpinionHost work=work.clone() opinion=opinion /> })
                };
                view! {
                    <SelfScore
                        rubric=rubric
                        work=work.clone()
                        saved=saved.clone()
                        status=status
                        answer_chars=answer_chars
                        opinion=opinion
                        before_save=step
                    />
                }
                .into_any()
            }
            None => {
                view! { <p>"The rubric is not available, so scoring is switched off."</p> }.into_any()
            }
        }
    };
    let reference = {
        let interview = interview.clone();
        let rubric = use_context::<InterviewContext>().map(|c| c.0.rubric.clone());
        move || {
            let paragraphs = interview
                .reference_answer
                .iter()
                .map(|p| view! { <p><Prose text=p.clone() /></p> })
                .collect_view();
            (paragraphs, rubric_scores_line(&interview, rubric))
        }
    };
    let followups = {
        let followups = interview.followups.clone();
        move || {
            followups
                .iter()
                .map(|f| {
                    view! {
                        <details class="followup">
                            <summary><Prose text=f.question.clone() /></summary>
                            <p><Prose text=f.answer.clone() /></p>
                        </details>
                    }
                })
                .collect_view()
        }
    };

    view! {
        <article class="practice interview">
            <h1 id="page-title"><Prose text=interview.title.clone() /></h1>
            <section aria-labelledby="iq-question" class="step">
                <h2 id="iq-question"><span class="step-number">"1"</span>"The question"</h2>
                <p class="question"><Prose text=interview.question.clone() /></p>
                <h3 id="iq-scenario">"Scenario"</h3>
                <p><Prose text=interview.scenario.clone() /></p>
                <h3>"Trace rule"</h3>
                <p><Prose text=interview.trace_rule.clone() /></p>
                <Later><TraceTable rows=rows caption_id="interview-trace-caption" /></Later>
                <h3 id="iq-constraints">"Constraints"</h3>
                <ul>{list(&interview.constraints)}</ul>
                <h3 id="iq-deliverables">"What your answer covers"</h3>
                <ol>{list(&interview.deliverables)}</ol>
            </section>
            <section aria-labelledby="iq-hints" class="step">
                <h2 id="iq-hints"><span class="step-number">"2"</span>"Hints"</h2>
                <Later>{hints(interview.hints.clone(), work.clone())}</Later>
            </section>
            <section aria-labelledby="iq-answer" class="step">
                <h2 id="iq-answer"><span class="step-number">"3"</span>"Your answer"</h2>
                <Later>{answer_box}</Later>
            </section>
            <section aria-labelledby="iq-reference" class="step">
                <h2 id="iq-reference"><span class="step-number">"4"</span>"Reference answer"</h2>
                <Later>
                    <details class="reference">
                        <summary>"Show the reference answer"</summary>
                        {reference()}
                    </details>
                </Later>
            </section>
            <section aria-labelledby="iq-score" class="step">
                <h2 id="iq-score"><span class="step-number">"5"</span>"Score yourself"</h2>
                <Later>{score_part()}</Later>
            </section>
            <section aria-labelledby="iq-history" class="step">
                <h2 id="iq-history"><span class="step-number">"6"</span>"Your saved scores"</h2>
                <Later><ScoreHistory saved=saved status=status max_total=max_total /></Later>
            </section>
            <section aria-labelledby="iq-followups" class="step">
                <h2 id="iq-followups"><span class="step-number">"7"</span>"Follow-up questions"</h2>
                <p>"An interviewer may go on to ask these. Answer each aloud before you open its model answer."</p>
                <Later>{followups()}</Later>
            </section>
        </article>
    }
}

/// How the reference answer scores on the rubric, as the core totals it.
fn rubric_scores_line(interview: &Interview, rubric: Option<Rubric>) -> Option<impl IntoView> {
    let rubric = rubric?;
    let scores = RubricScore::from_dimension_scores(&interview.reference_scores).ok()?;
    let readiness = scores.assess(&rubric);
    let items = rubric
        .dimensions
        .iter()
        .map(|d| {
            let score = scores
                .get(&d.id)
                .map_or_else(|| "not scored".to_owned(), |s| s.to_string());
            view! { <li><Prose text=d.title.clone() />": "{score}</li> }
        })
        .collect_view();
    Some(view! {
        <p class="note-small">{format!("How this answer scores on the rubric: {readiness}.")}</p>
        <ul class="note-small">{items}</ul>
    })
}

/// Hints shown one at a time; how many is remembered.
fn hints(all: Vec<String>, work: Stored<InterviewWork>) -> impl IntoView {
    let total = all.len();
    let signal = work.signal();
    let shown = move || (signal.with(|w| w.hints_shown) as usize).min(total);
    let items = move || {
        all.iter()
            .take(shown())
            .enumerate()
            .map(|(i, h)| {
                view! {
                    <li id=format!("iq-hint-{}", i + 1) tabindex="-1" class="hint">
                        <span class="visually-hidden">{format!("Hint {} of {total}: ", i + 1)}</span>
                        <Prose text=h.clone() />
                    </li>
                }
            })
            .collect_view()
    };
    let show_next = move |_| {
        let _ = work.update(|w| {
            w.hints_shown = w.hints_shown.saturating_add(1).min(total as u32);
            w.touch(now_ms());
        });
        // Keyboard users land on the hint just revealed, once it is drawn.
        let n = shown();
        request_animation_frame(move || {
            if let Some(el) = document().get_element_by_id(&format!("iq-hint-{n}")) {
                if let Ok(el) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(el) {
                    let _ = el.focus();
                }
            }
        });
    };
    let count = move || match shown() {
        0 => format!("No hints used yet. There are {total}; each gives a little more away."),
        n if n == total => format!("All {total} hints shown."),
        n => format!("{n} of {total} hints shown."),
    };
    view! {
        <p class="hint-count" role="status" aria-live="polite" aria-label="Hints used">{count}</p>
        <ol class="hints" id="iq-hint-list" aria-label="Hints shown">{items}</ol>
        {move || {
            (shown() < total)
                .then(|| {
                    view! {
                        <button type="button" on:click=show_next.clone()>
                            {format!("Show hint {} of {total}", shown() + 1)}
                        </button>
                    }
                })
        }}
    }
}

/// The answer box with its count; also hands back the live character count
/// for the self-score's saved entry.
fn answer_box(work: Stored<InterviewWork>, limit: usize) -> (AnyView, Signal<usize>) {
    let stored = work.signal();
    // What the learner has typed here and not yet saved; `None` once saved.
    let draft: RwSignal<Option<String>> = RwSignal::new(None);
    // The box shows the draft while there is one, and the stored answer
    // otherwise, so another tab's answer arrives through the store unless
    // the learner is mid-edit here.
    let text = Memo::new(move |_| {
        draft
            .get()
            .unwrap_or_else(|| stored.with(|w| fit_answer(&w.answer, limit).text))
    });
    let pending: StoredValue<Option<TimeoutHandle>> = StoredValue::new(None);
    let refused = RwSignal::new(false);

    // Saves what the box holds now. It may run from a timer or a page event
    // after the part has gone, so it reads its local values fallibly.
    let save = {
        let work = work.clone();
        move || {
            if let Some(Some(handle)) = pending.try_get_value() {
                handle.clear();
            }
            let _ = pending.try_set_value(None);
            let Some(Some(now)) = draft.try_get_untracked() else {
                return;
            };
            if stored.with_untracked(|w| w.answer != now) {
                let _ = work.update(|w| {
                    w.answer = now;
                    w.touch(now_ms());
                });
            }
            let _ = draft.try_set(None);
        }
    };
    let on_input = {
        let save = save.clone();
        move |ev: leptos::ev::Event| {
            let raw = event_target_value(&ev);
            let fitted = fit_answer(&raw, limit);
            if fitted.cut {
                // Put the box back to what is kept: the extra is refused.
                if let Some(area) = ev.target().and_then(|t| {
                    wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlTextAreaElement>(t).ok()
                }) {
                    area.set_value(&fitted.text);
                }
            }
            refused.set(fitted.cut);
            draft.set(Some(fitted.text));
            if let Some(handle) = pending.get_value() {
                handle.clear();
            }
            let save = save.clone();
            pending.set_value(set_timeout_with_handle(save, SAVE_AFTER).ok());
        }
    };
    let flush = save.clone();
    // Only in the browser: natively (the first view) there is no window.
    #[cfg(target_arch = "wasm32")]
    {
        let on_pagehide = {
            let save = save.clone();
            window_event_listener_untyped("pagehide", move |_| save())
        };
        let on_hidden = {
            let save = save.clone();
            window_event_listener_untyped("visibilitychange", move |_| save())
        };
        let on_handing_over = {
            let save = save.clone();
            window_event_listener_untyped(crate::hand_over::LEAVING_EVENT, move |_| save())
        };
        let last_save = save.clone();
        on_cleanup(move || {
            // Leaving the part within the pause still keeps the last words.
            last_save();
            on_pagehide.remove();
            on_hidden.remove();
            on_handing_over.remove();
        });
    }
    let chars = Signal::derive(move || text.with(|t| t.chars().count()));
    let count = move || count_text(chars.get(), limit);
    let count_class = move || {
        if chars.get() >= limit {
            "answer-count at-limit"
        } else {
            "answer-count"
        }
    };
    let limit_note = move || {
        if refused.get() {
            format!(
                "The answer is at its limit of {limit} characters; the extra text was not added."
            )
        } else {
            String::new()
        }
    };
    let view = view! {
        <div class="answer-box">
            <label for="iq-answer-text">"Write your answer as you would say it"</label>
            <textarea
                id="iq-answer-text"
                rows="14"
                spellcheck="true"
                aria-describedby="iq-answer-count iq-answer-saving"
                prop:value=move || text.get()
                on:input=on_input
                on:blur=move |_| flush()
            ></textarea>
            <p id="iq-answer-count" class=count_class>
                {count}
            </p>
            <p id="iq-answer-saving" class="answer-saving">"Saved in this browser as you type."</p>
            <p class="practice-status" role="status" aria-live="polite">{limit_note}</p>
        </div>
    }
    .into_any();
    (view, chars)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str, limit: usize, kept: &str, chars: usize, at_limit: bool) {
        let got = fit_answer(text, limit);
        assert_eq!(
            (got.text.as_str(), got.chars, got.at_limit),
            (kept, chars, at_limit),
            "{text:?}"
        );
    }

    #[test]
    fn answers_are_held_to_the_limit_in_characters() {
        check("", 5, "", 0, false);
        check("abc", 5, "abc", 3, false);
        check("abcde", 5, "abcde", 5, true);
        check("abcdef", 5, "abcde", 5, true);
        // One scalar value each, whatever their UTF-8 or UTF-16 length.
        check("é🙂日本語x", 5, "é🙂日本語", 5, true);
        check("🙂🙂", 5, "🙂🙂", 2, false);
        assert!(fit_answer("abcdef", 5).cut);
        assert!(!fit_answer("abcde", 5).cut);
        assert_eq!(count_text(12, 5000), "12 / 5000 characters");
        assert_eq!(
            count_text(5000, 5000),
            "5000 / 5000 characters: the limit. Further text is not accepted."
        );
    }
}
