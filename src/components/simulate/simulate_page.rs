//! The simulate part (`?part=simulate`): a serving engine the learner runs
//! on a workload they choose, in a worker loaded when the part opens. This
//! component is the part's own wasm's (`src/bin/simulate-part.rs`), mounted
//! under the heading that `host` renders in the page's wasm.
//!
//! The page owns the state: whether the simulator has started, the
//! settings form, the job under way (with progress and Cancel), runs A and
//! B, the sweep, the replay trace and each experiment's verdict. A run's
//! settings go into the address (`replaceState`), so reloading or sharing
//! it runs the same run again; B's keys carry `b.`. A run's requests are
//! shown with the import part's own views, since they are exactly what its
//! exported CSV imports as.
//!
//! What it deliberately does not do: compute a figure (`ttft_sim` does, in
//! the worker and in `ttft_sim::report`).

use super::experiments::{CheckState, Experiment, Experiments};
use super::lab::{Job, Lab, Note};
use super::run_view::RunFiguresView;
use super::settings_form::{FormState, SettingsForm};
use super::sweep_view::SweepView;
use crate::components::import::import_charts::ImportCharts;
use crate::components::import::import_summary::ImportSummary;
use crate::components::import::results_table::ResultsTable;
use crate::components::import::slices::download;
use crate::components::later::Later;
use crate::components::on_demand::{OnDemandFailed, OnDemandLoading};
use crate::worker::sim::{self, Ask, Attempt, RunFigures, Slot};
use leptos::prelude::*;
use std::rc::Rc;
use std::sync::Arc;
use ttft_import::Import;
use ttft_latency::time::group_thousands;
use ttft_latency::{Convention, Micros};
use ttft_sim::sweep::{SweepProgress, SweepResult};
use ttft_sim::{Settings, SweepSpec};
use wasm_bindgen::JsCast;
use ttft_latency::decimal::fixed;

/// Whether the simulator can be used.
#[derive(Clone, Debug, PartialEq)]
enum WorkerState {
    Loading,
    Ready,
    Failed(String),
}

/// The job under way.
#[derive(Clone, Debug, PartialEq)]
enum Busy {
    Idle,
    Running { slot: Slot, fraction: f64, arrived: usize, ended: usize, simulated_ms: f64 },
    Receiving { requests: usize },
    Sweeping(SweepProgress),
    Exporting(Slot),
    Checking,
    Reading(String),
}

/// A finished run as the page keeps it.
#[derive(Clone)]
struct Shown {
    figures: RunFigures,
    import: Arc<Import>,
}

/// What the last job left to say (a problem, or that it was cancelled).
#[derive(Clone, Debug, PartialEq)]
enum Said {
    Nothing,
    Cancelled,
    Problem(String),
    Trace(String),
}

fn slot_index(slot: Slot) -> usize {
    match slot {
        Slot::A => 0,
        Slot::B => 1,
    }
}

