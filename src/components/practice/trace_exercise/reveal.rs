//! The trace exercise's answers, once the learner asks: each request's
//! dominant delay, parts, margin against the target, first step and the
//! content's reasoning.

use crate::components::prose::Prose;
use leptos::prelude::*;
use ttft_core::content::{CauseClass, TraceExercise, TraceRow};
use ttft_core::exercises::trace_exercise::Reveal;
use ttft_latency::{Part, TargetVerdict};

/// What "investigate first" means for a cause class, in a phrase.
fn class_phrase(class: CauseClass) -> &'static str {
    match class {
        CauseClass::Queue => "admission and capacity: the queue",
        CauseClass::Prefill => "what goes into the prompt: prefill",
        CauseClass::Emit => "sampling and stream writing: emit",
        CauseClass::WithinTarget => "nothing: the request is within the target",
    }
}

pub(super) fn reveal_item(
    row: &TraceRow,
    reveal: Option<Reveal>,
    exercise: &TraceExercise,
) -> impl IntoView {
    let Some(reveal) = reveal else {
        return view! { <li><p>{format!("{}: this request's times cannot be split.", row.id)}</p></li> }.into_any();
    };
    let e = &reveal.expected;
    let against = match e.verdict {
        TargetVerdict::Within { margin } => format!(
            "TTFT {}, within the target with {margin} to spare.",
            e.split.ttft()
        ),
        TargetVerdict::Over { by } => format!("TTFT {}, {by} over the target.", e.split.ttft()),
    };
    let actions: Vec<String> = exercise
        .actions
        .iter()
        .filter(|a| e.classes.contains(&a.class))
        .map(|a| a.label.clone())
        .collect();
    let shares = Part::ALL
        .into_iter()
        .map(|p| format!("{} {} ({})", p.label(), e.split.part(p), e.split.share(p)))
        .collect::<Vec<_>>()
        .join(", ");
    view! {
        <li class="reveal-item">
            <h3>{row.id.clone()}</h3>
            <dl class="reveal-facts">
                <div><dt>"Dominant delay"</dt><dd>{format!("{}, {} of TTFT", e.dominant, reveal.share_text)}</dd></div>
                <div><dt>"All three parts"</dt><dd>{shares}</dd></div>
                <div><dt>"Against the target"</dt><dd>{against}</dd></div>
                <div>
                    <dt>"Investigate first"</dt>
                    <dd>
                        {class_phrase(reveal.class)}
                        {(!actions.is_empty()).then(|| format!(" ({})", actions.join("; ")))}
                    </dd>
                </div>
            </dl>
            <p><Prose text=reveal.reasoning.clone() /></p>
        </li>
    }
    .into_any()
}
