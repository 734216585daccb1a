//! The "Import a trace" part (`?part=import`): a learner brings their own
//! server's trace and sees its time to first token split as far as the file
//! allows.
//!
//! The page owns the state: whether the trace reader (the worker that
//! holds the format parsers, loaded when this part opens) has started,
//! what is being read (with progress and Cancel), the imported file, the
//! target and the percentile convention. Until the reader has started it
//! says so in place of the file input; if it cannot start, it says that
//! plainly with a Retry button. It shows the detected format with what
//! that format can and cannot split, the lines or records that could not
//! be read, a file's run summary when that is all it holds, and then the
//! summary, charts, table and CSV export.
//!
//! What it deliberately does not do: arithmetic on latencies (every figure
//! comes from `ttft_core` or `ttft_import`), keep the file anywhere but in
//! memory, or send it anywhere.

use super::drop_zone::DropZone;
use super::import_charts::ImportCharts;
use super::import_summary::ImportSummary;
use super::results_table::ResultsTable;
use super::slices::{download, Note, TraceReader};
use crate::components::on_demand::OnDemandFailed;
use leptos::prelude::*;
use std::sync::Arc;
use ttft_import::{export, report, tool_summary, Import, UnknownFormat};
use ttft_latency::decimal::fixed;
use ttft_latency::time::group_thousands;
use ttft_latency::{parse_ms, Convention, Micros, MsError};
use web_sys::File;

/// Problems listed on the page at most; the rest are counted.
pub const PROBLEMS_SHOWN: usize = 20;

/// The target a new page starts with, in milliseconds.
pub const DEFAULT_TARGET_MS: i64 = 1_000;

/// Where an import stands.
#[derive(Clone, Debug, PartialEq)]
enum Stage {
    Idle,
    Reading {
        name: String,
        read: u64,
        total: u64,
        requests: usize,
        problems: usize,
    },
    Parsing {
        name: String,
    },
    /// Pasted text or the example, read in one step.
    Working {
        name: String,
    },
    /// The results are crossing from the reader to the page.
    Preparing {
        name: String,
        received: usize,
    },
    Cancelled {
        name: String,
    },
    Unknown {
        name: String,
        error: UnknownFormat,
    },
    Failed {
        name: String,
        reason: String,
    },
    Done {
        name: String,
    },
}

/// The results come in this many steps, each in a task of its own (the
/// summary; each of the three charts; the table and export), so that on a
/// file of 100,000 requests no single task holds the page for long.
const RESULT_STEPS: u8 = 5;

/// Whether the trace reader can be used.
#[derive(Clone, Debug, PartialEq)]
enum ReaderState {
    Loading,
    Ready,
    Failed(String),
}

/// "12.3 MB": a byte count for the progress line.
fn megabytes(bytes: u64) -> String {
    format!("{} MB", fixed(bytes as f64 / 1_000_000.0, 1))
}

/// The target from the learner's text: a positive number of milliseconds.
fn parse_target(text: &str) -> Result<Micros, &'static str> {
    match parse_ms(&text.replace(',', "")) {
        Ok(t) if t > Micros::ZERO => Ok(t),
        Ok(_) => Err("The target must be more than 0 ms."),
        Err(MsError::NotANumber) => {
            Err("Type the target as a number of milliseconds, such as 1000.")
        }
        Err(MsError::TooLarge) => Err(
            "The target is too large to be a time; type a number of milliseconds, such as 1000.",
        ),
    }
}

