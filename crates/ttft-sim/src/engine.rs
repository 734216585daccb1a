//! The discrete-event simulation, one engine step at a time.
//!
//! Time is integer microseconds. The engine is either idle (nothing waiting
//! or running: time jumps to the next arrival) or runs a step: at the
//! step's start it takes the arrivals up to that instant (and rejects what
//! the queue limit or the waiting deadline says), schedules, computes the
//! step's time from what it holds ([`StepCost`]), and at the step's end
//! applies it: prompt chunks advance, each request whose known tokens are all
//! computed samples its next token, finished requests free their blocks.
//!
//! **Scheduling** (after vLLM; the differences are stated):
//! - *Decode-first* (vLLM V1, Sarathi): running requests in admission order
//!   each take their next token, or the next chunk of their prompt, from the
//!   step's token budget; then waiting requests are admitted, head of the
//!   queue first, while slots, budget and KV blocks allow. A step in which a
//!   request was preempted admits none (as V1 does).
//! - *Prefill-first* (vLLM V0, Vidur's vLLM scheduler): continuing prompt
//!   chunks and new prompts first; a step holding any prompt tokens holds no
//!   decodes.
//! - Admission is first come, first served and stops at a head that does
//!   not fit: a long prompt that cannot be admitted holds up the short ones
//!   behind it. The priority class, if any, has its own queue served first.
//! - Without chunked prefill a prompt is taken whole in one step; one
//!   longer than the budget is admitted only as the step's first prompt,
//!   and the step then exceeds the budget (vLLM instead requires the budget
//!   to cover the longest prompt).
//!
//! **KV cache** in 16-token blocks. A request is admitted only when the
//! blocks for all its known tokens (its prompt, and after a preemption the
//! tokens it had generated) fit with the watermark's share of blocks still
//! free (vLLM V0's block manager and Vidur allocate the whole prompt at
//! admission; V1 allocates chunk by chunk, so pressure shows a little later
//! there). A decode that needs a new block and finds none preempts the
//! lowest-priority, latest-admitted running request (possibly itself): its
//! blocks are freed and it goes back to the front of its queue, to recompute
//! everything when readmitted. The time it waited again and the time it
//! spent recomputing are recorded apart ([`PreemptionCost`]).
//!
//! **Prefix caching**: the first `min(shared prefix, prompt - 1)` tokens,
//! in whole blocks, are the same for every request. When a request has
//! computed them they stay cached, held once, and a request admitted later
//! skips computing them and shares those blocks. The cache is dropped only
//! when no running request uses it and blocks are needed.
//!
//! The stepping API is for a worker: [`Simulation::step_until`] runs at most
//! a given number of events and reports [`Progress`]; dropping the
//! simulation cancels it; [`Simulation::finish`] runs what is left and
//! returns the [`Run`].

use crate::run::{PreemptionCost, Rejection, Run, SeriesBuilder, SimRequest};
use crate::settings::{Policy, Settings, SettingsError, StepCost, BLOCK_TOKENS};
use crate::workload::{generate, Arrival, Replay};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use ttft_latency::Micros;

/// "Not yet" for an event time.
pub(crate) const NONE: i64 = i64::MIN;
/// Most steps one run may take; past it the run stops and says so.
pub const MAX_STEPS: u64 = 100_000_000;
/// Latest simulated instant (about 115 days); past it the run stops.
pub const HORIZON: Micros = Micros(10_000_000_000_000);
/// Longest single step.
const MAX_STEP_US: f64 = 1e12;

/// Where a request is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum State {
    Pending,
    Waiting,
    Running,
    Finished,
    Rejected(Rejection),
    Unfinished,
}

/// One request during the run. While it runs, the state every step reads
/// lives in its [`Hot`] entry in the running list; `generated` and
/// `high_water` here are brought up to date when it leaves that list.
#[derive(Clone, Debug)]
pub(crate) struct Req {
    pub a: Arrival,
    pub prio: bool,
    pub state: State,
    /// Output tokens sampled so far.
    pub generated: u32,
    /// Most tokens ever computed (what a recompute recomputes).
    pub high_water: u32,
    pub cached_tokens: u32,
    pub queued_at_arrival: u32,
    pub first_scheduled: i64,
    pub prefill_end: i64,
    pub first_token: i64,
    pub last_token: i64,
    pub ended: i64,
    pub preempted_at: i64,
    /// Before the first token, and after it.
    pub cost: [PreemptionCost; 2],
}

