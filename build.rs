//! Build script: turns the course's TOML files into Rust source the app
//! includes.
//!
//! Each file under `content/` is parsed into its `ttft_core::content` type,
//! so a typo in a field name or a wrong type fails the build with the file's
//! name and TOML's own location message, long before a learner sees a page.
//! The parsed course is written to `$OUT_DIR/course.rs` as three functions,
//! `embedded`, `embedded_lesson` and `embedded_interview`, that build the
//! same `Course`, `Lesson` and `InterviewPart` values from code
//! (`build/bake.rs` writes them, and says why it is code and not JSON to
//! parse); `src/course.rs` includes them. A build that never calls one
//! (the import page's build calls none; one without the lesson or the
//! interview skips the second or the third) carries none of that text.
//!
//! What it deliberately does not do: check that stated answers match the
//! core (the native content test does that) or fill prose placeholders (the
//! app does that when it renders). A missing file does not break the build,
//! because the course content is written in parallel with the app:
//! `embedded` then gives a `CourseError::Missing` message that the page shows
//! in place of the course. A file that exists but does not parse always
//! fails the build.

#[path = "build/bake.rs"]
mod bake;

use std::fmt::Write as _;
use std::path::Path;
use ttft_core::content::{
    ConfigExercise, Course, Interview, InterviewPart, Lesson, Rubric, TraceExercise,
    WorkedTimeline,
};

fn main() {
    println!("cargo:rerun-if-changed=content");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=build");
    // `every_part`: this build shows every part of the course (the full
    // app, the tests, the first view), as opposed to a build of a few
    // (Cargo.toml's [features]; `hand_over::served_here`).
    println!("cargo::rustc-check-cfg=cfg(every_part)");
    let every_part = ["LESSON", "EXERCISES", "AUTHORING", "INTERVIEW", "IMPORT", "SIMULATE"]
        .iter()
        .all(|feature| std::env::var_os(format!("CARGO_FEATURE_{feature}")).is_some());
    if every_part {
        println!("cargo:rustc-cfg=every_part");
    }
    // `course_content`: a part of this build shows or reports the course's
    // own content (the worked timeline, the two exercises), so it embeds
    // them (`course::load`). The import page's and the simulate part's
    // builds show none and carry none.
    println!("cargo::rustc-check-cfg=cfg(course_content)");
    let course_content = ["LESSON", "TRACE", "CHOICE", "INTERVIEW", "LMS"]
        .iter()
        .any(|feature| std::env::var_os(format!("CARGO_FEATURE_{feature}")).is_some());
    if course_content {
        println!("cargo:rustc-cfg=course_content");
    }
    let dir = Path::new("content");
    let mut missing = Vec::new();
    let mut invalid = Vec::new();

    let lesson: Option<Lesson> = read(dir, "lesson.toml", &mut missing, &mut invalid);
    let worked_timeline: Option<WorkedTimeline> =
        read(dir, "worked_timeline.toml", &mut missing, &mut invalid);
    let trace_exercise: Option<TraceExercise> =
        read(dir, "trace_exercise.toml", &mut missing, &mut invalid);
    let config_exercise: Option<ConfigExercise> =
        read(dir, "config_exercise.toml", &mut missing, &mut invalid);
    let interview: Option<Interview> = read(dir, "interview.toml", &mut missing, &mut invalid);
    let rubric: Option<Rubric> = read(dir, "rubric.toml", &mut missing, &mut invalid);

    if !invalid.is_empty() {
        let mut message = String::from("the course content does not parse:\n");
        for problem in &invalid {
            let _ = writeln!(message, "  {problem}");
        }
        // Cargo shows a build script's stderr when it fails.
        eprintln!("{message}");
        std::process::exit(1);
    }

    let (course, lesson, interview) = match (
        lesson,
        worked_timeline,
        trace_exercise,
        config_exercise,
        interview,
        rubric,
    ) {
        (
            Some(lesson),
            Some(worked_timeline),
            Some(trace_exercise),
            Some(config_exercise),
            Some(interview),
            Some(rubric),
        ) => {
            let course = Course {
                worked_timeline,
                trace_exercise,
                config_exercise,
            };
            let interview = InterviewPart { interview, rubric };
            // The generated code names the content types itself.
            let uses = "use ttft_core::content::*;\n    use ttft_latency::split::Part;";
            (
                format!("{uses}\n    Ok({})", bake::expression(&course)),
                format!("use ttft_core::content::*;\n    Ok({})", bake::expression(&lesson)),
                format!("use ttft_core::content::*;\n    Ok({})", bake::expression(&interview)),
            )
        }
        _ => {
            let names = missing.join(", ");
            println!("cargo:warning=course content missing ({names}); the app will say so instead of showing the course");
            let message = format!("The course content is missing from this build: {names} under content/.");
            let err = format!("Err(CourseError::Missing(String::from({message:?})))");
            (err.clone(), err.clone(), err)
        }
    };

    let out_dir = match std::env::var("OUT_DIR") {
        Ok(dir) => dir,
        Err(_) => {
            eprintln!("OUT_DIR is not set; run this build script through cargo");
            std::process::exit(1);
        }
    };
    let out = Path::new(&out_dir).join("course.rs");
    let source = format!(
        "// Written by build.rs from content/*.toml: the course, built from code.\n\
         // The worked timeline and the exercises: only a build with a part\n\
         // that shows them (`cfg(course_content)`) calls this.\n\
         #[allow(clippy::too_many_lines, dead_code)]\n\
         fn embedded() -> Result<Course, CourseError> {{\n    {course}\n}}\n\
         // The lesson's text, apart: only a build that shows the lesson (or\n\
         // reports to a learning system) calls this.\n\
         #[allow(clippy::too_many_lines, dead_code)]\n\
         fn embedded_lesson() -> Result<Lesson, CourseError> {{\n    {lesson}\n}}\n\
         // The interview question and its rubric, apart: only a build that\n\
         // shows the interview (or reports it) calls this.\n\
         #[allow(clippy::too_many_lines, dead_code)]\n\
         fn embedded_interview() -> Result<InterviewPart, CourseError> {{\n    {interview}\n}}\n"
    );
    if let Err(e) = std::fs::write(&out, source) {
        eprintln!("could not write {}: {e}", out.display());
        std::process::exit(1);
    }
}

/// Reads and parses one content file, recording a missing file or a parse
/// error instead of stopping, so one run reports every problem.
fn read<T: serde::de::DeserializeOwned>(
    dir: &Path,
    name: &str,
    missing: &mut Vec<String>,
    invalid: &mut Vec<String>,
) -> Option<T> {
    let path = dir.join(name);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            missing.push(name.to_owned());
            return None;
        }
        Err(e) => {
            invalid.push(format!("content/{name}: cannot be read: {e}"));
            return None;
        }
    };
    match toml::from_str(&text) {
        Ok(value) => Some(value),
        Err(e) => {
            invalid.push(format!("content/{name}: {e}"));
            None
        }
    }
}
