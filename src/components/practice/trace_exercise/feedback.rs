//! What each field of the trace exercise shows after a check: its verdict
//! in words (with the misconception's title and text from content), or a
//! note that it changed since the check.

use crate::learner_state::trace_work::TraceWork;
use leptos::prelude::*;
use ttft_core::content::TraceExercise;
use ttft_core::exercises::trace_exercise::{
    LearnerAnswer, Misconception, TraceCheck, TraceVerdict,
};
use ttft_latency::split::format_tenths;

/// The three fields of an answer, for ids and messages.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum FieldKind {
    Dominant,
    Share,
    Investigate,
}

impl FieldKind {
    pub(super) fn id(self) -> &'static str {
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
pub(super) struct FieldMessage {
    /// `correct`, `close`, `wrong`, `missing` or `stale`, for the style.
    pub(super) kind: &'static str,
    /// The verdict in a word or two.
    pub(super) head: String,
    /// The explanation.
    pub(super) body: String,
    /// Marked `aria-invalid` (wrong or unreadable only).
    pub(super) invalid: bool,
}

fn message_for(verdict: &TraceVerdict, field: FieldKind, exercise: &TraceExercise) -> FieldMessage {
    let named = |m: Misconception| exercise.misconceptions.iter().find(|t| t.id == m.id());
    match verdict {
        TraceVerdict::Correct => {
            FieldMessage { kind: "correct", head: "Correct.".into(), body: String::new(), invalid: false }
        }
        TraceVerdict::Close(()) => FieldMessage {
            kind: "close",
            head: "Close.".into(),
            body: format!(
                "Within {} percentage points of the share the trace gives; check your rounding to one decimal.",
                format_tenths(exercise.share_tolerance_tenths)
            ),
            invalid: false,
        },
        TraceVerdict::Missing => {
            FieldMessage { kind: "missing", head: "Not answered.".into(), body: String::new(), invalid: false }
        }
        TraceVerdict::Wrong(misconception) => match misconception.and_then(named) {
            Some(text) => FieldMessage {
                kind: "wrong",
                head: format!("Wrong: {}.", text.title),
                body: text.text.clone(),
                invalid: true,
            },
            None => FieldMessage { kind: "wrong", head: "Wrong.".into(), body: field.plain_wrong().into(), invalid: true },
        },
        TraceVerdict::Unreadable(e) => FieldMessage { kind: "wrong", head: "Cannot be read:".into(), body: format!("{e}."), invalid: true },
    }
}

/// The message for `field` of the request with id `request`, at `index`
/// in the exercise: its verdict from the last check, or a note that it
/// changed since. `None` before any check.
pub(super) fn field_message(
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
        FieldKind::Dominant => &row.dominant,
        FieldKind::Share => &row.share,
        FieldKind::Investigate => &row.investigate,
    };
    Some(message_for(verdict, field, exercise))
}

pub(super) fn feedback(id: &str, m: FieldMessage) -> impl IntoView {
    view! {
        <p id=id.to_owned() class=format!("verdict verdict-{}", m.kind)>
            <strong>{m.head}</strong>
            {(!m.body.is_empty()).then(|| format!(" {}", m.body))}
        </p>
    }
}