impl Req {
    fn phase(&self) -> usize {
        usize::from(self.first_token != NONE)
    }
}

/// A running request's state that every step reads and writes, kept
/// together in the running list so a step walks one small array.
#[derive(Clone, Copy, Debug)]
struct Hot {
    id: u32,
    prompt: u32,
    output: u32,
    /// Tokens whose KV is computed in the current admission.
    computed: u32,
    generated: u32,
    high_water: u32,
    private: u32,
    shared: u32,
    /// Prefix blocks this request can share.
    prefix_blocks: u32,
    /// Tokens scheduled in this step; 0 between steps.
    n: u32,
    decode: bool,
    prio: bool,
    converted: bool,
    has_first: bool,
    finished: bool,
}

impl Hot {
    fn known(&self) -> u32 {
        self.prompt + self.generated
    }
}

/// Why a run stopped before every request was done.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stopped {
    /// It took [`MAX_STEPS`] steps.
    StepLimit,
    /// It reached [`HORIZON`].
    TimeLimit,
    /// Nothing could be scheduled (a safety net; no known settings do this).
    Stalled,
}

impl Stopped {
    /// Plain words for the page.
    pub fn describe(self) -> &'static str {
        match self {
            Stopped::StepLimit => "the run stopped after 100,000,000 steps; the requests not done by then are still running",
            Stopped::TimeLimit => "the run stopped at about 115 simulated days; the requests not done by then are still running",
            Stopped::Stalled => "the engine could schedule nothing more; the requests not done are still running",
        }
    }
}

/// How far a run has got, for a progress bar.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    /// True when the run is over and [`Simulation::finish`] returns at once.
    pub done: bool,
    /// Simulated time so far.
    pub simulated: Micros,
    /// Engine steps so far.
    pub steps: u64,
    /// Requests in the run.
    pub requests: usize,
    /// Requests that have arrived.
    pub arrived: usize,
    /// Requests finished or rejected.
    pub ended: usize,
    /// From 0 to 1: requests ended, or time elapsed of a duration.
    pub fraction: f64,
}

/// What the scheduled work of a step adds up to, in whole tokens (exact,
/// so a preempted request's share can be taken out again). The prompt
/// context fits: a step's prompt tokens are at most the budget (2^20) plus
/// one whole prompt (10^6), each reading at most 1.1 x 10^6 tokens, about
/// 2.4 x 10^12 in all.
#[derive(Clone, Copy, Debug, Default)]
struct StepSums {
    tokens: u64,
    prompt_ctx: u64,
    decode_ctx: u64,
}

impl StepSums {
    /// `n` tokens after `computed` already computed: a decode reads its
    /// context and itself; a prompt chunk's tokens read, between them,
    /// n * computed + n(n+1)/2 tokens.
    fn add(&mut self, n: u32, computed: u32, decode: bool) {
        self.tokens += n as u64;
        if decode {
            self.decode_ctx += computed as u64 + 1;
        } else {
            let n = n as u64;
            self.prompt_ctx += n * computed as u64 + n * (n + 1) / 2;
        }
    }

    fn remove(&mut self, n: u32, computed: u32, decode: bool) {
        self.tokens -= n as u64;
        if decode {
            self.decode_ctx -= computed as u64 + 1;
        } else {
            let n = n as u64;
            self.prompt_ctx -= n * computed as u64 + n * (n + 1) / 2;
        }
    }
}

#[derive(Clone, Copy, Debug, Default)]
struct Kv {
    total: u64,
    used: u64,
    cache: u64,
    refs: u32,
}

impl Kv {
    fn free(&self) -> u64 {
        self.total - self.used
    }
}

