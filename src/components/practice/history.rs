//! The saved self-scores: newest first with date, total, readiness, hints
//! used and answer length; the trend as a sentence from the core and a
//! small sparkline; delete with Undo; export to a JSON file; import one.
//!
//! The scores are a `ttft_core::history::SavedScores` kept through
//! `storage::Stored`, so they survive a reload and merge between tabs (a
//! delete in one tab holds in the others). Import reads the file with
//! `ttft_core::history::parse`, which refuses a bad file with the reason;
//! nothing is changed then. Merging an import never doubles an entry,
//! because entry ids come from their content. One status line, a polite
//! live region, announces every action here; after a delete it holds an
//! Undo button for ten seconds or until the next action.
//!
//! What it deliberately does not do: compute totals or readiness (saved
//! entries carry the core's), or read the file system beyond the one file
//! the learner picks.

use crate::components::chart_patterns::hundredths;
use crate::storage::{now_ms, Stored};
use leptos::prelude::*;
use std::time::Duration;
use ttft_core::history::{parse, Entry, History, SavedScores};

/// How long the Undo button stays after a delete.
const UNDO_FOR: Duration = Duration::from_secs(10);
/// The largest file import reads; a saved history is a few kilobytes.
const IMPORT_LIMIT_BYTES: f64 = 1_000_000.0;

/// What the status line says, and what Undo would restore.
#[derive(Clone, Debug, Default, PartialEq)]
struct StatusLine {
    text: String,
    undo: Option<Vec<Entry>>,
    /// Changes with every message, so an old timer cannot clear a new Undo.
    serial: u64,
}

/// The history's status line, shared with the self-score so a save is
/// announced in the same place.
#[derive(Clone, Copy)]
pub struct HistoryStatus {
    line: RwSignal<StatusLine>,
}

impl Default for HistoryStatus {
    fn default() -> Self {
        HistoryStatus::new()
    }
}

impl HistoryStatus {
    /// An empty status line.
    pub fn new() -> HistoryStatus {
        HistoryStatus {
            line: RwSignal::new(StatusLine::default()),
        }
    }

    /// Announces `text`; any Undo on offer goes away. Does nothing once the
    /// part is gone (an import can finish after the learner has moved on).
    pub fn say(&self, text: String) {
        let _ = self.line.try_update(|l| {
            l.serial += 1;
            l.text = text;
            l.undo = None;
        });
    }

    /// Announces `text` with an Undo that restores `entries`, for
    /// [`UNDO_FOR`] or until the next message.
    fn offer_undo(&self, text: String, entries: Vec<Entry>) {
        let line = self.line;
        let serial = line.with_untracked(|l| l.serial) + 1;
        line.set(StatusLine {
            text,
            undo: Some(entries),
            serial,
        });
        set_timeout(
            move || {
                if line.try_with_untracked(|l| l.serial == serial) == Some(true) {
                    let _ = line.try_update(|l| l.undo = None);
                }
            },
            UNDO_FOR,
        );
    }
}

/// `ttft-lab-history-2026-11-29.json`.
pub fn export_filename(year: u32, month: u32, day: u32) -> String {
    format!("ttft-lab-history-{year:04}-{month:02}-{day:02}.json")
}

/// "1 score" or "3 scores".
fn scores(n: usize) -> String {
    if n == 1 {
        "1 score".into()
    } else {
        format!("{n} scores")
    }
}

/// A save time as the page shows it ("29 Nov 2026, 22:40", in the
/// learner's time zone) and as a machine-readable `datetime`.
pub(crate) fn saved_at(ms: i64) -> (String, String) {
    #[cfg(target_arch = "wasm32")]
    {
        let date = js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(ms as f64));
        let options = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&options, &"dateStyle".into(), &"medium".into());
        let _ = js_sys::Reflect::set(&options, &"timeStyle".into(), &"short".into());
        let shown: String = date.to_locale_string("en-GB", &options).into();
        let iso: String = date.to_iso_string().into();
        (shown, iso)
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        (format!("{ms} ms"), ms.to_string())
    }
}

fn today_filename() -> String {
    #[cfg(target_arch = "wasm32")]
    {
        let d = js_sys::Date::new_0();
        export_filename(d.get_full_year(), d.get_month() + 1, d.get_date())
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        export_filename(1970, 1, 1)
    }
}

/// Offers `json` as a file download named `filename`.
pub(crate) fn download(filename: &str, json: &str) -> Result<(), String> {
    use wasm_bindgen::JsCast;
    let why = |e: wasm_bindgen::JsValue| {
        e.as_string()
            .unwrap_or_else(|| "the browser refused".into())
    };
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(json));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("application/json");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).map_err(why)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(why)?;
    let link = document().create_element("a").map_err(why)?;
    link.set_attribute("href", &url).map_err(why)?;
    link.set_attribute("download", filename).map_err(why)?;
    let link: web_sys::HtmlElement = link.dyn_into().map_err(|_| "no link element".to_owned())?;
    link.click();
    set_timeout(
        move || {
            let _ = web_sys::Url::revoke_object_url(&url);
        },
        Duration::from_secs(2),
    );
    Ok(())
}

