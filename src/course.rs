//! The course content the build embedded.
//!
//! `build.rs` reads `content/*.toml` into the core's [`Course`] and writes
//! `$OUT_DIR/course.rs`: one function, `embedded`, that builds the same
//! value from code (`build/bake.rs` says why code and not JSON). This module
//! includes it. A build made without content gives a
//! [`CourseError::Missing`] message instead, which the page shows. Nothing
//! here panics.
//!
//! What it deliberately does not do: fetch anything at run time, or check
//! the content's stated answers (the native content test does).

use std::fmt;
use std::sync::Arc;
use ttft_core::content::Course;

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

/// The embedded course.
pub fn load() -> Result<Course, CourseError> {
    embedded()
}

/// The course, shared with every component through context.
#[derive(Clone, Debug)]
pub struct CourseContext(pub Arc<Course>);
