//! The serving simulator's worker: the simulate part's protocol with it,
//! and the worker's side, a [`Lab`] that owns `ttft_sim`'s runs.
//!
//! The page sends the learner's settings as a query string (the same text
//! the address bar holds), so there is one reader of settings, the core's
//! `ttft_sim::from_query`, and a run is reproduced from its address alone.
//! A run goes in slices of [`SLICE_EVENTS`] engine events with a
//! [`Answer::Progress`] after each (the page's progress line; Cancel ends
//! the worker). Its requests then cross as an `ttft_import::Import` (the
//! exact requests its exported CSV imports as, `ttft_sim::export`), packed
//! in batches like the trace reader's, so the page shows a simulated run
//! with every view of an imported trace; the run's own figures (per-class
//! percentiles, totals, series) follow as JSON, and the rest of the import
//! packed (`pack::pack_rest`). Sweeps, exports and the
//! guided experiments' checks go the same way. A trace to replay is read
//! here too, with the importer, and kept for the runs that ask for it.
//!
//! The lab is plain Rust over bytes, tested natively; `host` connects it to
//! the worker's messages. What it deliberately does not do: compute any
//! figure itself (the core does), or keep anything but the replay trace and
//! the last runs' settings between requests.

use super::import::{Gathered, BATCH, EXAMPLE};
use super::pack;
use super::wire::Protocol;
use serde::{Deserialize, Serialize};
use ttft_import::Import;
use ttft_latency::Part;
use ttft_sim::experiments::{self, Change, Evidence, HeadOfLineFeedback, KvPressureFeedback, RateFeedback};
use ttft_sim::sweep::{SweepProgress, SweepResult};
use ttft_sim::{ClassStats, Replay, Series, SettingsError, Simulation, Sweep, SweepSpec, Totals};

/// Engine events between two progress answers: a few milliseconds of work.
pub const SLICE_EVENTS: u64 = 20_000;

/// The simulator's protocol.
pub struct Simulator;

impl Protocol for Simulator {
    type Request = Ask;
    type Response = Answer;
    const BIN: &'static str = "sim-worker";
}

/// Which of the two runs side by side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Slot {
    A,
    B,
}

impl Slot {
    /// "A" or "B", as the page names the run.
    pub fn name(self) -> &'static str {
        match self {
            Slot::A => "A",
            Slot::B => "B",
        }
    }

    /// The prefix of its settings in the address (`b.` for run B).
    pub fn prefix(self) -> &'static str {
        match self {
            Slot::A => "",
            Slot::B => "b.",
        }
    }
}

/// The learner's answer to one guided experiment.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Attempt {
    /// 1: the rate that makes hint p95 miss its target, and the part that grew.
    Rate { rate: f64, part: Part },
    /// 2: the scheduler settings (from the settings sent), and how the long
    /// prompts' p95 moved.
    HeadOfLine { said: Change },
    /// 3: the evidence picked in the starting run (and the engine from the
    /// settings sent).
    KvPressure { picked: Vec<Evidence> },
}

/// What the page asks the simulator.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Ask {
    /// Run these settings (a query string) as run `slot`.
    Run { slot: Slot, query: String },
    /// Run these settings across a range of loads.
    Sweep { query: String, spec: SweepSpec },
    /// The run of these settings as the importer's event CSV.
    Export { query: String },
    /// A trace file to replay follows (the body holds its bytes).
    Trace { name: String },
    /// Replay the course's example trace.
    ExampleTrace,
    /// Check a guided experiment (settings as a query string).
    Check { query: String, attempt: Attempt },
}

/// What one run shows besides its requests.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunFigures {
    /// The settings as the core wrote them back: the run's address.
    pub query: String,
    /// Keys in the settings the core did not know (listed, not used).
    pub ignored: Vec<String>,
    /// Per class, in the settings' order.
    pub classes: Vec<ClassStats>,
    /// All requests together.
    pub all: ClassStats,
    pub totals: Totals,
    pub series: Series,
    /// The trace replayed, when the run replays one.
    pub replayed: Option<String>,
}

