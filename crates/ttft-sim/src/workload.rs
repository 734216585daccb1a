//! The requests of a run, drawn before it starts: when each arrives, its
//! class, and its prompt and output lengths; or taken from an imported
//! trace ([`Replay`]).
//!
//! Each purpose draws from its own stream of the seed (arrivals, classes,
//! lengths), so request *i* has the same class and lengths whatever the
//! arrival rate, and the gaps at another rate are the same gaps scaled: the
//! same seed at a higher rate is the same workload, compressed in time.

use crate::rng::Rng;
use crate::settings::{
    Arrivals, Lengths, Problem, Setting, Settings, SettingsError, Stop, MAX_OUTPUT, MAX_PROMPT,
    MAX_REQUESTS,
};
use serde::{Deserialize, Serialize};
use std::fmt;
use ttft_import::Import;
use ttft_latency::Micros;

const ARRIVAL_STREAM: u64 = 1;
const CLASS_STREAM: u64 = 2;
const LENGTH_STREAM: u64 = 3;

/// One request as the workload makes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Arrival {
    /// Microseconds from the start of the run.
    pub at: i64,
    pub class: u16,
    pub prompt: u32,
    pub output: u32,
}

/// One request of an imported trace, as a replay uses it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplayRequest {
    /// Its id in the trace.
    pub id: String,
    /// When it arrived, from the trace's first arrival; `None` when the
    /// trace has no start times.
    pub arrival: Option<Micros>,
    pub prompt_tokens: u32,
    pub output_tokens: u32,
}

/// Requests of the trace left out of a replay, by reason.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplaySkipped {
    /// No prompt length, or zero.
    pub no_prompt: usize,
    /// No output length, or zero (errors and cancellations usually).
    pub no_output: usize,
    /// Longer than the simulator takes.
    pub too_long: usize,
    /// Beyond the most requests one run holds.
    pub too_many: usize,
}

impl ReplaySkipped {
    /// All skipped requests.
    pub fn total(&self) -> usize {
        self.no_prompt + self.no_output + self.too_long + self.too_many
    }
}

/// The arrivals and lengths of an imported trace, ready to replay.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Replay {
    requests: Vec<ReplayRequest>,
    has_arrivals: bool,
    /// What was left out, and why.
    pub skipped: ReplaySkipped,
}

/// Why a trace cannot be replayed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplayError {
    /// Requests in the trace.
    pub requests: usize,
    /// Why each was left out.
    pub skipped: ReplaySkipped,
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.skipped;
        write!(
            f,
            "none of the trace's {} requests records both a prompt and an output length, so there is \
             nothing to replay ({} without a prompt length, {} without an output length, {} too long)",
            self.requests, s.no_prompt, s.no_output, s.too_long
        )
    }
}

impl std::error::Error for ReplayError {}

impl Replay {
    /// The requests of an import that record a prompt and an output length.
    /// Arrivals are the start times, from the earliest, when every such
    /// request has one (sorted by it, ties in file order); otherwise the
    /// trace gives lengths only.
    pub fn from_import(import: &Import) -> Result<Replay, ReplayError> {
        let mut skipped = ReplaySkipped::default();
        let mut kept = Vec::new();
        for r in &import.requests {
            let (Some(p), Some(o)) = (
                r.prompt_tokens.filter(|&p| p > 0),
                r.output_tokens.filter(|&o| o > 0),
            ) else {
                if r.prompt_tokens.unwrap_or(0) == 0 {
                    skipped.no_prompt += 1;
                } else {
                    skipped.no_output += 1;
                }
                continue;
            };
            if p > MAX_PROMPT as u64 || o > MAX_OUTPUT as u64 {
                skipped.too_long += 1;
                continue;
            }
            kept.push((r.id.clone(), r.start, p as u32, o as u32));
        }
        if kept.is_empty() {
            return Err(ReplayError {
                requests: import.requests.len(),
                skipped,
            });
        }
        let has_arrivals = kept.iter().all(|k| k.1.is_some());
        let first = kept
            .iter()
            .filter_map(|k| k.1)
            .min()
            .unwrap_or(Micros::ZERO);
        let mut requests: Vec<ReplayRequest> = kept
            .into_iter()
            .map(|(id, start, prompt_tokens, output_tokens)| ReplayRequest {
                id,
                arrival: start
                    .filter(|_| has_arrivals)
                    .and_then(|s| s.checked_sub(first)),
                prompt_tokens,
                output_tokens,
            })
            .collect();
        if has_arrivals {
            ttft_latency::sort::sort_by_key(&mut requests, |r| r.arrival);
        }
        if requests.len() > MAX_REQUESTS as usize {
            skipped.too_many = requests.len() - MAX_REQUESTS as usize;
            requests.truncate(MAX_REQUESTS as usize);
        }
        Ok(Replay {
            requests,
            has_arrivals,
            skipped,
        })
    }

