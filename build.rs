//! Build script: turns the course's TOML files into one JSON file the app
//! embeds.
//!
//! Each file under `content/` is parsed into its `ttft_core::content` type,
//! so a typo in a field name or a wrong type fails the build with the file's
//! name and TOML's own location message, long before a learner sees a page.
//! The parsed course is written to `$OUT_DIR/course.json`; the app
//! `include_str!`s it and parses it once with serde_json.
//!
//! What it deliberately does not do: check that stated answers match the
//! core (the native content test does that) or fill prose placeholders (the
//! app does that when it renders). A missing file does not break the build,
//! because the course content is written in parallel with the app: the JSON
//! then carries a `content_error` message that the page shows in place of
//! the course. A file that exists but does not parse always fails the build.

use serde_json::json;
use std::fmt::Write as _;
use std::path::Path;
use ttft_core::content::{
    ConfigExercise, Course, Interview, Lesson, Rubric, TraceExercise, WorkedTimeline,
};

fn main() {
    println!("cargo:rerun-if-changed=content");
    println!("cargo:rerun-if-changed=build.rs");
    // `every_part`: this build shows every part of the course (the full
    // app, the tests, the first view), as opposed to a build of a few
    // (Cargo.toml's [features]; `hand_over::served_here`).
    println!("cargo::rustc-check-cfg=cfg(every_part)");
    let every_part = ["EXERCISES", "INTERVIEW", "IMPORT", "SIMULATE"]
        .iter()
        .all(|feature| std::env::var_os(format!("CARGO_FEATURE_{feature}")).is_some());
    if every_part {
        println!("cargo:rustc-cfg=every_part");
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

    let json = match (
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
                lesson,
                worked_timeline,
                trace_exercise,
                config_exercise,
                interview,
                rubric,
            };
            match serde_json::to_string(&course) {
                Ok(text) => text,
                Err(e) => {
                    eprintln!("the course content could not be written as JSON: {e}");
                    std::process::exit(1);
                }
            }
        }
        _ => {
            let names = missing.join(", ");
            println!("cargo:warning=course content missing ({names}); the app will say so instead of showing the course");
            json!({ "content_error": format!("The course content is missing from this build: {names} under content/.") })
                .to_string()
        }
    };

    let out_dir = match std::env::var("OUT_DIR") {
        Ok(dir) => dir,
        Err(_) => {
            eprintln!("OUT_DIR is not set; run this build script through cargo");
            std::process::exit(1);
        }
    };
    let out = Path::new(&out_dir).join("course.json");
    if let Err(e) = std::fs::write(&out, json) {
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