/// The import part.
#[component]
pub fn ImportPage() -> impl IntoView {
    let stage = RwSignal::new(Stage::Idle);
    let loaded = RwSignal::new(None::<Arc<Import>>);
    let reader_state = RwSignal::new(ReaderState::Loading);
    // The file being read and its size, for the progress line.
    let reading = StoredValue::new((String::new(), 0u64));
    let target = RwSignal::new(Micros::from_ms(DEFAULT_TARGET_MS));
    let target_text = RwSignal::new(DEFAULT_TARGET_MS.to_string());
    let target_error = RwSignal::new(None::<&'static str>);
    let convention = RwSignal::new(Convention::NearestRank);

    // How many of the RESULT_STEPS are shown, and which import they are
    // for (a new read makes a pending step do nothing).
    let shown = RwSignal::new(0u8);
    let charts_due = Memo::new(move |_| shown.get() >= 2);
    let table_due = Memo::new(move |_| shown.get() >= RESULT_STEPS);
    let import_run = StoredValue::new(0u64);
    let finish = move |name: String, result: Result<Import, UnknownFormat>| match result {
        Ok(imp) => {
            let received = imp.requests.len();
            loaded.set(Some(Arc::new(imp)));
            shown.set(1);
            stage.set(Stage::Preparing { name: name.clone(), received });
            let mine = import_run.get_value();
            reveal(shown, import_run, mine, move || stage.set(Stage::Done { name }));
        }
        Err(error) => {
            loaded.set(None);
            stage.set(Stage::Unknown { name, error });
        }
    };
    let in_progress = move || {
        matches!(
            stage.get_untracked(),
            Stage::Reading { .. } | Stage::Parsing { .. } | Stage::Working { .. } | Stage::Preparing { .. }
        )
    };
    let set_reader = move |s: ReaderState| {
        if reader_state.get_untracked() != s {
            reader_state.set(s);
        }
    };
    let on_note = move |n: Note| {
        let (name, total) = reading.get_value();
        match n {
            Note::LoadFailed(reason) => {
                if in_progress() {
                    stage.set(Stage::Failed { name, reason: "the trace reader could not start".to_owned() });
                }
                set_reader(ReaderState::Failed(reason));
            }
            Note::Stopped(reason) => {
                if in_progress() {
                    stage.set(Stage::Failed { name, reason: format!("the trace reader stopped ({reason})") });
                }
            }
            Note::Reading { read, requests, problems } => {
                stage.set(Stage::Reading { name, read, total, requests, problems })
            }
            Note::Parsing => stage.set(Stage::Parsing { name }),
            Note::Receiving { requests } => stage.set(Stage::Preparing { name, received: requests }),
            Note::Done(imp) => finish(name, Ok(imp)),
            Note::Unknown(error) => finish(name, Err(error)),
            Note::Failed(reason) => stage.set(Stage::Failed { name, reason }),
        }
    };
    // The worker starts now, when the part opens, and ends with the part.
    let reader = StoredValue::new_local(TraceReader::start(move || set_reader(ReaderState::Ready), on_note));

    let on_file = Callback::new(move |file: File| {
        let name = file.name();
        let total = file.size() as u64;
        reading.set_value((name.clone(), total));
        import_run.update_value(|r| *r += 1);
        loaded.set(None);
        stage.set(Stage::Reading { name, read: 0, total, requests: 0, problems: 0 });
        let _ = reader.try_with_value(|r| r.read_file(file));
    });
    let start_whole = move |name: &str| {
        reading.set_value((name.to_owned(), 0));
        import_run.update_value(|r| *r += 1);
        loaded.set(None);
        stage.set(Stage::Working { name: name.to_owned() });
    };
    let on_text = Callback::new(move |text: String| {
        start_whole("the pasted text");
        let _ = reader.try_with_value(|r| r.read_text(text));
    });
    let on_example = Callback::new(move |()| {
        start_whole("the course's example trace");
        let _ = reader.try_with_value(|r| r.read_example());
    });
    let cancel = move |_| {
        if !in_progress() {
            return;
        }
        let (name, _) = reading.get_value();
        let _ = reader.try_with_value(|r| r.cancel());
        loaded.set(None);
        stage.set(Stage::Cancelled { name });
    };
    let retry = Callback::new(move |()| {
        set_reader(ReaderState::Loading);
        let _ = reader.try_with_value(|r| r.retry());
    });
    // The input area shows while the reader loads too (disabled), so that
    // nothing moves when it is ready; only a reader that could not load
    // takes its place.
    let ready = Signal::derive(move || matches!(reader_state.get(), ReaderState::Ready));
    let failed = Memo::new(move |_| match reader_state.get() {
        ReaderState::Failed(reason) => Some(reason),
        ReaderState::Loading | ReaderState::Ready => None,
    });
    let input = move || match failed.get() {
        Some(reason) => view! {
            <OnDemandFailed headline="The trace reader could not load, so no file can be read yet." reason=reason on_retry=retry />
        }
        .into_any(),
        None => view! { <DropZone on_file=on_file on_text=on_text on_example=on_example ready=ready /> }.into_any(),
    };

    // One Cancel button for the whole import, outside the text that each
    // progress note redraws: a button drawn anew with every note (many a
    // second on a fast machine) could lose a click between press and
    // release, and keyboard focus with it.
    let busy = Memo::new(move |_| {
        matches!(
            stage.get(),
            Stage::Reading { .. } | Stage::Parsing { .. } | Stage::Working { .. } | Stage::Preparing { .. }
        )
    });
    let cancel_button = move || busy.get().then(|| view! { <button type="button" on:click=cancel>"Cancel"</button> });
    let status = move || {
        match stage.get() {
        Stage::Idle => view! { <p>"No trace loaded yet."</p> }.into_any(),
        Stage::Reading { name, read, total, requests, problems } => view! {
            <p>{format!("Reading {name}\u{2026}")}</p>
            <progress max=total.to_string() value=read.to_string() aria-label="Reading the file"></progress>
            <p>
                {format!(
                    "{} of {} read; {} requests found{}.",
                    megabytes(read),
                    megabytes(total),
                    group_thousands(requests as u64),
                    if problems > 0 { format!(", {} lines or records skipped", group_thousands(problems as u64)) } else { String::new() }
                )}
            </p>
        }
        .into_any(),
        Stage::Parsing { name } => view! {
            <p>{format!("Parsing\u{2026} {name} is one JSON document, so it is read in one step now that all of it has arrived.")}</p>
        }
        .into_any(),
        Stage::Working { name } => view! {
            <p>{format!("Reading {name}\u{2026}")}</p>
        }
        .into_any(),
        Stage::Preparing { name, received } => view! {
            <p>{format!("Preparing the results of {name}: {} requests received\u{2026}", group_thousands(received as u64))}</p>
        }
        .into_any(),
        Stage::Cancelled { name } => {
            view! { <p>{format!("Cancelled: the import of {name} was stopped and nothing from it is shown.")}</p> }.into_any()
        }
        Stage::Unknown { name, error } => view! {
            <div class="notice notice-error" role="alert">
                <p><strong>{format!("{name} could not be imported.")}</strong></p>
                <p>{error.to_string()}</p>
            </div>
        }
        .into_any(),
        Stage::Failed { name, reason } => view! {
            <div class="notice notice-error" role="alert">
                <p>{format!("The browser could not read {name}: {reason}.")}</p>
            </div>
        }
        .into_any(),
        Stage::Done { name } => view! { <p>{format!("Imported {name}.")}</p> }.into_any(),
    }
    };

    let on_target = move |e| {
        let text = event_target_value(&e);
        target_text.set(text.clone());
        match parse_target(&text) {
            Ok(t) => {
                target_error.set(None);
                target.set(t);
            }
            Err(msg) => target_error.set(Some(msg)),
        }
    };
    let target_signal: Signal<Micros> = target.into();

    let results = move || {
        loaded.get().map(|imp| {
            let about = about_file(&imp);
            let body = if imp.summary_only() {
                summary_only(&imp).into_any()
            } else if imp.requests.is_empty() {
                view! { <p>"The file holds no requests that could be read."</p> }.into_any()
            } else {
                let charts = Arc::clone(&imp);
                let table = Arc::clone(&imp);
                let export_import = Arc::clone(&imp);
                let export_error = RwSignal::new(None::<String>);
                let save = move |_| {
                    let csv = export::to_csv(&export_import.requests);
                    export_error.set(download(&csv, "ttft-lab-split.csv", "text/csv;charset=utf-8").err());
                };
                view! {
                    <div class="target-field">
                        <label for="import-target">"TTFT target (ms)"</label>
                        <input
                            id="import-target"
                            type="number"
                            inputmode="decimal"
                            min="1"
                            step="any"
                            aria-invalid=move || target_error.get().is_some().then_some("true")
                            aria-describedby="import-target-error"
                            prop:value=move || target_text.get()
                            on:input=on_target
                        />
                        <p id="import-target-error" class="field-error" role="alert">{move || target_error.get()}</p>
                        {tool_summary::unstreamed(&imp).then(|| view! { <p>{tool_summary::UNSTREAMED_TARGET}</p> })}
                    </div>
                    <ImportSummary import=Arc::clone(&imp) target=target_signal convention=convention />
                    {move || charts_due.get().then(|| {
                        let drawn = Signal::derive(move || shown.get().saturating_sub(1));
                        view! { <ImportCharts import=Arc::clone(&charts) target=target_signal drawn=drawn /> }
                    })}
                    {move || table_due.get().then(|| {
                        let table = Arc::clone(&table);
                        let save = save.clone();
                        view! {
                    <ResultsTable import=table target=target_signal />
                    <section class="import-export" aria-labelledby="import-export-title">
                        <h2 id="import-export-title">"Export"</h2>
                        <button type="button" on:click=save>"Download the split as CSV"</button>
                        <p class="field-error" role="alert">{move || export_error.get()}</p>
                        <p>
                            {format!("The file is ttft-lab-split.csv, one row a request, with the columns {}. ", export::HEADER.join(", "))}
                            "Times are milliseconds and an empty cell means the source does not say. Each column is \
                             described in the \u{201c}CSV export columns\u{201d} section of the README of ttft-lab's \
                             importer (crates/ttft-import/README.md)."
                        </p>
                    </section>
                        }
                    })}
                }
                .into_any()
            };
            view! { {about} {body} }
        })
    };

    view! {
        <article class="import-page">
            <h1 id="page-title">"Import a trace"</h1>
            <p>
                "Bring a trace from your own server and see its time to first token split into queue wait, \
                 prefill and emit, as far as the file can say. A server's own spans can split queue from \
                 prefill; a benchmark client only sees the whole TTFT, network included, and this page will not \
                 invent a split the file does not hold."
            </p>
            {input}
            <section class="import-status" aria-labelledby="import-status-title">
                <h2 id="import-status-title" class="visually-hidden">"Import status"</h2>
                <div role="status">{status}{cancel_button}</div>
            </section>
            {results}
        </article>
    }
}

/// Shows the next of the [`RESULT_STEPS`] in a task of its own (a
/// `setTimeout`, so the page paints and answers in between), then calls
/// `done` once all are shown. Does nothing once `run` has moved on.
fn reveal(shown: RwSignal<u8>, run: StoredValue<u64>, mine: u64, done: impl FnOnce() + 'static) {
    set_timeout(
        move || {
            if run.try_get_value() != Some(mine) {
                return;
            }
            shown.update(|s| *s += 1);
            if shown.get_untracked() >= RESULT_STEPS {
                done();
            } else {
                reveal(shown, run, mine, done);
            }
        },
        std::time::Duration::ZERO,
    );
}

/// The detected format, what it can split, and what could not be read.
fn about_file(imp: &Import) -> impl IntoView {
    let capability = imp.capability();
    let problem_view = report::problems_sentence(imp).map(|sentence| {
        let listed = imp
            .problems
            .iter()
            .take(PROBLEMS_SHOWN)
            .map(|p| view! { <li><strong>{p.location.to_string()}</strong>{format!(": {}", p.message)}</li> })
            .collect_view();
        let shown = imp.problems.len().min(PROBLEMS_SHOWN);
        view! {
            <div class="notice notice-info">
                <p>{sentence}</p>
                <details>
                    <summary>{format!("The first {shown} of them, with where they are")}</summary>
                    <ul class="problems">{listed}</ul>
                </details>
            </div>
        }
    });
    let ignored = (imp.ignored_records > 0).then(|| {
        format!(
            "{} other records in the file are not requests (other spans) and were left out.",
            group_thousands(imp.ignored_records as u64)
        )
    });
    view! {
        <section class="import-about" aria-labelledby="import-about-title">
            <h2 id="import-about-title">"What this file can say"</h2>
            <p><strong>"Format: "</strong>{imp.format.name()}</p>
            <p>{capability.text}</p>
            {tool_summary::unstreamed(imp).then(|| view! { <p class="unstreamed">{tool_summary::UNSTREAMED}</p> })}
            <p>
                {format!("{} requests imported.", group_thousands(imp.requests.len() as u64))}
                " "
                {ignored}
            </p>
            {problem_view}
        </section>
    }
}

/// A file that holds only run figures: shown as the file states them.
fn summary_only(imp: &Import) -> impl IntoView {
    let runs = imp
        .summaries
        .iter()
        .enumerate()
        .map(|(k, run)| {
            let title = if run.label.is_empty() { format!("Run {}", k + 1) } else { run.label.clone() };
            let rows = run
                .figures
                .iter()
                .map(|f| view! { <tr><th scope="row"><code>{f.key.clone()}</code></th><td>{f.value.to_string()}</td></tr> })
                .collect_view();
            let caption_id = format!("import-run-{k}");
            let region_label = caption_id.clone();
            view! {
                <div class="table-scroll" role="region" aria-labelledby=region_label tabindex="0">
                    <table>
                        <caption id=caption_id>{format!("{title}: figures as the file states them")}</caption>
                        <thead><tr><th scope="col">"Key"</th><th scope="col">"Value"</th></tr></thead>
                        <tbody>{rows}</tbody>
                    </table>
                </div>
            }
        })
        .collect_view();
    view! {
        <section aria-labelledby="import-run-title">
            <h2 id="import-run-title">"Run summary only"</h2>
            <p>
                "This file holds figures about whole runs, not one record a request, so there is nothing to split \
                 per request and no percentile here is recomputed. These are the tool's own figures, on the \
                 tool's own clock."
            </p>
            {runs}
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str, expected: Result<Micros, ()>) {
        assert_eq!(parse_target(text).map_err(|_| ()), expected, "{text:?}");
    }

    #[test]
    fn targets_from_text() {
        check("1000", Ok(Micros::from_ms(1_000)));
        check(" 1,500 ", Ok(Micros::from_ms(1_500)));
        check("0.5", Ok(Micros(500)));
        check("0", Err(()));
        check("-3", Err(()));
        check("fast", Err(()));
        check("", Err(()));
        check("9e15", Ok(Micros(9_000_000_000_000_000_000)));
        check("1e16", Err(()));
        assert_eq!(parse_target("1e16"), Err("The target is too large to be a time; type a number of milliseconds, such as 1000."));
    }
}
