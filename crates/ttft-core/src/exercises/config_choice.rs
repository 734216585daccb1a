//! Checking the configuration exercise: the arithmetic that decides each
//! workload, the learner's choice, the numbers they filled in, and the
//! evidence they say is still needed.
//!
//! Every figure comes from the [`ConfigExercise`] data: if an instructor
//! changes a throughput, a window or a target, the plan and the verdicts
//! follow. A batch's time to finish is `items × tokens per item ÷ output
//! throughput`, compared with the window exactly in integers; the whole
//! seconds shown are rounded once, to the nearest second (4,000,000 tokens at
//! 2,400 tokens/s is 1,666.67 s, shown as 1,667 s). An interactive workload
//! is judged on each configuration's p95 TTFT against the target and its
//! share of late first tokens.
//!
//! This module does not decide which configuration is right: the content
//! states that (`answer.choice` and its conditions), and `validate` checks
//! the stated choice against this arithmetic. It does not render anything.

use crate::content::{
    ConfigExercise, EvidenceOption, QualityStatus, ServingConfig, Workload, WorkloadNeed,
};
use crate::exercises::number::{parse_quantity, NumberError, Unit};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use ttft_latency::split::format_tenths;
use ttft_latency::time::{group_thousands, Micros};

// ---------------------------------------------------------------- the arithmetic

/// One configuration against a batch workload.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BatchFit {
    /// The configuration's id.
    pub config: String,
    /// Its output throughput, tokens per second.
    pub throughput_tps: u64,
    /// Time to finish, rounded to the nearest second; `None` at zero
    /// throughput, which never finishes.
    pub seconds: Option<u64>,
    /// True when the rounding changed the value (1,666.67 s shown as 1,667).
    pub rounded: bool,
    /// Whether it finishes within the window (decided exactly, not from the
    /// rounded seconds).
    pub fits: bool,
}

/// The arithmetic of a batch workload.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BatchPlan {
    /// Output tokens in the whole batch: items × tokens per item.
    pub total_tokens: u64,
    /// The window, in seconds.
    pub window_secs: i64,
    /// Each configuration, in content order.
    pub configs: Vec<BatchFit>,
}

/// One configuration against an interactive workload.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InteractiveFit {
    /// The configuration's id.
    pub config: String,
    /// Its p95 TTFT.
    pub p95_ttft: Micros,
    /// Whether the p95 is at or under the target.
    pub meets_target: bool,
    /// Its share of late first tokens, in tenths of a percent.
    pub late_first_token_tenths: i64,
}

/// The arithmetic that decides one workload.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum WorkloadPlan {
    /// A person is waiting for the first token.
    Interactive {
        target: Micros,
        configs: Vec<InteractiveFit>,
    },
    /// A batch must finish within a window.
    Batch(BatchPlan),
}

/// Why a workload's arithmetic cannot be done.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum ChoiceError {
    /// Items × tokens per item does not fit in 64 bits.
    TotalOverflows { workload: String },
    /// A window below zero.
    NegativeWindow { workload: String },
}

impl fmt::Display for ChoiceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChoiceError::TotalOverflows { workload } => {
                write!(
                    f,
                    "{workload}: items × tokens per item is too large to compute"
                )
            }
            ChoiceError::NegativeWindow { workload } => {
                write!(f, "{workload}: the window is below zero")
            }
        }
    }
}

impl std::error::Error for ChoiceError {}

/// Does the arithmetic for `workload` over `configs`.
pub fn plan(workload: &Workload, configs: &[ServingConfig]) -> Result<WorkloadPlan, ChoiceError> {
    match workload.need {
        WorkloadNeed::Interactive { ttft_target_ms } => {
            let target = Micros::from_ms(ttft_target_ms);
            let configs = configs
                .iter()
                .map(|c| {
                    let p95_ttft = Micros::from_ms(c.p95_ttft_ms);
                    InteractiveFit {
                        config: c.id.clone(),
                        p95_ttft,
                        meets_target: p95_ttft <= target,
                        late_first_token_tenths: c.late_first_token_tenths,
                    }
                })
                .collect();
            Ok(WorkloadPlan::Interactive { target, configs })
        }
        WorkloadNeed::Batch {
            items,
            output_tokens_per_item,
            window_secs,
        } => {
            let total_tokens = items.checked_mul(output_tokens_per_item).ok_or_else(|| {
                ChoiceError::TotalOverflows {
                    workload: workload.id.clone(),
                }
            })?;
            if window_secs < 0 {
                return Err(ChoiceError::NegativeWindow {
                    workload: workload.id.clone(),
                });
            }
            let configs = configs
                .iter()
                .map(|c| fit_batch(c, total_tokens, window_secs))
                .collect();
            Ok(WorkloadPlan::Batch(BatchPlan {
                total_tokens,
                window_secs,
                configs,
            }))
        }
    }
}

