//! The course content the build embedded.
//!
//! `build.rs` reads `content/*.toml` into the core's [`Course`] pieces,
//! [`Lesson`] and [`InterviewPart`] and writes `$OUT_DIR/course.rs`: one
//! function a piece that builds the same value from code (`build/bake.rs`
//! says why code and not JSON). This module includes them. [`load`] builds
//! only the pieces of the course this build's parts show ([`Embedded`]);
//! only a build that shows the lesson calls [`load_lesson`], and only one
//! that shows the interview calls [`load_interview`] (with the full app,
//! which reports both to a learning system, and the first views, which show
//! both), so the others carry none of that text. A build made without content gives a
//! [`CourseError::Missing`] message instead, which the page shows. Nothing
//! here panics.
//!
//! What it deliberately does not do: fetch anything at run time, or check
//! the content's stated answers (the native content test does).

use std::fmt;
use std::sync::Arc;
use ttft_core::content::template::Sources;
use ttft_core::content::{ConfigExercise, Course, InterviewPart, Lesson, TraceExercise, WorkedTimeline};

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

/// What a build reads of the course: all of it in a build whose parts
/// show every piece (the full app, the tests, the first view).
#[cfg(all(course_worked, course_trace, course_config))]
pub type Embedded = Course;

/// What a build reads of the course: only the pieces its parts show
/// (`build.rs`'s `course_*` cfgs), so it carries none of the others' text
/// and the code that builds it. The lesson's build has the worked timeline,
/// the trace exercise's and the interview's the trace exercise, the
/// configuration choice's that exercise; the import page's and the
/// simulate part's have none.
#[cfg(not(all(course_worked, course_trace, course_config)))]
#[derive(Clone, Debug, PartialEq)]
pub struct Embedded {
    #[cfg(course_worked)]
    pub worked_timeline: WorkedTimeline,
    #[cfg(course_trace)]
    pub trace_exercise: TraceExercise,
    #[cfg(course_config)]
    pub config_exercise: ConfigExercise,
}

/// The embedded course, as far as this build's parts read it.
pub fn load() -> Result<Embedded, CourseError> {
    #[cfg(all(course_worked, course_trace, course_config))]
    return embedded();
    #[cfg(not(all(course_worked, course_trace, course_config)))]
    Ok(Embedded {
        #[cfg(course_worked)]
        worked_timeline: embedded_worked()?,
        #[cfg(course_trace)]
        trace_exercise: embedded_trace()?,
        #[cfg(course_config)]
        config_exercise: embedded_config()?,
    })
}

/// What the course's placeholders are filled from: the pieces this build
/// embeds.
pub fn sources(course: &Embedded) -> Sources<'_> {
    let _ = course;
    Sources {
        #[cfg(course_worked)]
        worked: Some(&course.worked_timeline),
        #[cfg(not(course_worked))]
        worked: None,
        #[cfg(course_trace)]
        trace: Some(&course.trace_exercise),
        #[cfg(not(course_trace))]
        trace: None,
        #[cfg(course_config)]
        config: Some(&course.config_exercise),
        #[cfg(not(course_config))]
        config: None,
    }
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

/// The course as this build embeds it, shared with every component through
/// context.
#[derive(Clone, Debug)]
pub struct CourseContext(pub Arc<Embedded>);

/// The lesson, shared through context in a build that shows it.
#[derive(Clone, Debug)]
pub struct LessonContext(pub Arc<Lesson>);

/// The interview question and its rubric, shared through context in a
/// build that shows the interview.
#[derive(Clone, Debug)]
pub struct InterviewContext(pub Arc<InterviewPart>);
