//! ttft-core: the pure Rust engine of ttft-lab.
//!
//! It holds the course: its content and validation (`content`), the checks
//! of the two exercises (`exercises`), the rubric, the self-score history's
//! data model (`history`), instructor-authored files (`authoring`), and the
//! protocols spoken with the outside: embedding in another site (`embed`),
//! the AI second opinion (`second_opinion`) and a learning system's SCORM
//! run-time (`lms`). The latency maths it checks answers with (the split,
//! percentiles, summaries) is the `ttft-latency` crate below it.
//!
//! Architecture invariant: this crate has no browser dependency and does no
//! I/O. It takes values and strings and returns values and typed errors; it
//! never panics on learner or file input.

pub mod authoring;
pub mod content;
pub mod course_part;
pub mod embed;
pub mod exercises;
pub mod fingerprint;
pub mod history;
pub mod lms;
pub mod rubric;
pub mod second_opinion;
mod schema_text;