fn fit_batch(c: &ServingConfig, total: u64, window_secs: i64) -> BatchFit {
    let tps = c.throughput_tps;
    let (seconds, rounded) = match tps {
        0 => (None, false),
        _ => {
            let (t, r) = (u128::from(total), u128::from(tps));
            (Some(((2 * t + r) / (2 * r)) as u64), t % r != 0)
        }
    };
    // total / tps <= window  <=>  total <= window * tps, exactly.
    let fits = tps > 0 && u128::from(total) <= (window_secs.max(0) as u128) * u128::from(tps);
    BatchFit {
        config: c.id.clone(),
        throughput_tps: tps,
        seconds,
        rounded,
        fits,
    }
}

impl BatchFit {
    /// "1,667 s (4,000,000 ÷ 2,400 = 1,666.67, rounded to the nearest
    /// second)", or why it never finishes.
    pub fn describe(&self, total_tokens: u64) -> String {
        match self.seconds {
            None => format!(
                "{} has no throughput, so the batch never finishes",
                self.config
            ),
            Some(s) if self.rounded => {
                let hundredths = (u128::from(total_tokens) * 200 + u128::from(self.throughput_tps))
                    / (2 * u128::from(self.throughput_tps));
                format!(
                    "{} s ({} ÷ {} = {}.{:02}, rounded to the nearest second)",
                    group_thousands(s),
                    group_thousands(total_tokens),
                    group_thousands(self.throughput_tps),
                    group_thousands((hundredths / 100) as u64),
                    hundredths % 100
                )
            }
            Some(s) => format!(
                "{} s ({} ÷ {})",
                group_thousands(s),
                group_thousands(total_tokens),
                group_thousands(self.throughput_tps)
            ),
        }
    }
}

// ---------------------------------------------------------------- the learner's input

/// What the learner filled in for one workload; every field may be empty.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorkloadInput {
    /// The configuration id chosen.
    #[serde(default)]
    pub choice: Option<String>,
    /// Batch only: total output tokens, as typed.
    #[serde(default)]
    pub total_tokens: Option<String>,
    /// Batch only: time to finish at each configuration, as typed, by id.
    #[serde(default)]
    pub seconds: BTreeMap<String, String>,
    /// Whether each configuration meets the workload's need, by id: fits
    /// the window (batch) or meets the target at p95 (interactive).
    #[serde(default)]
    pub fits: BTreeMap<String, bool>,
    /// Interactive only: each configuration's share of late first tokens,
    /// in percent as typed, by id.
    #[serde(default)]
    pub late_percent: BTreeMap<String, String>,
    /// Ids of the evidence options ticked as still needed.
    #[serde(default)]
    pub evidence: Vec<String>,
}

/// The verdict on a chosen configuration.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum ChoiceVerdict {
    /// Right on the evidence in hand.
    Correct,
    /// Acceptable only under this condition.
    Conditional { condition: String },
    /// Wrong, with the reason the numbers give.
    Wrong { reason: String },
    /// Nothing chosen.
    Missing,
}

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

/// The verdict on a number the learner filled in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum NumberVerdict {
    /// Within 1% (times) or exact (token counts).
    Correct,
    /// Within 5%.
    Close,
    /// Right, but in another unit than the one asked for.
    WrongUnit {
        slip: UnitSlip,
    },
    /// Wrong; the expected value, as the course writes it.
    Wrong {
        expected: String,
    },
    Missing,
    /// The text could not be read as a number.
    Unreadable {
        error: NumberError,
    },
}