/// A run as the page keeps it: its figures and its requests as imported.
#[derive(Clone, Debug, PartialEq)]
pub struct RunResult {
    pub figures: RunFigures,
    pub import: Import,
}

/// What the simulator answers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Answer {
    /// The settings cannot be used (the error names the setting).
    Invalid { error: SettingsError },
    /// A run of `slot` has got this far (0 to 1), with requests arrived and
    /// done so far and simulated time in ms.
    Progress { slot: Slot, fraction: f64, arrived: usize, ended: usize, simulated_ms: f64 },
    /// The next batch of the run's requests (body: `pack::pack`).
    Requests,
    /// The run is complete (body: `RunFigures` then a zero byte then the
    /// `Import` without its requests, both JSON).
    Ran { slot: Slot },
    /// A sweep has got this far.
    Sweeping { progress: SweepProgress },
    /// A finished sweep, with the settings it was run from.
    Swept { query: String, result: SweepResult },
    /// The exported CSV (body: its UTF-8 bytes).
    Exported,
    /// A trace to replay was read.
    TraceReady { name: String, requests: usize, skipped: usize, has_arrivals: bool },
    /// A trace could not be replayed (why, in words).
    TraceFailed { name: String, reason: String },
    /// A guided experiment's verdict.
    Rate(RateFeedback),
    HeadOfLine(HeadOfLineFeedback),
    KvPressure(KvPressureFeedback),
    /// Something could not be sent (why).
    Failed { reason: String },
}

/// One message out: an answer and its body.
pub type Out = (Answer, Option<Vec<u8>>);

/// The worker's side: the trace to replay, and the runs.
#[derive(Debug, Default)]
pub struct Lab {
    replay: Option<(String, Replay)>,
}

impl Lab {
    pub fn new() -> Lab {
        Lab::default()
    }

    /// Answers one request, calling `out` for every message (progress
    /// included, while the work goes on).
    pub fn handle(&mut self, ask: Ask, body: Option<Vec<u8>>, out: &mut dyn FnMut(Out)) {
        match ask {
            Ask::Run { slot, query } => self.run(slot, &query, out),
            Ask::Sweep { query, spec } => self.sweep(&query, spec, out),
            Ask::Export { query } => self.export(&query, out),
            Ask::Trace { name } => {
                let text = String::from_utf8_lossy(&body.unwrap_or_default()).into_owned();
                self.trace(name, &text, out);
            }
            Ask::ExampleTrace => self.trace("the course's example trace".to_owned(), EXAMPLE, out),
            Ask::Check { query, attempt } => check(&query, attempt, out),
        }
    }

    fn replay(&self) -> Option<&Replay> {
        self.replay.as_ref().map(|(_, r)| r)
    }

    fn run(&mut self, slot: Slot, query: &str, out: &mut dyn FnMut(Out)) {
        let parsed = match ttft_sim::query::from_query_with(query, slot.prefix()) {
            Ok(p) => p,
            Err(error) => return out((Answer::Invalid { error }, None)),
        };
        let mut sim = match Simulation::new(&parsed.settings, self.replay()) {
            Ok(s) => s,
            Err(error) => return out((Answer::Invalid { error }, None)),
        };
        loop {
            let p = sim.step_until(SLICE_EVENTS);
            if p.done {
                break;
            }
            out((
                Answer::Progress {
                    slot,
                    fraction: p.fraction,
                    arrived: p.arrived,
                    ended: p.ended,
                    simulated_ms: p.simulated.as_secs_f64() * 1e3,
                },
                None,
            ));
        }
        let run = sim.finish();
        let mut import = ttft_sim::export::to_import(&run);
        let replays = parsed.settings.replays();
        let figures = RunFigures {
            query: ttft_sim::query::to_query_with(&run.settings, slot.prefix()),
            ignored: parsed.ignored.into_iter().filter(|k| !k.starts_with("b.") && k != "part").collect(),
            classes: run.classes,
            all: run.all,
            totals: run.totals,
            series: run.series,
            replayed: replays.then(|| self.replay.as_ref().map(|(n, _)| n.clone())).flatten(),
        };
        let requests = std::mem::take(&mut import.requests);
        for batch in requests.chunks(BATCH) {
            out((Answer::Requests, Some(pack::pack(batch))));
        }
        match serde_json::to_vec(&figures) {
            Ok(mut head) => {
                head.push(0);
                head.extend_from_slice(&pack::pack_rest(&import));
                out((Answer::Ran { slot }, Some(head)));
            }
            Err(e) => failed(&e, out),
        }
    }

