//! The course content the build embedded.
//!
//! `build.rs` reads `content/*.toml` into the core's [`Course`], [`Lesson`]
//! and [`InterviewPart`] and writes `$OUT_DIR/course.rs`: three functions,
//! `embedded`, `embedded_lesson` and `embedded_interview`, that build the
//! same values from code (`build/bake.rs` says why code and not JSON). This
//! module includes them. Only a build that shows the lesson calls
//! [`load_lesson`], and only one that shows the interview calls
//! [`load_interview`] (with the full app, which reports both to a learning
//! system, and the first views, which show both), so the others carry none
//! of that text. A build made without content gives a
//! [`CourseError::Missing`] message instead, which the page shows. Nothing
//! here panics.
//!
//! What it deliberately does not do: fetch anything at run time, or check
//! the content's stated answers (the native content test does).

use std::fmt;
use std::sync::Arc;
use ttft_core::content::{Course, InterviewPart, Lesson};

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

/// What a build reads of the course: the course itself in a build with a
/// part that shows it (`cfg(course_content)`: the lesson, the exercises,
/// the interview, the full app).
#[cfg(course_content)]
pub type Embedded = Course;

/// What a build reads of the course: nothing in the import page's and the
/// simulate part's builds, whose parts show none of it, so they do not
/// carry its text and the code that builds it.
#[cfg(not(course_content))]
#[derive(Clone, Debug, PartialEq)]
pub struct Embedded;

/// The embedded course, as far as this build's parts read it.
pub fn load() -> Result<Embedded, CourseError> {
    #[cfg(course_content)]
    return embedded();
    #[cfg(not(course_content))]
    Ok(Embedded)
}

/// The embedded lesson: its sections and their checklists.
#[cfg(any(feature = "lesson", feature = "lms", feature = "ssr", test))]
pub fn load_lesson() -> Result<Lesson, CourseError> {
    embedded_lesson()
}

/// The embedded interview question and its rubric.
#[cfg(any(feature = "interview", feature = "lms", feature = "ssr", test))]
pub fn load_interview() -> Result<InterviewPart, CourseError> {
    embedded_interview()
}

/// The course, shared with every component through context in a build that
/// embeds it.
#[derive(Clone, Debug)]
pub struct CourseContext(pub Arc<Course>);

/// The lesson, shared through context in a build that shows it.
#[derive(Clone, Debug)]
pub struct LessonContext(pub Arc<Lesson>);

/// The interview question and its rubric, shared through context in a
/// build that shows the interview.
#[derive(Clone, Debug)]
pub struct InterviewContext(pub Arc<InterviewPart>);
