//! The arithmetic that decides each workload, from the exercise's data
//! alone: a batch's time to finish at each configuration's throughput
//! against its window, an interactive workload's p95 TTFT against its target.

use crate::content::{ServingConfig, Workload, WorkloadNeed};
use serde::{Deserialize, Serialize};
use std::fmt;
use ttft_latency::time::{group_thousands, Micros};

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