/// The verdict on a yes/no answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FitVerdict {
    Correct,
    Wrong,
    Missing,
}

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
            ChoiceVerdict::Conditional { .. } => "The choice is acceptable only under a condition",
            ChoiceVerdict::Wrong { .. } => "The choice is wrong",
            ChoiceVerdict::Missing => "No configuration is chosen",
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

// ---------------------------------------------------------------- checking

/// The reason the numbers give against choosing `config` for `plan`.
fn reason_against(config: &ServingConfig, plan: &WorkloadPlan) -> String {
    let quality = match config.quality {
        QualityStatus::Passed => None,
        QualityStatus::NotRun | QualityStatus::Failed => Some(&config.quality_note),
    };
    match plan {
        WorkloadPlan::Interactive { target, configs } => {
            match configs.iter().find(|f| f.config == config.id) {
                Some(f) if !f.meets_target => format!(
                    "{}'s p95 TTFT is {} against the {} target, and {}% of its first tokens were late.",
                    config.id,
                    f.p95_ttft,
                    target,
                    format_tenths(f.late_first_token_tenths)
                ),
                _ => match quality {
                    Some(note) => format!("{} meets the target, but its quality checks say: {note}.", config.id),
                    None => format!("{} is not the choice the measurements support for this workload.", config.id),
                },
            }
        }
        WorkloadPlan::Batch(b) => match b.configs.iter().find(|f| f.config == config.id) {
            Some(f) if !f.fits => format!(
                "{} would need {}, beyond the window of {} s.",
                config.id,
                f.describe(b.total_tokens),
                group_thousands(b.window_secs.max(0) as u64)
            ),
            _ => match quality {
                Some(note) => format!(
                    "{} fits the window, but its quality checks say: {note}.",
                    config.id
                ),
                None => format!(
                    "{} is not the choice the measurements support for this workload.",
                    config.id
                ),
            },
        },
    }
}

fn check_choice(
    exercise: &ConfigExercise,
    workload: &Workload,
    plan: &WorkloadPlan,
    chosen: Option<&str>,
) -> ChoiceVerdict {
    let Some(id) = chosen.map(str::trim).filter(|s| !s.is_empty()) else {
        return ChoiceVerdict::Missing;
    };
    if id == workload.answer.choice {
        return ChoiceVerdict::Correct;
    }
    if let Some(c) = workload.answer.conditional.iter().find(|c| c.config == id) {
        return ChoiceVerdict::Conditional {
            condition: c.condition.clone(),
        };
    }
    match exercise.configs.iter().find(|c| c.id == id) {
        Some(config) => ChoiceVerdict::Wrong {
            reason: reason_against(config, plan),
        },
        None => ChoiceVerdict::Wrong {
            reason: format!("There is no configuration \"{id}\" in this exercise."),
        },
    }
}

/// Whether `value` (in thousandths) is within `pct` percent of `num / den`:
/// |value × den − num × 1000| ≤ pct% of num × 1000, in integers. Values too
/// large to compare are not near.
fn near(value: i128, num: u128, den: u128, pct: u128) -> bool {
    let (Ok(num_i), Ok(den_i)) = (i128::try_from(num), i128::try_from(den)) else {
        return false;
    };
    let Some(diff) = value
        .checked_mul(den_i)
        .zip(num_i.checked_mul(1_000))
        .and_then(|(got, exact)| got.checked_sub(exact))
    else {
        return false;
    };
    num.checked_mul(1_000 * pct)
        .is_some_and(|limit| diff.unsigned_abs().saturating_mul(100) <= limit)
}

