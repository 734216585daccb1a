//! The three guided experiments, each with its task, a button that puts its
//! starting settings in the form, the learner's answer, and the core's
//! verdict (`ttft_sim::experiments`, run in the worker with the
//! experiment's fixed seed) announced in a live region.

use super::settings_form::FormState;
use crate::worker::sim::{Answer, Attempt};
use leptos::prelude::*;
use ttft_latency::Part;
use ttft_sim::experiments::{self, Change, Evidence};
use ttft_sim::report::shown;
use ttft_sim::Settings;

/// Which experiment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Experiment {
    Rate,
    HeadOfLine,
    KvPressure,
}

impl Experiment {
    fn number(self) -> u8 {
        match self {
            Experiment::Rate => 1,
            Experiment::HeadOfLine => 2,
            Experiment::KvPressure => 3,
        }
    }

    fn start(self) -> Settings {
        match self {
            Experiment::Rate => experiments::rate_start(),
            Experiment::HeadOfLine => experiments::head_of_line_start(),
            Experiment::KvPressure => experiments::kv_pressure_start(),
        }
    }

    /// The experiment a verdict answers.
    pub fn of(answer: &Answer) -> Option<Experiment> {
        match answer {
            Answer::Rate(_) => Some(Experiment::Rate),
            Answer::HeadOfLine(_) => Some(Experiment::HeadOfLine),
            Answer::KvPressure(_) => Some(Experiment::KvPressure),
            _ => None,
        }
    }
}

/// Where a check stands, for one experiment.
#[derive(Clone, Debug, PartialEq)]
pub enum CheckState {
    Idle,
    Checking,
    Done(Answer),
    Problem(String),
}

fn verdict(state: CheckState) -> AnyView {
    let (passed, lines) = match state {
        CheckState::Idle => return ().into_any(),
        CheckState::Checking => {
            return view! { <p>"Checking: simulating the experiment's workload with its fixed seed\u{2026}"</p> }.into_any()
        }
        CheckState::Problem(why) => return view! { <p class="field-error">{why}</p> }.into_any(),
        CheckState::Done(Answer::Rate(f)) => (f.passed, f.feedback),
        CheckState::Done(Answer::HeadOfLine(f)) => (f.passed, f.feedback),
        CheckState::Done(Answer::KvPressure(f)) => (f.passed, f.feedback),
        CheckState::Done(_) => return ().into_any(),
    };
    let lines = lines.into_iter().map(|l| view! { <li>{l}</li> }).collect_view();
    view! {
        <div class=if passed { "sim-feedback verdict verdict-correct" } else { "sim-feedback verdict verdict-wrong" }>
            <p><strong>{if passed { "Right: the run bears it out." } else { "Not yet." }}</strong></p>
            <ul>{lines}</ul>
        </div>
    }
    .into_any()
}

