//! The trace exercise: four hint requests to diagnose against the target.
//!
//! The learner reads the trace table and a chart of each request's three
//! parts, then predicts, for each request, the dominant delay, its share of
//! TTFT and what to investigate first. "Check" hands the answers as they
//! stand to `ttft_core::exercises::trace_exercise::check_trace`; each field shows its verdict
//! next to it, with the misconception's title and explanation from content,
//! and the core's one-sentence summary is announced. "Reveal" shows the
//! core's answer with the content's reasoning (figures filled by the core).
//! Answers, attempts and the revealed state are one [`TraceWork`] value,
//! stored under its own key, so a reload keeps them.
//!
//! What it deliberately does not do: decide any verdict or compute any
//! share (the core does both), or show an answer before the learner asks.

use crate::components::chart_patterns::{ChartPatterns, Fill};
use crate::components::practice::dom_id;
use crate::components::prose::Prose;
use crate::learner_state;
use crate::learner_state::merge::next_stamp;
use crate::learner_state::trace_work::TraceWork;
use crate::storage::{now_ms, open_for_app, Stored};
use leptos::prelude::*;
use std::sync::Arc;
use ttft_core::content::{CauseClass, TraceExercise, TraceRow};
use ttft_core::exercises::number::NumberError;
use ttft_core::exercises::trace_exercise::{
    check_trace, DominantChoice, LearnerAnswer, Misconception, Reveal, ShareEntry, TraceCheck,
    Verdict,
};
use ttft_latency::split::format_tenths;
use ttft_latency::time::group_thousands;
use ttft_latency::{split_request, Micros, Part, TargetVerdict};

/// The three fields of an answer, for ids and messages.
#[derive(Clone, Copy, PartialEq, Eq)]
enum FieldKind {
    Dominant,
    Share,
    Investigate,
}

impl FieldKind {
    fn id(self) -> &'static str {
        match self {
            FieldKind::Dominant => "dominant",
            FieldKind::Share => "share",
            FieldKind::Investigate => "investigate",
        }
    }

    /// What a wrong answer with no named misconception should prompt.
    fn plain_wrong(self) -> &'static str {
        match self {
            FieldKind::Dominant => {
                "Not the largest part. Compare queue wait, prefill and emit for this request."
            }
            FieldKind::Share => {
                "Not the share of TTFT taken by the part you named. Divide that part by TTFT."
            }
            FieldKind::Investigate => {
                "This does not match what the request's split and the target call for."
            }
        }
    }

    /// Whether this field differs between two answers.
    fn differs(self, a: &LearnerAnswer, b: &LearnerAnswer) -> bool {
        match self {
            FieldKind::Dominant => a.dominant != b.dominant,
            FieldKind::Share => a.share_percent != b.share_percent,
            FieldKind::Investigate => a.investigate != b.investigate,
        }
    }
}

/// What is shown next to a field after a check.
#[derive(Clone, Debug, PartialEq)]
struct FieldMessage {
    /// `correct`, `close`, `wrong`, `missing` or `stale`, for the style.
    kind: &'static str,
    /// The verdict in a word or two.
    head: String,
    /// The explanation.
    body: String,
    /// Marked `aria-invalid` (wrong or unreadable only).
    invalid: bool,
}

fn message_for(
    verdict: &Result<Verdict, NumberError>,
    field: FieldKind,
    exercise: &TraceExercise,
) -> FieldMessage {
    let named = |m: Misconception| exercise.misconceptions.iter().find(|t| t.id == m.id());
    match verdict {
        Ok(Verdict::Correct) => {
            FieldMessage { kind: "correct", head: "Correct.".into(), body: String::new(), invalid: false }
        }
        Ok(Verdict::Close) => FieldMessage {
            kind: "close",
            head: "Close.".into(),
            body: format!(
                "Within {} percentage points of the share the trace gives; check your rounding to one decimal.",
                format_tenths(exercise.share_tolerance_tenths)
            ),
            invalid: false,
        },
        Ok(Verdict::Missing) => {
            FieldMessage { kind: "missing", head: "Not answered.".into(), body: String::new(), invalid: false }
        }
        Ok(Verdict::Wrong { misconception }) => match misconception.and_then(named) {
            Some(text) => FieldMessage {
                kind: "wrong",
                head: format!("Wrong: {}.", text.title),
                body: text.text.clone(),
                invalid: true,
            },
            None => FieldMessage { kind: "wrong", head: "Wrong.".into(), body: field.plain_wrong().into(), invalid: true },
        },
        Err(e) => FieldMessage { kind: "wrong", head: "Cannot be read:".into(), body: format!("{e}."), invalid: true },
    }
}