/// The saved scores with their trend, delete and Undo, export and import.
#[component]
pub fn ScoreHistory(
    /// The saved scores.
    saved: Stored<SavedScores>,
    /// The status line shared with the self-score.
    status: HistoryStatus,
    /// The highest total the rubric allows (`ttft_core::rubric::max_total`).
    max_total: u32,
) -> impl IntoView {
    let scores_now = saved.signal();
    let entries = move || scores_now.with(|s| s.history.entries.clone());
    let count = move || scores_now.with(|s| s.history.entries.len());

    let delete = {
        let saved = saved.clone();
        move |id: String| {
            let mut removed = None;
            let _ = saved.update(|s| removed = s.remove(&id, now_ms()));
            if let Some(entry) = removed {
                let (shown, _) = saved_at(entry.saved_at_ms);
                status.offer_undo(format!("Deleted the score saved {shown}."), vec![entry]);
            }
        }
    };
    let delete_all = {
        let saved = saved.clone();
        move |_| {
            let before = scores_now.with_untracked(|s| s.history.entries.clone());
            if before.is_empty() {
                status.say("There are no saved scores to delete.".into());
                return;
            }
            let _ = saved.update(|s| {
                s.remove_all(now_ms());
            });
            status.offer_undo(format!("Deleted all {}.", scores(before.len())), before);
        }
    };
    let undo = {
        let saved = saved.clone();
        move |_| {
            let Some(entries) = status.line.with_untracked(|l| l.undo.clone()) else {
                return;
            };
            let _ = saved.update(|s| {
                for e in entries.iter().cloned() {
                    s.add(e, now_ms());
                }
            });
            status.say(format!("Restored {}.", scores(entries.len())));
        }
    };
    let export = move |_| {
        let json = scores_now.with_untracked(|s| s.history.to_json());
        let n = scores_now.with_untracked(|s| s.history.entries.len());
        let name = today_filename();
        match download(&name, &json) {
            Ok(()) => status.say(format!("Exported {} to {name}.", scores(n))),
            Err(e) => status.say(format!("The export failed: {e}.")),
        }
    };
    let import = {
        let saved = saved.clone();
        move |ev: leptos::ev::Event| {
            let input: web_sys::HtmlInputElement = event_target(&ev);
            let Some(file) = input.files().and_then(|list| list.get(0)) else {
                return;
            };
            input.set_value("");
            let name = file.name();
            if file.size() > IMPORT_LIMIT_BYTES {
                status.say(format!(
                    "{name} was not imported: it is larger than a saved history can be. Your saved scores are unchanged."
                ));
                return;
            }
            let saved = saved.clone();
            leptos::task::spawn_local(async move {
                let text = wasm_bindgen_futures::JsFuture::from(file.text()).await;
                let Some(text) = text.ok().and_then(|t| t.as_string()) else {
                    status.say(format!(
                        "{name} could not be read. Your saved scores are unchanged."
                    ));
                    return;
                };
                match parse(&text) {
                    Err(e) => status.say(format!(
                        "{name} was not imported: {e}. Your saved scores are unchanged."
                    )),
                    Ok(history) => {
                        let mut added = 0;
                        let _ = saved.update(|s| added = s.import(&history, now_ms()));
                        let already = history.entries.len().saturating_sub(added);
                        status.say(format!(
                            "Imported {name}: {} new, {} already here.",
                            scores(added),
                            scores(already)
                        ));
                    }
                }
            });
        }
    };

    let rows = move || {
        entries()
            .into_iter()
            .map(|e| {
                let (shown, iso) = saved_at(e.saved_at_ms);
                let id = e.id.clone();
                let delete = delete.clone();
                let label = format!("Delete the score saved {shown}");
                view! {
                    <tr>
                        <th scope="row"><time datetime=iso>{shown}</time></th>
                        <td class="num">{format!("{} of {max_total}", e.total)}</td>
                        <td>{if e.ready { "ready" } else { "not yet ready" }}</td>
                        <td class="num">{e.hints_used.map_or_else(|| "not recorded".to_owned(), |h| h.to_string())}</td>
                        <td class="num">{e.answer_chars.map_or_else(|| "not recorded".to_owned(), |c| c.to_string())}</td>
                        <td>{ai_cell(&e, max_total)}</td>
                        <td>
                            <button type="button" class="small" aria-label=label on:click=move |_| delete(id.clone())>
                                "Delete"
                            </button>
                        </td>
                    </tr>
                }
            })
            .collect_view()
    };
    let trend = move || scores_now.with(|s| trend_view(&s.history, max_total));
    let gap_line = move || {
        scores_now
            .with(|s| s.history.gap_trend())
            .map(|g| view! { <p class="history-gap">{format!("{g}.")}</p> })
    };

    view! {
        <div class="score-history">
            <div class="history-status" role="status" aria-live="polite" aria-label="Saved scores status">
                {move || {
                    let line = status.line.get();
                    (!line.text.is_empty()).then(|| {
                        view! {
                            <p>
                                {line.text}
                                {line.undo.is_some().then(|| view! {
                                    <button type="button" class="small undo" on:click=undo.clone()>"Undo"</button>
                                })}
                            </p>
                        }
                    })
                }}
            </div>
            {move || {
                if count() == 0 {
                    view! {
                        <p class="history-empty">"No saved scores yet. Score all five dimensions, then save."</p>
                    }
                    .into_any()
                } else {
                    view! {
                        {trend()}
                        {gap_line()}
                        <div class="table-scroll" role="region" aria-labelledby="history-caption" tabindex="0">
                            <table class="history-table">
                                <caption id="history-caption">"Saved scores, newest first"</caption>
                                <thead>
                                    <tr>
                                        <th scope="col">"Saved"</th>
                                        <th scope="col" class="num">"Total"</th>
                                        <th scope="col">"Readiness"</th>
                                        <th scope="col" class="num">"Hints used"</th>
                                        <th scope="col" class="num">"Answer (characters)"</th>
                                        <th scope="col">"AI second opinion"</th>
                                        <th scope="col"><span class="visually-hidden">"Actions"</span></th>
                                    </tr>
                                </thead>
                                <tbody>{rows()}</tbody>
                            </table>
                        </div>
                    }
                    .into_any()
                }
            }}
            <div class="history-actions">
                <button type="button" on:click=export>"Export scores (JSON)"</button>
                <button type="button" on:click=delete_all>"Delete all scores"</button>
                <div class="field">
                    <label for="history-import">"Import scores from a JSON file"</label>
                    <input id="history-import" type="file" accept=".json,application/json" on:change=import />
                </div>
            </div>
        </div>
    }
}