#[derive(Clone, Debug)]
struct Cfg {
    seqs: usize,
    budget: u32,
    chunked: bool,
    /// Most prompt tokens a request takes in a step (chunked only).
    chunk: u32,
    policy: Policy,
    wm_blocks: u64,
    caching: bool,
    prefix: u32,
    qlimit: usize,
    deadline: i64,
    emit_us: i64,
    end: i64,
    cost: StepCost,
    /// Take stretches of pure decode steps in one go (see
    /// [`Simulation::fast_forward`]); off only to test that it changes
    /// nothing.
    fast_forward: bool,
}

fn blocks(tokens: u32) -> u32 {
    tokens.div_ceil(BLOCK_TOKENS)
}

/// A run in progress.
#[derive(Clone, Debug)]
pub struct Simulation {
    settings: Settings,
    cfg: Cfg,
    pub(crate) reqs: Vec<Req>,
    next: usize,
    now: i64,
    waiting: [VecDeque<u32>; 2],
    preempted_front: [usize; 2],
    running: Vec<Hot>,
    kv: Kv,
    /// Requests with tokens in the current step, and their sums.
    scheduled: usize,
    sums: StepSums,
    budget: u32,
    preempted_this_step: bool,
    prefill_this_step: bool,
    steps: u64,
    ended: usize,
    pub(crate) series: SeriesBuilder,
    in_system_area: i128,
    pub(crate) output_tokens: u64,
    pub(crate) kv_peak: u64,
    stopped: Option<Stopped>,
    done: bool,
}

impl Simulation {
    /// Validates the settings and draws the workload. `replay` is the
    /// imported trace that replayed arrivals or lengths need.
    pub fn new(settings: &Settings, replay: Option<&Replay>) -> Result<Simulation, SettingsError> {
        settings.validate()?;
        let arrivals = generate(settings, replay)?;
        let e = &settings.engine;
        let classes = settings.classes();
        let prio_class = e
            .priority
            .as_ref()
            .and_then(|p| classes.iter().position(|c| &c.name == p));
        let total_blocks = e.kv_capacity / BLOCK_TOKENS as u64;
        let reqs = arrivals
            .into_iter()
            .map(|a| Req {
                a,
                prio: prio_class == Some(a.class as usize),
                state: State::Pending,
                generated: 0,
                high_water: 0,
                cached_tokens: 0,
                queued_at_arrival: 0,
                first_scheduled: NONE,
                prefill_end: NONE,
                first_token: NONE,
                last_token: NONE,
                ended: NONE,
                preempted_at: NONE,
                cost: [PreemptionCost::default(); 2],
            })
            .collect();
        let cfg = Cfg {
            seqs: e.max_num_seqs as usize,
            budget: e.max_num_batched_tokens,
            chunked: e.chunked_prefill,
            chunk: e.max_prefill_chunk.unwrap_or(u32::MAX),
            policy: e.policy,
            wm_blocks: (e.watermark * total_blocks as f64) as u64,
            caching: e.prefix_caching,
            prefix: settings.shared_prefix,
            qlimit: e.queue_limit.map_or(usize::MAX, |q| q as usize),
            deadline: e.deadline.map_or(NONE, |d| d.0),
            emit_us: (settings.cost.emit_ms * 1000.0).round() as i64,
            end: match settings.stop {
                crate::settings::Stop::Duration(d) => d.0,
                crate::settings::Stop::Requests(_) => i64::MAX,
            },
            cost: settings.cost,
            fast_forward: true,
        };
        Ok(Simulation {
            settings: settings.clone(),
            cfg,
            reqs,
            next: 0,
            now: 0,
            waiting: [VecDeque::new(), VecDeque::new()],
            preempted_front: [0, 0],
            running: Vec::new(),
            kv: Kv {
                total: total_blocks,
                ..Kv::default()
            },
            scheduled: 0,
            sums: StepSums::default(),
            budget: 0,
            preempted_this_step: false,
            prefill_this_step: false,
            steps: 0,
            ended: 0,
            series: SeriesBuilder::new(),
            in_system_area: 0,
            output_tokens: 0,
            kv_peak: 0,
            stopped: None,
            done: false,
        })
    }

