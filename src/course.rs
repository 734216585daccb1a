//! The course content the build embedded, parsed once.
//!
//! `build.rs` turns `content/*.toml` into `$OUT_DIR/course.json`; this
//! module parses it with serde_json into the core's [`Course`]. A build made
//! without content carries a `content_error` message instead, which the page
//! shows. Nothing here panics: a parse failure is a [`CourseError`].
//!
//! What it deliberately does not do: fetch anything at run time, or check
//! the content's stated answers (the native content test does).

use serde::Deserialize;
use std::fmt;
use std::sync::Arc;
use ttft_core::content::Course;

/// The course as the build wrote it.
pub const COURSE_JSON: &str = include_str!(concat!(env!("OUT_DIR"), "/course.json"));

/// Why the course cannot be shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CourseError {
    /// The build had no content; the message says which files.
    Missing(String),
    /// The embedded JSON does not fit the course's types.
    Unreadable(String),
}

impl fmt::Display for CourseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CourseError::Missing(message) => f.write_str(message),
            CourseError::Unreadable(why) => {
                write!(f, "The course content in this build cannot be read: {why}.")
            }
        }
    }
}

#[derive(Deserialize)]
struct ContentError {
    content_error: String,
}

/// Parses course JSON as the build writes it.
pub fn parse(json: &str) -> Result<Course, CourseError> {
    match serde_json::from_str::<Course>(json) {
        Ok(course) => Ok(course),
        Err(e) => match serde_json::from_str::<ContentError>(json) {
            Ok(missing) => Err(CourseError::Missing(missing.content_error)),
            Err(_) => Err(CourseError::Unreadable(e.to_string())),
        },
    }
}

/// The embedded course.
pub fn load() -> Result<Course, CourseError> {
    parse(COURSE_JSON)
}

/// The course, shared with every component through context.
#[derive(Clone, Debug)]
pub struct CourseContext(pub Arc<Course>);

#[cfg(test)]
mod tests {
    use super::*;

    fn check(json: &str, expected: Result<(), &str>) {
        let got = parse(json).map(|_| ()).map_err(|e| e.to_string());
        match (got, expected) {
            (Ok(()), Ok(())) => {}
            (Err(got), Err(part)) => assert!(got.contains(part), "{got:?} should contain {part:?}"),
            (got, expected) => panic!("{json:?}: got {got:?}, expected {expected:?}"),
        }
    }

    #[test]
    fn errors_are_values() {
        check(
            r#"{"content_error":"missing lesson.toml"}"#,
            Err("missing lesson.toml"),
        );
        check("not json", Err("cannot be read"));
        check("{}", Err("cannot be read"));
    }

    #[test]
    fn the_embedded_course_reads_or_says_why() {
        if let Err(e) = load() {
            assert!(!e.to_string().is_empty());
        }
    }
}
