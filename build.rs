//! Build script: turns the course's TOML files into Rust source the app
//! includes.
//!
//! Each file under `content/` is parsed into its `ttft_core::content` type,
//! so a typo in a field name or a wrong type fails the build with the file's
//! name and TOML's own location message, long before a learner sees a page.
//! The parsed course is written to `$OUT_DIR/course.rs` as functions that
//! build the same values from code, one a piece: `embedded_worked`,
//! `embedded_trace`, `embedded_config` (with `embedded`, the three as a
//! `Course`), `embedded_lesson` and `embedded_interview` (`build/bake.rs`
//! writes them, and says why it is code and not JSON to parse);
//! `src/course.rs` includes them. A build calls only those of the pieces
//! its parts show (the `course_*` cfgs below) and carries none of the
//! others' text: the import page's build calls none.
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
    ConfigExercise, Interview, InterviewPart, Lesson, Rubric, TraceExercise,
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
    let every_part = ["LESSON", "EXERCISES", "AUTHORED", "AUTHORING", "INTERVIEW", "IMPORT", "SIMULATE"]
        .iter()
        .all(|feature| std::env::var_os(format!("CARGO_FEATURE_{feature}")).is_some());
    if every_part {
        println!("cargo:rustc-cfg=every_part");
    }
    // Which of the course's own pieces a part of this build shows or
    // reports, so that the build embeds it (`course::load`): the worked
    // timeline (`course_worked`: the lesson), the trace exercise
    // (`course_trace`: it, and the interview, which quotes its rows) and the
    // configuration exercise (`course_config`; both of them also for the
    // authoring page, which starts a file from them); `course_content`
    // when any.
    // The import page's and the simulate part's builds carry none.
    let on = |features: &[&str]| {
        features
            .iter()
            .any(|feature| std::env::var_os(format!("CARGO_FEATURE_{feature}")).is_some())
    };
    let pieces = [
        ("course_worked", on(&["LESSON", "LMS"])),
        ("course_trace", on(&["TRACE", "INTERVIEW", "AUTHORING", "LMS"])),
        ("course_config", on(&["CHOICE", "AUTHORING", "LMS"])),
    ];
    for (name, embedded) in pieces {
        println!("cargo::rustc-check-cfg=cfg({name})");
        if embedded {
            println!("cargo:rustc-cfg={name}");
        }
    }
    println!("cargo::rustc-check-cfg=cfg(course_content)");
    if pieces.iter().any(|(_, embedded)| *embedded) {
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

    let (worked, trace, config, lesson, interview) = match (
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
            let interview = InterviewPart { interview, rubric };
            // The generated code names the content types itself.
            let uses = "use ttft_core::content::*;\n    use ttft_latency::split::Part;";
            (
                format!("{uses}\n    Ok({})", bake::expression(&worked_timeline)),
                format!("{uses}\n    Ok({})", bake::expression(&trace_for_build(trace_exercise, on(&["TRACE", "AUTHORING", "LMS"])))),
                format!("{uses}\n    Ok({})", bake::expression(&config_exercise)),
                format!("use ttft_core::content::*;\n    Ok({})", bake::expression(&lesson)),
                format!("use ttft_core::content::*;\n    Ok({})", bake::expression(&interview)),
            )
        }
        _ => {
            let names = missing.join(", ");
            println!("cargo:warning=course content missing ({names}); the app will say so instead of showing the course");
            let message = format!("The course content is missing from this build: {names} under content/.");
            let err = format!("Err(CourseError::Missing(String::from({message:?})))");
            (err.clone(), err.clone(), err.clone(), err.clone(), err)
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
         // The worked timeline and each exercise, apart: only a build with a\n\
         // part that shows one (`cfg(course_worked)` and so on) calls it.\n\
         #[allow(clippy::too_many_lines, dead_code, unused_imports)]\n\
         fn embedded_worked() -> Result<WorkedTimeline, CourseError> {{\n    {worked}\n}}\n\
         #[allow(clippy::too_many_lines, dead_code, unused_imports)]\n\
         fn embedded_trace() -> Result<TraceExercise, CourseError> {{\n    {trace}\n}}\n\
         #[allow(clippy::too_many_lines, dead_code, unused_imports)]\n\
         fn embedded_config() -> Result<ConfigExercise, CourseError> {{\n    {config}\n}}\n\
         // The three together, for a build that shows them all.\n\
         #[allow(dead_code)]\n\
         fn embedded() -> Result<Course, CourseError> {{\n    Ok(Course {{ worked_timeline: embedded_worked()?, trace_exercise: embedded_trace()?, config_exercise: embedded_config()? }})\n}}\n\
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

/// The trace exercise as a build embeds it. A build that shows the
/// interview but not the exercise quotes only the trace's rows and fills
/// the question's placeholders from their figures: it never shows the
/// exercise's introduction, the reasoning of its answers, its actions or
/// its feedback on misconceptions, so it carries none of that prose
/// (2.7 KB of the interview's wasm, gzip). The end-to-end test that
/// compares each first view, rendered from the whole course, with what the
/// app shows would find anything shown from it.
fn trace_for_build(mut exercise: TraceExercise, shows_exercise: bool) -> TraceExercise {
    if !shows_exercise {
        exercise.intro.clear();
        exercise.actions.clear();
        exercise.misconceptions.clear();
        for request in &mut exercise.requests {
            request.answer.reasoning.clear();
        }
    }
    exercise
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
