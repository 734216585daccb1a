//! The "Import a trace" part (`?part=import`): a learner brings their own
//! server's trace and sees its time to first token split as far as the file
//! allows.
//!
//! The page owns the state: what is being read (with progress and Cancel),
//! the imported file, the target and the percentile convention. It shows
//! the detected format with what that format can and cannot split, the
//! lines or records that could not be read, a file's run summary when that
//! is all it holds, and then the summary, charts, table and CSV export.
//!
//! What it deliberately does not do: arithmetic on latencies (every figure
//! comes from `ttft_core` or `ttft_import`), keep the file anywhere but in
//! memory, or send it anywhere.

use super::drop_zone::DropZone;
use super::import_charts::ImportCharts;
use super::import_summary::ImportSummary;
use super::results_table::ResultsTable;
use super::slices::{download, read_file, ReadEnd, Step};
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::sync::Arc;
use ttft_import::{export, import, report, tool_summary, Import, UnknownFormat};
use ttft_latency::time::group_thousands;
use ttft_latency::{parse_ms, Convention, Micros, MsError};
use web_sys::File;

/// The course's example trace, embedded so it needs no fetch.
pub const EXAMPLE: &str = include_str!("../../../content/samples/course-trace.otlp.jsonl");

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

/// "12.3 MB": a byte count for the progress line.
fn megabytes(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1_000_000.0)
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
    let run = StoredValue::new(0u64);
    let target = RwSignal::new(Micros::from_ms(DEFAULT_TARGET_MS));
    let target_text = RwSignal::new(DEFAULT_TARGET_MS.to_string());
    let target_error = RwSignal::new(None::<&'static str>);
    let convention = RwSignal::new(Convention::NearestRank);

    let begin = move || {
        run.update_value(|r| *r += 1);
        run.get_value()
    };
    let finish = move |name: String, result: Result<Import, UnknownFormat>| match result {
        Ok(imp) => {
            loaded.set(Some(Arc::new(imp)));
            stage.set(Stage::Done { name });
        }
        Err(error) => {
            loaded.set(None);
            stage.set(Stage::Unknown { name, error });
        }
    };

    let on_file = Callback::new(move |file: File| {
        let mine = begin();
        let name = file.name();
        loaded.set(None);
        stage.set(Stage::Reading {
            name: name.clone(),
            read: 0,
            total: file.size() as u64,
            requests: 0,
            problems: 0,
        });
        let total = file.size() as u64;
        spawn_local(async move {
            let current = move || run.try_get_value() == Some(mine);
            let report_name = name.clone();
            let end = read_file(file, current, move |step| {
                if run.try_get_value() != Some(mine) {
                    return;
                }
                stage.set(match step {
                    Step::Reading { read, progress } => Stage::Reading {
                        name: report_name.clone(),
                        read,
                        total,
                        requests: progress.requests,
                        problems: progress.problems,
                    },
                    Step::Parsing => Stage::Parsing {
                        name: report_name.clone(),
                    },
                });
            })
            .await;
            if run.try_get_value() != Some(mine) {
                return;
            }
            match end {
                ReadEnd::Done(imp) => finish(name, Ok(imp)),
                ReadEnd::Unknown(error) => finish(name, Err(error)),
                ReadEnd::Cancelled => stage.set(Stage::Cancelled { name }),
                ReadEnd::Failed(reason) => stage.set(Stage::Failed { name, reason }),
            }
        });
    });
    let on_text = Callback::new(move |text: String| {
        begin();
        finish("the pasted text".to_owned(), import(&text));
    });
    let on_example = Callback::new(move |()| {
        begin();
        finish("the course's example trace".to_owned(), import(EXAMPLE));
    });
    let cancel = move |_| {
        let name = match stage.get_untracked() {
            Stage::Reading { name, .. } | Stage::Parsing { name } => name,
            _ => return,
        };
        begin();
        loaded.set(None);
        stage.set(Stage::Cancelled { name });
    };

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
            <button type="button" on:click=cancel>"Cancel"</button>
        }
        .into_any(),
        Stage::Parsing { name } => view! {
            <p>{format!("Parsing\u{2026} {name} is one JSON document, so it is read in one step now that all of it has arrived.")}</p>
            <button type="button" on:click=cancel>"Cancel"</button>
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
                    <ImportCharts import=Arc::clone(&imp) target=target_signal />
                    <ResultsTable import=Arc::clone(&imp) target=target_signal />
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
            <DropZone on_file=on_file on_text=on_text on_example=on_example />
            <section class="import-status" aria-labelledby="import-status-title">
                <h2 id="import-status-title" class="visually-hidden">"Import status"</h2>
                <div role="status">{status}</div>
            </section>
            {results}
        </article>
    }
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

    #[test]
    fn the_example_is_a_server_split() {
        let imp = import(EXAMPLE).expect("the example is detected");
        assert!(imp.capability().splits_queue);
        assert!(imp.requests.iter().all(|r| r.breakdown.pieces().is_some()));
    }
}
