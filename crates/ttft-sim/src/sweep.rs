//! One setting across a range: the arrival rate from a fraction of the
//! engine's estimated capacity to past it, with p95 TTFT and its parts at
//! each point, so a learner sees queue wait explode near capacity while
//! prefill stays flat.
//!
//! [`capacity`] estimates the highest arrival rate the engine can sustain,
//! from the mean work of a request (drawn from the workload) and the step
//! cost: in a saturated engine each step holds as many requests as slots,
//! KV blocks and the token budget allow, and a request needs its prompt
//! tokens, one step per output token, and its share of each step's floor.
//! It is an estimate for placing the sweep, not a result: the sweep's own
//! points show where the queue actually takes off.
//!
//! Every point runs with the same seed, so its requests are the same
//! requests at a different pace (see `workload`).

use crate::engine::{Progress, Simulation};
use crate::run::{Run, SimRequest};
use crate::settings::{Problem, Setting, Settings, SettingsError, Stop, BLOCK_TOKENS};
use crate::workload::{generate, Replay};
use crate::query::float_text;
use serde::{Deserialize, Serialize};
use ttft_latency::{percentile, Convention, Micros, TtftSplit};

/// What bounds the batch in a saturated engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Limit {
    /// Batch slots (`max_num_seqs`).
    Slots,
    /// KV-cache blocks.
    KvCache,
    /// The token budget per step.
    TokenBudget,
}

impl Limit {
    pub fn describe(self) -> &'static str {
        match self {
            Limit::Slots => "the batch slots (max_num_seqs)",
            Limit::KvCache => "the KV cache",
            Limit::TokenBudget => "the token budget per step (max_num_batched_tokens)",
        }
    }
}

/// The estimated capacity of the engine for the settings' workload.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Capacity {
    /// Requests a second it can sustain.
    pub requests_per_s: f64,
    /// Requests in a saturated step.
    pub batch: f64,
    /// What bounds that batch (or the steps).
    pub limited_by: Limit,
    /// Mean prompt tokens computed a request (after the prefix cache).
    pub mean_prompt: f64,
    /// Mean output tokens a request.
    pub mean_output: f64,
    /// Mean time a saturated step takes, milliseconds.
    pub step_ms: f64,
}

/// Requests drawn to estimate the mean work.
const SAMPLE: u32 = 20_000;

/// Estimates the engine's capacity for `settings`' workload (see the
/// module docs).
pub fn capacity(settings: &Settings, replay: Option<&Replay>) -> Result<Capacity, SettingsError> {
    settings.validate()?;
    let mut s = settings.clone();
    s.stop = Stop::Requests(SAMPLE);
    if let Some(rate) = s.arrivals.rate() {
        s.arrivals = s.arrivals.with_rate(rate);
    }
    let work = generate(&s, replay)?;
    let n = work.len().max(1) as f64;
    let e = &settings.engine;
    let c = &settings.cost;
    let (mut prompt, mut output, mut held, mut slot_steps, mut variable_ms) =
        (0.0, 0.0, 0.0, 0.0, 0.0);
    for a in &work {
        let cached = if e.prefix_caching {
            (settings.shared_prefix.min(a.prompt - 1) / BLOCK_TOKENS * BLOCK_TOKENS) as f64
        } else {
            0.0
        };
        let p = a.prompt as f64 - cached;
        let o = a.output as f64;
        prompt += p;
        output += o;
        // KV held on average over its life: the prompt, and half the output.
        held += p + o / 2.0;
        // Steps it takes part in: its prompt chunks, then one a token.
        let chunks = if e.chunked_prefill {
            let chunk = e
                .max_num_batched_tokens
                .min(e.max_prefill_chunk.unwrap_or(u32::MAX));
            (p / chunk as f64).ceil().max(1.0)
        } else {
            1.0
        };
        slot_steps += chunks + o - 1.0;
        let decode_ctx = (o - 1.0) * a.prompt as f64 + (o - 1.0) * o / 2.0;
        variable_ms += c.per_token_ms * (p + o - 1.0)
            + c.attention_ms * (p * cached + p * (p + 1.0) / 2.0)
            + c.context_ms * decode_ctx;
    }
    let (prompt, output, held) = (prompt / n, output / n, held / n);
    let (slot_steps, variable_ms) = (slot_steps / n, variable_ms / n);
    let cache_blocks = if e.prefix_caching {
        settings.shared_prefix / BLOCK_TOKENS
    } else {
        0
    } as f64;
    let usable = (e.kv_capacity as f64 / BLOCK_TOKENS as f64 * (1.0 - e.watermark) - cache_blocks)
        * BLOCK_TOKENS as f64;
    let by_kv = (usable / held.max(1.0)).max(1.0);
    let slots = e.max_num_seqs as f64;
    let (batch, mut limited_by) = if by_kv < slots {
        (by_kv, Limit::KvCache)
    } else {
        (slots, Limit::Slots)
    };
    let mut steps = slot_steps / batch;
    let by_budget = (prompt + output - 1.0).max(1.0) / e.max_num_batched_tokens as f64;
    if by_budget > steps {
        steps = by_budget;
        limited_by = Limit::TokenBudget;
    }
    let per_request_ms = c.floor_ms * steps + variable_ms;
    let requests_per_s = if per_request_ms > 0.0 {
        1000.0 / per_request_ms
    } else {
        f64::MAX
    };
    Ok(Capacity {
        requests_per_s,
        batch,
        limited_by,
        mean_prompt: prompt,
        mean_output: output,
        step_ms: if steps > 0.0 {
            per_request_ms / steps
        } else {
            0.0
        },
    })
}

