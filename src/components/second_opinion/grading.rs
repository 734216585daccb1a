//! The grading call: the exact request in a disclosure, "Send for a second
//! opinion" (enabled only once the request has been opened and read), the
//! streamed reply with a live status and a character count, Cancel, the
//! time limits, and every failure as a plain message. Offline, Send waits
//! and says why.
//!
//! Nothing is sent before the learner presses Send. The body sent is built
//! by `ttft_core::second_opinion::request::build_request` from the same inputs as the
//! preview, so what was read is what goes. Each chunk goes into a
//! `GradingStream` with its arrival instant; a timer checks twice a second
//! for the overall limit and for a stall, and stops the call through
//! `crate::http::Abort`, as Cancel does, so the request is really aborted.
//! A finished reply is checked by `grader::parse_reply`; a reply with any
//! problem is listed problem by problem and never shown as a score. The
//! stream refuses a reply past 64 KiB of text (`ttft_core::reply_limit`),
//! which stops the call like Cancel does.
//!
//! What it deliberately does not do: touch the answer or the self-score
//! (a failure leaves both as they were), or time anything itself.

use crate::components::second_opinion::settings::{resolve, KeyHeld};
use crate::components::second_opinion::timings::CallTimings;
use crate::connection::Online;
use crate::components::second_opinion::{Graded, Opinion};
use crate::http::{self, Abort};
use crate::learner_state::endpoint::SavedEndpoint;
use crate::learner_state::interview_work::InterviewWork;
use crate::storage::Stored;
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;
use ttft_core::content::Rubric;
use ttft_core::second_opinion::failures::CallFailure;
use ttft_core::second_opinion::reply::parse_reply;
use ttft_core::second_opinion::request::{build_request, preview};
use ttft_core::second_opinion::stream::GradingStream;
use ttft_latency::time::Micros;

/// The whole call may take this long.
pub const OVERALL_LIMIT: Micros = Micros(60_000_000);
/// Once the reply has started, silence this long is a stall.
pub const STALL_LIMIT: Micros = Micros(20_000_000);
/// How often the limits are checked.
const CHECK_EVERY: Duration = Duration::from_millis(500);

/// Where the call is.
#[derive(Clone, Debug, PartialEq)]
enum Phase {
    /// Nothing sent yet, or the last call is over.
    Idle,
    /// Sent; no reply yet.
    Waiting,
    /// The reply is streaming; characters of text so far.
    Streaming { chars: usize },
    /// The call failed: a message and, for a reply that was not a usable
    /// grade, every problem with it.
    Failed {
        message: String,
        problems: Vec<String>,
    },
    /// A grade arrived and is shown.
    Graded,
}

impl Phase {
    fn busy(&self) -> bool {
        matches!(self, Phase::Waiting | Phase::Streaming { .. })
    }
}