/// The message for `field` of the request with id `request`, at `index`
/// in the exercise: its verdict from the last check, or a note that it
/// changed since. `None` before any check.
fn field_message(
    work: &TraceWork,
    result: Option<&TraceCheck>,
    (index, request): (usize, &str),
    field: FieldKind,
    exercise: &TraceExercise,
) -> Option<FieldMessage> {
    let then = work.checked_answer(request)?;
    if field.differs(&then, &work.answer(request)) {
        return Some(FieldMessage {
            kind: "stale",
            head: "Changed since your last check.".into(),
            body: "Check again to see how it does.".into(),
            invalid: false,
        });
    }
    let row = match result?.rows.get(index)? {
        Ok(row) => row,
        Err(e) => {
            return Some(FieldMessage {
                kind: "wrong",
                head: "This request cannot be checked:".into(),
                body: format!("{e}."),
                invalid: false,
            })
        }
    };
    let verdict = match field {
        FieldKind::Dominant => Ok(row.dominant),
        FieldKind::Share => row.share.clone(),
        FieldKind::Investigate => Ok(row.investigate),
    };
    Some(message_for(&verdict, field, exercise))
}

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
    match &answer.share_percent {
        Some(ShareEntry::Text(t)) => t.clone(),
        Some(ShareEntry::Number(n)) => format!("{n}"),
        None => String::new(),
    }
}

/// What "investigate first" means for a cause class, in a phrase.
pub fn class_phrase(class: CauseClass) -> &'static str {
    match class {
        CauseClass::Queue => "admission and capacity: the queue",
        CauseClass::Prefill => "what goes into the prompt: prefill",
        CauseClass::Emit => "sampling and stream writing: emit",
        CauseClass::WithinTarget => "nothing: the request is within the target",
    }
}

/// The trace exercise part.
#[component]
pub fn TraceExercisePage(
    /// The exercise content.
    exercise: TraceExercise,
) -> impl IntoView {
    let stored: Stored<TraceWork> = open_for_app(learner_state::trace_work(&exercise));
    let work = stored.signal();
    let exercise = Arc::new(exercise);
    let target = Micros::from_ms(exercise.target_ms);

    let result = {
        let exercise = Arc::clone(&exercise);
        let ids: Vec<String> = exercise.requests.iter().map(|r| r.id.clone()).collect();
        Memo::new(move |_| {
            work.with(|w| {
                w.checked_in_order(ids.iter().map(String::as_str))
                    .map(|answers| check_trace(&exercise, &answers))
            })
        })
    };
    let reveals: Vec<Option<Reveal>> = check_trace(&exercise, &[])
        .rows
        .into_iter()
        .map(|r| r.ok().map(|r| r.reveal))
        .collect();

    let forms = exercise
        .requests
        .iter()
        .enumerate()
        .map(|(index, row)| request_form(index, row, Arc::clone(&exercise), stored.clone(), result))
        .collect_view();

    let summary = move || {
        let attempts = work.with(|w| w.attempts);
        result.with(|r| match r {
            Some(r) => format!("Check {attempts}: {}.", r.summary()),
            None => String::new(),
        })
    };
    let results = crate::components::embed::results::use_results();
    let on_check = {
        let stored = stored.clone();
        let exercise = Arc::clone(&exercise);
        move |_| {
            let _ = stored.update(|w| w.check(now_ms()));
            let answers = work.with_untracked(|w| {
                w.answers_in_order(exercise.requests.iter().map(|r| r.id.as_str()))
            });
            results.trace_checked(&exercise, &answers);
        }
    };
    let on_reveal = {
        let stored = stored.clone();
        move |_| {
            let _ = stored.update(|w| {
                let show = !w.revealed;
                w.set_revealed(show, now_ms());
            });
        }
    };
    let on_clear = {
        let stored = stored.clone();
        move |_| {
            let _ = stored.update(|w| {
                let stamp = w.changed_ms;
                *w = TraceWork::default();
                w.changed_ms = next_stamp(stamp, now_ms());
            });
        }
    };
    let revealed = move || work.with(|w| w.revealed);
    let attempts_text = move || match work.with(|w| w.attempts) {
        0 => "Not checked yet.".to_owned(),
        1 => "Checked once.".to_owned(),
        n => format!("Checked {n} times."),
    };
    let reveal_list = {
        let exercise = Arc::clone(&exercise);
        exercise
            .requests
            .iter()
            .zip(reveals)
            .map(|(row, reveal)| reveal_item(row, reveal, &exercise))
            .collect_view()
    };

    view! {
        <article class="practice trace-exercise">
            <h1 id="page-title"><Prose text=exercise.title.clone() /></h1>
            <p><Prose text=exercise.intro.clone() /></p>
            <p class="target">
                <strong>"Target: "</strong>
                {format!("a server TTFT of at most {target} per request.")}
            </p>
            <TraceTable rows=exercise.requests.clone() caption_id="trace-table-caption" />
            {trace_chart(&exercise.requests, target)}
            <section aria-labelledby="tx-answers-title" class="tx-answers">
                <h2 id="tx-answers-title">"Your diagnosis"</h2>
                <p>
                    "For each request: the dominant delay, its share of TTFT in percent (one decimal), \
                     and what you would investigate first. The share is checked as the share of the part you \
                     name. Check as often as you like."
                </p>
                <form class="tx-form" on:submit=|ev| ev.prevent_default()>
                    {forms}
                    <div class="practice-actions">
                        <button type="button" class="primary" on:click=on_check>"Check answers"</button>
                        <button
                            type="button"
                            aria-expanded=move || if revealed() { "true" } else { "false" }
                            aria-controls="tx-reveal"
                            on:click=on_reveal
                        >
                            {move || if revealed() { "Hide answers" } else { "Reveal answers" }}
                        </button>
                        <button type="button" on:click=on_clear>"Clear my answers"</button>
                        <span class="attempts">{attempts_text}</span>
                    </div>
                </form>
                <p class="practice-status" role="status" aria-live="polite" aria-label="Result of your check">{summary}</p>
            </section>
            <section id="tx-reveal" class="reveal" aria-labelledby="tx-reveal-title" hidden=move || !revealed()>
                <h2 id="tx-reveal-title">"Answers"</h2>
                <ol class="reveal-list">{reveal_list}</ol>
            </section>
        </article>
    }
}

