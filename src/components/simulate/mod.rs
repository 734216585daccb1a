//! The "Simulate" part: a serving engine the learner runs on a workload
//! they choose, to make queue wait and prefill happen and read every
//! simulated request's split as they read a real trace.
//!
//! `host` is all of it the page's own wasm holds: the heading, the
//! introduction and the place where the part's own wasm
//! (`src/bin/simulate-part.rs`, started by `part-loader.js`) mounts
//! the rest, so no other part pays for the simulator's page.
//! `simulate_page` owns the state and lays the part out; `lab` drives the
//! simulator's worker (`crate::worker::sim`), one job at a time with
//! progress and Cancel; `settings_form` is every setting, labelled by the
//! core; `run_view` shows one run's figures and its series chart;
//! `sweep_view` a sweep's chart and table; `experiments` the three guided
//! experiments. A run's requests are shown with the import part's views.
//! What this module deliberately does not do: simulate or compute a figure
//! (`ttft_sim` does, in the worker and in `ttft_sim::report`).

pub mod experiments;
pub mod host;
pub mod lab;
pub mod run_view;
pub mod settings_form;
pub mod simulate_page;
pub mod sweep_view;
