//! The figures of a whole imported trace: p50, p90, p95 and p99 of TTFT and
//! of every piece the file records, under a percentile convention the
//! learner picks (a radio group), with the core's small-sample warnings;
//! requests by outcome and how the ones without a first token are treated;
//! counts by largest delay; and the short reading in plain words.
//!
//! What it deliberately does not do: compute a percentile, a count or a
//! sentence. They come from `ttft_latency::summarise` (through
//! `Import::summarise` and `Import::target_counts`) and `ttft_import::report`.

use leptos::prelude::*;
use std::sync::Arc;
use ttft_import::Import;
use ttft_import::{report, tool_summary};
use ttft_latency::time::group_thousands;
use ttft_latency::{Convention, Micros, Outcome, Percentiles, Summary};

fn row(name: String, p: &Percentiles) -> impl IntoView {
    let cells = p
        .values()
        .into_iter()
        .map(|v| view! { <td class="num">{v.value.to_string()}</td> })
        .collect_view();
    view! {
        <tr>
            <th scope="row">{name}</th>
            {cells}
            <td class="num">{group_thousands(p.count as u64)}</td>
        </tr>
    }
}

/// The summary of an import.
#[component]
pub fn ImportSummary(
    /// The imported file.
    import: Arc<Import>,
    /// The TTFT target.
    target: Signal<Micros>,
    /// The percentile convention, which the learner can switch here.
    convention: RwSignal<Convention>,
) -> impl IntoView {
    // Sorted once per convention; only the count against the target
    // follows the target as the learner types it.
    let summary = {
        let import = Arc::clone(&import);
        let sorted = {
            let import = Arc::clone(&import);
            Memo::new(move |_| import.summarise(None, convention.get()))
        };
        Memo::new(move |_| Summary {
            target: Some(import.target_counts(target.get())),
            ..sorted.get()
        })
    };
    let pieces = {
        let import = Arc::clone(&import);
        Memo::new(move |_| report::piece_percentiles(&import.requests, convention.get()))
    };
    let radio = move |value: Convention, id: &'static str, text: &'static str| {
        view! {
            <div class="choice">
                <input
                    type="radio"
                    id=id
                    name="import-convention"
                    prop:checked=move || convention.get() == value
                    on:change=move |_| convention.set(value)
                />
                <label for=id>{text}</label>
            </div>
        }
    };
    let unstreamed = tool_summary::unstreamed(&import);
    let first_row = if unstreamed {
        "End-to-end (the file's TTFT)"
    } else {
        "TTFT"
    };
    let tool_figures = {
        let import = Arc::clone(&import);
        move || {
            let rows = tool_summary::compare(&import, convention.get());
            if rows.is_empty() {
                return None;
            }
            let rows = rows
                .into_iter()
                .map(|c| {
                    let name = if c.run.is_empty() { c.key.clone() } else { format!("{} ({})", c.key, c.run) };
                    view! {
                        <tr>
                            <th scope="row"><code>{name}</code></th>
                            <td class="num">{c.tool.to_string()}</td>
                            <td class="num">{c.page.map_or_else(|| "none".to_owned(), |p| p.to_string())}</td>
                            <td>{c.why}</td>
                        </tr>
                    }
                })
                .collect_view();
            Some(view! {
                <h3>"The tool's own figures"</h3>
                <p>
                    "The file states its own summary. Each of its TTFT figures is set beside this page's, with \
                     why they differ, found by recomputing the figure from the file's requests."
                </p>
                <div class="table-scroll" role="region" aria-labelledby="import-tool-caption" tabindex="0">
                    <table class="tool-figures">
                        <caption id="import-tool-caption">"The tool's figures beside this page's"</caption>
                        <thead>
                            <tr>
                                <th scope="col">"Figure"</th>
                                <th scope="col" class="num">"Tool"</th>
                                <th scope="col" class="num">"This page"</th>
                                <th scope="col">"Why"</th>
                            </tr>
                        </thead>
                        <tbody>{rows}</tbody>
                    </table>
                </div>
            })
        }
    };
    let table = move || {
        let s = summary.get();
        let Some(ttft) = s.ttft.as_ref() else {
            return view! { <p>"No request has a first token, so there are no latency percentiles."</p> }.into_any();
        };
        let piece_rows = pieces
            .get()
            .into_iter()
            .map(|p| row(p.piece.label().to_owned(), &p.percentiles))
            .collect_view();
        let warnings: Vec<String> = ttft.warnings().iter().map(|w| w.to_string()).collect();
        let warn = (!warnings.is_empty()).then(|| {
            let items = warnings
                .into_iter()
                .map(|w| view! { <li>{w}</li> })
                .collect_view();
            view! {
                <div class="notice notice-info" role="note">
                    <p><strong>"Small sample. "</strong>"Read the tail percentiles with care:"</p>
                    <ul>{items}</ul>
                </div>
            }
        });
        view! {
            <div class="table-scroll" role="region" aria-labelledby="import-pct-caption" tabindex="0">
                <table class="percentile-table">
                    <caption id="import-pct-caption">{format!("Percentiles ({} convention)", s.convention)}</caption>
                    <thead>
                        <tr>
                            <th scope="col">"Figure"</th>
                            <th scope="col" class="num">"p50"</th>
                            <th scope="col" class="num">"p90"</th>
                            <th scope="col" class="num">"p95"</th>
                            <th scope="col" class="num">"p99"</th>
                            <th scope="col" class="num">"Requests"</th>
                        </tr>
                    </thead>
                    <tbody>
                        {row(first_row.to_owned(), ttft)}
                        {piece_rows}
                    </tbody>
                </table>
            </div>
            {warn}
        }
        .into_any()
    };
    let outcomes = {
        let import = Arc::clone(&import);
        move || {
            let s = summary.get();
            let counts = import.counts();
            let items = [Outcome::Failed, Outcome::Rejected, Outcome::Cancelled]
                .into_iter()
                .map(|o| {
                    let n = counts.get(o);
                    let without = s.no_first_token.get(o);
                    view! {
                        <li>
                            {format!(
                                "{}: {} ({} of them with no first token)",
                                o.label(),
                                group_thousands(n as u64),
                                group_thousands(without as u64)
                            )}
                        </li>
                    }
                })
                .collect_view();
            let empty = (counts.empty > 0).then(|| {
                view! {
                    <li>{format!("empty reply (no first token, no error recorded): {}", group_thousands(counts.empty as u64))}</li>
                }
            });
            let empty_why = (counts.empty > 0).then_some(report::EMPTY_REPLY);
            let missed = s.target.map(|t| {
                let not_judged = match counts.empty {
                    0 => String::new(),
                    1 => " The empty reply is not judged.".to_owned(),
                    n => format!(" The {} empty replies are not judged.", group_thousands(n as u64)),
                };
                format!(
                    "Against the {} target: {} within, {} over, {} with no first token (counted as missed).{not_judged}",
                    t.target,
                    group_thousands(t.within as u64),
                    group_thousands(t.over as u64),
                    group_thousands(t.no_first_token as u64)
                )
            });
            view! {
                <p>
                    {format!(
                        "{} requests: {} completed.",
                        group_thousands(counts.total() as u64),
                        group_thousands(s.outcomes.get(Outcome::Completed) as u64)
                    )}
                </p>
                <ul class="outcome-counts">{items}{empty}</ul>
                <p>{empty_why}</p>
                <p>{missed}</p>
            }
        }
    };
    // Over the whole file once; only the count over the target follows
    // the target as the learner types it.
    let all_largest = {
        let import = Arc::clone(&import);
        StoredValue::new(report::largest_counts(&import.requests, None))
    };
    let largest = {
        let import = Arc::clone(&import);
        move || {
            let t = target.get();
            let all = all_largest.get_value();
            let over = report::largest_counts(&import.requests, Some(t));
            if all.split() == 0 {
                return view! {
                    <p>
                        {format!(
                            "This file cannot say which delay is largest: none of its {} requests with a first token is split.",
                            group_thousands(all.unsplit as u64)
                        )}
                    </p>
                }
                .into_any();
            }
            let get = |c: &report::LargestCounts, p| {
                c.single
                    .iter()
                    .find(|(q, _)| *q == p)
                    .map_or(0, |(_, n)| *n)
            };
            let rows = all
                .single
                .iter()
                .map(|&(piece, n)| {
                    view! {
                        <tr>
                            <th scope="row">{piece.label()}</th>
                            <td class="num">{group_thousands(n as u64)}</td>
                            <td class="num">{group_thousands(get(&over, piece) as u64)}</td>
                        </tr>
                    }
                })
                .collect_view();
            view! {
                <div class="table-scroll" role="region" aria-labelledby="import-largest-caption" tabindex="0">
                    <table>
                        <caption id="import-largest-caption">"Requests by their largest delay"</caption>
                        <thead>
                            <tr>
                                <th scope="col">"Largest delay"</th>
                                <th scope="col" class="num">"All split requests"</th>
                                <th scope="col" class="num">{format!("Over the {t} target")}</th>
                            </tr>
                        </thead>
                        <tbody>
                            {rows}
                            <tr>
                                <th scope="row">"a tie"</th>
                                <td class="num">{group_thousands(all.ties as u64)}</td>
                                <td class="num">{group_thousands(over.ties as u64)}</td>
                            </tr>
                            <tr>
                                <th scope="row">"not split"</th>
                                <td class="num">{group_thousands(all.unsplit as u64)}</td>
                                <td class="num">{group_thousands(over.unsplit as u64)}</td>
                            </tr>
                        </tbody>
                    </table>
                </div>
            }
            .into_any()
        }
    };
    let reading = {
        let import = Arc::clone(&import);
        move || {
            let s = summary.get();
            report::reading(&import, &s)
                .into_iter()
                .map(|line| view! { <p>{line}</p> })
                .collect_view()
        }
    };

    view! {
        <section class="import-summary" aria-labelledby="import-summary-title">
            <h2 id="import-summary-title">"The whole trace"</h2>
            <div class="reading" role="group" aria-labelledby="import-reading-title">
                <h3 id="import-reading-title">"Reading"</h3>
                {reading}
            </div>
            <h3>"Percentiles"</h3>
            <fieldset class="convention">
                <legend>"Percentile convention"</legend>
                {radio(Convention::NearestRank, "import-conv-nearest", "Nearest rank (an observed value)")}
                {radio(Convention::Linear, "import-conv-linear", "Linear interpolation (numpy's default)")}
            </fieldset>
            {table}
            {tool_figures}
            <h3>"Largest delay"</h3>
            {largest}
            <h3>"Outcomes"</h3>
            {outcomes}
            <p class="treatment">{report::TREATMENT}</p>
        </section>
    }
}
