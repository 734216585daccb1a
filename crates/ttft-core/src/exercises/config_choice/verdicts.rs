//! What checking one workload gives back: a verdict on the choice, on each
//! number and yes/no filled in, and on the evidence ticked, with the one
//! sentence the page announces.

use crate::content::EvidenceOption;
use crate::exercises::config_choice::WorkloadPlan;
use crate::exercises::verdict::Verdict;
use serde::{Deserialize, Serialize};

/// The verdict on a chosen configuration: right on the evidence in hand;
/// close when acceptable only under the condition it carries; wrong with
/// the reason the numbers give; missing when nothing is chosen.
pub type ChoiceVerdict = Verdict<String, String>;

/// A unit slip the numbers show.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UnitSlip {
    /// Minutes written where seconds were asked for.
    Minutes,
    /// Hours written where seconds were asked for.
    Hours,
    /// Milliseconds written where seconds were asked for.
    Milliseconds,
    /// Millions of tokens written as a bare number.
    Millions,
    /// Thousands of tokens written as a bare number.
    Thousands,
    /// A share written as a fraction (0.21) where a percent was asked for.
    Fraction,
}

impl UnitSlip {
    /// Plain words for the feedback.
    pub fn describe(self) -> &'static str {
        match self {
            UnitSlip::Minutes => "this is the time in minutes; the answer asks for seconds",
            UnitSlip::Hours => "this is the time in hours; the answer asks for seconds",
            UnitSlip::Milliseconds => {
                "this is the time in milliseconds; the answer asks for seconds"
            }
            UnitSlip::Millions => "this is the count in millions; write the number of tokens",
            UnitSlip::Thousands => "this is the count in thousands; write the number of tokens",
            UnitSlip::Fraction => "this is a fraction; write the share as a percent",
        }
    }
}

/// The verdict on a number the learner filled in: correct within 1%
/// (times) or exactly (token counts), close within 5%, wrong with what the
/// mistake is, missing, or unreadable.
pub type NumberVerdict = Verdict<NumberMistake>;

/// What is wrong with a number.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum NumberMistake {
    /// Right, but in another unit than the one asked for.
    Unit { slip: UnitSlip },
    /// Wrong; the expected value, as the course writes it.
    Value { expected: String },
}

/// The verdict on a yes/no answer: correct, wrong or missing.
pub type FitVerdict = Verdict;

/// An evidence option, as named in feedback.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EvidenceNote {
    pub id: String,
    pub label: String,
    /// Why it matters, or does not, for this workload.
    pub why: String,
}

impl From<&EvidenceOption> for EvidenceNote {
    fn from(o: &EvidenceOption) -> EvidenceNote {
        EvidenceNote {
            id: o.id.clone(),
            label: o.label.clone(),
            why: o.why.clone(),
        }
    }
}

/// The ticked evidence against what the workload still needs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EvidenceCheck {
    /// Needed and ticked.
    pub found: Vec<EvidenceNote>,
    /// Needed but not ticked.
    pub missing: Vec<EvidenceNote>,
    /// Ticked but not needed for this workload.
    pub unnecessary: Vec<EvidenceNote>,
    /// Ticked ids the exercise does not offer.
    pub unknown: Vec<String>,
}

impl EvidenceCheck {
    /// True when exactly the needed evidence was ticked.
    pub fn complete(&self) -> bool {
        self.missing.is_empty() && self.unnecessary.is_empty() && self.unknown.is_empty()
    }
}

/// The verdicts on a batch workload's filled-in numbers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BatchNumbers {
    pub total_tokens: NumberVerdict,
    /// Time to finish, by configuration id, in content order.
    pub seconds: Vec<(String, NumberVerdict)>,
    /// Fits the window, by configuration id, in content order.
    pub fits: Vec<(String, FitVerdict)>,
}

/// The verdicts on an interactive workload's filled-in answers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InteractiveNumbers {
    /// Meets the target at p95, by configuration id, in content order.
    pub meets: Vec<(String, FitVerdict)>,
    /// Share of late first tokens, by configuration id, in content order.
    pub late: Vec<(String, NumberVerdict)>,
}

/// Everything checked for one workload.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorkloadCheck {
    /// The workload's id.
    pub workload: String,
    pub choice: ChoiceVerdict,
    /// Batch workloads only.
    pub numbers: Option<BatchNumbers>,
    /// Interactive workloads only.
    #[serde(default)]
    pub interactive: Option<InteractiveNumbers>,
    pub evidence: EvidenceCheck,
    /// The arithmetic, for the reveal.
    pub plan: WorkloadPlan,
    /// The content's reasoning, for the reveal.
    pub reasoning: String,
}

impl WorkloadCheck {
    /// True when the choice, every number and the evidence are all right.
    pub fn all_correct(&self) -> bool {
        let numbers_ok = self.numbers.as_ref().is_none_or(|n| {
            n.total_tokens == NumberVerdict::Correct
                && n.seconds.iter().all(|(_, v)| *v == NumberVerdict::Correct)
                && n.fits.iter().all(|(_, v)| *v == FitVerdict::Correct)
        });
        let interactive_ok = self.interactive.as_ref().is_none_or(|n| {
            n.meets.iter().all(|(_, v)| *v == FitVerdict::Correct)
                && n.late.iter().all(|(_, v)| *v == NumberVerdict::Correct)
        });
        self.choice == ChoiceVerdict::Correct
            && numbers_ok
            && interactive_ok
            && self.evidence.complete()
    }

    /// One sentence for the page's live region: the choice, how many of the
    /// filled-in answers are right, and the evidence ("The choice is right;
    /// 3 of 4 answers right; evidence: 1 still needed, 1 not needed").
    pub fn summary(&self) -> String {
        if self.all_correct() {
            return "Everything is right: the choice, the arithmetic and the evidence".into();
        }
        let choice = match &self.choice {
            ChoiceVerdict::Correct => "The choice is right",
            ChoiceVerdict::Close(_) => "The choice is acceptable only under a condition",
            ChoiceVerdict::Wrong(_) => "The choice is wrong",
            // A choice is picked, never typed, so it is never unreadable.
            ChoiceVerdict::Missing | ChoiceVerdict::Unreadable(_) => "No configuration is chosen",
        };
        let mut verdicts: Vec<bool> = Vec::new();
        if let Some(n) = &self.numbers {
            verdicts.push(n.total_tokens == NumberVerdict::Correct);
            verdicts.extend(n.seconds.iter().map(|(_, v)| *v == NumberVerdict::Correct));
            verdicts.extend(n.fits.iter().map(|(_, v)| *v == FitVerdict::Correct));
        }
        if let Some(n) = &self.interactive {
            verdicts.extend(n.meets.iter().map(|(_, v)| *v == FitVerdict::Correct));
            verdicts.extend(n.late.iter().map(|(_, v)| *v == NumberVerdict::Correct));
        }
        let right = verdicts.iter().filter(|&&ok| ok).count();
        let e = &self.evidence;
        let evidence = if e.complete() {
            "evidence right".to_owned()
        } else {
            let mut parts = Vec::new();
            if !e.missing.is_empty() {
                parts.push(format!("{} still needed", e.missing.len()));
            }
            let extra = e.unnecessary.len() + e.unknown.len();
            if extra > 0 {
                parts.push(format!("{extra} not needed"));
            }
            format!("evidence: {}", parts.join(", "))
        };
        format!(
            "{choice}; {right} of {} answers right; {evidence}",
            verdicts.len()
        )
    }
}