    /// The same simulation, taking every step one at a time: the run is
    /// identical, bit for bit, only slower. Tests use it to check that
    /// fast-forwarding stretches of pure decode steps changes nothing.
    pub fn step_by_step(mut self) -> Simulation {
        self.cfg.fast_forward = false;
        self
    }

    /// Runs at most `budget_events` events (engine steps, idle jumps, and
    /// stretches of steps that only decode) and says how far the run has
    /// got.
    pub fn step_until(&mut self, budget_events: u64) -> Progress {
        let mut left = budget_events;
        while left > 0 && !self.done {
            self.advance();
            left -= 1;
        }
        self.progress()
    }

    /// How far the run has got.
    pub fn progress(&self) -> Progress {
        let total = self.reqs.len();
        let fraction = if self.done {
            1.0
        } else if self.cfg.end != i64::MAX {
            (self.now as f64 / self.cfg.end as f64).clamp(0.0, 1.0)
        } else if total == 0 {
            1.0
        } else {
            self.ended as f64 / total as f64
        };
        Progress {
            done: self.done,
            simulated: Micros(self.now),
            steps: self.steps,
            requests: total,
            arrived: self.next,
            ended: self.ended,
            fraction,
        }
    }

    /// Every request as it stands now (all of them once the run is done),
    /// without the summaries [`Simulation::finish`] builds: for a live
    /// table, and for tests that need only the events.
    pub fn requests(&self) -> Vec<SimRequest> {
        let mut out: Vec<SimRequest> = self
            .reqs
            .iter()
            .enumerate()
            .map(|(i, r)| SimRequest::from_req(i, r))
            .collect();
        for h in &self.running {
            if let Some(r) = out.get_mut(h.id as usize) {
                r.generated = h.generated;
            }
        }
        out
    }

    /// Runs whatever is left and returns the results.
    pub fn finish(mut self) -> Run {
        while !self.done {
            self.advance();
        }
        let area = self.in_system_area;
        let (now, steps, stopped) = (self.now, self.steps, self.stopped);
        Run::build(self.settings.clone(), &self, now, steps, area, stopped)
    }

    fn waiting_len(&self) -> usize {
        self.waiting[0].len() + self.waiting[1].len()
    }

    /// One event: an idle jump to the next arrival, or one engine step.
    fn advance(&mut self) {
        if self.done {
            return;
        }
        self.take_arrivals();
        if self.now >= self.cfg.end {
            self.end_run(None);
            return;
        }
        if self.steps >= MAX_STEPS {
            self.end_run(Some(Stopped::StepLimit));
            return;
        }
        if self.now >= HORIZON.0 {
            self.end_run(Some(Stopped::TimeLimit));
            return;
        }
        if self.running.is_empty() && self.waiting_len() == 0 {
            if self.next < self.reqs.len() {
                self.idle_until(self.reqs[self.next].a.at);
            } else {
                self.end_run(None);
            }
            return;
        }
        if self.cfg.fast_forward && self.fast_forward() {
            return;
        }
        self.schedule();
        if self.scheduled == 0 {
            self.end_run(Some(Stopped::Stalled));
            return;
        }
        let dt = self.step_time();
        let end = self.now.saturating_add(dt);
        let queue = self.waiting_len() as u32;
        let running = self.running.len() as u32;
        let kv_tokens = self.kv.used * BLOCK_TOKENS as u64;
        self.series.add(self.now, end, queue, running, kv_tokens);
        self.in_system_area += (queue as i128 + running as i128) * dt as i128;
        self.apply(end, dt);
        self.now = end;
        self.steps += 1;
    }

    fn idle_until(&mut self, t: i64) {
        let t = t.min(self.cfg.end).max(self.now);
        let kv_tokens = self.kv.used * BLOCK_TOKENS as u64;
        self.series.add(self.now, t, 0, 0, kv_tokens);
        self.now = t;
    }

