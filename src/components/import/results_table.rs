//! The per-request table of an imported trace: sortable by any column
//! (buttons in the headers, with `aria-sort`), and paged, 50 rows at a time,
//! so a file of 100,000 requests stays quick.
//!
//! Only the columns the file can fill are shown: a benchmark client's file
//! has no queue wait or prefill, so those columns are left out and the page
//! says why above the table. The prefill header names its convention. What
//! it deliberately does not do: compute a figure. Order, standing, shares
//! and rates come from `ttft_import`.

use leptos::prelude::*;
use std::sync::Arc;
use ttft_import::report::{self, Column, Standing};
use ttft_import::tool_summary::Measure;
use ttft_import::{Clock, Import, ImportedRequest, PrefillConvention};
use ttft_latency::decimal::fixed;
use ttft_latency::time::group_thousands;
use ttft_latency::Micros;

/// Rows on one page of the table.
pub const PAGE_ROWS: usize = 50;

/// Which columns this file can fill.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Shown {
    split: bool,
    emit: bool,
    prefill: Option<PrefillConvention>,
    clock: Option<Clock>,
    measure: Measure,
}

impl Shown {
    fn of(import: &Import) -> Shown {
        let c = import.capability();
        Shown {
            split: c.splits_queue,
            emit: c.separates_emit,
            prefill: c.prefill,
            clock: c.clock,
            measure: Measure::of(import),
        }
    }

    fn columns(self) -> Vec<Column> {
        Column::ALL
            .into_iter()
            .filter(|c| match c {
                Column::QueueWait
                | Column::Prefill
                | Column::Unattributed
                | Column::LargestShare => self.split,
                Column::Emit => self.split && self.emit,
                _ => true,
            })
            .collect()
    }

    fn header(self, column: Column) -> String {
        match column {
            Column::Id => "Request".into(),
            Column::PromptTokens => "Prompt tokens".into(),
            Column::OutputTokens => "Output tokens".into(),
            Column::QueueWait => "Queue wait".into(),
            Column::Prefill => match self.prefill {
                Some(PrefillConvention::IncludesEmit) => "Prefill (vLLM's: includes emit)".into(),
                _ => "Prefill (to the first token's scores)".into(),
            },
            Column::Emit => "Emit".into(),
            Column::Unattributed => "Unattributed remainder".into(),
            Column::Ttft => match (self.measure == Measure::END_TO_END, self.clock) {
                (true, _) => "End-to-end (the file's TTFT; not streamed)".into(),
                (false, Some(Clock::Client)) => "TTFT (client clock: includes the network)".into(),
                (false, _) => "TTFT (server clock)".into(),
            },
            Column::LargestShare => "Largest delay and its share".into(),
            Column::OutputRate => "Output rate after the first token".into(),
            Column::Outcome => "Outcome".into(),
            Column::Standing => "Against the target".into(),
        }
    }
}

fn time(t: Option<Micros>) -> String {
    t.map_or_else(|| "not stated".to_owned(), |t| t.to_string())
}

fn count(n: Option<u64>) -> String {
    n.map_or_else(|| "not stated".to_owned(), group_thousands)
}

fn cell(r: &ImportedRequest, column: Column, target: Micros) -> String {
    let b = &r.breakdown;
    match column {
        Column::Id => r.id.clone(),
        Column::PromptTokens => count(r.prompt_tokens),
        Column::OutputTokens => count(r.output_tokens),
        Column::QueueWait => time(b.queue_wait),
        Column::Prefill => time(b.prefill.map(|p| p.duration)),
        Column::Emit => time(b.emit),
        Column::Unattributed => time(b.unattributed),
        Column::Ttft => {
            report::first_token(r).map_or_else(|| "no first token".to_owned(), |t| t.to_string())
        }
        Column::LargestShare => match report::largest_share(r) {
            Some((largest, share)) => format!("{largest}, {share}"),
            None if report::first_token(r).is_some() => "not split".to_owned(),
            None => "no first token".to_owned(),
        },
        Column::OutputRate => r
            .output_rate()
            .map_or_else(|| "not stated".to_owned(), |x| format!("{} tokens/s", fixed(x, 1))),
        Column::Outcome => match &r.error {
            Some(e) => format!("{}: {e}", r.outcome.label()),
            None => r.outcome.label().to_owned(),
        },
        Column::Standing => {
            let s = report::standing(r, target);
            match s {
                Standing::Over => format!("over {target}"),
                _ => s.label().to_owned(),
            }
        }
    }
}

