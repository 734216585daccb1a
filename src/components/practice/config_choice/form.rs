//! One workload's form in the configuration choice: the configuration
//! chosen, the arithmetic that decides it (a batch's or an interactive
//! workload's), the evidence still needed, and the Check and Reveal buttons
//! with the announced summary. Each part is a function over one
//! [`FormState`], which holds the workload's stored work and last check.

use crate::components::practice::config_choice::feedback::{
    feedback, meets_message, message_for, Field, Message,
};
use crate::components::practice::config_choice::reveal::reveal;
use crate::components::practice::dom_id;
use crate::components::prose::Prose;
use crate::learner_state::choice_work::ChoiceWork;
use crate::storage::{now_ms, Stored};
use leptos::prelude::*;
use std::sync::Arc;
use ttft_core::content::{ConfigExercise, Workload, WorkloadNeed};
use ttft_core::exercises::config_choice::{check_workload, WorkloadCheck, WorkloadInput};
use ttft_latency::time::group_thousands;
use ttft_latency::Micros;

/// A yes/no radio pair bound to one boolean in the input.
fn yes_no(
    legend: String,
    name: String,
    current: Signal<Option<bool>>,
    message: Memo<Option<Message>>,
    on_pick: impl Fn(bool) + Clone + Send + Sync + 'static,
) -> impl IntoView {
    let msg_id = format!("{name}-msg");
    let described = {
        let msg_id = msg_id.clone();
        move || message.with(|m| m.is_some().then(|| msg_id.clone()))
    };
    let invalid = move || message.with(|m| m.as_ref().is_some_and(|m| m.invalid).then_some("true"));
    let radio = |value: bool, label: &'static str| {
        let id = format!("{name}-{}", if value { "yes" } else { "no" });
        let pick = on_pick.clone();
        view! {
            <span class="radio">
                <input
                    type="radio"
                    id=id.clone()
                    name=name.clone()
                    prop:checked=move || current.get() == Some(value)
                    aria-invalid=invalid
                    on:change=move |_| pick(value)
                />
                <label for=id>{label}</label>
            </span>
        }
    };
    view! {
        <fieldset class="inline-choice" aria-describedby=described>
            <legend>{legend}</legend>
            {radio(true, "Yes")}
            {radio(false, "No")}
            {move || message.get().map(|m| feedback(&msg_id, m))}
        </fieldset>
    }
}

/// What every part of one workload's form reads and writes: the stored
/// work, the workload's id in it, the last check's verdicts and the prefix
/// of the form's element ids. Cloned into each closure that needs it.
#[derive(Clone)]
struct FormState {
    stored: Stored<ChoiceWork>,
    work: ReadSignal<ChoiceWork>,
    /// The workload's id, which keys its stored work.
    workload: StoredValue<String>,
    /// The verdicts at the last check; `None` before one.
    result: Memo<Option<WorkloadCheck>>,
    /// When a first token is late, as the page writes it.
    late_after: StoredValue<String>,
    wid: String,
}

impl FormState {
    /// The workload's input as it stands (tracked).
    fn input(&self) -> WorkloadInput {
        let key = self.workload;
        self.work.with(|w| key.with_value(|k| w.input(k)))
    }

    /// The message beside `field`: `verdict` of the last check, or a note
    /// that the field changed since.
    fn verdict_memo(
        &self,
        field: Field,
        verdict: impl Fn(&WorkloadCheck) -> Option<Message> + Send + Sync + 'static,
    ) -> Memo<Option<Message>> {
        let (work, key, result) = (self.work, self.workload, self.result);
        Memo::new(move |_| {
            let then = work.with(|w| key.with_value(|k| w.checked_input(k)))?;
            if field.value(&then) != work.with(|w| field.value(&key.with_value(|k| w.input(k)))) {
                return Some(Message::new(
                    "stale",
                    "Changed since your last check.",
                    "Check again to see how it does.",
                ));
            }
            result.with(|r| r.as_ref().and_then(&verdict))
        })
    }

