//! What each field of a workload's form shows after a check: its verdict in
//! words beside it, or a note that it changed since.

use leptos::prelude::*;
use ttft_core::exercises::config_choice::{
    ChoiceVerdict, FitVerdict, NumberMistake, NumberVerdict, WorkloadCheck, WorkloadInput,
};

/// One answer field of a workload's form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Field {
    Choice,
    Total,
    Seconds(String),
    Fits(String),
    Late(String),
    Evidence(String),
}

impl Field {
    /// The field's value in an input, to tell whether it changed.
    pub(super) fn value(&self, input: &WorkloadInput) -> String {
        match self {
            Field::Choice => input.choice.clone().unwrap_or_default(),
            Field::Total => input.total_tokens.clone().unwrap_or_default(),
            Field::Seconds(c) => input.seconds.get(c).cloned().unwrap_or_default(),
            Field::Fits(c) => input.fits.get(c).map(|b| b.to_string()).unwrap_or_default(),
            Field::Late(c) => input.late_percent.get(c).cloned().unwrap_or_default(),
            Field::Evidence(id) => input.evidence.iter().any(|e| e == id).to_string(),
        }
    }
}

/// What is shown beside a field after a check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Message {
    pub(super) kind: &'static str,
    pub(super) head: String,
    pub(super) body: String,
    pub(super) invalid: bool,
}

impl Message {
    pub(super) fn new(
        kind: &'static str,
        head: impl Into<String>,
        body: impl Into<String>,
    ) -> Message {
        Message {
            kind,
            head: head.into(),
            body: body.into(),
            invalid: kind == "wrong",
        }
    }
}

fn number_message(v: &NumberVerdict, how: &str) -> Message {
    match v {
        NumberVerdict::Correct => Message::new("correct", "Correct.", ""),
        NumberVerdict::Close(()) => Message::new(
            "close",
            "Close.",
            "Nearly there; check your arithmetic and rounding.",
        ),
        NumberVerdict::Wrong(NumberMistake::Unit { slip }) => {
            Message::new("wrong", "Wrong unit:", format!("{}.", slip.describe()))
        }
        NumberVerdict::Wrong(_) => Message::new("wrong", "Wrong.", how),
        NumberVerdict::Missing => Message::new("missing", "Not answered.", ""),
        NumberVerdict::Unreadable(error) => {
            Message::new("wrong", "Cannot be read:", format!("{error}."))
        }
    }
}

/// A yes/no answer is right, missing or (whatever else it is) wrong.
fn fit_message(v: &FitVerdict, how: &str) -> Message {
    match v {
        FitVerdict::Correct => Message::new("correct", "Correct.", ""),
        FitVerdict::Missing => Message::new("missing", "Not answered.", ""),
        _ => Message::new("wrong", "Wrong.", how),
    }
}

/// The message for `field` from a check, or `None` when the field has
/// nothing to say (an evidence option that was rightly left unticked).
/// `late_after` is when a first token counts as late, as the page writes it
/// (`ConfigExercise::late_after`).
pub(super) fn message_for(
    field: &Field,
    check: &WorkloadCheck,
    late_after: &str,
) -> Option<Message> {
    let find = |list: &[(String, NumberVerdict)], c: &str| {
        list.iter().find(|(id, _)| id == c).map(|(_, v)| v.clone())
    };
    let find_fit = |list: &[(String, FitVerdict)], c: &str| {
        list.iter().find(|(id, _)| id == c).map(|(_, v)| v.clone())
    };
    match field {
        Field::Choice => Some(match &check.choice {
            ChoiceVerdict::Correct => Message::new("correct", "Correct.", ""),
            ChoiceVerdict::Close(condition) => Message::new(
                "close",
                "Acceptable only under a condition:",
                format!("{condition}."),
            ),
            ChoiceVerdict::Wrong(reason) => Message::new("wrong", "Wrong.", reason.clone()),
            // A choice is picked, never typed, so it is never unreadable.
            ChoiceVerdict::Missing | ChoiceVerdict::Unreadable(_) => {
                Message::new("missing", "Not answered.", "")
            }
        }),
        Field::Total => {
            let n = check.numbers.as_ref()?;
            Some(number_message(
                &n.total_tokens,
                "Multiply the items by the output tokens per item.",
            ))
        }
        Field::Seconds(c) => {
            let v = find(&check.numbers.as_ref()?.seconds, c)?;
            Some(number_message(
                &v,
                "Divide the total tokens by this configuration's throughput.",
            ))
        }
        Field::Fits(c) => {
            let v = find_fit(&check.numbers.as_ref()?.fits, c)?;
            Some(fit_message(
                &v,
                "Compare the time to finish with the window, both in seconds.",
            ))
        }
        Field::Late(c) => {
            let v = find(&check.interactive.as_ref()?.late, c)?;
            Some(number_message(
                &v,
                &format!(
                    "Read this configuration's share of first tokens later than {} from the table.",
                    late_after
                ),
            ))
        }
        Field::Evidence(id) => {
            let e = &check.evidence;
            let hit = |list: &[ttft_core::exercises::config_choice::EvidenceNote]| {
                list.iter().find(|n| &n.id == id).map(|n| n.why.clone())
            };
            // Only ticked options get a verdict: naming the needed ones the
            // learner left unticked would give the answer away before the
            // reveal. The summary says how many are still needed.
            if let Some(why) = hit(&e.found) {
                Some(Message::new("correct", "Needed.", why))
            } else {
                hit(&e.unnecessary).map(|why| Message::new("wrong", "Wrong.", why))
            }
        }
    }
}

/// The interactive "meets the target" verdict, separate because it is a
/// yes/no pair like `Fits`.
pub(super) fn meets_message(check: &WorkloadCheck, config: &str) -> Option<Message> {
    let n = check.interactive.as_ref()?;
    let v = n
        .meets
        .iter()
        .find(|(id, _)| id == config)
        .map(|(_, v)| v)?;
    Some(fit_message(
        v,
        "Compare this configuration's p95 TTFT with the target.",
    ))
}

pub(super) fn feedback(id: &str, m: Message) -> impl IntoView {
    view! {
        <p id=id.to_owned() class=format!("verdict verdict-{}", m.kind)>
            <strong>{m.head}</strong>
            {(!m.body.is_empty()).then(|| format!(" {}", m.body))}
        </p>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learner_state::choice_work::ChoiceWork;

    #[test]
    fn fields_read_their_value_from_an_input() {
        let mut w = ChoiceWork::default();
        w.edit("batch", 10, |i| i.total_tokens = Some("4,000,000".into()));
        assert_eq!(Field::Total.value(&w.input("batch")), "4,000,000");
        assert_eq!(
            Field::Evidence("cost".into()).value(&w.input("batch")),
            "false"
        );
    }
}
