//! The interview question: the question, its scenario and trace, the
//! constraints and what the answer must deliver.
//!
//! What it deliberately does not show yet: hints, the reference answer, the
//! rubric and follow-ups, which are revealed step by step as the learner
//! works through the question.

use crate::components::practice::trace_exercise::TraceTable;
use crate::components::prose::Prose;
use leptos::prelude::*;
use ttft_core::content::{Interview, TraceRow};

/// The interview question part.
#[component]
pub fn InterviewPage(
    /// The question and everything around it.
    interview: Interview,
    /// The trace the question refers to.
    rows: Vec<TraceRow>,
) -> impl IntoView {
    let list = |items: &[String]| items.iter().map(|t| view! { <li><Prose text=t.clone() /></li> }).collect_view();
    view! {
        <article class="practice">
            <h1 id="page-title"><Prose text=interview.title.clone() /></h1>
            <section aria-labelledby="iq-question">
                <h2 id="iq-question">"The question"</h2>
                <p class="question"><Prose text=interview.question.clone() /></p>
            </section>
            <section aria-labelledby="iq-scenario">
                <h2 id="iq-scenario">"Scenario"</h2>
                <p><Prose text=interview.scenario.clone() /></p>
                <h3>"Trace rule"</h3>
                <p><Prose text=interview.trace_rule.clone() /></p>
                <TraceTable rows=rows caption_id="interview-trace-caption" />
            </section>
            <section aria-labelledby="iq-constraints">
                <h2 id="iq-constraints">"Constraints"</h2>
                <ul>{list(&interview.constraints)}</ul>
            </section>
            <section aria-labelledby="iq-deliverables">
                <h2 id="iq-deliverables">"What your answer covers"</h2>
                <ol>{list(&interview.deliverables)}</ol>
            </section>
        </article>
    }
}
