//! What a run gives back: every request with its events, the same timing
//! records the core splits, per-class summaries, run totals and a
//! bounded time series.
//!
//! A simulated request becomes a [`RequestTrace`] with server events on one
//! clock (arrival, first scheduled, prefill end, first token, last token),
//! so `ttft_latency::split_request` splits it exactly as it splits a real
//! trace and TTFT = queue wait + prefill + emit holds in integer
//! microseconds. Every summary is `ttft_latency::summarise` over those
//! requests, under the run's named percentile convention.
//!
//! **What counts where.** Queue wait is arrival until the request is first
//! scheduled; prefill is from then until its first token's scores are ready
//! (if it was preempted before its first token, that prefill includes the
//! time it waited again and recomputed, which [`PreemptionCost`] reports
//! apart); emit is the fixed emit time. A request finished when its last
//! token was written; rejected when the queue was full, it waited past the
//! deadline, or it could never fit the KV cache; still running when the run
//! ended first (its outcome in a trace is `cancelled`).

use crate::engine::{Req, Simulation, State, Stopped, NONE};
use crate::settings::Settings;
use serde::{Deserialize, Serialize};
use ttft_latency::{
    summarise, Convention, Events, Micros, Observation, Outcome, RequestTrace, Summary, Timing,
    TtftSplit,
};

/// Why a request was turned away.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rejection {
    /// The queue held the queue limit when it arrived.
    QueueFull,
    /// It waited past the deadline without being started.
    Deadline,
    /// It needs more KV blocks than the cache has.
    TooLong,
}

impl Rejection {
    /// Plain words, as the trace export's error column writes them.
    pub fn describe(self) -> &'static str {
        match self {
            Rejection::QueueFull => "rejected on arrival: the queue was full",
            Rejection::Deadline => "rejected: waited past the deadline without starting",
            Rejection::TooLong => "rejected on arrival: longer than the KV cache can hold",
        }
    }
}

/// How a request ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "reason")]
pub enum End {
    Finished,
    Rejected(Rejection),
    /// Still waiting or running when the run ended.
    Unfinished,
}

/// What preemptions cost a request in one phase (before or after its first
/// token).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PreemptionCost {
    /// Times it was preempted.
    pub count: u32,
    /// Time spent waiting again after being preempted.
    pub waiting: Micros,
    /// Time spent in steps recomputing tokens it had computed before.
    pub recompute: Micros,
}

impl PreemptionCost {
    fn add(&mut self, o: &PreemptionCost) {
        self.count += o.count;
        self.waiting = self.waiting + o.waiting;
        self.recompute = self.recompute + o.recompute;
    }
}

/// One simulated request.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SimRequest {
    /// Its position in arrival order, from 0; its id is `r` and this plus 1.
    pub index: u32,
    /// Its class, by position in [`Settings::classes`].
    pub class: u16,
    pub prompt_tokens: u32,
    /// Output tokens it asked for.
    pub output_tokens: u32,
    /// Output tokens written.
    pub generated: u32,
    /// Prompt tokens it did not compute, found in the prefix cache, at its
    /// first start.
    pub cached_tokens: u32,
    /// Requests waiting when it arrived.
    pub queued_at_arrival: u32,
    pub arrival: Micros,
    /// First scheduled: queue wait ends.
    pub first_scheduled: Option<Micros>,
    /// Its first token's scores are ready.
    pub prefill_end: Option<Micros>,
    /// Its first token is on the stream.
    pub first_token: Option<Micros>,
    /// Its last token is on the stream.
    pub last_token: Option<Micros>,
    /// When it left the system: its last token, its rejection, or the end
    /// of the run.
    pub ended: Micros,
    pub end: End,
    /// Preemptions before its first token (their cost is inside prefill).
    pub before_first_token: PreemptionCost,
    /// Preemptions after its first token (their cost is inside decode).
    pub after_first_token: PreemptionCost,
}

fn opt(t: i64) -> Option<Micros> {
    (t != NONE).then_some(Micros(t))
}

impl SimRequest {
    pub(crate) fn from_req(index: usize, r: &Req) -> SimRequest {
        let end = match r.state {
            State::Finished => End::Finished,
            State::Rejected(why) => End::Rejected(why),
            _ => End::Unfinished,
        };
        SimRequest {
            index: index as u32,
            class: r.a.class,
            prompt_tokens: r.a.prompt,
            output_tokens: r.a.output,
            generated: r.generated,
            cached_tokens: r.cached_tokens,
            queued_at_arrival: r.queued_at_arrival,
            arrival: Micros(r.a.at),
            first_scheduled: opt(r.first_scheduled),
            prefill_end: opt(r.prefill_end),
            first_token: opt(r.first_token),
            last_token: opt(r.last_token),
            ended: Micros(if r.ended == NONE { r.a.at } else { r.ended }),
            end,
            before_first_token: r.cost[0],
            after_first_token: r.cost[1],
        }
    }