    fn sweep(&mut self, query: &str, spec: SweepSpec, out: &mut dyn FnMut(Out)) {
        let parsed = match ttft_sim::from_query(query) {
            Ok(p) => p,
            Err(error) => return out((Answer::Invalid { error }, None)),
        };
        let mut sweep = match Sweep::new(&parsed.settings, self.replay(), spec) {
            Ok(s) => s,
            Err(error) => return out((Answer::Invalid { error }, None)),
        };
        loop {
            let progress = sweep.step_until(SLICE_EVENTS);
            if progress.done {
                break;
            }
            out((Answer::Sweeping { progress }, None));
        }
        let query = ttft_sim::to_query(&parsed.settings);
        out((Answer::Swept { query, result: sweep.finish() }, None));
    }

    fn export(&mut self, query: &str, out: &mut dyn FnMut(Out)) {
        let parsed = match ttft_sim::from_query(query) {
            Ok(p) => p,
            Err(error) => return out((Answer::Invalid { error }, None)),
        };
        match ttft_sim::run(&parsed.settings, self.replay()) {
            Ok(run) => out((Answer::Exported, Some(ttft_sim::export::to_csv(&run).into_bytes()))),
            Err(error) => out((Answer::Invalid { error }, None)),
        }
    }

    fn trace(&mut self, name: String, text: &str, out: &mut dyn FnMut(Out)) {
        let imp = match ttft_import::import(text) {
            Ok(imp) => imp,
            Err(e) => return out((Answer::TraceFailed { name, reason: e.to_string() }, None)),
        };
        match Replay::from_import(&imp) {
            Ok(replay) => {
                let answer = Answer::TraceReady {
                    name: name.clone(),
                    requests: replay.len(),
                    skipped: replay.skipped.total(),
                    has_arrivals: replay.has_arrivals(),
                };
                self.replay = Some((name, replay));
                out((answer, None));
            }
            Err(e) => out((Answer::TraceFailed { name, reason: e.to_string() }, None)),
        }
    }
}

fn check(query: &str, attempt: Attempt, out: &mut dyn FnMut(Out)) {
    let settings = match ttft_sim::from_query(query) {
        Ok(p) => p.settings,
        Err(error) => return out((Answer::Invalid { error }, None)),
    };
    let answer = match attempt {
        Attempt::Rate { rate, part } => experiments::check_rate(rate, part).map(Answer::Rate),
        Attempt::HeadOfLine { said } => experiments::check_head_of_line(&settings, said).map(Answer::HeadOfLine),
        Attempt::KvPressure { picked } => {
            experiments::check_kv_pressure(&settings, &picked).map(Answer::KvPressure)
        }
    };
    out((answer.unwrap_or_else(|error| Answer::Invalid { error }), None));
}

fn failed(e: &serde_json::Error, out: &mut dyn FnMut(Out)) {
    out((Answer::Failed { reason: format!("the result could not be sent ({e})") }, None));
}

/// The page's side of a finished run: the batches of requests, then the
/// figures and the rest of the import.
#[derive(Debug, Default)]
pub struct Received {
    requests: Gathered,
}

impl Received {
    /// Adds one batch (the body of [`Answer::Requests`]). A run's answers
    /// do not say its whole count, so room grows as the batches come.
    pub fn batch(&mut self, bytes: &[u8]) -> Result<(), String> {
        self.requests.batch(bytes, 0)
    }

