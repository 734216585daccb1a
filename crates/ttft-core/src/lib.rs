//! ttft-core: the pure Rust engine of ttft-lab.
//!
//! It splits a server's time to first token into queue wait, prefill and
//! emit, summarises many requests, checks a learner's answers against the
//! course content, keeps the self-score history's data model, and imports
//! real serving traces. Every number the app shows comes from here.
//!
//! Architecture invariant: this crate has no browser dependency and does no
//! I/O. It takes values and strings and returns values and typed errors; it
//! never panics on learner or file input.

pub mod answer;
pub mod authoring;
pub mod choice;
pub mod content;
pub mod embed;
pub mod grader;
pub mod history;
pub mod key_origin;
pub mod markup;
pub mod percentile;
pub mod provider;
pub mod reply_limit;
pub mod rubric;
pub mod split;
pub mod sse;
pub mod summary;
pub mod template;
pub mod time;
pub mod timing;
pub mod validate;
pub mod xapi;

pub use percentile::{percentile, percentiles, Convention, PercentileError, PercentileValue, Percentiles, SmallSample};
pub use split::{split_request, Decode, Dominant, Part, RequestSplit, Share, TargetVerdict, TtftSplit, VllmSplit};
pub use summary::{summarise, summarise_splits, Observation, OutcomeCounts, Summary};
pub use time::Micros;
pub use timing::{Durations, Events, Field, Outcome, RequestTrace, Timing, TimingError};
pub use validate::{validate_course, ContentProblem};