    /// Marks every request not done as still running and ends the run.
    fn end_run(&mut self, stopped: Option<Stopped>) {
        for h in &self.running {
            let r = &mut self.reqs[h.id as usize];
            r.generated = h.generated;
            r.high_water = h.high_water;
        }
        for r in &mut self.reqs {
            if matches!(r.state, State::Pending | State::Waiting | State::Running) {
                r.state = State::Unfinished;
                r.ended = self.now.max(r.a.at);
            }
        }
        self.running.clear();
        self.waiting = [VecDeque::new(), VecDeque::new()];
        self.stopped = stopped;
        self.done = true;
    }

    /// The earliest deadline among requests waiting that never started:
    /// (time, queue, position).
    fn next_expiry(&self) -> Option<(i64, usize, usize)> {
        if self.cfg.deadline == NONE {
            return None;
        }
        (0..2)
            .filter_map(|q| {
                let pos = self.preempted_front[q];
                self.waiting[q].get(pos).map(|&id| {
                    let at = self.reqs[id as usize]
                        .a
                        .at
                        .saturating_add(self.cfg.deadline);
                    (at, q, pos)
                })
            })
            .min()
    }

    /// Arrivals and deadline rejections up to now, in time order (a
    /// deadline before an arrival at the same instant).
    fn take_arrivals(&mut self) {
        loop {
            let arrival = self.reqs.get(self.next).map_or(i64::MAX, |r| r.a.at);
            if let Some((at, q, pos)) = self.next_expiry() {
                if at < self.now && at <= arrival {
                    if let Some(id) = self.waiting[q].remove(pos) {
                        let r = &mut self.reqs[id as usize];
                        r.state = State::Rejected(Rejection::Deadline);
                        r.ended = at;
                        self.ended += 1;
                        // It was counted as waiting until now, but left at `at`.
                        self.in_system_area -= (self.now - at) as i128;
                    }
                    continue;
                }
            }
            if arrival > self.now {
                break;
            }
            let id = self.next;
            self.next += 1;
            let waiting = self.waiting_len();
            // Room for the whole request beside a full prefix cache and
            // the watermark, so it can always run once it is alone.
            let cache = if self.cfg.caching {
                (self.cfg.prefix / BLOCK_TOKENS) as u64
            } else {
                0
            };
            let usable = self.kv.total.saturating_sub(self.cfg.wm_blocks + cache);
            let r = &mut self.reqs[id];
            let need = blocks(r.a.prompt + r.a.output - 1) as u64;
            let rejected = if need > usable {
                Some(Rejection::TooLong)
            } else if waiting >= self.cfg.qlimit {
                Some(Rejection::QueueFull)
            } else {
                None
            };
            match rejected {
                Some(why) => {
                    r.state = State::Rejected(why);
                    r.ended = r.a.at;
                    self.ended += 1;
                }
                None => {
                    // In the system since it arrived, though the engine sees
                    // it only now.
                    self.in_system_area += (self.now - r.a.at) as i128;
                    r.state = State::Waiting;
                    r.queued_at_arrival = waiting as u32;
                    let q = usize::from(!r.prio);
                    self.waiting[q].push_back(id as u32);
                }
            }
        }
    }