/// The trend sentence from the core and a sparkline of the totals, oldest
/// to newest; nothing with fewer than two scores.
/// The AI column of one saved score: the AI's total and model, the gap the
/// core computes, and how many dimensions were adopted.
fn ai_cell(e: &Entry, max_total: u32) -> String {
    let Some(ai) = &e.second_opinion else {
        return "none".to_owned();
    };
    let total = ai.total();
    let gap = e.gap().map_or_else(
        || "every dimension adopted".to_owned(),
        |g| format!("you: {g}"),
    );
    let adopted = match ai.adopted.len() {
        0 => String::new(),
        1 => "; 1 score adopted".to_owned(),
        n => format!("; {n} scores adopted"),
    };
    format!("{total} of {max_total} from {}; {gap}{adopted}", ai.model)
}

fn trend_view(history: &History, max_total: u32) -> Option<impl IntoView> {
    let trend = history.trend()?;
    // Oldest first for the line; the totals are the core's saved ones.
    let totals: Vec<u32> = history.entries.iter().rev().map(|e| e.total).collect();
    // In hundredths of a drawing unit, rounded half up: no float to format.
    let (width, height, pad) = (16_000_u64, 4_000_u64, 400_u64);
    let max = u64::from(max_total.max(1));
    let gaps = totals.len().saturating_sub(1).max(1) as u64;
    let point = |i: usize, t: u32| {
        let x = pad + ((width - 2 * pad) * i as u64 + gaps / 2) / gaps;
        let y = height - pad - ((height - 2 * pad) * u64::from(t).min(max) + max / 2) / max;
        (hundredths(x), hundredths(y))
    };
    let points = totals
        .iter()
        .enumerate()
        .map(|(i, &t)| {
            let (x, y) = point(i, t);
            format!("{x},{y}")
        })
        .collect::<Vec<_>>()
        .join(" ");
    let dots = totals
        .iter()
        .enumerate()
        .map(|(i, &t)| {
            let (x, y) = point(i, t);
            view! { <circle cx=x cy=y r="2.5" class="spark-dot" /> }
        })
        .collect_view();
    let listed = totals
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    let sentence = format!("{trend}.");
    Some(view! {
        <div class="trend">
            <svg viewBox=format!("0 0 {} {}", width / 100, height / 100) class="sparkline" role="img" aria-labelledby="trend-title trend-desc" focusable="false">
                <title id="trend-title">"Totals of your saved scores, oldest to newest"</title>
                <desc id="trend-desc">{format!("Out of {max_total}: {listed}.")}</desc>
                <line x1=hundredths(pad) x2=hundredths(width - pad) y1=hundredths(height - pad) y2=hundredths(height - pad) class="chart-rule" />
                <polyline points=points class="spark-line" />
                {dots}
            </svg>
            <p class="trend-sentence">{sentence}</p>
        </div>
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(y: u32, m: u32, d: u32, expected: &str) {
        assert_eq!(export_filename(y, m, d), expected);
    }

    #[test]
    fn export_names_carry_the_date() {
        check(2026, 11, 29, "ttft-lab-history-2026-11-29.json");
        check(2027, 1, 5, "ttft-lab-history-2027-01-05.json");
        assert_eq!(scores(1), "1 score");
        assert_eq!(scores(0), "0 scores");
    }
}