    /// Its id in tables and exports: `r1`, `r2`, ...
    pub fn id(&self) -> String {
        format!("r{}", self.index as u64 + 1)
    }

    /// Its outcome as the core names it (`cancelled` for still running).
    pub fn outcome(&self) -> Outcome {
        match self.end {
            End::Finished => Outcome::Completed,
            End::Rejected(_) => Outcome::Rejected,
            End::Unfinished => Outcome::Cancelled,
        }
    }

    /// The split of its TTFT, when it had a first token.
    pub fn split(&self) -> Option<TtftSplit> {
        let (a, s, p, f) = (
            self.arrival,
            self.first_scheduled?,
            self.prefill_end?,
            self.first_token?,
        );
        Some(TtftSplit {
            queue_wait: s - a,
            prefill: p - s,
            emit: f - p,
        })
    }

    /// Its TTFT, when it had a first token.
    pub fn ttft(&self) -> Option<Micros> {
        Some(self.first_token? - self.arrival)
    }

    /// Arrival until it left the system.
    pub fn time_in_system(&self) -> Micros {
        self.ended - self.arrival
    }

    /// Every preemption of the request.
    pub fn preemptions(&self) -> u32 {
        self.before_first_token.count + self.after_first_token.count
    }

    /// The request as a trace records it: server events on one clock.
    pub fn trace(&self) -> RequestTrace {
        RequestTrace {
            id: self.id(),
            prompt_tokens: Some(self.prompt_tokens as u64),
            output_tokens: (self.generated > 0).then_some(self.generated as u64),
            queued_at_arrival: Some(self.queued_at_arrival as u64),
            outcome: self.outcome(),
            timing: Timing::Events(Events {
                arrival: Some(self.arrival),
                admitted: self.first_scheduled,
                prefill_end: self.prefill_end,
                first_token: self.first_token,
                last_token: self.last_token,
            }),
        }
    }

    /// What a summary needs of it.
    pub fn observation(&self) -> Observation {
        match self.split() {
            Some(parts) => Observation {
                outcome: self.outcome(),
                ttft: Some(parts.ttft()),
                parts: Some(parts),
            },
            None => Observation::unsplit(self.outcome()),
        }
    }
}

/// Rejections by reason.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rejections {
    pub queue_full: usize,
    pub deadline: usize,
    pub too_long: usize,
}

impl Rejections {
    pub fn total(&self) -> usize {
        self.queue_full + self.deadline + self.too_long
    }

    fn add(&mut self, why: Rejection) {
        match why {
            Rejection::QueueFull => self.queue_full += 1,
            Rejection::Deadline => self.deadline += 1,
            Rejection::TooLong => self.too_long += 1,
        }
    }
}

/// The figures of one class of requests (or of all of them).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClassStats {
    pub name: String,
    /// Its TTFT target (`None` for all classes together).
    pub target: Option<Micros>,
    pub requests: usize,
    pub finished: usize,
    pub rejected: Rejections,
    pub unfinished: usize,
    /// Requests whose TTFT met their class's target: the goodput.
    pub met_target: usize,
    /// TTFT and part percentiles, outcomes and target counts, from the core.
    pub summary: Summary,
    /// Requests preempted at least once, and preemptions in all.
    pub preempted_requests: usize,
    pub preemptions: u64,
    /// Summed over the class's requests, before and after the first token.
    pub before_first_token: PreemptionCost,
    pub after_first_token: PreemptionCost,
    /// Output tokens written.
    pub output_tokens: u64,
}

impl ClassStats {
    fn of<'a>(
        name: String,
        target: Option<Micros>,
        requests: impl Iterator<Item = &'a SimRequest> + Clone,
        targets: &[Micros],
        convention: Convention,
    ) -> ClassStats {
        let obs: Vec<Observation> = requests.clone().map(|r| r.observation()).collect();
        let summary = summarise(&obs, target, convention);
        let mut s = ClassStats {
            name,
            target,
            requests: obs.len(),
            finished: 0,
            rejected: Rejections::default(),
            unfinished: 0,
            met_target: 0,
            summary,
            preempted_requests: 0,
            preemptions: 0,
            before_first_token: PreemptionCost::default(),
            after_first_token: PreemptionCost::default(),
            output_tokens: 0,
        };
        for r in requests {
            match r.end {
                End::Finished => s.finished += 1,
                End::Rejected(why) => s.rejected.add(why),
                End::Unfinished => s.unfinished += 1,
            }
            let target = targets
                .get(r.class as usize)
                .copied()
                .unwrap_or(Micros::ZERO);
            if r.ttft().is_some_and(|t| t <= target) {
                s.met_target += 1;
            }
            if r.preemptions() > 0 {
                s.preempted_requests += 1;
                s.preemptions += r.preemptions() as u64;
            }
            s.before_first_token.add(&r.before_first_token);
            s.after_first_token.add(&r.after_first_token);
            s.output_tokens += r.generated as u64;
        }
        s
    }
}

