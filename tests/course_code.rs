//! The course the build wrote as code (`build.rs`, `build/bake.rs`) is the
//! course the content files hold: every field of every type, read again
//! here from `content/*.toml` with the same types and compared whole.
//! A value the generator wrote wrongly (a string escaped badly, a float
//! rounded, a variant swapped for another of the same name in a different
//! enum) fails this test; a field it left out fails the build itself.

#![cfg(not(target_arch = "wasm32"))]

use serde::de::DeserializeOwned;
use std::path::Path;
use ttft_core::content::{
    ConfigExercise, Course, Interview, InterviewPart, Lesson, Rubric, TraceExercise,
    WorkedTimeline,
};

fn read<T: DeserializeOwned>(name: &str) -> T {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("content").join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    toml::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn the_embedded_course_is_the_content_files() {
    let from_files = Course {
        worked_timeline: read::<WorkedTimeline>("worked_timeline.toml"),
        trace_exercise: read::<TraceExercise>("trace_exercise.toml"),
        config_exercise: read::<ConfigExercise>("config_exercise.toml"),
    };
    let interview_from_files = InterviewPart {
        interview: read::<Interview>("interview.toml"),
        rubric: read::<Rubric>("rubric.toml"),
    };
    let embedded = ttft_lab::course::load().expect("this checkout has every content file");
    let lesson = ttft_lab::course::load_lesson().expect("this checkout has every content file");
    let interview = ttft_lab::course::load_interview().expect("this checkout has every content file");
    // Compared part by part first, so a failure names the file.
    assert_eq!(lesson, read::<Lesson>("lesson.toml"), "lesson.toml");
    assert_eq!(embedded.worked_timeline, from_files.worked_timeline, "worked_timeline.toml");
    assert_eq!(embedded.trace_exercise, from_files.trace_exercise, "trace_exercise.toml");
    assert_eq!(embedded.config_exercise, from_files.config_exercise, "config_exercise.toml");
    assert_eq!(interview.interview, interview_from_files.interview, "interview.toml");
    assert_eq!(interview.rubric, interview_from_files.rubric, "rubric.toml");
    assert_eq!(embedded, from_files);
    assert_eq!(interview, interview_from_files);
}

/// The content holds the characters a string literal must escape or keep
/// as they are, so the comparison above covers them, not only plain text.
#[test]
fn the_content_exercises_the_string_escapes() {
    let lesson: Lesson = read("lesson.toml");
    let text: Vec<String> =
        lesson.sections.iter().flat_map(|s| s.blocks.iter().map(|b| format!("{b:?}"))).collect();
    let text = text.join("\n");
    // Debug writes a double quote inside a string as \".
    assert!(text.contains("\\\""), "some lesson text holds a double quote");
    assert!(!text.is_ascii(), "some lesson text holds a non-ASCII character");
}