    /// The message beside `field`, from the core's verdict on it.
    fn message(&self, field: Field) -> Memo<Option<Message>> {
        let late_after = self.late_after;
        let read = field.clone();
        self.verdict_memo(field, move |c| {
            late_after.with_value(|l| message_for(&read, c, l))
        })
    }

    /// Changes the workload's input.
    fn edit(&self, change: impl FnOnce(&mut WorkloadInput)) {
        let key = self.workload;
        let _ = self
            .stored
            .update(|w| key.with_value(|k| w.edit(k, now_ms(), change)));
    }
}

/// A text field bound to one string in the input: `set(input, key, text)`
/// stores what is typed.
fn text_field(
    state: &FormState,
    id: String,
    label: String,
    field: Field,
    set: fn(&mut WorkloadInput, &str, String),
    key: String,
) -> impl IntoView {
    let m = state.message(field.clone());
    let msg_id = format!("{id}-msg");
    let shown = state.clone();
    let edit = state.clone();
    view! {
        <div class="field">
            <label for=id.clone()>{label}</label>
            <input
                type="text"
                inputmode="decimal"
                autocomplete="off"
                id=id
                prop:value=move || field.value(&shown.input())
                aria-invalid=move || m.with(|m| m.as_ref().is_some_and(|m| m.invalid).then_some("true"))
                aria-describedby={
                    let msg = msg_id.clone();
                    move || m.with(|m| m.is_some().then(|| msg.clone()))
                }
                on:input=move |ev| {
                    let text = event_target_value(&ev);
                    edit.edit(|i| set(i, &key, text))
                }
            />
            {move || m.get().map(|m| feedback(&msg_id, m))}
        </div>
    }
}

/// The yes/no answer about `config`, stored in the input's `fits`.
fn fits_answer(
    state: &FormState,
    legend: String,
    name: String,
    config: &str,
    message: Memo<Option<Message>>,
) -> impl IntoView {
    let current = {
        let (state, cid) = (state.clone(), config.to_owned());
        Signal::derive(move || state.input().fits.get(&cid).copied())
    };
    let pick = {
        let (state, cid) = (state.clone(), config.to_owned());
        move |v| {
            state.edit(|i| {
                i.fits.insert(cid.clone(), v);
            })
        }
    };
    yes_no(legend, name, current, message, pick)
}

/// The configuration chosen, one radio button per configuration.
fn choice_group(
    state: &FormState,
    workload: &Workload,
    exercise: &ConfigExercise,
) -> impl IntoView {
    let wid = &state.wid;
    let choice_m = state.message(Field::Choice);
    let choice_msg = format!("{wid}-choice-msg");
    let choice_radios = exercise
        .configs
        .iter()
        .map(|c| {
            let id = format!("{wid}-choice-{}", dom_id(&[&c.id]));
            let cid = c.id.clone();
            let pick = cid.clone();
            let (shown, edit) = (state.clone(), state.clone());
            view! {
                <span class="radio">
                    <input
                        type="radio"
                        id=id.clone()
                        name=format!("{wid}-choice")
                        prop:checked=move || shown.input().choice.as_deref() == Some(cid.as_str())
                        aria-invalid=move || choice_m.with(|m| m.as_ref().is_some_and(|m| m.invalid).then_some("true"))
                        on:change=move |_| {
                            let pick = pick.clone();
                            edit.edit(move |i| i.choice = Some(pick))
                        }
                    />
                    <label for=id>{format!("Config {}", c.id)}</label>
                </span>
            }
        })
        .collect_view();
    let choice_described = {
        let msg = choice_msg.clone();
        move || choice_m.with(|m| m.is_some().then(|| msg.clone()))
    };
    view! {
        <fieldset class="inline-choice" aria-describedby=choice_described>
            <legend>{format!("Configuration for {}", workload.name)}</legend>
            {choice_radios}
            {move || choice_m.get().map(|m| feedback(&choice_msg, m))}
        </fieldset>
    }
}