/// The range a sweep covers, as fractions of the estimated capacity.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepSpec {
    /// The first point's load (0.1 is 10% of capacity).
    pub from: f64,
    /// The last point's load.
    pub to: f64,
    /// Points, evenly spaced, at least 2.
    pub points: u32,
}

impl Default for SweepSpec {
    /// 10% to 120% of capacity in 12 points.
    fn default() -> SweepSpec {
        SweepSpec {
            from: 0.1,
            to: 1.2,
            points: 12,
        }
    }
}

/// One class's figures at one point.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PointStats {
    pub name: String,
    pub requests: usize,
    /// p95 of TTFT and of each part, under the run's convention. The parts'
    /// p95s are each their own percentile and need not add up to the TTFT's.
    pub ttft_p95: Option<Micros>,
    pub queue_wait_p95: Option<Micros>,
    pub prefill_p95: Option<Micros>,
    pub emit_p95: Option<Micros>,
    /// The split of the request at the nearest-rank p95 of TTFT: parts that
    /// do add up, for a stacked chart.
    pub at_p95: Option<TtftSplit>,
    /// Requests that met the class target.
    pub met_target: usize,
    pub rejected: usize,
    pub preemptions: u64,
}

/// The figures at one point of the sweep.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepPoint {
    /// Load as a fraction of the estimated capacity.
    pub load: f64,
    /// The arrival rate run, requests a second.
    pub rate: f64,
    /// Output tokens a second.
    pub throughput: f64,
    pub classes: Vec<PointStats>,
    pub all: PointStats,
}

/// A finished sweep.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepResult {
    pub capacity: Capacity,
    pub convention: Convention,
    pub points: Vec<SweepPoint>,
}

/// How far a sweep has got.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepProgress {
    pub done: bool,
    /// Points finished.
    pub points_done: usize,
    pub points: usize,
    /// The point being run.
    pub current: Option<Progress>,
    /// From 0 to 1 over the whole sweep.
    pub fraction: f64,
}

/// A sweep in progress, run in slices like a [`Simulation`].
#[derive(Clone, Debug)]
pub struct Sweep {
    base: Settings,
    replay: Option<Replay>,
    capacity: Capacity,
    loads: Vec<f64>,
    current: Option<Simulation>,
    done: Vec<SweepPoint>,
}

impl Sweep {
    /// Checks the settings and the range. The arrivals must have a rate
    /// (Poisson or gamma).
    pub fn new(
        settings: &Settings,
        replay: Option<&Replay>,
        spec: SweepSpec,
    ) -> Result<Sweep, SettingsError> {
        if settings.arrivals.rate().is_none() {
            return Err(SettingsError::new(
                Setting::Arrivals,
                "arr=replay",
                Problem::Invalid(
                    "a sweep varies the arrival rate, and replayed arrivals have none; choose Poisson or gamma arrivals"
                        .into(),
                ),
            ));
        }
        let bad = |given: String, why: &str| {
            SettingsError::new(
                Setting::Rate,
                given,
                Problem::Invalid(format!("sweep: {why}")),
            )
        };
        if !(spec.points >= 2 && spec.points <= 50) {
            return Err(bad(spec.points.to_string(), "use 2 to 50 points"));
        }
        if !(spec.from > 0.0 && spec.from < spec.to && spec.to <= 3.0) {
            return Err(bad(
                format!("{} to {}", float_text(spec.from), float_text(spec.to)),
                "loads run from above 0 to at most 3 (300% of capacity), the first below the last",
            ));
        }
        let capacity = capacity(settings, replay)?;
        let step = (spec.to - spec.from) / (spec.points - 1) as f64;
        let loads: Vec<f64> = (0..spec.points)
            .map(|k| spec.from + step * k as f64)
            .collect();
        // Every point's rate must be one the settings accept.
        for &l in &loads {
            let mut s = settings.clone();
            s.arrivals = s.arrivals.with_rate(l * capacity.requests_per_s);
            s.validate()?;
        }
        Ok(Sweep {
            base: settings.clone(),
            replay: replay.cloned(),
            capacity,
            loads,
            current: None,
            done: Vec::new(),
        })
    }