    /// Requests received so far.
    pub fn len(&self) -> usize {
        self.requests.len()
    }

    /// True before the first batch.
    pub fn is_empty(&self) -> bool {
        self.requests.is_empty()
    }

    /// The whole run (the body of [`Answer::Ran`]).
    pub fn done(self, body: &[u8]) -> Result<RunResult, String> {
        let cut = body.iter().position(|&b| b == 0).ok_or("the run's figures were cut short")?;
        let figures: RunFigures = serde_json::from_slice(&body[..cut])
            .map_err(|e| format!("the run's figures could not be read ({e})"))?;
        let import = self.requests.done(&body[cut + 1..])?;
        Ok(RunResult { figures, import })
    }
}

/// The address-bar query of the page's settings for `slot`, read back from
/// a full query string: only the keys of that run (`b.` ones for B), with
/// their prefix, so the address can hold both.
pub fn settings_in(search: &str, slot: Slot) -> Option<String> {
    let search = search.trim_start_matches('?');
    let version = format!("{}sim=", slot.prefix());
    let has = search.split('&').any(|p| p.starts_with(&version));
    has.then(|| {
        search
            .split('&')
            .filter(|p| match slot {
                Slot::A => !p.starts_with("b.") && !p.starts_with("part=") && !p.starts_with("embed="),
                Slot::B => p.starts_with("b."),
            })
            .collect::<Vec<_>>()
            .join("&")
    })
}