/// A batch workload's arithmetic: the total tokens, and each
/// configuration's time to finish and whether it fits the window.
fn batch_answers(state: &FormState, window_secs: i64, exercise: &ConfigExercise) -> impl IntoView {
    let wid = &state.wid;
    let total = text_field(
        state,
        format!("{wid}-total"),
        "Total output tokens in the batch".into(),
        Field::Total,
        |i, _, t| i.total_tokens = (!t.is_empty()).then_some(t),
        String::new(),
    );
    let window = format!("{} s", group_thousands(window_secs.max(0).unsigned_abs()));
    let per_config = exercise
        .configs
        .iter()
        .map(|c| {
            let cid = c.id.clone();
            let seconds = text_field(
                state,
                format!("{wid}-secs-{}", dom_id(&[&c.id])),
                format!("Time to finish at Config {} (seconds)", c.id),
                Field::Seconds(cid.clone()),
                |i, k, t| {
                    if t.is_empty() {
                        i.seconds.remove(k);
                    } else {
                        i.seconds.insert(k.to_owned(), t);
                    }
                },
                cid.clone(),
            );
            let fits = fits_answer(
                state,
                format!("Does Config {} fit the {window} window?", c.id),
                format!("{wid}-fits-{}", dom_id(&[&c.id])),
                &cid,
                state.message(Field::Fits(cid.clone())),
            );
            view! { <div class="config-answers">{seconds}{fits}</div> }
        })
        .collect_view();
    view! { <div class="arithmetic">{total}{per_config}</div> }
}

/// An interactive workload's arithmetic: whether each configuration meets
/// the target at p95, and its share of late first tokens.
fn interactive_answers(
    state: &FormState,
    target: Micros,
    exercise: &ConfigExercise,
) -> impl IntoView {
    let wid = &state.wid;
    let per_config = exercise
        .configs
        .iter()
        .map(|c| {
            let cid = c.id.clone();
            let meets_m = {
                let cid = cid.clone();
                state.verdict_memo(Field::Fits(cid.clone()), move |check| {
                    meets_message(check, &cid)
                })
            };
            let meets = fits_answer(
                state,
                format!("Does Config {} meet the {target} need at p95?", c.id),
                format!("{wid}-meets-{}", dom_id(&[&c.id])),
                &cid,
                meets_m,
            );
            let late = text_field(
                state,
                format!("{wid}-late-{}", dom_id(&[&c.id])),
                format!(
                    "Config {}: share of first tokens later than {} (%)",
                    c.id,
                    exercise.late_after()
                ),
                Field::Late(cid.clone()),
                |i, k, t| {
                    if t.is_empty() {
                        i.late_percent.remove(k);
                    } else {
                        i.late_percent.insert(k.to_owned(), t);
                    }
                },
                cid,
            );
            view! { <div class="config-answers">{meets}{late}</div> }
        })
        .collect_view();
    view! { <div class="arithmetic">{per_config}</div> }
}

/// The evidence options, each a checkbox with its feedback once checked.
fn evidence_list(state: &FormState, exercise: &ConfigExercise) -> impl IntoView {
    let wid = &state.wid;
    exercise
        .evidence
        .iter()
        .map(|option| {
            let id = format!("{wid}-ev-{}", dom_id(&[&option.id]));
            let msg_id = format!("{id}-msg");
            let oid = option.id.clone();
            let m = state.message(Field::Evidence(oid.clone()));
            let edit = state.clone();
            let ticked = {
                let (state, oid) = (state.clone(), oid.clone());
                move || state.input().evidence.iter().any(|e| e == &oid)
            };
            view! {
                <li>
                    <input
                        type="checkbox"
                        id=id.clone()
                        prop:checked=ticked
                        aria-describedby={
                            let msg = msg_id.clone();
                            move || m.with(|m| m.is_some().then(|| msg.clone()))
                        }
                        on:change=move |ev| {
                            let on = event_target_checked(&ev);
                            let oid = oid.clone();
                            edit.edit(move |i| {
                                i.evidence.retain(|e| e != &oid);
                                if on {
                                    i.evidence.push(oid);
                                }
                            })
                        }
                    />
                    <div>
                        <label for=id><Prose text=option.label.clone() /></label>
                        {move || m.get().map(|m| feedback(&msg_id, m))}
                    </div>
                </li>
            }
        })
        .collect_view()
}