    /// The requests, in arrival order when the trace has arrivals.
    pub fn requests(&self) -> &[ReplayRequest] {
        &self.requests
    }

    /// Requests kept for the replay.
    pub fn len(&self) -> usize {
        self.requests.len()
    }

    /// True when no request was kept (never, for a `Replay` that exists).
    pub fn is_empty(&self) -> bool {
        self.requests.is_empty()
    }

    /// True when every replayed request has an arrival time.
    pub fn has_arrivals(&self) -> bool {
        self.has_arrivals
    }
}

/// The run's requests in arrival order.
pub(crate) fn generate(
    s: &Settings,
    replay: Option<&Replay>,
) -> Result<Vec<Arrival>, SettingsError> {
    let needs =
        |setting: Setting, what: &str| SettingsError::new(setting, what, Problem::NeedsTrace);
    let replay_arrivals = match s.arrivals {
        Arrivals::Replay { speed } => {
            let r = replay.ok_or_else(|| needs(Setting::Arrivals, "arr=replay"))?;
            if !r.has_arrivals() {
                return Err(SettingsError::new(
                    Setting::Arrivals,
                    "arr=replay",
                    Problem::Invalid(
                        "the imported trace records no start times, so its arrivals cannot be replayed; \
                         replay its lengths with generated arrivals instead"
                            .into(),
                    ),
                ));
            }
            Some((r, speed))
        }
        _ => None,
    };
    let replay_lengths = match s.lengths {
        Lengths::Replay => Some(replay.ok_or_else(|| needs(Setting::Lengths, "len=replay"))?),
        _ => None,
    };
    // Arrival times.
    let limit = match s.stop {
        Stop::Requests(n) => (n as usize, i64::MAX),
        Stop::Duration(d) => (MAX_REQUESTS as usize, d.0),
    };
    let mut times: Vec<i64> = Vec::new();
    match (replay_arrivals, s.arrivals) {
        (Some((r, speed)), _) => {
            for req in r.requests() {
                let at = req.arrival.unwrap_or(Micros::ZERO).0;
                let at = if speed == 1.0 {
                    at
                } else {
                    (at as f64 / speed).round() as i64
                };
                if times.len() >= limit.0 || at >= limit.1 {
                    break;
                }
                times.push(at);
            }
        }
        (None, arrivals) => {
            let mut rng = Rng::stream(s.seed, ARRIVAL_STREAM);
            let rate = arrivals.rate().unwrap_or(1.0);
            let shape = match arrivals {
                Arrivals::Gamma { cv, .. } => Some(1.0 / (cv * cv)),
                _ => None,
            };
            let mut t = 0.0f64;
            while times.len() < limit.0 {
                // A unit-mean gap, scaled by the rate.
                let gap = match shape {
                    Some(k) => rng.gamma(k) / k,
                    None => rng.exponential(),
                };
                t += gap / rate;
                let at = (t * 1e6).round();
                if at >= limit.1 as f64 || at >= 9.0e15 {
                    break;
                }
                times.push(at as i64);
            }
        }
    }
    // Classes and lengths.
    let classes = s.classes();
    let weights: Vec<f64> = classes.iter().map(|c| c.share).collect();
    let total_weight: f64 = weights.iter().sum();
    let mut class_rng = Rng::stream(s.seed, CLASS_STREAM);
    let mut len_rng = Rng::stream(s.seed, LENGTH_STREAM);
    let tokens = |x: f64, max: u32| -> u32 {
        if x >= max as f64 {
            max
        } else if x >= 1.0 {
            x.round() as u32
        } else {
            1
        }
    };
    let mut out = Vec::with_capacity(times.len());
    for (i, at) in times.into_iter().enumerate() {
        let (class, prompt, output) = match (&s.lengths, replay_arrivals, replay_lengths) {
            (Lengths::Replay, Some((r, _)), _) => {
                let q = &r.requests()[i];
                (0, q.prompt_tokens, q.output_tokens)
            }
            (Lengths::Replay, None, Some(r)) => {
                let n = r.requests().len() as f64;
                let k = ((len_rng.uniform() * n) as usize).min(r.requests().len() - 1);
                let q = &r.requests()[k];
                (0, q.prompt_tokens, q.output_tokens)
            }
            (Lengths::Fixed { prompt, output }, ..) => (0, *prompt, *output),
            (
                Lengths::LogNormal {
                    prompt,
                    prompt_spread,
                    output,
                    output_spread,
                },
                ..,
            ) => (
                0,
                tokens(
                    len_rng.log_normal(*prompt as f64, *prompt_spread),
                    MAX_PROMPT,
                ),
                tokens(
                    len_rng.log_normal(*output as f64, *output_spread),
                    MAX_OUTPUT,
                ),
            ),
            (Lengths::Classes(cs), ..) => {
                let u = class_rng.uniform() * total_weight;
                let mut acc = 0.0;
                let mut k = cs.len() - 1;
                for (j, w) in weights.iter().enumerate() {
                    acc += w;
                    if u < acc {
                        k = j;
                        break;
                    }
                }
                (k as u16, cs[k].prompt, cs[k].output)
            }
            (Lengths::Replay, None, None) => unreachable_lengths(),
        };
        out.push(Arrival {
            at,
            class,
            prompt,
            output,
        });
    }
    Ok(out)
}

