//! One request's answer in the trace exercise: its facts, and the dominant
//! delay, share and first action, each with its feedback.

use crate::components::practice::dom_id;
use crate::components::practice::trace_exercise::feedback::{feedback, field_message, FieldKind};
use crate::learner_state::trace_work::TraceWork;
use crate::storage::{now_ms, Stored};
use leptos::prelude::*;
use std::sync::Arc;
use ttft_core::content::{TraceExercise, TraceRow};
use ttft_core::exercises::trace_exercise::{DominantChoice, LearnerAnswer, ShareEntry, TraceCheck};
use ttft_latency::time::group_thousands;
use ttft_latency::{split_request, Micros};

fn choice_value(choice: DominantChoice) -> &'static str {
    match choice {
        DominantChoice::QueueWait => "queue_wait",
        DominantChoice::Prefill => "prefill",
        DominantChoice::Emit => "emit",
        DominantChoice::OutputRate => "output_rate",
    }
}

fn choice_from_value(value: &str) -> Option<DominantChoice> {
    DominantChoice::ALL
        .into_iter()
        .find(|c| choice_value(*c) == value)
}

fn share_text(answer: &LearnerAnswer) -> String {
    answer.share_percent.as_ref().map(ShareEntry::text).unwrap_or_default()
}

pub(super) fn request_form(
    index: usize,
    row: &TraceRow,
    exercise: Arc<TraceExercise>,
    stored: Stored<TraceWork>,
    result: Memo<Option<TraceCheck>>,
) -> impl IntoView {
    let work = stored.signal();
    let rid = row.id.clone();
    // Answers are kept by request id, so a reordered exercise keeps each
    // answer beside its own request; `index` only finds the check's row.
    let request = StoredValue::new(row.id.clone());
    let answer_of = move |w: &TraceWork| request.with_value(|id| w.answer(id));
    let ids = |field: FieldKind| {
        (
            dom_id(&["tx", &rid, field.id()]),
            dom_id(&["tx", &rid, field.id(), "msg"]),
        )
    };
    let (dominant_id, dominant_msg) = ids(FieldKind::Dominant);
    let (share_id, share_msg) = ids(FieldKind::Share);
    let (action_id, action_msg) = ids(FieldKind::Investigate);

    let message = {
        let exercise = Arc::clone(&exercise);
        move |field: FieldKind| {
            let exercise = Arc::clone(&exercise);
            Memo::new(move |_| {
                work.with(|w| {
                    result.with(|r| {
                        request.with_value(|id| {
                            field_message(w, r.as_ref(), (index, id), field, &exercise)
                        })
                    })
                })
            })
        }
    };
    let dominant_m = message(FieldKind::Dominant);
    let share_m = message(FieldKind::Share);
    let action_m = message(FieldKind::Investigate);

    let set_dominant = {
        let stored = stored.clone();
        move |ev: leptos::ev::Event| {
            let choice = choice_from_value(&event_target_value(&ev));
            let _ =
                stored.update(|w| w.edit(&request.get_value(), now_ms(), |a| a.dominant = choice));
        }
    };
    let set_share = {
        let stored = stored.clone();
        move |ev: leptos::ev::Event| {
            let text = event_target_value(&ev);
            let entry = (!text.is_empty()).then_some(ShareEntry::Text(text));
            let _ = stored
                .update(|w| w.edit(&request.get_value(), now_ms(), |a| a.share_percent = entry));
        }
    };
    let set_action = {
        let stored = stored.clone();
        move |ev: leptos::ev::Event| {
            let value = event_target_value(&ev);
            let id = (!value.is_empty()).then_some(value);
            let _ =
                stored.update(|w| w.edit(&request.get_value(), now_ms(), |a| a.investigate = id));
        }
    };

    let dominant_options = DominantChoice::ALL
        .into_iter()
        .map(|c| {
            let selected = move || work.with(|w| answer_of(w).dominant == Some(c));
            view! { <option value=choice_value(c) selected=selected>{c.label()}</option> }
        })
        .collect_view();
    let action_options = exercise
        .actions
        .iter()
        .map(|a| {
            let id = a.id.clone();
            let value = a.id.clone();
            let selected =
                move || work.with(|w| answer_of(w).investigate.as_deref() == Some(id.as_str()));
            view! { <option value=value selected=selected>{a.label.clone()}</option> }
        })
        .collect_view();
    let none_selected = move |field: FieldKind| {
        move || {
            work.with(|w| {
                let a = answer_of(w);
                match field {
                    FieldKind::Dominant => a.dominant.is_none(),
                    _ => a.investigate.is_none(),
                }
            })
        }
    };

    let prompt = match &row.prompt_note {
        Some(note) => format!(
            "{} prompt tokens ({note})",
            group_thousands(row.prompt_tokens)
        ),
        None => format!("{} prompt tokens", group_thousands(row.prompt_tokens)),
    };
    let ttft = match split_request(&row.request_trace()) {
        Ok(s) => s.ttft().to_string(),
        Err(e) => format!("cannot be split: {e}"),
    };
    let facts = format!(
        "{prompt}, {} queued at arrival; queue wait {}, prefill {}, emit {}; TTFT {ttft}; {} tokens/s after the first token.",
        group_thousands(row.queued_at_arrival),
        Micros::from_ms(row.queue_wait_ms),
        Micros::from_ms(row.prefill_ms),
        Micros::from_ms(row.emit_ms),
        row.output_rate_tps
    );

    view! {
        <fieldset class="tx-request">
            <legend>{format!("Request {}", row.id)}</legend>
            <p class="tx-facts">{facts}</p>
            <div class="tx-fields">
                <div class="field">
                    <label for=dominant_id.clone()>
                        <span class="visually-hidden">{format!("{}: ", row.id)}</span>
                        "Dominant delay"
                    </label>
                    <select
                        id=dominant_id
                        prop:value=move || work.with(|w| answer_of(w).dominant.map(choice_value).unwrap_or_default())
                        aria-invalid=move || dominant_m.with(|m| m.as_ref().is_some_and(|m| m.invalid).then_some("true"))
                        aria-describedby={
                            let msg = dominant_msg.clone();
                            move || dominant_m.with(|m| m.is_some().then(|| msg.clone()))
                        }
                        on:change=set_dominant
                    >
                        <option value="" selected=none_selected(FieldKind::Dominant)>"Choose…"</option>
                        {dominant_options}
                    </select>
                    {move || dominant_m.get().map(|m| feedback(&dominant_msg, m))}
                </div>
                <div class="field">
                    <label for=share_id.clone()>
                        <span class="visually-hidden">{format!("{}: ", row.id)}</span>
                        "Its share of TTFT (%)"
                    </label>
                    <input
                        type="text"
                        inputmode="decimal"
                        autocomplete="off"
                        id=share_id
                        prop:value=move || work.with(|w| share_text(&answer_of(w)))
                        aria-invalid=move || share_m.with(|m| m.as_ref().is_some_and(|m| m.invalid).then_some("true"))
                        aria-describedby={
                            let msg = share_msg.clone();
                            move || share_m.with(|m| m.is_some().then(|| msg.clone()))
                        }
                        on:input=set_share
                    />
                    {move || share_m.get().map(|m| feedback(&share_msg, m))}
                </div>
                <div class="field field-wide">
                    <label for=action_id.clone()>
                        <span class="visually-hidden">{format!("{}: ", row.id)}</span>
                        "Investigate first"
                    </label>
                    <select
                        id=action_id
                        prop:value=move || work.with(|w| answer_of(w).investigate.clone().unwrap_or_default())
                        aria-invalid=move || action_m.with(|m| m.as_ref().is_some_and(|m| m.invalid).then_some("true"))
                        aria-describedby={
                            let msg = action_msg.clone();
                            move || action_m.with(|m| m.is_some().then(|| msg.clone()))
                        }
                        on:change=set_action
                    >
                        <option value="" selected=none_selected(FieldKind::Investigate)>"Choose…"</option>
                        {action_options}
                    </select>
                    {move || action_m.get().map(|m| feedback(&action_msg, m))}
                </div>
            </div>
        </fieldset>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choices_round_trip_through_their_values() {
        for c in DominantChoice::ALL {
            assert_eq!(choice_from_value(choice_value(c)), Some(c));
        }
        assert_eq!(choice_from_value(""), None);
    }
}
