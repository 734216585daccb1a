//! The course content the build embedded.
//!
//! `build.rs` reads `content/*.toml` into the core's [`Course`] and
//! [`InterviewPart`] and writes `$OUT_DIR/course.rs`: two functions,
//! `embedded` and `embedded_interview`, that build the same values from code
//! (`build/bake.rs` says why code and not JSON). This module includes them.
//! Only a build that shows the interview, reports to a learning system or
//! writes the first views calls [`load_interview`], so the others carry
//! none of the interview's text. A build made without content gives a
//! [`CourseError::Missing`] message instead, which the page shows. Nothing
//! here panics.
//!
//! What it deliberately does not do: fetch anything at run time, or check
//! the content's stated answers (the native content test does).

use std::fmt;
use std::sync::Arc;
use ttft_core::content::{Course, InterviewPart};

// `embedded` names the content types itself.
include!(concat!(env!("OUT_DIR"), "/course.rs"));

/// Why the course cannot be shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CourseError {
    /// The build had no content; the message says which files.
    Missing(String),
}

impl fmt::Display for CourseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CourseError::Missing(message) => f.write_str(message),
        }
    }
}

/// The embedded course: what every part reads.
pub fn load() -> Result<Course, CourseError> {
    embedded()
}

/// The embedded interview question and its rubric.
#[cfg(any(feature = "interview", feature = "lms", feature = "ssr", test))]
pub fn load_interview() -> Result<InterviewPart, CourseError> {
    embedded_interview()
}

/// The course, shared with every component through context.
#[derive(Clone, Debug)]
pub struct CourseContext(pub Arc<Course>);

/// The interview question and its rubric, shared through context in a
/// build that shows the interview.
#[derive(Clone, Debug)]
pub struct InterviewContext(pub Arc<InterviewPart>);
