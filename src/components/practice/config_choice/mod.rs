//! The configuration choice: two measured configurations, two workloads.
//!
//! Shows the configurations table and, for each workload, a small form: the
//! configuration chosen, the arithmetic that matters (for a batch: total
//! tokens, time to finish at each configuration's throughput, whether each
//! fits the window; for an interactive workload: which configurations meet
//! the target at p95 and their shares of late first tokens), and the
//! evidence still needed. "Check" hands one workload's answers to
//! `ttft_core::exercises::config_choice::check_workload` and shows each verdict beside its
//! field, with the core's summary announced; "Reveal" shows the content's
//! answer, the core's arithmetic and the reasoning. The learner's inputs
//! are one [`ChoiceWork`] value, stored under its own key.
//!
//! What it deliberately does not do: any arithmetic or verdict of its own;
//! every figure comes from the core, formatted by the core's types.

use crate::components::practice::dom_id;
use crate::components::prose::Prose;
use crate::learner_state;
use crate::learner_state::choice_work::ChoiceWork;
use crate::storage::{now_ms, open_for_app, Stored};
use leptos::prelude::*;
use std::sync::Arc;
use ttft_core::content::{ConfigExercise, ServingConfig, Workload, WorkloadNeed};
use ttft_core::exercises::config_choice::{
    check_workload, plan, ChoiceVerdict, FitVerdict, NumberVerdict, WorkloadCheck, WorkloadInput,
    WorkloadPlan,
};
use ttft_latency::split::format_tenths;
use ttft_latency::time::group_thousands;
use ttft_latency::Micros;

/// One answer field of a workload's form.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Field {
    Choice,
    Total,
    Seconds(String),
    Fits(String),
    Late(String),
    Evidence(String),
}

impl Field {
    /// The field's value in an input, to tell whether it changed.
    fn value(&self, input: &WorkloadInput) -> String {
        match self {
            Field::Choice => input.choice.clone().unwrap_or_default(),
            Field::Total => input.total_tokens.clone().unwrap_or_default(),
            Field::Seconds(c) => input.seconds.get(c).cloned().unwrap_or_default(),
            Field::Fits(c) => input.fits.get(c).map(|b| b.to_string()).unwrap_or_default(),
            Field::Late(c) => input.late_percent.get(c).cloned().unwrap_or_default(),
            Field::Evidence(id) => input.evidence.iter().any(|e| e == id).to_string(),
        }
    }
}

/// What is shown beside a field after a check.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Message {
    kind: &'static str,
    head: String,
    body: String,
    invalid: bool,
}

impl Message {
    fn new(kind: &'static str, head: impl Into<String>, body: impl Into<String>) -> Message {
        Message {
            kind,
            head: head.into(),
            body: body.into(),
            invalid: kind == "wrong",
        }
    }
}

fn number_message(v: &NumberVerdict, how: &str) -> Message {
    match v {
        NumberVerdict::Correct => Message::new("correct", "Correct.", ""),
        NumberVerdict::Close => Message::new(
            "close",
            "Close.",
            "Nearly there; check your arithmetic and rounding.",
        ),
        NumberVerdict::WrongUnit { slip } => {
            Message::new("wrong", "Wrong unit:", format!("{}.", slip.describe()))
        }
        NumberVerdict::Wrong { .. } => Message::new("wrong", "Wrong.", how),
        NumberVerdict::Missing => Message::new("missing", "Not answered.", ""),
        NumberVerdict::Unreadable { error } => {
            Message::new("wrong", "Cannot be read:", format!("{error}."))
        }
    }
}

fn fit_message(v: FitVerdict, how: &str) -> Message {
    match v {
        FitVerdict::Correct => Message::new("correct", "Correct.", ""),
        FitVerdict::Wrong => Message::new("wrong", "Wrong.", how),
        FitVerdict::Missing => Message::new("missing", "Not answered.", ""),
    }
}