/// Preview, Send, progress, Cancel and the outcome of one grading call.
#[component]
pub fn GradingCall(
    /// The rubric the grader applies.
    rubric: Arc<Rubric>,
    /// The question as the grader reads it.
    question: String,
    /// The learner's work as the interview holds it; only the answer is
    /// read.
    work: Signal<InterviewWork>,
    /// The stored endpoint.
    endpoint: Stored<SavedEndpoint>,
    /// The key in use.
    key: RwSignal<Option<KeyHeld>>,
    /// Where a grade goes.
    opinion: Opinion,
) -> impl IntoView {
    let phase = RwSignal::new(Phase::Idle);
    let seen = RwSignal::new(false);
    let abort: StoredValue<Option<Abort>, LocalStorage> = StoredValue::new_local(None);
    let work_signal = work;
    let endpoint_signal = endpoint.signal();
    let question = Arc::new(question);
    let online = Online::from_context();

    let resolved = move || endpoint_signal.with(|e| key.with(|k| resolve(e, k.as_ref())));
    let answer = move || work_signal.with(|w| w.answer.clone());
    let request_text = {
        let (rubric, question) = (Arc::clone(&rubric), Arc::clone(&question));
        move || match resolved() {
            Ok(ep) => preview(
                &ep,
                &build_request(&ep.model, &rubric, &question, &answer()),
            ),
            Err(e) => format!("Nothing can be sent yet: {e}."),
        }
    };
    let blocker = move || match resolved() {
        _ if !online.get() => Some("You are offline: connect to the network to send.".to_owned()),
        Err(e) => Some(format!("Complete the settings first: {e}.")),
        Ok(_) if answer().trim().is_empty() => {
            Some("Write your answer first: there is nothing to grade.".to_owned())
        }
        Ok(_) if !seen.get() => Some("Open the request above and read it first.".to_owned()),
        Ok(_) => None,
    };

    let on_send = {
        let (rubric, question) = (Arc::clone(&rubric), Arc::clone(&question));
        move |_| {
            if phase.get_untracked().busy() || blocker().is_some() {
                return;
            }
            let Ok(ep) = resolved() else { return };
            let answer_sent = work_signal.with_untracked(|w| w.answer.clone());
            let request = build_request(&ep.model, &rubric, &question, &answer_sent);
            let body = request.body.to_string();
            // Only a key entered for this endpoint's origin goes with it.
            let key = key.with_untracked(|k| {
                endpoint_signal.with_untracked(|e| k.as_ref()?.for_endpoint(e).cloned())
            });
            let rubric = Arc::clone(&rubric);
            let handle = Abort::new();
            abort.set_value(Some(handle.clone()));
            phase.set(Phase::Waiting);

            let sent = http::now();
            let stream = Rc::new(RefCell::new(GradingStream::new(sent)));
            let started = Rc::new(RefCell::new(false));
            // Characters so far, counted as each piece arrives (never by
            // counting the whole reply again).
            let mut chars = 0_usize;
            let watchdog = {
                let (handle, stream, started) =
                    (handle.clone(), Rc::clone(&stream), Rc::clone(&started));
                set_interval_with_handle(
                    move || {
                        let now = http::now();
                        if now - sent >= OVERALL_LIMIT {
                            let failure = if *started.borrow() {
                                CallFailure::TooSlow {
                                    after: OVERALL_LIMIT,
                                }
                            } else {
                                CallFailure::Timeout {
                                    after: OVERALL_LIMIT,
                                }
                            };
                            handle.abort(failure);
                        } else if *started.borrow() && stream.borrow().stalled(now, STALL_LIMIT) {
                            handle.abort(CallFailure::Stalled {
                                silent_for: STALL_LIMIT,
                            });
                        }
                    },
                    CHECK_EVERY,
                )
                .ok()
            };

            spawn_local(async move {
                let result = http::post_streaming(
                    &ep.url,
                    &body,
                    key.as_ref(),
                    &handle,
                    || {
                        *started.borrow_mut() = true;
                        // Silence counts from the response's arrival.
                        let _ = stream.borrow_mut().receive(&[], http::now());
                        let _ = phase.try_set(Phase::Streaming { chars: 0 });
                    },
                    |bytes, at| {
                        let added = stream.borrow_mut().receive(bytes, at)?;
                        if !added.is_empty() {
                            chars += added.chars().count();
                            let _ = phase.try_set(Phase::Streaming { chars });
                        }
                        Ok(())
                    },
                )
                .await;
                if let Some(w) = watchdog {
                    w.clear();
                }
                let outcome = result.and_then(|end| {
                    let s = stream.replace(GradingStream::new(sent));
                    s.finish(end)
                });
                let next = match outcome {
                    Err(failure) => Phase::Failed { message: failure.explain(&ep), problems: Vec::new() },
                    Ok(received) => match parse_reply(&received.text, &rubric, &answer_sent) {
                        Ok(grade) => {
                            let graded = Graded {
                                model: ep.model.clone(),
                                grade,
                                timing: received.timing,
                                answer: answer_sent,
                                adopted: Default::default(),
                            };
                            let _ = opinion.0.try_set(Some(graded));
                            Phase::Graded
                        }
                        Err(problems) => Phase::Failed {
                            message: "The reply is not a usable grade, so no score from it is shown. What is wrong with it:"
                                .to_owned(),
                            problems: problems.iter().map(ToString::to_string).collect(),
                        },
                    },
                };
                let _ = phase.try_set(next);
                let _ = abort.try_set_value(None);
            });
        }
    };
    // Leaving the part stops a call in flight: nobody would see its result.
    on_cleanup(move || {
        abort.try_with_value(|a| {
            if let Some(a) = a {
                a.abort(CallFailure::Cancelled);
            }
        });
    });
    let on_cancel = move |_| {
        abort.with_value(|a| {
            if let Some(a) = a {
                a.abort(CallFailure::Cancelled);
            }
        });
    };

    let status = move || match phase.get() {
        Phase::Idle => String::new(),
        Phase::Waiting => "Grading… request sent, waiting for the reply.".to_owned(),
        Phase::Streaming { .. } => "Grading… the reply is arriving.".to_owned(),
        Phase::Failed { .. } => {
            "The grading call did not give a grade; your answer and self-score are unchanged."
                .to_owned()
        }
        Phase::Graded => "The AI's grade is below, beside your own scores.".to_owned(),
    };
    let progress = move || match phase.get() {
        Phase::Streaming { chars } => format!("{chars} characters received"),
        Phase::Waiting => "0 characters received".to_owned(),
        _ => String::new(),
    };
    let failure = move || match phase.get() {
        Phase::Failed { message, problems } => Some(view! {
            <div class="verdict verdict-wrong so-failure" role="group" aria-label="Why it was not graded">
                <p><strong>"Not graded. "</strong>{message}</p>
                {(!problems.is_empty()).then(|| view! {
                    <ul class="so-problems">{problems.into_iter().map(|p| view! { <li>{p}</li> }).collect_view()}</ul>
                })}
            </div>
        }),
        _ => None,
    };
    let timings = move || {
        (phase.get() == Phase::Graded)
            .then(|| opinion.0.with(|g| g.as_ref().map(|g| g.timing.clone())))
            .flatten()
            .map(|t| view! { <CallTimings timing=t /> })
    };

    view! {
        <div class="so-grading">
            <details class="so-preview" on:toggle=move |ev| {
                use wasm_bindgen::JsCast;
                let open = ev
                    .target()
                    .and_then(|t| t.dyn_into::<web_sys::HtmlDetailsElement>().ok())
                    .is_some_and(|d| d.open());
                if open {
                    seen.set(true);
                }
            }>
                <summary>"See exactly what will be sent"</summary>
                <p class="note-small">"The address, the model and both messages in full; your key is not part of it."</p>
                <pre class="so-request" tabindex="0" aria-label="The request as it will be sent">{request_text}</pre>
            </details>
            <p class="practice-actions">
                <button
                    type="button"
                    class="primary"
                    aria-describedby="so-send-note"
                    disabled=move || blocker().is_some() || phase.get().busy()
                    on:click=on_send
                >
                    "Send for a second opinion"
                </button>
                {move || phase.get().busy().then(|| view! {
                    <button type="button" on:click=on_cancel>"Cancel"</button>
                })}
            </p>
            <p id="so-send-note" class="note-small">{move || blocker().unwrap_or_default()}</p>
            <p class="so-status" role="status" aria-live="polite" aria-label="Second opinion status">{status}</p>
            <p class="so-progress note-small">{progress}</p>
            {failure}
            {timings}
        </div>
    }
}