/// `Lengths::Replay` without a replay was refused above; this arm only
/// satisfies the match, and gives a harmless request rather than a panic.
fn unreachable_lengths() -> (u16, u32, u32) {
    (0, 1, 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::Class;

    #[test]
    fn the_same_seed_at_another_rate_is_the_same_workload_compressed() {
        let mut s = Settings {
            stop: Stop::Requests(500),
            arrivals: Arrivals::Poisson { rate: 3.0 },
            ..Settings::default()
        };
        let slow = generate(&s, None).unwrap();
        s.arrivals = Arrivals::Poisson { rate: 6.0 };
        let fast = generate(&s, None).unwrap();
        for (a, b) in slow.iter().zip(&fast) {
            assert_eq!((a.class, a.prompt, a.output), (b.class, b.prompt, b.output));
            assert!((a.at as f64 / 2.0 - b.at as f64).abs() <= 1.0);
        }
    }

    #[test]
    fn class_shares_and_rates_are_as_asked() {
        let s = Settings {
            stop: Stop::Requests(40_000),
            arrivals: Arrivals::Gamma { rate: 5.0, cv: 3.0 },
            ..Settings::default()
        };
        let w = generate(&s, None).unwrap();
        let hint = w.iter().filter(|a| a.class == 0).count() as f64 / w.len() as f64;
        assert!((hint - 0.85).abs() < 0.01, "{hint}");
        let gaps: Vec<f64> = w
            .windows(2)
            .map(|p| (p[1].at - p[0].at) as f64 / 1e6)
            .collect();
        let mean = gaps.iter().sum::<f64>() / gaps.len() as f64;
        let sd = (gaps.iter().map(|g| (g - mean).powi(2)).sum::<f64>() / gaps.len() as f64).sqrt();
        assert!((mean - 0.2).abs() < 0.01, "mean gap {mean}");
        assert!((sd / mean - 3.0).abs() < 0.2, "cv {}", sd / mean);
    }

    #[test]
    fn a_duration_stops_the_arrivals() {
        let s = Settings {
            stop: Stop::Duration(Micros::from_ms(10_000)),
            arrivals: Arrivals::Poisson { rate: 3.0 },
            lengths: Lengths::Classes(vec![Class {
                name: "x".into(),
                share: 1.0,
                prompt: 5,
                output: 5,
                target: Micros::from_ms(1),
            }]),
            ..Settings::default()
        };
        let w = generate(&s, None).unwrap();
        assert!(w.iter().all(|a| a.at < 10_000_000));
        assert!((20..=45).contains(&w.len()), "{}", w.len());
    }

    #[test]
    fn replay_needs_a_trace() {
        let s = Settings {
            lengths: Lengths::Replay,
            ..Settings::default()
        };
        let e = generate(&s, None).unwrap_err();
        assert_eq!(e.setting, Setting::Lengths);
        assert_eq!(
            e.to_string(),
            "lengths: len=replay replays an imported trace; import one first, or choose generated arrivals and lengths"
        );
    }
}
