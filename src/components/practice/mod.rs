//! The practice parts of the course: the trace exercise, the configuration
//! choice and the interview question.
//!
//! Each part is one module with one page component, rendered from the
//! course content with every figure from the core. They show their material
//! read-only; the interaction (answers, checking, hints, self-score history)
//! is added module by module, reusing `crate::storage::Stored` for anything
//! kept between visits. What this module deliberately does not do: share
//! state between parts.

pub mod choice;
pub mod interview;
pub mod trace;