fn is_number(column: Column) -> bool {
    !matches!(
        column,
        Column::Id | Column::LargestShare | Column::Outcome | Column::Standing
    )
}

/// The table of requests.
#[component]
pub fn ResultsTable(
    /// The imported file.
    import: Arc<Import>,
    /// The TTFT target.
    target: Signal<Micros>,
) -> impl IntoView {
    let shown = Shown::of(&import);
    let columns = shown.columns();
    let sort = RwSignal::new((Column::Id, false));
    let page = RwSignal::new(0usize);
    let total = import.requests.len();
    let sorted = {
        let import = Arc::clone(&import);
        Memo::new(move |_| {
            let (column, descending) = sort.get();
            // The target only matters to the standing column.
            let t = if column == Column::Standing {
                target.get()
            } else {
                Micros::ZERO
            };
            report::order(&import.requests, column, descending, t)
        })
    };
    let pages = total.div_ceil(PAGE_ROWS).max(1);

    let headers = columns
        .iter()
        .map(|&column| {
            let label = shown.header(column);
            let aria = move || match sort.get() {
                (c, false) if c == column => "ascending",
                (c, true) if c == column => "descending",
                _ => "none",
            };
            let click = move |_| {
                sort.update(|s| {
                    *s = if s.0 == column {
                        (column, !s.1)
                    } else {
                        (column, false)
                    }
                });
                page.set(0);
            };
            let class = if is_number(column) { "num" } else { "" };
            view! {
                <th scope="col" aria-sort=aria class=class>
                    <button type="button" class="sort-button" on:click=click>
                        {label}
                        <span class="sort-mark" aria-hidden="true">
                            {move || match aria() {
                                "ascending" => " \u{25b2}",
                                "descending" => " \u{25bc}",
                                _ => "",
                            }}
                        </span>
                    </button>
                </th>
            }
        })
        .collect_view();

    let rows = {
        let import = Arc::clone(&import);
        let columns = columns.clone();
        move || {
            let order = sorted.get();
            let t = target.get();
            let start = page.get() * PAGE_ROWS;
            order
                .iter()
                .skip(start)
                .take(PAGE_ROWS)
                .filter_map(|&i| import.requests.get(i))
                .map(|r| {
                    let cells = columns
                        .iter()
                        .map(|&c| {
                            let text = cell(r, c, t);
                            match c {
                                Column::Id => view! { <th scope="row">{text}</th> }.into_any(),
                                Column::Standing if report::standing(r, t) != Standing::Within => {
                                    view! { <td class="standing-missed"><strong>{text}</strong></td> }.into_any()
                                }
                                c if is_number(c) => view! { <td class="num">{text}</td> }.into_any(),
                                _ => view! { <td>{text}</td> }.into_any(),
                            }
                        })
                        .collect_view();
                    view! { <tr>{cells}</tr> }
                })
                .collect_view()
        }
    };
    let range = move || {
        let first = page.get() * PAGE_ROWS;
        let last = (first + PAGE_ROWS).min(total);
        format!(
            "Rows {}\u{2013}{} of {}",
            group_thousands((first + 1).min(total) as u64),
            group_thousands(last as u64),
            group_thousands(total as u64)
        )
    };

    view! {
        <section class="import-table" aria-labelledby="import-table-title">
            <h2 id="import-table-title">"Each request"</h2>
            <p class="field-help">"Select a column's heading to sort by it; select it again to reverse the order."</p>
            <div class="table-scroll table-wide" role="region" aria-labelledby="import-table-caption" tabindex="0">
                <table class="requests-table">
                    <caption id="import-table-caption">
                        "Requests in the file ("
                        {move || range().to_ascii_lowercase()}
                        ")"
                    </caption>
                    <thead>
                        <tr>{headers}</tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
            <nav class="pager" aria-label="Table pages">
                <button type="button" disabled=move || page.get() == 0 on:click=move |_| page.update(|p| *p = p.saturating_sub(1))>
                    "Previous 50"
                </button>
                <span aria-live="polite">{range}</span>
                <button
                    type="button"
                    disabled=move || { page.get() + 1 >= pages }
                    on:click=move |_| page.update(|p| *p = (*p + 1).min(pages - 1))
                >
                    "Next 50"
                </button>
            </nav>
        </section>
    }
}
