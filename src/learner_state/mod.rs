//! Everything the app keeps for the learner, in one place: each value's
//! type, how two tabs' copies merge, and its storage
//! key, version and the words that name it for the learner.
//!
//! Components show these values and change them through their methods;
//! `crate::storage` keeps them. What this module deliberately does not do:
//! touch storage itself, or hold any latency arithmetic.

pub mod checklist;
pub mod choice_work;
pub mod endpoint;
pub mod interview_work;
pub mod merge;
pub mod trace_work;