/// The message for `field` from a check, or `None` when the field has
/// nothing to say (an evidence option that was rightly left unticked).
/// `late_after` is when a first token counts as late, as the page writes it
/// (`ConfigExercise::late_after`).
fn message_for(field: &Field, check: &WorkloadCheck, late_after: &str) -> Option<Message> {
    let find = |list: &[(String, NumberVerdict)], c: &str| {
        list.iter().find(|(id, _)| id == c).map(|(_, v)| v.clone())
    };
    let find_fit = |list: &[(String, FitVerdict)], c: &str| {
        list.iter().find(|(id, _)| id == c).map(|(_, v)| *v)
    };
    match field {
        Field::Choice => Some(match &check.choice {
            ChoiceVerdict::Correct => Message::new("correct", "Correct.", ""),
            ChoiceVerdict::Conditional { condition } => Message::new(
                "close",
                "Acceptable only under a condition:",
                format!("{condition}."),
            ),
            ChoiceVerdict::Wrong { reason } => Message::new("wrong", "Wrong.", reason.clone()),
            ChoiceVerdict::Missing => Message::new("missing", "Not answered.", ""),
        }),
        Field::Total => {
            let n = check.numbers.as_ref()?;
            Some(number_message(
                &n.total_tokens,
                "Multiply the items by the output tokens per item.",
            ))
        }
        Field::Seconds(c) => {
            let v = find(&check.numbers.as_ref()?.seconds, c)?;
            Some(number_message(
                &v,
                "Divide the total tokens by this configuration's throughput.",
            ))
        }
        Field::Fits(c) => {
            let v = find_fit(&check.numbers.as_ref()?.fits, c)?;
            Some(fit_message(
                v,
                "Compare the time to finish with the window, both in seconds.",
            ))
        }
        Field::Late(c) => {
            let v = find(&check.interactive.as_ref()?.late, c)?;
            Some(number_message(
                &v,
                &format!(
                    "Read this configuration's share of first tokens later than {} from the table.",
                    late_after
                ),
            ))
        }
        Field::Evidence(id) => {
            let e = &check.evidence;
            let hit = |list: &[ttft_core::exercises::config_choice::EvidenceNote]| {
                list.iter().find(|n| &n.id == id).map(|n| n.why.clone())
            };
            // Only ticked options get a verdict: naming the needed ones the
            // learner left unticked would give the answer away before the
            // reveal. The summary says how many are still needed.
            if let Some(why) = hit(&e.found) {
                Some(Message::new("correct", "Needed.", why))
            } else {
                hit(&e.unnecessary).map(|why| Message::new("wrong", "Wrong.", why))
            }
        }
    }
}

/// The interactive "meets the target" verdict, separate because it is a
/// yes/no pair like `Fits`.
fn meets_message(check: &WorkloadCheck, config: &str) -> Option<Message> {
    let n = check.interactive.as_ref()?;
    let v = n
        .meets
        .iter()
        .find(|(id, _)| id == config)
        .map(|(_, v)| *v)?;
    Some(fit_message(
        v,
        "Compare this configuration's p95 TTFT with the target.",
    ))
}

/// The configuration choice part.
#[component]
pub fn ConfigChoicePage(
    /// The exercise content.
    exercise: ConfigExercise,
) -> impl IntoView {
    let stored: Stored<ChoiceWork> = open_for_app(learner_state::choice_work(&exercise));
    let exercise = Arc::new(exercise);
    let forms = exercise
        .workloads
        .iter()
        .enumerate()
        .map(|(index, w)| workload_form(index, w, Arc::clone(&exercise), stored.clone()))
        .collect_view();
    view! {
        <article class="practice config-choice">
            <h1 id="page-title"><Prose text=exercise.title.clone() /></h1>
            <p><Prose text=exercise.intro.clone() /></p>
            {configs_table(&exercise)}
            {workloads_table(&exercise.workloads)}
            {forms}
        </article>
    }
}

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

fn feedback(id: &str, m: Message) -> impl IntoView {
    view! {
        <p id=id.to_owned() class=format!("verdict verdict-{}", m.kind)>
            <strong>{m.head}</strong>
            {(!m.body.is_empty()).then(|| format!(" {}", m.body))}
        </p>
    }
}