/// Checks a time to finish in seconds against `total / tps`.
pub fn check_seconds(text: Option<&str>, total: u64, tps: u64) -> NumberVerdict {
    let q = match text.map(parse_quantity) {
        None | Some(Err(NumberError::Empty)) => return NumberVerdict::Missing,
        Some(Err(error)) => return NumberVerdict::Unreadable { error },
        Some(Ok(q)) => q,
    };
    let expected = if tps == 0 {
        "never (no throughput)".to_owned()
    } else {
        format!(
            "{} s",
            group_thousands(
                ((2 * u128::from(total) + u128::from(tps)) / (2 * u128::from(tps))) as u64
            )
        )
    };
    if tps == 0 {
        return NumberVerdict::Wrong { expected };
    }
    let v = i128::from(q.number.thousandths);
    let (num, den) = (u128::from(total), u128::from(tps));
    let as_seconds = match q.unit {
        None | Some(Unit::Seconds) => Some(v),
        Some(Unit::Minutes) => Some(v * 60),
        Some(Unit::Hours) => Some(v * 3_600),
        Some(Unit::Milliseconds) => Some(v / 1_000),
        Some(_) => None,
    };
    let Some(secs) = as_seconds else {
        return NumberVerdict::Wrong { expected };
    };
    if near(secs, num, den, 1) {
        return NumberVerdict::Correct;
    }
    if near(secs, num, den, 5) {
        return NumberVerdict::Close;
    }
    if matches!(q.unit, None | Some(Unit::Seconds)) {
        for (slip, scale_num, scale_den) in [
            (UnitSlip::Minutes, 60, 1),
            (UnitSlip::Hours, 3_600, 1),
            (UnitSlip::Milliseconds, 1, 1_000),
        ] {
            if near(v * scale_num / scale_den, num, den, 1) {
                return NumberVerdict::WrongUnit { slip };
            }
        }
    }
    NumberVerdict::Wrong { expected }
}

/// Checks a share of late first tokens in percent against `tenths` (tenths
/// of a percent): right to the learner's own precision (a whole percent
/// within 0.5, a decimal within 0.05), close within one percentage point,
/// and a fraction (0.21 for 21%) named as a unit slip.
pub fn check_late(text: Option<&str>, tenths: i64) -> NumberVerdict {
    let q = match text.map(parse_quantity) {
        None | Some(Err(NumberError::Empty)) => return NumberVerdict::Missing,
        Some(Err(error)) => return NumberVerdict::Unreadable { error },
        Some(Ok(q)) => q,
    };
    let expected = format!("{}%", format_tenths(tenths));
    if !matches!(q.unit, None | Some(Unit::Percent)) {
        return NumberVerdict::Wrong { expected };
    }
    // Both sides in thousandths of a percent.
    let v = i128::from(q.number.thousandths);
    let exact = i128::from(tenths) * 100;
    let precision = if q.number.decimals == 0 { 500 } else { 50 };
    if (v - exact).abs() <= precision {
        return NumberVerdict::Correct;
    }
    if (v - exact).abs() <= 1_000 {
        return NumberVerdict::Close;
    }
    if q.unit.is_none() && v <= 1_000 && exact != 0 && (v * 100 - exact).abs() <= precision.max(500)
    {
        return NumberVerdict::WrongUnit {
            slip: UnitSlip::Fraction,
        };
    }
    NumberVerdict::Wrong { expected }
}

/// Checks a total token count, which must be exact.
pub fn check_total(text: Option<&str>, total: u64) -> NumberVerdict {
    let q = match text.map(parse_quantity) {
        None | Some(Err(NumberError::Empty)) => return NumberVerdict::Missing,
        Some(Err(error)) => return NumberVerdict::Unreadable { error },
        Some(Ok(q)) => q,
    };
    let v = i128::from(q.number.thousandths);
    let exact = i128::from(total) * 1_000;
    if !matches!(q.unit, None | Some(Unit::Tokens)) {
        return NumberVerdict::Wrong {
            expected: group_thousands(total),
        };
    }
    if v == exact {
        return NumberVerdict::Correct;
    }
    if v * 1_000_000 == exact {
        return NumberVerdict::WrongUnit {
            slip: UnitSlip::Millions,
        };
    }
    if v * 1_000 == exact {
        return NumberVerdict::WrongUnit {
            slip: UnitSlip::Thousands,
        };
    }
    NumberVerdict::Wrong {
        expected: group_thousands(total),
    }
}

fn check_evidence(
    exercise: &ConfigExercise,
    workload: &Workload,
    ticked: &[String],
) -> EvidenceCheck {
    let needed = &workload.answer.evidence_needed;
    let mut out = EvidenceCheck::default();
    let mut seen: Vec<&str> = Vec::new();
    for id in ticked.iter().map(|s| s.trim()) {
        if seen.contains(&id) {
            continue;
        }
        seen.push(id);
        match exercise.evidence.iter().find(|o| o.id == id) {
            None => out.unknown.push(id.to_owned()),
            Some(o) if needed.iter().any(|n| n == id) => out.found.push(o.into()),
            Some(o) => out.unnecessary.push(o.into()),
        }
    }
    for id in needed {
        if !seen.contains(&id.as_str()) {
            if let Some(o) = exercise.evidence.iter().find(|o| &o.id == id) {
                out.missing.push(o.into());
            }
        }
    }
    out
}