/// The page's address with runs A's and B's settings in place of any it
/// held (`a` and `b` are their query strings, B's keys already `b.`), the
/// part and the page's other keys (`embed=`, `origin=`) kept first.
pub fn address_with(search: &str, a: Option<&str>, b: Option<&str>) -> String {
    let is_setting = |pair: &str| {
        let key = pair.split('=').next().unwrap_or_default().to_ascii_lowercase();
        let key = key.strip_prefix("b.").unwrap_or(&key);
        ttft_sim::Setting::from_key(key).is_some_and(|s| s != ttft_sim::Setting::Trace)
    };
    let kept = search.trim_start_matches('?').split('&').filter(|p| !p.is_empty() && !is_setting(p));
    let parts: Vec<&str> = kept.chain(a).chain(b).collect();
    format!("?{}", parts.join("&"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ttft_sim::{Settings, Stop};

    fn said(lab: &mut Lab, ask: Ask, body: Option<Vec<u8>>) -> Vec<Out> {
        let mut outs = Vec::new();
        lab.handle(ask, body, &mut |o| outs.push(o));
        outs
    }

    fn small() -> String {
        let s = Settings { stop: Stop::Requests(600), ..Settings::default() };
        ttft_sim::to_query(&s)
    }

    fn received(outs: Vec<Out>) -> RunResult {
        let mut got = Received::default();
        for (answer, body) in outs {
            match answer {
                Answer::Requests => got.batch(&body.unwrap()).unwrap(),
                Answer::Ran { .. } => return got.done(&body.unwrap()).unwrap(),
                Answer::Progress { .. } => {}
                other => panic!("unexpected {other:?}"),
            }
        }
        panic!("no Ran answer");
    }

    #[test]
    fn a_run_crosses_as_the_requests_its_export_imports_as() {
        let mut lab = Lab::new();
        let query = small();
        let run = received(said(&mut lab, Ask::Run { slot: Slot::A, query: query.clone() }, None));
        assert_eq!(run.figures.query, query, "the address is the settings as written");
        assert_eq!(run.import.requests.len(), 600);
        assert_eq!(run.figures.totals.requests, 600);
        let outs = said(&mut lab, Ask::Export { query }, None);
        let [(Answer::Exported, Some(csv))] = outs.as_slice() else { panic!("{outs:?}") };
        let back = ttft_import::import(std::str::from_utf8(csv).unwrap()).unwrap();
        assert_eq!(back.requests, run.import.requests);
    }

    #[test]
    fn run_b_reads_its_own_keys() {
        let mut lab = Lab::new();
        let a = small();
        let b: String = a.split('&').map(|p| format!("b.{p}")).collect::<Vec<_>>().join("&").replace("b.seqs=256", "b.seqs=4");
        let both = format!("{a}&{b}");
        let run = received(said(&mut lab, Ask::Run { slot: Slot::B, query: both.clone() }, None));
        assert!(run.figures.query.contains("b.seqs=4"), "{}", run.figures.query);
        assert_eq!(settings_in(&format!("?part=simulate&{both}"), Slot::A).as_deref(), Some(a.as_str()));
        assert_eq!(settings_in(&format!("?part=simulate&{both}"), Slot::B).as_deref(), Some(b.as_str()));
        assert_eq!(settings_in("?part=simulate", Slot::A), None);
    }

    #[test]
    fn the_address_holds_both_runs_and_keeps_the_rest() {
        let old = "?part=simulate&embed=1&sim=1&seqs=4&b.sim=1&b.seqs=8";
        assert_eq!(address_with(old, Some("sim=1&seqs=2"), None), "?part=simulate&embed=1&sim=1&seqs=2");
        assert_eq!(
            address_with("?part=simulate", Some("sim=1"), Some("b.sim=1")),
            "?part=simulate&sim=1&b.sim=1"
        );
    }

    #[test]
    fn bad_settings_name_the_setting() {
        let mut lab = Lab::new();
        let outs = said(&mut lab, Ask::Run { slot: Slot::A, query: "sim=1&seqs=0".into() }, None);
        let [(Answer::Invalid { error }, None)] = outs.as_slice() else { panic!("{outs:?}") };
        assert_eq!(error.setting.key(), "seqs");
    }

    #[test]
    fn a_replay_needs_a_trace_then_uses_it() {
        let mut lab = Lab::new();
        let query = "sim=1&arr=replay&len=replay";
        let outs = said(&mut lab, Ask::Run { slot: Slot::A, query: query.into() }, None);
        assert!(matches!(outs.as_slice(), [(Answer::Invalid { .. }, None)]), "{outs:?}");
        let outs = said(&mut lab, Ask::ExampleTrace, None);
        let [(Answer::TraceReady { requests, .. }, None)] = outs.as_slice() else { panic!("{outs:?}") };
        let requests = *requests;
        let run = received(said(&mut lab, Ask::Run { slot: Slot::A, query: query.into() }, None));
        assert_eq!(run.import.requests.len(), requests);
        assert_eq!(run.figures.replayed.as_deref(), Some("the course's example trace"));
        let outs = said(&mut lab, Ask::Trace { name: "x.txt".into() }, Some(b"not a trace".to_vec()));
        assert!(matches!(outs.as_slice(), [(Answer::TraceFailed { .. }, None)]), "{outs:?}");
    }

    #[test]
    fn a_sweep_reports_progress_then_its_points() {
        let mut lab = Lab::new();
        let spec = SweepSpec { from: 0.2, to: 1.0, points: 3 };
        let outs = said(&mut lab, Ask::Sweep { query: small(), spec }, None);
        let Some((Answer::Swept { result, .. }, None)) = outs.last() else { panic!("{outs:?}") };
        assert_eq!(result.points.len(), 3);
    }

    #[test]
    fn an_experiment_is_checked_with_its_own_workload() {
        let mut lab = Lab::new();
        let attempt = Attempt::Rate { rate: 4.0, part: Part::QueueWait };
        let outs = said(&mut lab, Ask::Check { query: small(), attempt }, None);
        let [(Answer::Rate(f), None)] = outs.as_slice() else { panic!("{outs:?}") };
        assert!(!f.passed && !f.missed);
    }

    #[test]
    fn damaged_results_are_errors() {
        let mut got = Received::default();
        assert!(got.batch(&[1, 2, 3]).is_err());
        assert!(Received::default().done(b"{}").is_err());
        assert!(Received::default().done(b"{}\0{}").is_err());
    }
}