/// The simulate part.
#[component]
pub fn SimulatePage() -> impl IntoView {
    let search = crate::address::search();
    let from_address = [sim::settings_in(&search, Slot::A), sim::settings_in(&search, Slot::B)];
    let form = FormState::new(&Settings::default());
    if let Some(q) = &from_address[0] {
        form.show_query(q, "");
    } else if let Some(q) = &from_address[1] {
        form.show_query(q, "b.");
    }
    let worker = RwSignal::new(WorkerState::Loading);
    let busy = RwSignal::new(Busy::Idle);
    let said = RwSignal::new(Said::Nothing);
    let runs: [RwSignal<Option<Shown>>; 2] = [RwSignal::new(None), RwSignal::new(None)];
    let sweep = RwSignal::new(None::<SweepResult>);
    let replay = RwSignal::new(None::<String>);
    let checks = [RwSignal::new(CheckState::Idle), RwSignal::new(CheckState::Idle), RwSignal::new(CheckState::Idle)];
    let checking = StoredValue::new(None::<Experiment>);
    let requests_of = RwSignal::new(Slot::A);
    let sweep_from = RwSignal::new("10".to_owned());
    let sweep_to = RwSignal::new("120".to_owned());
    let sweep_points = RwSignal::new("12".to_owned());
    let sweep_error = RwSignal::new(None::<String>);
    let target = RwSignal::new(Micros::from_ms(1_000));
    let convention = RwSignal::new(Convention::Linear);


    let write_address = move || {
        let q = |k: usize| runs[k].with_untracked(|r| r.as_ref().map(|s| s.figures.query.clone()));
        let (a, b) = (q(0), q(1));
        let href = sim::address_with(&crate::address::search(), a.as_deref(), b.as_deref());
        if let Ok(history) = window().history() {
            let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&href));
        }
    };

    // What the simulator tells the page once it has started (`Lab::start`
    // hears the start apart).
    let on_note = move |n: Note| match n {
        Note::LoadFailed(reason) => {
            busy.set(Busy::Idle);
            worker.set(WorkerState::Failed(reason));
        }
        Note::Stopped(reason) => {
            busy.set(Busy::Idle);
            said.set(Said::Problem(format!("The simulator stopped ({reason}); a fresh one is starting.")));
        }
        Note::Progress { slot, fraction, arrived, ended, simulated_ms } => {
            busy.set(Busy::Running { slot, fraction, arrived, ended, simulated_ms })
        }
        Note::Receiving { requests } => busy.set(Busy::Receiving { requests }),
        Note::Ran { slot, run } => {
            let run = *run;
            let shown = Shown { figures: run.figures, import: Arc::new(run.import) };
            if let Some(c) = shown.figures.classes.first().and_then(|c| c.target) {
                target.set(c);
            }
            convention.set(shown.figures.totals.convention);
            runs[slot_index(slot)].set(Some(shown));
            requests_of.set(slot);
            busy.set(Busy::Idle);
            write_address();
        }
        Note::Sweeping(p) => busy.set(Busy::Sweeping(p)),
        Note::Swept { result, .. } => {
            sweep.set(Some(result));
            busy.set(Busy::Idle);
        }
        Note::Exported(csv) => {
            let slot = match busy.get_untracked() {
                Busy::Exporting(s) => s,
                _ => Slot::A,
            };
            busy.set(Busy::Idle);
            let name = format!("ttft-lab-simulated-run-{}.csv", slot.name().to_ascii_lowercase());
            if let Err(reason) = download(&csv, &name, "text/csv;charset=utf-8") {
                said.set(Said::Problem(format!("The browser could not save the file: {reason}.")));
            }
        }
        Note::TraceReady { name, requests, skipped, has_arrivals } => {
            busy.set(Busy::Idle);
            replay.set(Some(name.clone()));
            said.set(Said::Trace(format!(
                "{name} is ready to replay: {} {}{}{}.",
                group_thousands(requests as u64),
                if requests == 1 { "request" } else { "requests" },
                if skipped > 0 { format!(" ({} left out, without both lengths)", group_thousands(skipped as u64)) } else { String::new() },
                if has_arrivals { ", with their arrival times" } else { "; it records no start times, so only its lengths can be replayed" }
            )));
        }
        Note::TraceFailed { name, reason } => {
            busy.set(Busy::Idle);
            replay.set(None);
            said.set(Said::Problem(format!("{name} cannot be replayed: {reason}.")));
        }
        Note::Checked(answer) => {
            busy.set(Busy::Idle);
            checking.set_value(None);
            if let Some(e) = Experiment::of(&answer) {
                checks[e as usize].set(CheckState::Done(answer));
            }
        }
        Note::Invalid(error) => {
            busy.set(Busy::Idle);
            if let Some(e) = checking.get_value() {
                checking.set_value(None);
                checks[e as usize].set(CheckState::Problem(error.to_string()));
            }
            form.error.set(Some(error.clone()));
            said.set(Said::Problem(format!("The settings cannot be used: {error}.")));
        }
        Note::Failed(reason) => {
            busy.set(Busy::Idle);
            said.set(Said::Problem(format!("The result could not be read: {reason}.")));
        }
    };
    // The worker starts now, when the part opens (in the task after this
    // draw: `Lab::start`), and ends with the part.
    let lab = StoredValue::new_local(Lab::start(move || worker.set(WorkerState::Ready), on_note));
    let ask = move |job: Job| {
        let _ = lab.try_with_value(|l| l.ask(job));
    };
    // A run in the address runs once the simulator is ready.
    for (slot, q) in [Slot::A, Slot::B].into_iter().zip(from_address) {
        if let Some(query) = q {
            ask(Job::new(Ask::Run { slot, query }));
        }
    }

    let run = move |slot: Slot| {
        said.set(Said::Nothing);
        let settings = match form.settings() {
            Ok(s) => s,
            Err(e) => {
                said.set(Said::Problem(format!("Run {} was not started: {e}.", slot.name())));
                focus(&format!("sim-{}", e.setting.key()));
                return;
            }
        };
        busy.set(Busy::Running { slot, fraction: 0.0, arrived: 0, ended: 0, simulated_ms: 0.0 });
        ask(Job::new(Ask::Run { slot, query: ttft_sim::query::to_query_with(&settings, slot.prefix()) }));
    };
    let on_loaded = Callback::new(move |()| run(Slot::A));
    let on_check = Callback::new(move |attempt: Attempt| {
        let e = match attempt {
            Attempt::Rate { .. } => Experiment::Rate,
            Attempt::HeadOfLine { .. } => Experiment::HeadOfLine,
            Attempt::KvPressure { .. } => Experiment::KvPressure,
        };
        checks[e as usize].set(CheckState::Checking);
        checking.set_value(Some(e));
        busy.set(Busy::Checking);
        ask(Job::new(Ask::Check { query: form.query(), attempt }));
    });
    let start_sweep = move |_| {
        said.set(Said::Nothing);
        let number = |s: RwSignal<String>| s.get_untracked().trim().parse::<f64>().ok().filter(|x| x.is_finite());
        let (Some(from), Some(to), Some(points)) = (number(sweep_from), number(sweep_to), number(sweep_points)) else {
            sweep_error.set(Some("Type the loads as percentages of capacity and the points as a whole number, such as 10, 120 and 12.".into()));
            return;
        };
        let settings = match form.settings() {
            Ok(s) => s,
            Err(e) => {
                sweep_error.set(Some(format!("The sweep was not started: {e}.")));
                return;
            }
        };
        sweep_error.set(None);
        let spec = SweepSpec { from: from / 100.0, to: to / 100.0, points: points.round().clamp(0.0, 1_000.0) as u32 };
        busy.set(Busy::Sweeping(SweepProgress { done: false, points_done: 0, points: spec.points as usize, current: None, fraction: 0.0 }));
        ask(Job::new(Ask::Sweep { query: ttft_sim::to_query(&settings), spec }));
    };
    let export = move |slot: Slot| {
        let Some(query) = runs[slot_index(slot)].with_untracked(|r| r.as_ref().map(|s| s.figures.query.clone())) else {
            return;
        };
        let query = query.split('&').map(|p| p.strip_prefix(slot.prefix()).unwrap_or(p)).collect::<Vec<_>>().join("&");
        busy.set(Busy::Exporting(slot));
        ask(Job::new(Ask::Export { query }));
    };
    let cancel = move |_| {
        let _ = lab.try_with_value(|l| l.cancel());
        if let Some(e) = checking.get_value() {
            checks[e as usize].set(CheckState::Idle);
        }
        busy.set(Busy::Idle);
        said.set(Said::Cancelled);
    };
    let retry = Callback::new(move |()| {
        worker.set(WorkerState::Loading);
        let _ = lab.try_with_value(|l| l.retry());
    });
    let pick_trace = move |e: leptos::ev::Event| {
        let Some(input) = e.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else { return };
        let Some(file) = input.files().and_then(|f| f.get(0)) else { return };
        let name = file.name();
        busy.set(Busy::Reading(name.clone()));
        leptos::task::spawn_local(async move {
            match wasm_bindgen_futures::JsFuture::from(file.array_buffer()).await {
                Ok(buffer) => {
                    let bytes = js_sys::Uint8Array::new(&buffer).to_vec();
                    ask(Job { ask: Ask::Trace { name }, body: Some(Rc::new(bytes)) });
                }
                Err(_) => {
                    busy.set(Busy::Idle);
                    said.set(Said::Problem(format!("The browser could not read {name}.")));
                }
            }
        });
    };
    let example_trace = move |_| {
        busy.set(Busy::Reading("the course's example trace".into()));
        ask(Job::new(Ask::ExampleTrace));
    };
    let trace_picker = ViewFn::from(move || view! {
        <div class="sim-trace-picker">
            <label for="sim-trace-file">"Trace file to replay"</label>
            <input id="sim-trace-file" type="file" on:change=pick_trace />
            <button type="button" on:click=example_trace>"Use the course's example trace"</button>
        </div>
    });

    let is_busy = move || busy.with(|b| *b != Busy::Idle);
    let status = move || {
        let line = match busy.get() {
            Busy::Idle => match said.get() {
                Said::Nothing => match (runs[0].with(Option::is_some), runs[1].with(Option::is_some)) {
                    (false, false) => "No run yet: choose settings and press Run as A.".to_owned(),
                    (true, false) => "Run A is shown. Change a setting and press Run as B to compare.".to_owned(),
                    _ => "Runs A and B are shown side by side below.".to_owned(),
                },
                Said::Cancelled => "Cancelled: the simulator was stopped, and the runs shown are the ones from before.".to_owned(),
                Said::Trace(text) => text,
                Said::Problem(text) => return view! { <p class="field-error" role="alert">{text}</p> }.into_any(),
            },
            Busy::Running { slot, .. } => format!("Running {}\u{2026}", slot.name()),
            Busy::Receiving { .. } => "Preparing the results\u{2026}".to_owned(),
            Busy::Sweeping(p) => format!("Sweeping: point {} of {}\u{2026}", (p.points_done + 1).min(p.points), p.points),
            Busy::Exporting(slot) => format!("Writing run {} as a trace file\u{2026}", slot.name()),
            Busy::Checking => "Checking the experiment\u{2026}".to_owned(),
            Busy::Reading(name) => format!("Reading {name}\u{2026}"),
        };
        view! { <p>{line}</p> }.into_any()
    };
    // The counts change many times a second, so they are beside the live
    // region, not in it: a screen reader announces each stage once.
    let counts = move || match busy.get() {
        Busy::Running { arrived, ended, simulated_ms, .. } => Some(format!(
            "{} requests arrived, {} done, {} simulated.",
            group_thousands(arrived as u64),
            group_thousands(ended as u64),
            ttft_sim::report::shown(Micros((simulated_ms * 1_000.0) as i64))
        )),
        Busy::Receiving { requests } => Some(format!("{} requests received.", group_thousands(requests as u64))),
        _ => None,
    };
    let progress = move || {
        let fraction = match busy.get() {
            Busy::Running { fraction, .. } => fraction,
            Busy::Sweeping(p) => p.fraction,
            Busy::Receiving { .. } => 1.0,
            _ => return None,
        };
        Some(view! { <progress max="1000" value=fixed(fraction.clamp(0.0, 1.0) * 1_000.0, 0) aria-label="Simulation progress"></progress> })
    };

    let run_section = move |slot: Slot| {
        move || {
            runs[slot_index(slot)].get().map(|shown| {
                let name = slot.name();
                let id = format!("sim-run-{}-title", name.to_ascii_lowercase());
                let labelled = id.clone();
                view! {
                    <section class="sim-run" aria-labelledby=labelled>
                        <h2 id=id>{format!("Run {name}")}</h2>
                        <RunFiguresView which=slot figures=shown.figures.clone() />
                        <p><button type="button" on:click=move |_| export(slot) disabled=is_busy>{format!("Download run {name} as a trace file (CSV)")}</button></p>
                        <p class="field-help">"The file is the importer's event CSV: the Import a trace part reads it back with the same split for every request."</p>
                    </section>
                }
            })
        }
    };
    let comparison = move || {
        let (a, b) = (runs[0].get()?, runs[1].get()?);
        let rows = ttft_sim::report::compare(
            (&a.figures.classes, &a.figures.all, &a.figures.totals),
            (&b.figures.classes, &b.figures.all, &b.figures.totals),
        )
        .into_iter()
        .map(|d| view! { <tr><th scope="row">{d.figure}</th><td class="num">{d.a}</td><td class="num">{d.b}</td><td class="num">{d.change}</td></tr> })
        .collect_view();
        Some(view! {
            <section class="sim-compare" aria-labelledby="sim-compare-title">
                <h2 id="sim-compare-title">"A and B compared"</h2>
                <div class="table-scroll" role="region" aria-labelledby="sim-compare-caption" tabindex="0">
                    <table>
                        <caption id="sim-compare-caption">"Runs A and B, and how B differs"</caption>
                        <thead><tr><th scope="col">"Figure"</th><th scope="col" class="num">"A"</th><th scope="col" class="num">"B"</th><th scope="col" class="num">"B against A"</th></tr></thead>
                        <tbody>{rows}</tbody>
                    </table>
                </div>
            </section>
        })
    };
    let target_signal: Signal<Micros> = target.into();
    let requests_view = move || {
        let slot = requests_of.get();
        let shown = runs[slot_index(slot)].get().or_else(|| runs[0].get())?;
        let both = runs[0].with(Option::is_some) && runs[1].with(Option::is_some);
        let pick = both.then(|| {
            let choice = move |s: Slot| view! {
                <label class="choice">
                    <input type="radio" name="sim-requests-of" prop:checked=move || requests_of.get() == s on:change=move |_| requests_of.set(s) />
                    {format!(" Run {}", s.name())}
                </label>
            };
            view! { <div role="radiogroup" aria-label="Whose requests to show">{choice(Slot::A)}{choice(Slot::B)}</div> }
        });
        let imp = shown.import;
        Some(view! {
            <section class="sim-requests" aria-labelledby="sim-requests-title">
                <h2 id="sim-requests-title">{format!("Every request of run {}, split", slot.name())}</h2>
                <p>"The same views as an imported trace: the simulator records each request's arrival, admission, prefill end and first token, so queue wait + prefill + emit is its TTFT exactly."</p>
                {pick}
                <ImportSummary import=Arc::clone(&imp) target=target_signal convention=convention />
                <ImportCharts import=Arc::clone(&imp) target=target_signal drawn=Signal::derive(|| 3u8) />
                <ResultsTable import=imp target=target_signal />
            </section>
        })
    };

    let controls = move || match worker.get() {
        WorkerState::Loading => view! {
            <OnDemandLoading
                text="Starting the simulator's engine\u{2026}"
                help="It runs off the page's main thread, so the page answers while it works."
            />
        }
        .into_any(),
        WorkerState::Failed(reason) => view! {
            <OnDemandFailed headline="The simulator's engine could not load, so nothing can be run yet." reason=reason on_retry=retry />
        }
        .into_any(),
        WorkerState::Ready => view! {
            <div class="sim-actions">
                <button type="button" id="sim-run-a" on:click=move |_| run(Slot::A) disabled=is_busy>"Run as A"</button>
                <button type="button" on:click=move |_| run(Slot::B) disabled=is_busy>"Run as B"</button>
                {move || is_busy().then(|| view! { <button type="button" on:click=cancel>"Cancel"</button> })}
            </div>
        }
        .into_any(),
    };

    view! {
        <div class="simulate-part">
            <form class="sim-form" on:submit=move |e| { e.prevent_default(); run(Slot::A); }>
                <Later><SettingsForm form=form replay=replay.into() trace_picker=trace_picker /></Later>
            </form>
            // The part is drawn in short tasks (`later`): the form's groups,
            // the controls with the status, the runs, the sweep, the
            // experiments and the requests each in one of its own.
            <Later>
            {controls}
            <section class="sim-status" aria-labelledby="sim-status-title">
                <h2 id="sim-status-title" class="visually-hidden">"Simulator status"</h2>
                <div role="status">{status}</div>
                {progress}
                <p class="sim-counts">{counts}</p>
            </section>
            </Later>
            <Later>{run_section(Slot::A)}{run_section(Slot::B)}{comparison}</Later>
            <Later>
            <section class="sim-sweep" aria-labelledby="sim-sweep-title">
                <h2 id="sim-sweep-title">"Sweep the arrival rate"</h2>
                <p>"Run the form's settings at a range of arrival rates, as shares of what the engine can serve, and see which part of the p95 TTFT grows."</p>
                <div class="sim-sweep-fields">
                    <div class="sim-field">
                        <label for="sim-sweep-from">"From (% of capacity)"</label>
                        <input id="sim-sweep-from" type="text" inputmode="decimal" aria-describedby="sim-sweep-error" prop:value=move || sweep_from.get() on:input=move |e| sweep_from.set(event_target_value(&e)) />
                    </div>
                    <div class="sim-field">
                        <label for="sim-sweep-to">"To (% of capacity)"</label>
                        <input id="sim-sweep-to" type="text" inputmode="decimal" aria-describedby="sim-sweep-error" prop:value=move || sweep_to.get() on:input=move |e| sweep_to.set(event_target_value(&e)) />
                    </div>
                    <div class="sim-field">
                        <label for="sim-sweep-points">"Points"</label>
                        <input id="sim-sweep-points" type="text" inputmode="numeric" aria-describedby="sim-sweep-error" prop:value=move || sweep_points.get() on:input=move |e| sweep_points.set(event_target_value(&e)) />
                    </div>
                </div>
                <p id="sim-sweep-error" class="field-error" role="alert">{move || sweep_error.get()}</p>
                <button type="button" on:click=start_sweep disabled=move || is_busy() || worker.get() != WorkerState::Ready>"Run the sweep"</button>
                {move || sweep.get().map(|result| view! { <SweepView result=result /> })}
            </section>
            </Later>
            <Later><Experiments form=form checks=checks on_check=on_check on_loaded=on_loaded /></Later>
            <Later>{requests_view}</Later>
        </div>
    }
}

/// Moves focus to the field with `id`, if it is on the page.
fn focus(id: &str) {
    if let Some(el) = document().get_element_by_id(id).and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
        let _ = el.focus();
    }
}
