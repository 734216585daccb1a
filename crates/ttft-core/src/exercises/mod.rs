//! The course's two exercises, one module each: the trace exercise (which
//! part of TTFT dominates, its share, what to investigate) and the
//! configuration choice (which serving configuration fits each workload).
//! Each checks a learner's answer against the content and returns one
//! [`verdict::Verdict`] per field; both read the numbers a learner types
//! with `number`.

pub mod config_choice;
pub mod number;
pub mod trace_exercise;
pub mod verdict;