/// Checks one workload's input; `None` when there is no workload at `index`.
pub fn check_workload(
    exercise: &ConfigExercise,
    index: usize,
    input: &WorkloadInput,
) -> Option<Result<WorkloadCheck, ChoiceError>> {
    let workload = exercise.workloads.get(index)?;
    Some(check_one(exercise, workload, input))
}

fn check_one(
    exercise: &ConfigExercise,
    workload: &Workload,
    input: &WorkloadInput,
) -> Result<WorkloadCheck, ChoiceError> {
    let plan = plan(workload, &exercise.configs)?;
    let numbers = match &plan {
        WorkloadPlan::Interactive { .. } => None,
        WorkloadPlan::Batch(b) => Some(BatchNumbers {
            total_tokens: check_total(input.total_tokens.as_deref(), b.total_tokens),
            seconds: b
                .configs
                .iter()
                .map(|f| {
                    let typed = input.seconds.get(&f.config).map(String::as_str);
                    (
                        f.config.clone(),
                        check_seconds(typed, b.total_tokens, f.throughput_tps),
                    )
                })
                .collect(),
            fits: b
                .configs
                .iter()
                .map(|f| {
                    let v = match input.fits.get(&f.config) {
                        None => FitVerdict::Missing,
                        Some(&said) if said == f.fits => FitVerdict::Correct,
                        Some(_) => FitVerdict::Wrong,
                    };
                    (f.config.clone(), v)
                })
                .collect(),
        }),
    };
    let interactive = match &plan {
        WorkloadPlan::Batch(_) => None,
        WorkloadPlan::Interactive { configs, .. } => Some(InteractiveNumbers {
            meets: configs
                .iter()
                .map(|f| {
                    let v = match input.fits.get(&f.config) {
                        None => FitVerdict::Missing,
                        Some(&said) if said == f.meets_target => FitVerdict::Correct,
                        Some(_) => FitVerdict::Wrong,
                    };
                    (f.config.clone(), v)
                })
                .collect(),
            late: configs
                .iter()
                .map(|f| {
                    let typed = input.late_percent.get(&f.config).map(String::as_str);
                    (
                        f.config.clone(),
                        check_late(typed, f.late_first_token_tenths),
                    )
                })
                .collect(),
        }),
    };
    Ok(WorkloadCheck {
        workload: workload.id.clone(),
        choice: check_choice(exercise, workload, &plan, input.choice.as_deref()),
        numbers,
        interactive,
        evidence: check_evidence(exercise, workload, &input.evidence),
        plan,
        reasoning: workload.answer.reasoning.clone(),
    })
}