    /// Takes, in one go, the steps from now on that only decode: while
    /// nothing waits and nothing arrives, every running request is decoding
    /// and fits the budget, no one finishes and the free blocks cover the
    /// new ones, each step is the same batch one token further on. The
    /// steps are still taken one by one for their time (rounded as
    /// [`Simulation::step_time`] rounds it), the series and the counts; only
    /// the requests are updated once at the end. False (and nothing done)
    /// when not even one such step can be taken.
    fn fast_forward(&mut self) -> bool {
        let b = self.running.len() as u64;
        if b < 1 || self.waiting_len() > 0 || (self.cfg.budget as u64) < b {
            return false;
        }
        let mut min_left = u32::MAX;
        let mut ctx = 0u64;
        // Requests whose next block starts j steps from now, by j mod 16.
        let mut crossing = [0u64; BLOCK_TOKENS as usize];
        for h in &self.running {
            if !(h.generated > 0 && h.computed + 1 == h.known()) {
                return false;
            }
            min_left = min_left.min(h.output - h.generated);
            ctx += h.computed as u64 + 1;
            let r = (BLOCK_TOKENS - h.computed % BLOCK_TOKENS) % BLOCK_TOKENS;
            crossing[r as usize] += 1;
        }
        // The step that writes someone's last token is taken the usual way.
        let most = (min_left as u64)
            .saturating_sub(1)
            .min(MAX_STEPS - self.steps);
        let next_arrival = self.reqs.get(self.next).map_or(i64::MAX, |r| r.a.at);
        let mut k = 0u64;
        while k < most {
            if (k > 0 && next_arrival <= self.now)
                || self.now >= self.cfg.end
                || self.now >= HORIZON.0
            {
                break;
            }
            let new_blocks = crossing[(k % BLOCK_TOKENS as u64) as usize];
            if new_blocks > self.kv.free() {
                break;
            }
            self.kv.used += new_blocks;
            self.kv_peak = self.kv_peak.max(self.kv.used);
            self.sums = StepSums {
                tokens: b,
                prompt_ctx: 0,
                decode_ctx: ctx + k * b,
            };
            let dt = self.step_time();
            let end = self.now.saturating_add(dt);
            let kv_tokens = self.kv.used * BLOCK_TOKENS as u64;
            self.series.add(self.now, end, 0, b as u32, kv_tokens);
            self.in_system_area += b as i128 * dt as i128;
            self.now = end;
            self.steps += 1;
            k += 1;
        }
        if k == 0 {
            return false;
        }
        let k32 = k as u32;
        for h in &mut self.running {
            let r = (BLOCK_TOKENS - h.computed % BLOCK_TOKENS) % BLOCK_TOKENS;
            if r < k32 {
                h.private += (k32 - 1 - r) / BLOCK_TOKENS + 1;
            }
            h.computed += k32;
            h.generated += k32;
            h.high_water = h.high_water.max(h.computed);
        }
        self.output_tokens += b * k;
        true
    }

    fn schedule(&mut self) {
        self.scheduled = 0;
        self.sums = StepSums::default();
        self.budget = self.cfg.budget;
        self.preempted_this_step = false;
        self.prefill_this_step = false;
        match self.cfg.policy {
            Policy::DecodeFirst => {
                self.schedule_running(true, true);
                if !self.preempted_this_step {
                    self.schedule_waiting();
                }
            }
            Policy::PrefillFirst => {
                self.schedule_running(false, true);
                self.schedule_waiting();
                if !self.prefill_this_step {
                    self.schedule_running(true, false);
                }
            }
        }
    }

    /// Gives running requests their tokens for this step, in admission
    /// order: decodes and/or continuing prompt chunks. The loop runs over
    /// the running list without leaving it until a decode needs a block
    /// and none is free; then [`Simulation::grow`] preempts, and the loop
    /// goes on from where it was.
    fn schedule_running(&mut self, decodes: bool, prefills: bool) {
        let mut i = 0;
        loop {
            let (chunked, chunk) = (self.cfg.chunked, self.cfg.chunk);
            let kv = &mut self.kv;
            let sums = &mut self.sums;
            let mut needs_block = false;
            for h in self.running[i..].iter_mut() {
                if self.budget == 0 {
                    break;
                }
                let known = h.prompt + h.generated;
                let decode = h.generated > 0 && h.computed + 1 == known;
                if decode {
                    if !decodes {
                        i += 1;
                        continue;
                    }
                    if blocks(h.computed + 1) - h.shared > h.private {
                        if kv.used == kv.total {
                            needs_block = true;
                            break;
                        }
                        kv.used += 1;
                        h.private += 1;
                    }
                    h.n = 1;
                    h.decode = true;
                    sums.add(1, h.computed, true);
                    self.budget -= 1;
                } else {
                    if !prefills {
                        i += 1;
                        continue;
                    }
                    let remaining = known - h.computed;
                    let n = if chunked {
                        remaining.min(self.budget).min(chunk)
                    } else {
                        remaining
                    };
                    h.n = n;
                    h.decode = false;
                    sums.add(n, h.computed, false);
                    self.budget = self.budget.saturating_sub(n);
                    self.prefill_this_step = true;
                }
                self.scheduled += 1;
                i += 1;
            }
            self.kv_peak = self.kv_peak.max(self.kv.used);
            if !needs_block {
                return;
            }
            // The request at `i` needs a block and none is free.
            if self.grow(&mut i) {
                let h = &mut self.running[i];
                h.n = 1;
                h.decode = true;
                self.sums.add(1, h.computed, true);
                self.budget -= 1;
                self.scheduled += 1;
                i += 1;
            }
        }
    }