fn workload_form(
    index: usize,
    workload: &Workload,
    exercise: Arc<ConfigExercise>,
    stored: Stored<ChoiceWork>,
) -> impl IntoView {
    let work = stored.signal();
    // The workload's id, which keys its stored work (Copy, for the closures).
    let wl = StoredValue::new(workload.id.clone());
    let wid = dom_id(&["cc", &workload.id]);
    let name = workload.name.clone();
    let result = {
        let exercise = Arc::clone(&exercise);
        Memo::new(move |_| {
            work.with(|w| wl.with_value(|k| w.checked_input(k)))
                .and_then(|input| check_workload(&exercise, index, &input)?.ok())
        })
    };
    // A field's message: its verdict at the last check, or a note that it
    // changed since.
    let late_after = StoredValue::new(exercise.late_after());
    let message = move |field: Field| {
        Memo::new(move |_| {
            let then = work.with(|w| wl.with_value(|k| w.checked_input(k)))?;
            if field.value(&then) != work.with(|w| field.value(&wl.with_value(|k| w.input(k)))) {
                return Some(Message::new(
                    "stale",
                    "Changed since your last check.",
                    "Check again to see how it does.",
                ));
            }
            result.with(|r| {
                r.as_ref()
                    .and_then(|c| late_after.with_value(|l| message_for(&field, c, l)))
            })
        })
    };
    let edit = {
        let stored = stored.clone();
        move |change: Box<dyn FnOnce(&mut WorkloadInput)>| {
            let _ = stored.update(|w| wl.with_value(|k| w.edit(k, now_ms(), change)));
        }
    };

    // The configuration chosen.
    let choice_m = message(Field::Choice);
    let choice_msg = format!("{wid}-choice-msg");
    let choice_radios = exercise
        .configs
        .iter()
        .map(|c| {
            let id = format!("{wid}-choice-{}", dom_id(&[&c.id]));
            let cid = c.id.clone();
            let pick = cid.clone();
            let edit = edit.clone();
            view! {
                <span class="radio">
                    <input
                        type="radio"
                        id=id.clone()
                        name=format!("{wid}-choice")
                        prop:checked=move || work.with(|w| wl.with_value(|k| w.input(k)).choice.as_deref() == Some(cid.as_str()))
                        aria-invalid=move || choice_m.with(|m| m.as_ref().is_some_and(|m| m.invalid).then_some("true"))
                        on:change=move |_| {
                            let pick = pick.clone();
                            edit(Box::new(move |i| i.choice = Some(pick)))
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
    let choice_group = view! {
        <fieldset class="inline-choice" aria-describedby=choice_described>
            <legend>{format!("Configuration for {}", workload.name)}</legend>
            {choice_radios}
            {move || choice_m.get().map(|m| feedback(&choice_msg, m))}
        </fieldset>
    };

    // A text field bound to one string in the input.
    let text_field = {
        let edit = edit.clone();
        move |id: String,
              label: String,
              field: Field,
              set: fn(&mut WorkloadInput, &str, String),
              key: String| {
            let m = message(field.clone());
            let msg_id = format!("{id}-msg");
            let edit = edit.clone();
            let shown = field.clone();
            view! {
                <div class="field">
                    <label for=id.clone()>{label}</label>
                    <input
                        type="text"
                        inputmode="decimal"
                        autocomplete="off"
                        id=id
                        prop:value=move || work.with(|w| shown.value(&wl.with_value(|k| w.input(k))))
                        aria-invalid=move || m.with(|m| m.as_ref().is_some_and(|m| m.invalid).then_some("true"))
                        aria-describedby={
                            let msg = msg_id.clone();
                            move || m.with(|m| m.is_some().then(|| msg.clone()))
                        }
                        on:input=move |ev| {
                            let text = event_target_value(&ev);
                            let key = key.clone();
                            edit(Box::new(move |i| set(i, &key, text)))
                        }
                    />
                    {move || m.get().map(|m| feedback(&msg_id, m))}
                </div>
            }
        }
    };

    let arithmetic = match &workload.need {
        WorkloadNeed::Batch { window_secs, .. } => {
            let total = text_field(
                format!("{wid}-total"),
                "Total output tokens in the batch".into(),
                Field::Total,
                |i, _, t| i.total_tokens = (!t.is_empty()).then_some(t),
                String::new(),
            );
            let window = format!("{} s", group_thousands(window_secs.max(&0).unsigned_abs()));
            let per_config = exercise
                .configs
                .iter()
                .map(|c| {
                    let cid = c.id.clone();
                    let seconds = text_field(
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
                    let current = {
                        let cid = cid.clone();
                        Signal::derive(move || {
                            work.with(|w| wl.with_value(|k| w.input(k)).fits.get(&cid).copied())
                        })
                    };
                    let fits = yes_no(
                        format!("Does Config {} fit the {window} window?", c.id),
                        format!("{wid}-fits-{}", dom_id(&[&c.id])),
                        current,
                        message(Field::Fits(cid.clone())),
                        {
                            let edit = edit.clone();
                            move |v| {
                                let cid = cid.clone();
                                edit(Box::new(move |i| {
                                    i.fits.insert(cid, v);
                                }))
                            }
                        },
                    );
                    view! { <div class="config-answers">{seconds}{fits}</div> }
                })
                .collect_view();
            view! { <div class="arithmetic">{total}{per_config}</div> }.into_any()
        }
        WorkloadNeed::Interactive { ttft_target_ms } => {
            let target = Micros::from_ms(*ttft_target_ms);
            let per_config = exercise
                .configs
                .iter()
                .map(|c| {
                    let cid = c.id.clone();
                    let current = {
                        let cid = cid.clone();
                        Signal::derive(move || {
                            work.with(|w| wl.with_value(|k| w.input(k)).fits.get(&cid).copied())
                        })
                    };
                    let meets_m = Memo::new({
                        let cid = cid.clone();
                        move |_| {
                            let then = work.with(|w| wl.with_value(|k| w.checked_input(k)))?;
                            let field = Field::Fits(cid.clone());
                            if field.value(&then) != work.with(|w| field.value(&wl.with_value(|k| w.input(k)))) {
                                return Some(Message::new(
                                    "stale",
                                    "Changed since your last check.",
                                    "Check again to see how it does.",
                                ));
                            }
                            result.with(|r| r.as_ref().and_then(|c| meets_message(c, &cid)))
                        }
                    });
                    let meets = yes_no(
                        format!("Does Config {} meet the {target} need at p95?", c.id),
                        format!("{wid}-meets-{}", dom_id(&[&c.id])),
                        current,
                        meets_m,
                        {
                            let edit = edit.clone();
                            let cid = cid.clone();
                            move |v| {
                                let cid = cid.clone();
                                edit(Box::new(move |i| {
                                    i.fits.insert(cid, v);
                                }))
                            }
                        },
                    );
                    let late = text_field(
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
            view! { <div class="arithmetic">{per_config}</div> }.into_any()
        }
    };

    // The evidence still needed.
    let evidence = exercise
        .evidence
        .iter()
        .map(|option| {
            let id = format!("{wid}-ev-{}", dom_id(&[&option.id]));
            let msg_id = format!("{id}-msg");
            let oid = option.id.clone();
            let m = message(Field::Evidence(oid.clone()));
            let edit = edit.clone();
            let ticked = {
                let oid = oid.clone();
                move || work.with(|w| wl.with_value(|k| w.input(k)).evidence.iter().any(|e| e == &oid))
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
                            edit(Box::new(move |i| {
                                i.evidence.retain(|e| e != &oid);
                                if on {
                                    i.evidence.push(oid);
                                }
                            }))
                        }
                    />
                    <div>
                        <label for=id><Prose text=option.label.clone() /></label>
                        {move || m.get().map(|m| feedback(&msg_id, m))}
                    </div>
                </li>
            }
        })
        .collect_view();

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

/// The answer for a workload: the choice, the core's arithmetic, the
/// evidence still needed and the reasoning.
fn reveal(workload: &Workload, exercise: &ConfigExercise) -> impl IntoView {
    let arithmetic = match plan(workload, &exercise.configs) {
        Err(e) => view! { <p>{format!("The arithmetic cannot be done: {e}.")}</p> }.into_any(),
        Ok(WorkloadPlan::Batch(b)) => {
            let window = format!("{} s", group_thousands(b.window_secs.max(0).unsigned_abs()));
            let items = b
                .configs
                .iter()
                .map(|f| {
                    let fits = if f.fits { "fits the window" } else { "does not fit the window" };
                    view! { <li>{format!("Config {}: {}; {fits}.", f.config, f.describe(b.total_tokens))}</li> }
                })
                .collect_view();
            view! {
                <p>{format!("Total output tokens: {} (items × output tokens per item). Window: {window}.", group_thousands(b.total_tokens))}</p>
                <ul>{items}</ul>
            }
            .into_any()
        }
        Ok(WorkloadPlan::Interactive { target, configs }) => {
            let items = configs
                .iter()
                .map(|f| {
                    let meets = if f.meets_target { "meets" } else { "misses" };
                    view! {
                        <li>{format!(
                            "Config {}: p95 TTFT {}, {meets} the {target} target; {}% of first tokens later than {}.",
                            f.config,
                            f.p95_ttft,
                            format_tenths(f.late_first_token_tenths),
                            exercise.late_after()
                        )}</li>
                    }
                })
                .collect_view();
            view! { <ul>{items}</ul> }.into_any()
        }
    };
    let conditional = workload
        .answer
        .conditional
        .iter()
        .map(|c| view! { <p>{format!("Config {} becomes acceptable {}.", c.config, c.condition)}</p> })
        .collect_view();
    let evidence = workload
        .answer
        .evidence_needed
        .iter()
        .filter_map(|id| exercise.evidence.iter().find(|o| &o.id == id))
        .map(|o| view! { <li><strong><Prose text=o.label.clone() /></strong>": "<Prose text=o.why.clone() /></li> })
        .collect_view();
    view! {
        <h3>"Answer"</h3>
        <p class="answer-line"><strong>{format!("Config {}", workload.answer.choice)}</strong></p>
        {conditional}
        <h4>"The arithmetic"</h4>
        {arithmetic}
        <h4>"Evidence still needed"</h4>
        <ul>{evidence}</ul>
        <h4>"Why"</h4>
        <p><Prose text=workload.answer.reasoning.clone() /></p>
    }
}

/// A row of the configurations table: its name (which may cite the
/// exercise, as the lateness threshold does) and each configuration's value.
type Measure = (
    fn(&ConfigExercise) -> String,
    fn(&ServingConfig) -> String,
);

const MEASURES: [Measure; 7] = [
    (|_| "Weights".into(), |c| c.weights.clone()),
    (|_| "Maximum sequences per batch".into(), |c| {
        group_thousands(u64::from(c.max_sequences_per_batch))
    }),
    (|_| "Output throughput, all requests".into(), |c| {
        format!("{} tokens/s", group_thousands(c.throughput_tps))
    }),
    (|_| "p95 server TTFT".into(), |c| {
        Micros::from_ms(c.p95_ttft_ms).to_string()
    }),
    (
        |x| format!("Requests whose first token missed {}", x.late_after()),
        |c| format!("{}%", format_tenths(c.late_first_token_tenths)),
    ),
    (|_| "Requests failed or rejected".into(), |c| {
        format!("{}%", format_tenths(c.failed_or_rejected_tenths))
    }),
    (|_| "Quality checks on platform tasks".into(), |c| {
        c.quality_note.clone()
    }),
];

fn configs_table(exercise: &ConfigExercise) -> impl IntoView {
    let configs = &exercise.configs;
    let head = configs
        .iter()
        .map(|c| view! { <th scope="col">{format!("Config {}", c.id)}</th> })
        .collect_view();
    let body = MEASURES
        .iter()
        .map(|(name, value)| {
            let cells = configs
                .iter()
                .map(|c| view! { <td>{value(c)}</td> })
                .collect_view();
            view! { <tr><th scope="row">{name(exercise)}</th>{cells}</tr> }
        })
        .collect_view();
    view! {
        <div class="table-scroll" role="region" aria-labelledby="configs-caption" tabindex="0">
            <table>
                <caption id="configs-caption">"The configurations, as measured"</caption>
                <thead><tr><th scope="col">"Measure"</th>{head}</tr></thead>
                <tbody>{body}</tbody>
            </table>
        </div>
    }
}

fn workloads_table(workloads: &[Workload]) -> impl IntoView {
    let body = workloads
        .iter()
        .map(|w| {
            view! {
                <tr>
                    <th scope="row"><Prose text=w.name.clone() /></th>
                    <td><Prose text=w.description.clone() /></td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="table-scroll" role="region" aria-labelledby="workloads-caption" tabindex="0">
            <table>
                <caption id="workloads-caption">"Workloads to choose a configuration for"</caption>
                <thead><tr><th scope="col">"Workload"</th><th scope="col">"What it needs"</th></tr></thead>
                <tbody>{body}</tbody>
            </table>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_read_their_value_from_an_input() {
        let mut w = ChoiceWork::default();
        w.edit("batch", 10, |i| i.total_tokens = Some("4,000,000".into()));
        assert_eq!(Field::Total.value(&w.input("batch")), "4,000,000");
        assert_eq!(
            Field::Evidence("cost".into()).value(&w.input("batch")),
            "false"
        );
    }
}