fn request_form(
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

fn feedback(id: &str, m: FieldMessage) -> impl IntoView {
    view! {
        <p id=id.to_owned() class=format!("verdict verdict-{}", m.kind)>
            <strong>{m.head}</strong>
            {(!m.body.is_empty()).then(|| format!(" {}", m.body))}
        </p>
    }
}

fn reveal_item(row: &TraceRow, reveal: Option<Reveal>, exercise: &TraceExercise) -> impl IntoView {
    let Some(reveal) = reveal else {
        return view! { <li><p>{format!("{}: this request's times cannot be split.", row.id)}</p></li> }.into_any();
    };
    let e = &reveal.expected;
    let against = match e.verdict {
        TargetVerdict::Within { margin } => format!(
            "TTFT {}, within the target with {margin} to spare.",
            e.split.ttft()
        ),
        TargetVerdict::Over { by } => format!("TTFT {}, {by} over the target.", e.split.ttft()),
    };
    let actions: Vec<String> = exercise
        .actions
        .iter()
        .filter(|a| e.classes.contains(&a.class))
        .map(|a| a.label.clone())
        .collect();
    let shares = Part::ALL
        .into_iter()
        .map(|p| format!("{} {} ({})", p.label(), e.split.part(p), e.split.share(p)))
        .collect::<Vec<_>>()
        .join(", ");
    view! {
        <li class="reveal-item">
            <h3>{row.id.clone()}</h3>
            <dl class="reveal-facts">
                <div><dt>"Dominant delay"</dt><dd>{format!("{}, {} of TTFT", e.dominant, reveal.share_text)}</dd></div>
                <div><dt>"All three parts"</dt><dd>{shares}</dd></div>
                <div><dt>"Against the target"</dt><dd>{against}</dd></div>
                <div>
                    <dt>"Investigate first"</dt>
                    <dd>
                        {class_phrase(reveal.class)}
                        {(!actions.is_empty()).then(|| format!(" ({})", actions.join("; ")))}
                    </dd>
                </div>
            </dl>
            <p><Prose text=reveal.reasoning.clone() /></p>
        </li>
    }
    .into_any()
}

/// Left edge of the bars, after the request ids.
const BARS_LEFT: f64 = 36.0;
/// Width of the millisecond axis.
const BARS_WIDTH: f64 = 300.0;
const ROW_HEIGHT: f64 = 34.0;
const BAR_HEIGHT: f64 = 22.0;
const CHART_TOP: f64 = 28.0;

/// The trace chart's fill patterns, one for each part.
const PATTERNS: ChartPatterns = ChartPatterns::new("tx");

/// The step between axis ticks, in whole milliseconds: about five ticks.
fn tick_step(max_ms: i64) -> i64 {
    [
        100, 200, 250, 500, 1_000, 2_000, 2_500, 5_000, 10_000, 20_000, 50_000,
    ]
    .into_iter()
    .find(|step| max_ms / step <= 6)
    .unwrap_or(100_000)
}

/// The stacked bar chart of each request's queue wait, prefill and emit on
/// one millisecond axis, with the target line, and a data table beside it.
fn trace_chart(rows: &[TraceRow], target: Micros) -> impl IntoView {
    let splits: Vec<(String, Option<ttft_latency::TtftSplit>)> = rows
        .iter()
        .map(|r| {
            (
                r.id.clone(),
                split_request(&r.request_trace()).ok().map(|s| s.split),
            )
        })
        .collect();
    let longest = splits
        .iter()
        .filter_map(|(_, s)| s.map(|s| s.ttft()))
        .max()
        .unwrap_or_default()
        .max(target);
    let longest_ms = (longest.0 / 1_000).max(1);
    let step = tick_step(longest_ms);
    let axis_ms = ((longest_ms + step - 1) / step).max(1) * step;
    // Geometry only: milliseconds to drawing units.
    let x_of = |t: Micros| BARS_LEFT + t.as_ms_f64().max(0.0) * BARS_WIDTH / axis_ms as f64;
    let chart_height = CHART_TOP + ROW_HEIGHT * splits.len() as f64;

    let bars = splits
        .iter()
        .enumerate()
        .map(|(i, (id, split))| {
            let y = CHART_TOP + ROW_HEIGHT * i as f64 + (ROW_HEIGHT - BAR_HEIGHT) / 2.0;
            let label = view! {
                <text x="2" y=format!("{:.1}", y + BAR_HEIGHT / 2.0 + 4.5) class="chart-label">{id.clone()}</text>
            };
            let segments = split.map(|s| {
                let mut start = Micros::ZERO;
                Part::ALL
                    .into_iter()
                    .map(|part| {
                        let end = start + s.part(part);
                        let (x0, x1) = (x_of(start), x_of(end));
                        start = end;
                        view! {
                            <rect x=format!("{x0:.2}") y=format!("{y:.1}") width=format!("{:.2}", (x1 - x0).max(0.0))
                                height=BAR_HEIGHT.to_string() fill=PATTERNS.url(Fill::of(part)) class="chart-segment" />
                        }
                    })
                    .collect_view()
            });
            view! { <g>{label}{segments}</g> }
        })
        .collect_view();
    let ticks = (0..=axis_ms / step)
        .map(|k| {
            let ms = k * step;
            let x = x_of(Micros::from_ms(ms));
            let anchor = if k == 0 { "start" } else if ms == axis_ms { "end" } else { "middle" };
            view! {
                <line x1=format!("{x:.2}") x2=format!("{x:.2}") y1=CHART_TOP.to_string() y2=format!("{:.1}", chart_height + 3.0) class="chart-grid" />
                <text x=format!("{x:.2}") y=format!("{:.1}", chart_height + 16.0) class="chart-axis" text-anchor=anchor>
                    {group_thousands(ms.unsigned_abs())}
                </text>
            }
        })
        .collect_view();
    let target_x = x_of(target);
    let legend_y = chart_height + 40.0;
    let legend = Part::ALL
        .into_iter()
        .enumerate()
        .map(|(k, part)| {
            let x = BARS_LEFT + k as f64 * 100.0;
            view! {
                <rect x=format!("{x:.1}") y=format!("{:.1}", legend_y - 11.0) width="13" height="13"
                    fill=PATTERNS.url(Fill::of(part)) class="chart-segment" />
                <text x=format!("{:.1}", x + 18.0) y=format!("{legend_y:.1}") class="chart-label">{part.label()}</text>
            }
        })
        .collect_view();
    let total_height = legend_y + 8.0;
    let description = splits
        .iter()
        .map(|(id, s)| match s {
            Some(s) => format!(
                "{id}: queue wait {}, prefill {}, emit {}, TTFT {}.",
                s.queue_wait,
                s.prefill,
                s.emit,
                s.ttft()
            ),
            None => format!("{id}: cannot be split."),
        })
        .collect::<Vec<_>>()
        .join(" ");
    let table_rows = splits
        .iter()
        .map(|(id, s)| {
            let cell = |v: Option<Micros>| v.map_or_else(|| "n/a".to_owned(), |v| v.to_string());
            view! {
                <tr>
                    <th scope="row">{id.clone()}</th>
                    <td class="num">{cell(s.map(|s| s.queue_wait))}</td>
                    <td class="num">{cell(s.map(|s| s.prefill))}</td>
                    <td class="num">{cell(s.map(|s| s.emit))}</td>
                    <td class="num">{cell(s.map(|s| s.ttft()))}</td>
                </tr>
            }
        })
        .collect_view();

    view! {
        <figure class="tx-chart">
            <div class="tx-chart-and-table">
                <svg
                    viewBox=format!("0 0 360 {total_height:.0}")
                    role="img"
                    aria-labelledby="tx-chart-title tx-chart-desc"
                    focusable="false"
                >
                    <title id="tx-chart-title">"Queue wait, prefill and emit of each request"</title>
                    <desc id="tx-chart-desc">
                        {format!("Stacked bars on one millisecond axis from 0 to {} ms, with the target at {target}. {description}", group_thousands(axis_ms.unsigned_abs()))}
                    </desc>
                    {PATTERNS.defs(&[Fill::Queue, Fill::Prefill, Fill::Emit])}
                    <text x=BARS_LEFT.to_string() y="12" class="chart-axis">"server ms since arrival"</text>
                    {ticks}
                    {bars}
                    <line x1=format!("{target_x:.2}") x2=format!("{target_x:.2}") y1="16" y2=format!("{:.1}", chart_height + 3.0) class="chart-target" />
                    <text x=format!("{:.2}", target_x + 3.0) y="24" class="chart-target-label">{format!("target {target}")}</text>
                    {legend}
                </svg>
                <div class="table-scroll" role="region" aria-labelledby="tx-chart-table-caption" tabindex="0">
                    <table class="tx-chart-table">
                        <caption id="tx-chart-table-caption">"The chart's data (server ms)"</caption>
                        <thead>
                            <tr>
                                <th scope="col">"Request"</th>
                                <th scope="col">"Queue wait"</th>
                                <th scope="col">"Prefill"</th>
                                <th scope="col">"Emit"</th>
                                <th scope="col">"TTFT"</th>
                            </tr>
                        </thead>
                        <tbody>{table_rows}</tbody>
                    </table>
                </div>
            </div>
            <figcaption>
                {format!(
                    "Each bar is one request's time to first token: queue wait (hatched), then prefill (solid), \
                     then emit (dotted), on one axis. The dashed line is the {target} target."
                )}
            </figcaption>
        </figure>
    }
}

/// The trace table: one row per request, parts and TTFT in server
/// milliseconds on one clock.
#[component]
pub fn TraceTable(
    /// The requests, in trace order.
    rows: Vec<TraceRow>,
    /// The id of the table's caption, unique on the page.
    caption_id: &'static str,
) -> impl IntoView {
    let body = rows.iter().map(row).collect_view();
    view! {
        <div class="table-scroll" role="region" aria-labelledby=caption_id tabindex="0">
            <table class="trace-table">
                <caption id=caption_id>"The requests: server-side milliseconds on one clock"</caption>
                <thead>
                    <tr>
                        <th scope="col">"Request"</th>
                        <th scope="col">"Prompt tokens"</th>
                        <th scope="col">"Queued at arrival"</th>
                        <th scope="col">"Queue wait"</th>
                        <th scope="col">"Prefill"</th>
                        <th scope="col">"Emit"</th>
                        <th scope="col">"TTFT"</th>
                        <th scope="col">"Output rate after the first token"</th>
                    </tr>
                </thead>
                <tbody>{body}</tbody>
            </table>
        </div>
    }
}

fn row(r: &TraceRow) -> impl IntoView {
    let ttft = match split_request(&r.request_trace()) {
        Ok(split) => split.ttft().to_string(),
        Err(e) => format!("cannot be split: {e}"),
    };
    let prompt = match &r.prompt_note {
        Some(note) => format!("{} ({})", group_thousands(r.prompt_tokens), note),
        None => group_thousands(r.prompt_tokens),
    };
    view! {
        <tr>
            <th scope="row">{r.id.clone()}</th>
            <td>{prompt}</td>
            <td class="num">{group_thousands(r.queued_at_arrival)}</td>
            <td class="num">{Micros::from_ms(r.queue_wait_ms).to_string()}</td>
            <td class="num">{Micros::from_ms(r.prefill_ms).to_string()}</td>
            <td class="num">{Micros::from_ms(r.emit_ms).to_string()}</td>
            <td class="num">{ttft}</td>
            <td class="num">{format!("{} tokens/s", r.output_rate_tps)}</td>
        </tr>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_and_values() {
        assert_eq!(tick_step(2_400), 500);
        assert_eq!(tick_step(600), 100);
        assert_eq!(tick_step(1_000_000), 100_000);
        for c in DominantChoice::ALL {
            assert_eq!(choice_from_value(choice_value(c)), Some(c));
        }
        assert_eq!(choice_from_value(""), None);
    }
}