/// Figures of the whole run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Totals {
    pub requests: usize,
    pub finished: usize,
    pub rejected: Rejections,
    pub unfinished: usize,
    pub preemptions: u64,
    pub output_tokens: u64,
    pub steps: u64,
    /// From time 0 to the end of the last step.
    pub elapsed: Micros,
    /// Output tokens a second over `elapsed`.
    pub throughput: f64,
    /// Requests that met their class's target, and that a second.
    pub goodput: usize,
    pub goodput_per_s: f64,
    /// Mean requests in the system (arrived and not yet gone: waiting or
    /// running) over `elapsed`.
    pub mean_in_system: f64,
    /// The same as an exact integral: requests x microseconds. It equals
    /// the sum of every request's time in the system.
    pub in_system_area: i128,
    /// Requests a second that arrived, over `elapsed`.
    pub arrival_rate: f64,
    /// Mean time from arrival until each request left the system, seconds.
    pub mean_time_in_system: f64,
    pub kv_capacity_tokens: u64,
    /// Most KV tokens in use at any time (whole blocks).
    pub kv_peak_tokens: u64,
    /// Set when the run stopped before every request was done.
    pub stopped: Option<Stopped>,
    pub convention: Convention,
}

/// Everything a run gives back.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Run {
    pub settings: Settings,
    /// In arrival order.
    pub requests: Vec<SimRequest>,
    /// One per class, in the settings' order.
    pub classes: Vec<ClassStats>,
    /// All requests together.
    pub all: ClassStats,
    pub totals: Totals,
    pub series: Series,
}

impl Run {
    pub(crate) fn build(
        settings: Settings,
        sim: &Simulation,
        now: i64,
        steps: u64,
        area: i128,
        stopped: Option<Stopped>,
    ) -> Run {
        let requests: Vec<SimRequest> = sim
            .reqs
            .iter()
            .enumerate()
            .map(|(i, r)| SimRequest::from_req(i, r))
            .collect();
        let convention = settings.convention;
        let classes_def = settings.classes();
        let targets: Vec<Micros> = classes_def.iter().map(|c| c.target).collect();
        let classes: Vec<ClassStats> = classes_def
            .iter()
            .enumerate()
            .map(|(k, c)| {
                ClassStats::of(
                    c.name.clone(),
                    Some(c.target),
                    requests.iter().filter(move |r| r.class as usize == k),
                    &targets,
                    convention,
                )
            })
            .collect();
        let all = ClassStats::of("all".into(), None, requests.iter(), &targets, convention);
        // The last request leaves when its last token is written, just
        // after the last step.
        let last = requests.iter().map(|r| r.ended.0).max().unwrap_or(0);
        let elapsed = Micros(now.max(last));
        let secs = elapsed.as_secs_f64();
        let per_s = |x: f64| if secs > 0.0 { x / secs } else { 0.0 };
        let n = requests.len();
        let mean_time_in_system = if n == 0 {
            0.0
        } else {
            requests
                .iter()
                .map(|r| r.time_in_system().0 as f64)
                .sum::<f64>()
                / n as f64
                / 1e6
        };
        let totals = Totals {
            requests: n,
            finished: all.finished,
            rejected: all.rejected,
            unfinished: all.unfinished,
            preemptions: all.preemptions,
            output_tokens: sim.output_tokens,
            steps,
            elapsed,
            throughput: per_s(sim.output_tokens as f64),
            goodput: all.met_target,
            goodput_per_s: per_s(all.met_target as f64),
            mean_in_system: if elapsed.0 > 0 {
                area as f64 / elapsed.0 as f64
            } else {
                0.0
            },
            in_system_area: area,
            arrival_rate: per_s(n as f64),
            mean_time_in_system,
            kv_capacity_tokens: settings.engine.kv_capacity / 16 * 16,
            kv_peak_tokens: sim.kv_peak * 16,
            stopped,
            convention,
        };
        Run {
            series: sim.series.finish(),
            settings,
            requests,
            classes,
            all,
            totals,
        }
    }

    /// Every request as the core's timing record.
    pub fn traces(&self) -> Vec<RequestTrace> {
        self.requests.iter().map(SimRequest::trace).collect()
    }

    /// Every request as a summary observation.
    pub fn observations(&self) -> Vec<Observation> {
        self.requests.iter().map(SimRequest::observation).collect()
    }

