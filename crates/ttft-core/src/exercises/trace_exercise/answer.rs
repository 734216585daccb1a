//! The trace exercise's answer as the learner gives it: the dominant delay
//! named, the share typed, the action to investigate first. Reading the
//! share's text is `exercises::number`'s; judging it is `checks`'.

use crate::exercises::number::{parse_quantity, NumberError, Quantity};
use serde::{Deserialize, Serialize};
use ttft_latency::split::Part;

/// What the learner names as the dominant delay. The output rate is offered
/// too, because it is a tempting wrong answer: it describes what happens
/// after the first token, not the pause before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DominantChoice {
    QueueWait,
    Prefill,
    Emit,
    /// "Decode / output rate": never the cause of a slow first token.
    OutputRate,
}

impl DominantChoice {
    /// Every choice, in the order the page offers them.
    pub const ALL: [DominantChoice; 4] = [
        DominantChoice::QueueWait,
        DominantChoice::Prefill,
        DominantChoice::Emit,
        DominantChoice::OutputRate,
    ];

    /// Plain name for a learner.
    pub fn label(self) -> &'static str {
        match self {
            DominantChoice::QueueWait => "queue wait",
            DominantChoice::Prefill => "prefill",
            DominantChoice::Emit => "emit",
            DominantChoice::OutputRate => "decode / output rate",
        }
    }

    /// The part of TTFT this choice names, if it names one.
    pub fn part(self) -> Option<Part> {
        match self {
            DominantChoice::QueueWait => Some(Part::QueueWait),
            DominantChoice::Prefill => Some(Part::Prefill),
            DominantChoice::Emit => Some(Part::Emit),
            DominantChoice::OutputRate => None,
        }
    }
}

/// The share as the learner gave it: typed text, or a number from a control.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", untagged)]
pub enum ShareEntry {
    Number(f64),
    Text(String),
}

impl ShareEntry {
    /// Reads the entry. A number is read through its shortest decimal form,
    /// so `96.9` keeps its one decimal; non-finite numbers are not numbers.
    pub fn parse(&self) -> Result<Quantity, NumberError> {
        match self {
            ShareEntry::Text(t) => parse_quantity(t),
            ShareEntry::Number(v) if v.is_finite() => parse_quantity(&number_text(*v)),
            ShareEntry::Number(v) => Err(NumberError::NotANumber {
                text: number_text(*v),
            }),
        }
    }

    /// The entry as text: typed text as typed, a number in its shortest
    /// decimal form (`96.9`, `100`; very large or small ones with an
    /// exponent, `1e21`, which the number reader takes too).
    pub fn text(&self) -> String {
        match self {
            ShareEntry::Text(t) => t.clone(),
            ShareEntry::Number(v) => number_text(*v),
        }
    }
}

/// The shortest decimal that reads back as `v`, as JSON writes it (serde_json
/// is in every build already, so no second float formatter is linked), and
/// the names of the values JSON has no number for.
fn number_text(v: f64) -> String {
    if v.is_nan() {
        "NaN".to_owned()
    } else if v.is_infinite() {
        if v > 0.0 { "inf" } else { "-inf" }.to_owned()
    } else {
        let json = serde_json::to_string(&v).unwrap_or_default();
        // JSON marks a whole float `100.0`; the decimals a learner gave are
        // part of the answer, so a whole number is written whole, as typed.
        match json.strip_suffix(".0") {
            Some(whole) => whole.to_owned(),
            None => json,
        }
    }
}

/// One request's answer as the learner gave it; every field may be empty.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LearnerAnswer {
    /// The dominant delay.
    #[serde(default)]
    pub dominant: Option<DominantChoice>,
    /// The dominant delay's share of TTFT, in percent.
    #[serde(default)]
    pub share_percent: Option<ShareEntry>,
    /// The id of the action to investigate first.
    #[serde(default)]
    pub investigate: Option<String>,
}
