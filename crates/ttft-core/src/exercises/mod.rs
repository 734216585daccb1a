//! The course's two exercises, one module each: the trace exercise (which
//! part of TTFT dominates, its share, what to investigate) and the
//! configuration choice (which serving configuration fits each workload).
//! Each checks a learner's answer against the content and returns verdicts.

pub mod config_choice;
pub mod trace_exercise;