    /// The class a request belongs to.
    pub fn class_name(&self, r: &SimRequest) -> &str {
        self.classes
            .get(r.class as usize)
            .map_or("", |c| c.name.as_str())
    }
}

/// Most points a series keeps; longer runs are merged into wider buckets.
pub const MAX_POINTS: usize = 512;

/// Queue length, running batch and KV use over time, averaged over
/// buckets of equal width (the width doubles as the run grows, so a run of
/// any length has at most [`MAX_POINTS`] points).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Series {
    /// Each bucket's width.
    pub width: Micros,
    pub points: Vec<SeriesPoint>,
}

/// One bucket: time-weighted means over the time it covers, and maxima.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeriesPoint {
    pub start: Micros,
    /// The simulated time it covers (less than the width only at the end).
    pub covered: Micros,
    pub queue: f64,
    pub queue_max: u32,
    pub running: f64,
    pub running_max: u32,
    pub kv_tokens: f64,
    pub kv_tokens_max: u64,
}

#[derive(Clone, Copy, Debug, Default)]
struct Bucket {
    covered: i64,
    queue: f64,
    running: f64,
    kv: f64,
    queue_max: u32,
    running_max: u32,
    kv_max: u64,
}

impl Bucket {
    fn merge(&mut self, o: &Bucket) {
        self.covered += o.covered;
        self.queue += o.queue;
        self.running += o.running;
        self.kv += o.kv;
        self.queue_max = self.queue_max.max(o.queue_max);
        self.running_max = self.running_max.max(o.running_max);
        self.kv_max = self.kv_max.max(o.kv_max);
    }
}

/// Builds a [`Series`] interval by interval, in bounded memory.
#[derive(Clone, Debug)]
pub(crate) struct SeriesBuilder {
    width: i64,
    buckets: Vec<Bucket>,
}

impl SeriesBuilder {
    pub fn new() -> SeriesBuilder {
        SeriesBuilder {
            width: 1_000,
            buckets: Vec::new(),
        }
    }

    /// The state held over `[from, to)`.
    pub fn add(&mut self, from: i64, to: i64, queue: u32, running: u32, kv: u64) {
        if to <= from || from < 0 {
            return;
        }
        while to > self.width.saturating_mul(MAX_POINTS as i64) {
            self.halve();
        }
        let mut t = from;
        while t < to {
            let k = (t / self.width) as usize;
            let edge = (k as i64 + 1) * self.width;
            let span = edge.min(to) - t;
            if self.buckets.len() <= k {
                self.buckets.resize(k + 1, Bucket::default());
            }
            let b = &mut self.buckets[k];
            let w = span as f64;
            b.covered += span;
            b.queue += queue as f64 * w;
            b.running += running as f64 * w;
            b.kv += kv as f64 * w;
            b.queue_max = b.queue_max.max(queue);
            b.running_max = b.running_max.max(running);
            b.kv_max = b.kv_max.max(kv);
            t += span;
        }
    }

    fn halve(&mut self) {
        let merged: Vec<Bucket> = self
            .buckets
            .chunks(2)
            .map(|pair| {
                let mut b = pair[0];
                if let Some(o) = pair.get(1) {
                    b.merge(o);
                }
                b
            })
            .collect();
        self.buckets = merged;
        self.width = self.width.saturating_mul(2);
    }

    pub fn finish(&self) -> Series {
        let points = self
            .buckets
            .iter()
            .enumerate()
            .map(|(k, b)| {
                let mean = |x: f64| {
                    if b.covered > 0 {
                        x / b.covered as f64
                    } else {
                        0.0
                    }
                };
                SeriesPoint {
                    start: Micros(k as i64 * self.width),
                    covered: Micros(b.covered),
                    queue: mean(b.queue),
                    queue_max: b.queue_max,
                    running: mean(b.running),
                    running_max: b.running_max,
                    kv_tokens: mean(b.kv),
                    kv_tokens_max: b.kv_max,
                }
            })
            .collect();
        Series {
            width: Micros(self.width),
            points,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_series_stays_bounded_and_keeps_its_integral() {
        let mut b = SeriesBuilder::new();
        let mut t = 0;
        let mut area = 0.0;
        for i in 0..100_000i64 {
            let dt = 1 + (i * 7919) % 40_000;
            let q = (i % 13) as u32;
            b.add(t, t + dt, q, 1, 16);
            area += q as f64 * dt as f64;
            t += dt;
        }
        let s = b.finish();
        assert!(s.points.len() <= MAX_POINTS);
        let total: f64 = s.points.iter().map(|p| p.queue * p.covered.0 as f64).sum();
        assert!((total - area).abs() / area < 1e-9);
        assert_eq!(s.points.iter().map(|p| p.covered.0).sum::<i64>(), t);
        assert_eq!(s.points.iter().map(|p| p.queue_max).max(), Some(12));
    }
}
