//! ttft-latency: the latency maths of ttft-lab.
//!
//! Integer time ([`Micros`]), what a trace says about one request
//! ([`timing`]), the exact split TTFT = queue wait + prefill + emit
//! ([`split`]), percentiles under named conventions ([`percentile`]),
//! summaries of many requests ([`summary`]), the number formats they print
//! (`split::format_tenths`, `time::group_thousands`, and floats with fixed
//! places in [`decimal`], without the standard library's float formatting),
//! the round numbers charts put on their axes ([`axis`]), and what keeps
//! the wasm small: one stable sort compiled once for every list ([`sort`]),
//! an insertion sort for the few lists of a handful of items that builds
//! without any other sort hold ([`short_sort`]), and maps kept as sorted
//! lists ([`small_map`]).
//! This is all the trace importer needs; the course (content, exercises,
//! rubric, history) lives in `ttft-core`, above this crate.
//!
//! Architecture invariant: no browser dependency, no I/O, nothing about the
//! course. It takes values and returns values and typed errors; it never
//! panics on learner or file input.

pub mod axis;
pub mod decimal;
pub mod percentile;
pub mod short_sort;
pub mod small_map;
pub mod sort;
pub mod split;
pub mod summary;
pub mod time;
pub mod timing;

pub use percentile::{
    percentile, percentiles, Convention, PercentileError, PercentileValue, Percentiles, SmallSample,
};
pub use split::{
    split_request, Decode, Dominant, Part, RequestSplit, Share, TargetVerdict, TtftSplit, VllmSplit,
};
pub use summary::{summarise, summarise_splits, Observation, OutcomeCounts, Summary, TargetCounts};
pub use time::{parse_ms, Micros, MsError};
pub use timing::{Durations, Events, Field, Outcome, RequestTrace, Timing, TimingError};