/// The three experiments.
#[component]
pub fn Experiments(
    form: FormState,
    /// The latest check of each experiment.
    checks: [RwSignal<CheckState>; 3],
    /// Checks an attempt with the form's settings.
    on_check: Callback<Attempt>,
    /// Called once starting settings are in the form (to run them).
    on_loaded: Callback<()>,
) -> impl IntoView {
    let load = move |e: Experiment| {
        form.show(&e.start());
        on_loaded.run(());
    };
    let state = move |e: Experiment| checks[(e.number() - 1) as usize];

    // 1. The rate.
    let rate_text = RwSignal::new(String::new());
    let rate_part = RwSignal::new(None::<Part>);
    let rate_error = RwSignal::new(None::<&'static str>);
    let check_rate = move |_| {
        let rate = rate_text.get_untracked().trim().replace(',', "").parse::<f64>().ok().filter(|r| r.is_finite() && *r > 0.0);
        match (rate, rate_part.get_untracked()) {
            (None, _) => rate_error.set(Some("Type the arrival rate you found, in requests a second, such as 12.5.")),
            (_, None) => rate_error.set(Some("Choose the part that grew.")),
            (Some(rate), Some(part)) => {
                rate_error.set(None);
                on_check.run(Attempt::Rate { rate, part });
            }
        }
    };
    let part_choices = [Part::QueueWait, Part::Prefill, Part::Emit]
        .into_iter()
        .map(|p| {
            view! {
                <label class="choice">
                    <input type="radio" name="sim-exp1-part" prop:checked=move || rate_part.get() == Some(p) on:change=move |_| rate_part.set(Some(p)) />
                    {format!(" {}", p.label())}
                </label>
            }
        })
        .collect_view();

    // 2. Head of line.
    let said = RwSignal::new(None::<Change>);
    let said_error = RwSignal::new(None::<&'static str>);
    let check_hol = move |_| match said.get_untracked() {
        None => said_error.set(Some("Say how the long prompts' p95 TTFT moved.")),
        Some(said) => {
            said_error.set(None);
            on_check.run(Attempt::HeadOfLine { said });
        }
    };
    let change_choices = [(Change::Rose, "it rose"), (Change::Fell, "it fell"), (Change::Unchanged, "it stayed about the same")]
        .into_iter()
        .map(|(c, label)| {
            view! {
                <label class="choice">
                    <input type="radio" name="sim-exp2-said" prop:checked=move || said.get() == Some(c) on:change=move |_| said.set(Some(c)) />
                    {format!(" {label}")}
                </label>
            }
        })
        .collect_view();

    // 3. KV pressure.
    let picked = RwSignal::new(Vec::<Evidence>::new());
    let check_kv = move |_| on_check.run(Attempt::KvPressure { picked: picked.get_untracked() });
    let evidence_choices = Evidence::ALL
        .into_iter()
        .map(|ev| {
            view! {
                <label class="choice">
                    <input
                        type="checkbox"
                        prop:checked=move || picked.with(|p| p.contains(&ev))
                        on:change=move |e| {
                            let on = event_target_checked(&e);
                            picked.update(|p| {
                                p.retain(|x| *x != ev);
                                if on {
                                    p.push(ev);
                                }
                            });
                        }
                    />
                    {format!(" {}", ev.label())}
                </label>
            }
        })
        .collect_view();

    let hint_target = shown(ttft_latency::Micros::from_ms(1_000));
    view! {
        <section class="sim-experiments" aria-labelledby="sim-experiments-title">
            <h2 id="sim-experiments-title">"Guided experiments"</h2>
            <p>"Each is checked by simulating its own workload with a fixed seed (13), so the verdict is the same every time."</p>

            <section class="sim-experiment" aria-labelledby="sim-exp1-title">
                <h3 id="sim-exp1-title">"1. Find where hints start to miss"</h3>
                <p>{format!(
                    "Hint requests only (700 prompt tokens, 120 output), Llama 3 8B on an A100 with vLLM's defaults. Raise the arrival rate until p95 TTFT of the hints misses {hint_target}, then say which part of TTFT grew."
                )}</p>
                <button type="button" on:click=move |_| load(Experiment::Rate)>"Load experiment 1's settings and run them"</button>
                <div class="sim-field">
                    <label for="sim-exp1-rate">"The rate where p95 misses (requests a second)"</label>
                    <input id="sim-exp1-rate" type="text" inputmode="decimal" aria-describedby="sim-exp1-error"
                        prop:value=move || rate_text.get() on:input=move |e| rate_text.set(event_target_value(&e)) />
                </div>
                <div class="sim-field" role="radiogroup" aria-labelledby="sim-exp1-part-label">
                    <p id="sim-exp1-part-label" class="sim-field-label">"The part that grew"</p>
                    {part_choices}
                </div>
                <p id="sim-exp1-error" class="field-error">{move || rate_error.get()}</p>
                <button type="button" on:click=check_rate>"Check experiment 1"</button>
                <div role="status" class="sim-verdict">{move || verdict(state(Experiment::Rate).get())}</div>
            </section>

            <section class="sim-experiment" aria-labelledby="sim-exp2-title">
                <h3 id="sim-exp2-title">"2. Long prompts holding up short ones"</h3>
                <p>"Nine hints in ten and one full history of 18,000 tokens, at about a third of capacity. With vLLM's defaults the hints miss their 1,000 ms target. Change the scheduler in the Engine group (chunked prefill, the token budget, the longest chunk per request, the order, the slots, a priority class) until the hints' p95 is within target, and say what your change did to the long prompts' p95."</p>
                <button type="button" on:click=move |_| load(Experiment::HeadOfLine)>"Load experiment 2's settings and run them"</button>
                <div class="sim-field" role="radiogroup" aria-labelledby="sim-exp2-said-label" aria-describedby="sim-exp2-error">
                    <p id="sim-exp2-said-label" class="sim-field-label">"With your settings, the full histories' p95 TTFT"</p>
                    {change_choices}
                </div>
                <p id="sim-exp2-error" class="field-error">{move || said_error.get()}</p>
                <button type="button" on:click=check_hol>"Check experiment 2 with the form's engine settings"</button>
                <div role="status" class="sim-verdict">{move || verdict(state(Experiment::HeadOfLine).get())}</div>
            </section>

            <section class="sim-experiment" aria-labelledby="sim-exp3-title">
                <h3 id="sim-exp3-title">"3. Queueing with slots free"</h3>
                <p>"Chats of 6,000 tokens (4,000 of them a system prompt they all share), Llama 2 7B on an A100, 256 slots, prefix caching off. Requests queue although few slots are busy. Run it, tick what the run shows, then change the engine or the step cost (not the workload) until the chats' p95 TTFT is within 4,000 ms."</p>
                <button type="button" on:click=move |_| load(Experiment::KvPressure)>"Load experiment 3's settings and run them"</button>
                <fieldset class="sim-field">
                    <legend>"What the starting run shows"</legend>
                    {evidence_choices}
                </fieldset>
                <button type="button" on:click=check_kv>"Check experiment 3 with the form's engine settings"</button>
                <div role="status" class="sim-verdict">{move || verdict(state(Experiment::KvPressure).get())}</div>
            </section>
        </section>
    }
}
