//! ttft-core: the pure Rust engine of ttft-lab.
//!
//! It holds the course: its content and validation, checks a learner's
//! answers against that content, keeps the self-score history's data model,
//! and speaks the protocols of embedding and the AI second opinion. The
//! latency maths it checks answers with (the split, percentiles, summaries)
//! is the `ttft-latency` crate below it.
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
pub mod markup;
pub mod provider;
pub mod rubric;
pub mod sse;
pub mod template;
pub mod validate;
pub mod xapi;

pub use validate::{validate_course, ContentProblem};