    /// One more block for the decode of the request at `i` in the running
    /// list, preempting others (or itself) when none is free. False when
    /// it was preempted itself. `i` is kept pointing at it.
    fn grow(&mut self, i: &mut usize) -> bool {
        loop {
            if self.kv.free() >= 1 {
                self.kv.used += 1;
                self.kv_peak = self.kv_peak.max(self.kv.used);
                self.running[*i].private += 1;
                return true;
            }
            if self.kv.refs == 0 && self.kv.cache > 0 {
                self.kv.used -= self.kv.cache;
                self.kv.cache = 0;
                continue;
            }
            let pos = self
                .running
                .iter()
                .rposition(|h| !h.prio)
                .unwrap_or(self.running.len() - 1);
            self.preempt(pos);
            if pos == *i {
                return false;
            }
            if pos < *i {
                *i -= 1;
            }
        }
    }

    /// Preempts the running request at `pos`: frees its blocks, takes it
    /// out of this step, and puts it at the front of its queue.
    fn preempt(&mut self, pos: usize) {
        let h = self.running.remove(pos);
        if h.n > 0 {
            self.budget = self.budget.saturating_add(h.n).min(self.cfg.budget);
            self.scheduled -= 1;
            self.sums.remove(h.n, h.computed, h.decode);
        }
        self.kv.used -= h.private as u64;
        if h.shared > 0 {
            self.kv.refs -= 1;
        }
        let now = self.now;
        let r = &mut self.reqs[h.id as usize];
        r.generated = h.generated;
        r.high_water = h.high_water;
        r.state = State::Waiting;
        r.preempted_at = now;
        let phase = r.phase();
        r.cost[phase].count += 1;
        let q = usize::from(!r.prio);
        self.waiting[q].push_front(h.id);
        self.preempted_front[q] += 1;
        self.preempted_this_step = true;
    }

    /// Admits waiting requests, head first, while slots, budget and blocks
    /// allow.
    fn schedule_waiting(&mut self) {
        while self.running.len() < self.cfg.seqs && self.budget > 0 {
            let Some(q) = (0..2).find(|&q| !self.waiting[q].is_empty()) else {
                return;
            };
            let id = self.waiting[q][0];
            let r = &self.reqs[id as usize];
            let known = r.a.prompt + r.generated;
            let m = if self.cfg.caching {
                self.cfg.prefix.min(r.a.prompt - 1) / BLOCK_TOKENS
            } else {
                0
            };
            let mut hit = (m as u64).min(self.kv.cache) as u32;
            let mut private = blocks(known) - hit;
            if self.kv.free() < private as u64 + self.cfg.wm_blocks {
                let all = blocks(known) as u64 + self.cfg.wm_blocks;
                if self.kv.refs == 0 && self.kv.cache > 0 && self.kv.free() + self.kv.cache >= all {
                    self.kv.used -= self.kv.cache;
                    self.kv.cache = 0;
                    hit = 0;
                    private = blocks(known);
                } else {
                    return;
                }
            }
            let need = known - hit * BLOCK_TOKENS;
            let n = if self.cfg.chunked {
                need.min(self.budget).min(self.cfg.chunk)
            } else if need <= self.budget || !self.prefill_this_step {
                need
            } else {
                return;
            };
            self.waiting[q].pop_front();
            if self.preempted_front[q] > 0 {
                self.preempted_front[q] -= 1;
            }
            self.kv.used += private as u64;
            self.kv_peak = self.kv_peak.max(self.kv.used);
            if hit > 0 {
                self.kv.refs += 1;
            }
            let now = self.now;
            let r = &mut self.reqs[id as usize];
            if r.first_scheduled == NONE {
                r.first_scheduled = now;
                r.cached_tokens = hit * BLOCK_TOKENS;
            }
            if r.preempted_at != NONE {
                let phase = r.phase();
                r.cost[phase].waiting = r.cost[phase].waiting + Micros(now - r.preempted_at);
                r.preempted_at = NONE;
            }
            r.state = State::Running;
            self.sums.add(n, hit * BLOCK_TOKENS, false);
            self.running.push(Hot {
                id,
                prompt: r.a.prompt,
                output: r.a.output,
                computed: hit * BLOCK_TOKENS,
                generated: r.generated,
                high_water: r.high_water,
                private,
                shared: hit,
                prefix_blocks: m,
                n,
                decode: false,
                prio: r.prio,
                converted: hit >= m,
                has_first: r.first_token != NONE,
                finished: false,
            });
            self.scheduled += 1;
            self.budget = self.budget.saturating_sub(n);
            self.prefill_this_step = true;
        }
    }