pub(super) fn workload_form(
    index: usize,
    workload: &Workload,
    exercise: Arc<ConfigExercise>,
    stored: Stored<ChoiceWork>,
) -> impl IntoView {
    let work = stored.signal();
    let wl = StoredValue::new(workload.id.clone());
    let result = {
        let exercise = Arc::clone(&exercise);
        Memo::new(move |_| {
            work.with(|w| wl.with_value(|k| w.checked_input(k)))
                .and_then(|input| check_workload(&exercise, index, &input)?.ok())
        })
    };
    let state = FormState {
        stored: stored.clone(),
        work,
        workload: wl,
        result,
        late_after: StoredValue::new(exercise.late_after()),
        wid: dom_id(&["cc", &workload.id]),
    };
    let wid = state.wid.clone();
    let name = workload.name.clone();

    let choice_group = choice_group(&state, workload, &exercise);
    let arithmetic = match &workload.need {
        WorkloadNeed::Batch { window_secs, .. } => {
            batch_answers(&state, *window_secs, &exercise).into_any()
        }
        WorkloadNeed::Interactive { ttft_target_ms } => {
            interactive_answers(&state, Micros::from_ms(*ttft_target_ms), &exercise).into_any()
        }
    };
    let evidence = evidence_list(&state, &exercise);

    let results = crate::components::embed::results::use_results();
    let on_check = {
        let stored = stored.clone();
        let exercise = Arc::clone(&exercise);
        move |_| {
            let _ = stored.update(|w| wl.with_value(|k| w.check(k, now_ms())));
            let checked = work.with_untracked(|w| {
                exercise
                    .workloads
                    .iter()
                    .map(|x| w.checked_input(&x.id).unwrap_or_default())
                    .collect::<Vec<_>>()
            });
            results.config_checked(&exercise, &checked);
        }
    };
    let revealed = move || work.with(|w| wl.with_value(|k| w.revealed(k)));
    let on_reveal = {
        let stored = stored.clone();
        move |_| {
            let _ = stored.update(|w| {
                let show = !wl.with_value(|k| w.revealed(k));
                wl.with_value(|k| w.set_revealed(k, show, now_ms()));
            });
        }
    };
    let status = move || {
        let attempts = work.with(|w| wl.with_value(|k| w.attempts(k)));
        result.with(|r| {
            r.as_ref()
                .map(|c| format!("Check {attempts}: {}.", c.summary()))
                .unwrap_or_default()
        })
    };
    let reveal_id = format!("{wid}-reveal");
    let title_id = format!("{wid}-title");
    let labelled_by = title_id.clone();
    let reveal_body = reveal(workload, &exercise);

    view! {
        <section class="workload" aria-labelledby=labelled_by>
            <h2 id=title_id>{workload.name.clone()}</h2>
            <p><Prose text=workload.description.clone() /></p>
            <form class="cc-form" on:submit=|ev| ev.prevent_default()>
                {choice_group}
                <h3>"The arithmetic that decides it"</h3>
                {arithmetic}
                <fieldset class="evidence">
                    <legend>"Evidence you would still want before committing"</legend>
                    <ul class="checklist-items">{evidence}</ul>
                </fieldset>
                <div class="practice-actions">
                    <button type="button" class="primary" on:click=on_check>
                        "Check answers"<span class="visually-hidden">{format!(" for {name}")}</span>
                    </button>
                    <button
                        type="button"
                        aria-expanded=move || if revealed() { "true" } else { "false" }
                        aria-controls=reveal_id.clone()
                        on:click=on_reveal
                    >
                        {move || if revealed() { "Hide answer" } else { "Reveal answer" }}
                        <span class="visually-hidden">{format!(" for {}", workload.name)}</span>
                    </button>
                </div>
            </form>
            <p class="practice-status" role="status" aria-live="polite">{status}</p>
            <div id=reveal_id class="reveal" hidden=move || !revealed()>
                {reveal_body}
            </div>
        </section>
    }
}