    /// The estimate the loads are fractions of.
    pub fn capacity(&self) -> Capacity {
        self.capacity
    }

    /// Runs at most `budget_events` engine events, across points.
    pub fn step_until(&mut self, budget_events: u64) -> SweepProgress {
        let mut left = budget_events;
        while left > 0 && self.done.len() < self.loads.len() {
            if self.current.is_none() {
                let load = self.loads[self.done.len()];
                let mut s = self.base.clone();
                s.arrivals = s.arrivals.with_rate(load * self.capacity.requests_per_s);
                match Simulation::new(&s, self.replay.as_ref()) {
                    Ok(sim) => self.current = Some(sim),
                    // Checked in `new`; a point that still fails is left out.
                    Err(_) => {
                        self.loads.remove(self.done.len());
                        continue;
                    }
                }
            }
            let k = left.min(100_000);
            left -= k;
            let finished = match self.current.as_mut() {
                Some(sim) => sim.step_until(k).done,
                None => false,
            };
            if finished {
                if let Some(sim) = self.current.take() {
                    let load = self.loads[self.done.len()];
                    self.done.push(point(load, &sim.finish()));
                }
            }
        }
        self.progress()
    }

    /// How far the sweep has got.
    pub fn progress(&self) -> SweepProgress {
        let current = self.current.as_ref().map(Simulation::progress);
        let n = self.loads.len().max(1) as f64;
        let part = current.map_or(0.0, |p| p.fraction);
        SweepProgress {
            done: self.done.len() == self.loads.len(),
            points_done: self.done.len(),
            points: self.loads.len(),
            current,
            fraction: ((self.done.len() as f64 + part) / n).min(1.0),
        }
    }

    /// Runs what is left and returns every point.
    pub fn finish(mut self) -> SweepResult {
        while !self.step_until(u64::MAX).done {}
        SweepResult {
            capacity: self.capacity,
            convention: self.base.convention,
            points: self.done,
        }
    }
}

/// Runs a whole sweep in one call.
pub fn sweep(
    settings: &Settings,
    replay: Option<&Replay>,
    spec: SweepSpec,
) -> Result<SweepResult, SettingsError> {
    Ok(Sweep::new(settings, replay, spec)?.finish())
}

fn point(load: f64, run: &Run) -> SweepPoint {
    let convention = run.settings.convention;
    let stats =
        |name: &str, reqs: Vec<&SimRequest>, met: usize, rejected: usize, preemptions: u64| {
            let splits: Vec<TtftSplit> = reqs.iter().filter_map(|r| r.split()).collect();
            let p95 = |xs: Vec<Micros>| percentile(&xs, 95, convention).ok().map(|v| v.value);
            let mut by_ttft: Vec<&TtftSplit> = splits.iter().collect();
            ttft_latency::sort::sort_by_key(&mut by_ttft, |s| s.ttft());
            let at_p95 = (!by_ttft.is_empty()).then(|| {
                let rank = (95 * by_ttft.len()).div_ceil(100).max(1);
                *by_ttft[rank - 1]
            });
            PointStats {
                name: name.to_owned(),
                requests: reqs.len(),
                ttft_p95: p95(splits.iter().map(|s| s.ttft()).collect()),
                queue_wait_p95: p95(splits.iter().map(|s| s.queue_wait).collect()),
                prefill_p95: p95(splits.iter().map(|s| s.prefill).collect()),
                emit_p95: p95(splits.iter().map(|s| s.emit).collect()),
                at_p95,
                met_target: met,
                rejected,
                preemptions,
            }
        };
    let classes = run
        .classes
        .iter()
        .enumerate()
        .map(|(k, c)| {
            stats(
                &c.name,
                run.requests
                    .iter()
                    .filter(|r| r.class as usize == k)
                    .collect(),
                c.met_target,
                c.rejected.total(),
                c.preemptions,
            )
        })
        .collect();
    let a = &run.all;
    SweepPoint {
        load,
        rate: run.settings.arrivals.rate().unwrap_or(0.0),
        throughput: run.totals.throughput,
        classes,
        all: stats(
            "all",
            run.requests.iter().collect(),
            a.met_target,
            a.rejected.total(),
            a.preemptions,
        ),
    }
}