    /// The step's time in microseconds, from what it holds.
    fn step_time(&self) -> i64 {
        let t = &self.sums;
        let ms = self
            .cfg
            .cost
            .step_ms(t.tokens as f64, t.prompt_ctx as f64, t.decode_ctx as f64);
        let us = ms * 1000.0;
        if us >= MAX_STEP_US {
            MAX_STEP_US as i64
        } else if us >= 0.5 {
            // Half away from zero, as f64::round, without a libm call.
            let whole = us as i64;
            whole + i64::from(us - whole as f64 >= 0.5)
        } else {
            1
        }
    }

    /// The step's effects at its end.
    fn apply(&mut self, end: i64, dt: i64) {
        let emit = self.cfg.emit_us;
        let caching = self.cfg.caching;
        let mut finished = false;
        for h in self.running.iter_mut() {
            if h.n == 0 {
                continue;
            }
            let n = h.n;
            h.n = 0;
            let recomputed = n.min(h.high_water.saturating_sub(h.computed));
            if recomputed > 0 {
                let share = (dt as i128 * recomputed as i128 / n as i128) as i64;
                let cost = &mut self.reqs[h.id as usize].cost[usize::from(h.has_first)];
                cost.recompute = cost.recompute + Micros(share);
            }
            h.computed += n;
            h.high_water = h.high_water.max(h.computed);
            if caching && !h.converted && h.computed >= h.prefix_blocks * BLOCK_TOKENS {
                // Its prefix blocks join the cache (or were cached meanwhile):
                // held once from now on.
                let (m, s) = (h.prefix_blocks, h.shared);
                if m > s {
                    h.private -= m - s;
                    self.kv.used -= (m - s) as u64;
                    if s == 0 {
                        self.kv.refs += 1;
                    }
                    h.shared = m;
                    if self.kv.cache < m as u64 {
                        self.kv.used += m as u64 - self.kv.cache;
                        self.kv.cache = m as u64;
                    }
                }
                h.converted = true;
            }
            if h.computed == h.known() {
                h.generated += 1;
                self.output_tokens += 1;
                if !h.has_first {
                    h.has_first = true;
                    let r = &mut self.reqs[h.id as usize];
                    r.prefill_end = end;
                    r.first_token = end.saturating_add(emit);
                }
                if h.generated >= h.output {
                    let r = &mut self.reqs[h.id as usize];
                    r.generated = h.generated;
                    r.high_water = h.high_water;
                    r.last_token = end.saturating_add(emit);
                    r.ended = r.last_token;
                    r.state = State::Finished;
                    // Counted until the step's end, it leaves when its last
                    // token is written.
                    self.in_system_area += emit as i128;
                    self.kv.used -= h.private as u64;
                    if h.shared > 0 {
                        self.kv.refs -= 1;
                    }
                    h.finished = true;
                    self.ended += 1;
                    finished = true;
                }
            }
        }
        if finished {
            self.running.retain(|h| !h.finished);
        }
    }
}

/// Runs `settings` to the end in one call.
pub fn run(settings: &Settings, replay: Option<&Replay>) -> Result<Run, SettingsError> {
    Ok(Simulation::new(settings, replay)?.finish())
}