/// Checks every workload; `inputs[i]` answers `workloads[i]`, and a missing
/// entry counts as empty.
pub fn check_config(
    exercise: &ConfigExercise,
    inputs: &[WorkloadInput],
) -> Vec<Result<WorkloadCheck, ChoiceError>> {
    let empty = WorkloadInput::default();
    exercise
        .workloads
        .iter()
        .enumerate()
        .map(|(i, w)| check_one(exercise, w, inputs.get(i).unwrap_or(&empty)))
        .collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::content::{ConditionalChoice, WorkloadAnswer};

    /// The seed's two configurations and two workloads.
    pub(crate) fn exercise() -> ConfigExercise {
        let config = |id: &str, tps, p95, late, quality, note: &str| ServingConfig {
            id: id.into(),
            weights: String::new(),
            max_sequences_per_batch: 16,
            throughput_tps: tps,
            p95_ttft_ms: p95,
            late_first_token_tenths: late,
            failed_or_rejected_tenths: 4,
            quality,
            quality_note: note.into(),
        };
        let evidence = |id: &str| EvidenceOption {
            id: id.into(),
            label: format!("label {id}"),
            why: format!("why {id}"),
        };
        ConfigExercise {
            id: "configs".into(),
            title: String::new(),
            intro: String::new(),
            late_after_ms: 1_000,
            configs: vec![
                config("A", 2_400, 2_800, 210, QualityStatus::NotRun, "Not run yet"),
                config(
                    "B",
                    1_600,
                    600,
                    30,
                    QualityStatus::Passed,
                    "Passed (current release)",
                ),
            ],
            workloads: vec![
                Workload {
                    id: "live_hints".into(),
                    name: "Live interview hints".into(),
                    description: String::new(),
                    need: WorkloadNeed::Interactive {
                        ttft_target_ms: 1_000,
                    },
                    answer: WorkloadAnswer {
                        choice: "B".into(),
                        conditional: vec![],
                        evidence_needed: vec!["hint_traffic".into()],
                        reasoning: "live".into(),
                    },
                },
                Workload {
                    id: "overnight".into(),
                    name: "Overnight drafts".into(),
                    description: String::new(),
                    need: WorkloadNeed::Batch {
                        items: 5_000,
                        output_tokens_per_item: 800,
                        window_secs: 21_600,
                    },
                    answer: WorkloadAnswer {
                        choice: "B".into(),
                        conditional: vec![ConditionalChoice {
                            config: "A".into(),
                            condition: "quality passes".into(),
                        }],
                        evidence_needed: vec!["quality_a".into(), "real_lengths".into()],
                        reasoning: "batch".into(),
                    },
                },
            ],
            evidence: vec![
                evidence("hint_traffic"),
                evidence("quality_a"),
                evidence("real_lengths"),
                evidence("gpu_price"),
            ],
        }
    }

    /// Checks workload `index` with `input` and hands back the result.
    fn check(index: usize, input: WorkloadInput) -> WorkloadCheck {
        check_workload(&exercise(), index, &input)
            .expect("workload exists")
            .expect("arithmetic works")
    }

    fn batch_input(total: &str, a: &str, b: &str) -> WorkloadInput {
        WorkloadInput {
            choice: Some("B".into()),
            total_tokens: Some(total.into()),
            seconds: [
                ("A".to_owned(), a.to_owned()),
                ("B".to_owned(), b.to_owned()),
            ]
            .into(),
            fits: [("A".to_owned(), true), ("B".to_owned(), true)].into(),
            evidence: vec!["quality_a".into(), "real_lengths".into()],
            late_percent: BTreeMap::new(),
        }
    }

    #[test]
    fn lateness_is_written_as_the_content_sets_it() {
        let mut ex = exercise();
        assert_eq!(ex.late_after(), "1 s");
        ex.late_after_ms = 1_500;
        assert_eq!(ex.late_after(), "1,500 ms");
        ex.late_after_ms = 120_000;
        assert_eq!(ex.late_after(), "120 s");
        let without: ConfigExercise = serde_json::from_value(serde_json::json!({
            "id": "x", "title": "", "intro": "", "configs": [], "workloads": [], "evidence": []
        }))
        .unwrap();
        assert_eq!(without.late_after_ms, 1_000, "files from before the field");
    }

    #[test]
    fn the_seed_arithmetic() {
        let ex = exercise();
        let WorkloadPlan::Batch(b) = plan(&ex.workloads[1], &ex.configs).unwrap() else {
            panic!("batch")
        };
        assert_eq!(b.total_tokens, 4_000_000);
        assert_eq!(
            (
                b.configs[0].seconds,
                b.configs[0].rounded,
                b.configs[0].fits
            ),
            (Some(1_667), true, true)
        );
        assert_eq!(
            (
                b.configs[1].seconds,
                b.configs[1].rounded,
                b.configs[1].fits
            ),
            (Some(2_500), false, true)
        );
        assert_eq!(
            b.configs[0].describe(b.total_tokens),
            "1,667 s (4,000,000 ÷ 2,400 = 1,666.67, rounded to the nearest second)"
        );
        assert_eq!(
            b.configs[1].describe(b.total_tokens),
            "2,500 s (4,000,000 ÷ 1,600)"
        );
        let WorkloadPlan::Interactive { target, configs } =
            plan(&ex.workloads[0], &ex.configs).unwrap()
        else {
            panic!("interactive")
        };
        assert_eq!(target, Micros::from_ms(1_000));
        assert_eq!(
            (configs[0].meets_target, configs[1].meets_target),
            (false, true)
        );
    }

    #[test]
    fn choices() {
        let input = |c: &str| WorkloadInput {
            choice: Some(c.into()),
            evidence: vec!["hint_traffic".into()],
            ..Default::default()
        };
        let right = check(0, input("B"));
        assert_eq!(right.choice, ChoiceVerdict::Correct);
        assert!(right.evidence.complete());
        assert!(
            !right.all_correct(),
            "the interactive answers are still missing"
        );
        assert_eq!(
            check(0, input("A")).choice,
            ChoiceVerdict::Wrong {
                reason: "A's p95 TTFT is 2,800 ms against the 1,000 ms target, and 21% of its first tokens were late."
                    .into()
            }
        );
        assert_eq!(
            check(1, input("A")).choice,
            ChoiceVerdict::Conditional {
                condition: "quality passes".into()
            }
        );
        assert_eq!(
            check(0, input("C")).choice,
            ChoiceVerdict::Wrong {
                reason: "There is no configuration \"C\" in this exercise.".into()
            }
        );
        assert_eq!(
            check(0, WorkloadInput::default()).choice,
            ChoiceVerdict::Missing
        );
    }

    #[test]
    fn batch_numbers() {
        let all = check(1, batch_input("4,000,000", "1667", "2500 s"));
        assert!(all.all_correct(), "{all:?}");
        let n = check(1, batch_input("4", "27.8", "41.7 min"))
            .numbers
            .unwrap();
        assert_eq!(
            n.total_tokens,
            NumberVerdict::WrongUnit {
                slip: UnitSlip::Millions
            }
        );
        assert_eq!(
            n.seconds[0].1,
            NumberVerdict::WrongUnit {
                slip: UnitSlip::Minutes
            }
        );
        assert_eq!(
            n.seconds[1].1,
            NumberVerdict::Correct,
            "a stated unit is converted"
        );
        let n = check(1, batch_input("5,800", "1,700", "0.69"))
            .numbers
            .unwrap();
        assert_eq!(
            n.total_tokens,
            NumberVerdict::Wrong {
                expected: "4,000,000".into()
            }
        );
        assert_eq!(n.seconds[0].1, NumberVerdict::Close);
        assert_eq!(
            n.seconds[1].1,
            NumberVerdict::WrongUnit {
                slip: UnitSlip::Hours
            }
        );
        let n = check(1, batch_input("4000 thousand", "1666.7", ""))
            .numbers
            .unwrap();
        assert!(matches!(n.total_tokens, NumberVerdict::Unreadable { .. }));
        assert_eq!(n.seconds[0].1, NumberVerdict::Correct);
        assert_eq!(n.seconds[1].1, NumberVerdict::Missing);
        let mut wrong_fit = batch_input("4e6", "1667", "2500");
        wrong_fit.fits.insert("A".into(), false);
        wrong_fit.fits.remove("B");
        let n = check(1, wrong_fit).numbers.unwrap();
        assert_eq!(n.total_tokens, NumberVerdict::Correct);
        assert_eq!(
            n.fits,
            vec![
                ("A".into(), FitVerdict::Wrong),
                ("B".into(), FitVerdict::Missing)
            ]
        );
    }

    #[test]
    fn interactive_answers() {
        let input = |a: bool, b: bool, late_a: &str, late_b: &str| WorkloadInput {
            choice: Some("B".into()),
            fits: [("A".to_owned(), a), ("B".to_owned(), b)].into(),
            late_percent: [
                ("A".to_owned(), late_a.to_owned()),
                ("B".to_owned(), late_b.to_owned()),
            ]
            .into(),
            evidence: vec!["hint_traffic".into()],
            ..Default::default()
        };
        let right = check(0, input(false, true, "21", "3.0%"));
        assert!(right.all_correct(), "{right:?}");
        assert!(
            right.numbers.is_none(),
            "an interactive workload has no batch numbers"
        );
        let n = check(0, input(true, true, "0.21", "3.8"))
            .interactive
            .unwrap();
        assert_eq!(
            n.meets,
            vec![
                ("A".into(), FitVerdict::Wrong),
                ("B".into(), FitVerdict::Correct)
            ]
        );
        assert_eq!(
            n.late[0].1,
            NumberVerdict::WrongUnit {
                slip: UnitSlip::Fraction
            }
        );
        assert_eq!(n.late[1].1, NumberVerdict::Close);
        let wrong = check(0, input(false, true, "79", "")).interactive.unwrap();
        assert_eq!(
            wrong.late[0].1,
            NumberVerdict::Wrong {
                expected: "21%".into()
            }
        );
        assert_eq!(wrong.late[1].1, NumberVerdict::Missing);
        assert!(!check(
            0,
            WorkloadInput {
                choice: Some("B".into()),
                evidence: vec!["hint_traffic".into()],
                ..Default::default()
            }
        )
        .all_correct());
        assert!(check(1, batch_input("4,000,000", "1667", "2500"))
            .interactive
            .is_none());
        assert_eq!(check_late(Some("21.0"), 210), NumberVerdict::Correct);
        assert_eq!(check_late(Some("21.1"), 210), NumberVerdict::Close);
        assert_eq!(
            check_late(Some("21 ms"), 210),
            NumberVerdict::Wrong {
                expected: "21%".into()
            }
        );
    }

    #[test]
    fn summaries() {
        let all = check(1, batch_input("4,000,000", "1667", "2500"));
        assert_eq!(
            all.summary(),
            "Everything is right: the choice, the arithmetic and the evidence"
        );
        let mut input = batch_input("4", "1667", "");
        input.choice = Some("A".into());
        input.evidence = vec!["quality_a".into(), "gpu_price".into()];
        assert_eq!(
            check(1, input).summary(),
            "The choice is acceptable only under a condition; 3 of 5 answers right; evidence: 1 still needed, 1 not needed"
        );
        assert_eq!(
            check(0, WorkloadInput::default()).summary(),
            "No configuration is chosen; 0 of 4 answers right; evidence: 1 still needed"
        );
    }

    #[test]
    fn evidence() {
        let mut input = batch_input("4,000,000", "1667", "2500");
        input.evidence = vec![
            "quality_a".into(),
            "gpu_price".into(),
            "nope".into(),
            "quality_a".into(),
        ];
        let e = check(1, input).evidence;
        assert_eq!(
            e.found.iter().map(|n| n.id.as_str()).collect::<Vec<_>>(),
            ["quality_a"]
        );
        assert_eq!(
            e.missing,
            vec![EvidenceNote {
                id: "real_lengths".into(),
                label: "label real_lengths".into(),
                why: "why real_lengths".into()
            }]
        );
        assert_eq!(
            e.unnecessary
                .iter()
                .map(|n| n.why.as_str())
                .collect::<Vec<_>>(),
            ["why gpu_price"]
        );
        assert_eq!(e.unknown, ["nope"]);
        assert!(!e.complete());
    }

    #[test]
    fn the_numbers_follow_the_data() {
        let mut ex = exercise();
        ex.configs[0].throughput_tps = 150;
        ex.configs[1].throughput_tps = 0;
        let WorkloadPlan::Batch(b) = plan(&ex.workloads[1], &ex.configs).unwrap() else {
            panic!("batch")
        };
        assert_eq!(
            (b.configs[0].seconds, b.configs[0].fits),
            (Some(26_667), false)
        );
        assert_eq!((b.configs[1].seconds, b.configs[1].fits), (None, false));
        let mut input = batch_input("4,000,000", "26667", "1");
        input.choice = Some("A".into());
        let c = check_workload(&ex, 1, &input).unwrap().unwrap();
        assert_eq!(
            c.choice,
            ChoiceVerdict::Conditional {
                condition: "quality passes".into()
            },
            "the content's conditions still apply"
        );
        let n = c.numbers.unwrap();
        assert_eq!(n.seconds[0].1, NumberVerdict::Correct);
        assert_eq!(
            n.seconds[1].1,
            NumberVerdict::Wrong {
                expected: "never (no throughput)".into()
            }
        );
        ex.workloads[1].need = WorkloadNeed::Batch {
            items: u64::MAX,
            output_tokens_per_item: 2,
            window_secs: 1,
        };
        assert!(matches!(
            check_config(&ex, &[]).get(1),
            Some(Err(ChoiceError::TotalOverflows { .. }))
        ));
    }
}
