//! ttft-sim: a discrete-event simulator of an LLM serving engine, for
//! learners to make queue wait and prefill happen and read every simulated
//! request's TTFT split exactly as they read a real trace.
//!
//! The simulation runs at the granularity of one engine step
//! (iteration-level scheduling, as vLLM's V1 engine does) and is
//! deterministic for a seed. The pieces, in the order a page uses them:
//!
//! - [`Settings`] (workload, engine, step cost), checked by
//!   [`Settings::validate`] into a [`SettingsError`] naming the setting;
//!   [`query`] writes them to and reads them from the address bar;
//!   [`Preset`] gives the coefficients of a model on a GPU with the source
//!   of each, and [`preset::TEACHING_NOTE`] says what the model is not.
//! - [`Simulation`]: `new(settings, replay)`, then `step_until(events)` in
//!   slices (a worker posts the [`Progress`] between them; dropping it
//!   cancels), then `finish()` for the [`Run`]. [`run`] does it in one call.
//! - The [`Run`]: every [`SimRequest`] with its five events, its
//!   preemptions and recompute time, as `ttft_latency` timing records
//!   (`SimRequest::trace`), per-class [`ClassStats`] built on
//!   `ttft_latency::summarise`, [`Totals`] and a bounded [`Series`].
//! - [`sweep`]: the capacity estimate and a run of one setting across a
//!   range of arrival rates, in slices like a simulation.
//! - [`export::to_csv`]: a run as the importer's event CSV, read back
//!   unchanged by `ttft-import`. [`Replay::from_import`] goes the other way:
//!   an imported trace's arrivals and lengths as a workload.
//! - [`experiments`]: the three guided experiments' checkers.
//! - [`report`]: a run's figures as table cells and sentences for the page
//!   (A and B compared, the series and sweep tables).
//!
//! Architecture invariant: depends on `ttft-latency`, `ttft-import` (for
//! replay and the export format) and serde; no browser dependency, no I/O,
//! no panics on any input. Random draws come from [`rng`], a self-contained
//! xoshiro256** with its own logarithm and exponential, so a seed gives the
//! same run natively and in the browser.

pub mod engine;
pub mod experiments;
pub mod export;
pub mod preset;
pub mod query;
pub mod report;
pub mod rng;
pub mod run;
pub mod settings;
pub mod sweep;
pub mod workload;

pub use engine::{run, Progress, Simulation, Stopped};
pub use preset::{Preset, Sources, TEACHING_NOTE};
pub use query::{from_query, to_query, Parsed};
pub use run::{
    ClassStats, End, PreemptionCost, Rejection, Rejections, Run, Series, SeriesPoint, SimRequest,
    Totals,
};
pub use settings::{
    Arrivals, Class, Engine, Lengths, Policy, Problem, Setting, Settings, SettingsError, StepCost,
    Stop,
};
pub use sweep::{capacity, sweep, Capacity, Sweep, SweepPoint, SweepResult, SweepSpec};
pub use workload::{Replay, ReplayError, ReplayRequest};
