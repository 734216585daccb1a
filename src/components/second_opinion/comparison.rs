//! The AI's grade beside the learner's own self-score, dimension by
//! dimension: both scores, the difference as a symbol and a word (never
//! colour alone), the AI's quoted evidence and feedback, and "Adopt AI
//! score" per dimension, which sets the self-score's radio through
//! `ttft_core::second_opinion::comparison::adopt` and is announced.
//!
//! Rows and differences come from `grader::compare` on every render, so a
//! change of the learner's own radio shows at once. What it deliberately
//! does not do: save anything (the self-score's Save does), or change a
//! score the learner did not ask to change.

use crate::components::second_opinion::Opinion;
use crate::learner_state::interview_work::InterviewWork;
use leptos::prelude::*;
use std::sync::Arc;
use ttft_core::content::Rubric;
use ttft_core::second_opinion::comparison::{adopt, compare, Difference};

/// A symbol that goes with the difference's word.
fn symbol(d: Difference) -> &'static str {
    match d {
        Difference::Same => "=",
        Difference::AiHigher => "▲",
        Difference::AiLower => "▼",
        Difference::SelfUnscored => "?",
    }
}

/// The side-by-side table, shown once a grade has arrived.
#[component]
pub fn Comparison(
    /// The rubric, for dimension order and titles.
    rubric: Arc<Rubric>,
    /// The learner's work as the interview holds it, with the self-score.
    work: Signal<InterviewWork>,
    /// Sets one dimension of the self-score where the interview keeps it:
    /// "Adopt AI score".
    set_score: Callback<(String, u8)>,
    /// The grade.
    opinion: Opinion,
) -> impl IntoView {
    let said = RwSignal::new(String::new());
    let signal = work;
    let table = move || {
        let graded = opinion.0.get()?;
        let rows = signal.with(|w| compare(&w.score, &graded.grade, &rubric));
        let stale = signal.with(|w| w.answer != graded.answer);
        let body = rows
            .into_iter()
            .map(|row| {
                let ai = graded.grade.get(&row.dimension).cloned();
                let (evidence, found, feedback) =
                    ai.map(|a| (a.evidence, a.evidence_found, a.feedback)).unwrap_or_default();
                let own = row.self_score.map_or("not scored".to_owned(), |s| s.to_string());
                let diff = format!("{} {}", symbol(row.difference), row.difference.label());
                let adopted = graded.adopted.contains(&row.dimension) && row.difference == Difference::Same;
                let dim = row.dimension.clone();
                let title = row.title.clone();
                let ai_score = row.ai_score;
                let action = if row.difference == Difference::Same {
                    view! { <span>{if adopted { "Adopted" } else { "Same as yours" }}</span> }.into_any()
                } else {
                    view! {
                        <button
                            type="button"
                            aria-label=format!("Adopt AI score {ai_score} for {title}")
                            on:click=move |_| {
                                let Some(grade) = opinion.0.with_untracked(|g| g.as_ref().map(|g| g.grade.clone())) else {
                                    return;
                                };
                                // Checked on a copy; the interview sets the score it keeps.
                                let mut score = signal.with_untracked(|w| w.score.clone());
                                match adopt(&mut score, &grade, &dim) {
                                    Ok(()) => {
                                        set_score.run((dim.clone(), ai_score));
                                        opinion.0.update(|g| {
                                            if let Some(g) = g {
                                                g.adopted.insert(dim.clone());
                                            }
                                        });
                                        said.set(format!(
                                            "Adopted the AI's {ai_score} for {title}; your self-score now shows it. Save your score to keep it."
                                        ));
                                    }
                                    Err(e) => said.set(format!("Not adopted: {e}.")),
                                }
                            }
                        >
                            "Adopt AI score"
                        </button>
                    }
                    .into_any()
                };
                view! {
                    <tr>
                        <th scope="row">{row.title.clone()}</th>
                        <td class="number">{own}</td>
                        <td class="number">{row.ai_score.to_string()}</td>
                        <td class=format!("so-diff so-diff-{:?}", row.difference).to_ascii_lowercase()>{diff}</td>
                        <td>
                            {(!evidence.is_empty()).then(|| view! { <q>{evidence}</q> })}
                            {(!found).then(|| view! { <span class="note-small">" (not found in your answer)"</span> })}
                        </td>
                        <td>{feedback}</td>
                        <td>{action}</td>
                    </tr>
                }
            })
            .collect_view();
        let warnings = graded
            .grade
            .warnings
            .iter()
            .map(|w| view! { <li>{w.to_string()}</li> })
            .collect_view();
        let has_warnings = !graded.grade.warnings.is_empty();
        Some(view! {
            <section class="so-result" aria-labelledby="so-result-heading">
                <h4 id="so-result-heading">"The AI's grade beside yours"</h4>
                <p>{format!("Graded by {}. Where you differ, adopt the AI's score or keep your own; the score you save is yours.", graded.model)}</p>
                {stale.then(|| view! {
                    <p class="verdict verdict-partial">
                        <strong>"Note: "</strong>
                        "you have changed your answer since it was graded, so this grade will not be saved with your score. Send again for a grade of the new answer."
                    </p>
                })}
                <div class="table-scroll" tabindex="0" role="region" aria-label="Your score and the AI's, scrollable">
                    <table class="data-table so-compare">
                        <caption>"Your self-score and the AI's, dimension by dimension"</caption>
                        <thead>
                            <tr>
                                <th scope="col">"Dimension"</th>
                                <th scope="col">"Your score"</th>
                                <th scope="col">"AI score"</th>
                                <th scope="col">"Difference"</th>
                                <th scope="col">"AI evidence"</th>
                                <th scope="col">"AI feedback"</th>
                                <th scope="col">"Your choice"</th>
                            </tr>
                        </thead>
                        <tbody>{body}</tbody>
                    </table>
                </div>
                {has_warnings.then(|| view! {
                    <div class="so-warnings">
                        <p>"Doubts about this grade:"</p>
                        <ul>{warnings}</ul>
                    </div>
                })}
            </section>
        })
    };
    view! {
        {table}
        <p class="note-small" role="status" aria-live="polite" aria-label="Adopted scores">{move || said.get()}</p>
    }
}
