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
//!
//! Its parts: `plan` (the arithmetic), `numbers` (the filled-in numbers'
//! checks), `verdicts` (what a check gives back), and here the learner's
//! input, the choice's and the evidence's checks, and checking a workload.

mod numbers;
mod plan;
#[cfg(test)]
pub(crate) mod tests;
mod verdicts;

pub use numbers::{check_late, check_seconds, check_total};
pub use plan::{plan, BatchFit, BatchPlan, ChoiceError, InteractiveFit, WorkloadPlan};
pub use verdicts::{
    BatchNumbers, ChoiceVerdict, EvidenceCheck, EvidenceNote, FitVerdict, InteractiveNumbers,
    NumberMistake, NumberVerdict, UnitSlip, WorkloadCheck,
};

use crate::content::{ConfigExercise, QualityStatus, ServingConfig, Workload};
use serde::{Deserialize, Serialize};
use ttft_latency::small_map::SmallMap;
use ttft_latency::split::format_tenths;
use ttft_latency::time::group_thousands;

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
    pub seconds: SmallMap<String, String>,
    /// Whether each configuration meets the workload's need, by id: fits
    /// the window (batch) or meets the target at p95 (interactive).
    #[serde(default)]
    pub fits: SmallMap<String, bool>,
    /// Interactive only: each configuration's share of late first tokens,
    /// in percent as typed, by id.
    #[serde(default)]
    pub late_percent: SmallMap<String, String>,
    /// Ids of the evidence options ticked as still needed.
    #[serde(default)]
    pub evidence: Vec<String>,
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
        return ChoiceVerdict::Close(c.condition.clone());
    }
    match exercise.configs.iter().find(|c| c.id == id) {
        Some(config) => ChoiceVerdict::Wrong(reason_against(config, plan)),
        None => ChoiceVerdict::Wrong(format!(
            "There is no configuration \"{id}\" in this exercise."
        )),
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
                        Some(_) => FitVerdict::Wrong(()),
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
                        Some(_) => FitVerdict::Wrong(()),
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
