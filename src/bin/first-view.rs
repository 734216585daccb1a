//! `first-view PAGE.html`: writes every part's static first view into a
//! file beside the built page, which the page names, and the lesson as a
//! plain page beside it for browsers without scripting
//! (see `ttft_lab::first_view`).
//! `scripts/release` runs it on `dist/index.html` after Trunk and before
//! the Content-Security-Policy is written. Built natively with
//! `--no-default-features --features ssr`; it fails, saying why, when the
//! course does not load, the page lacks a placeholder or a file cannot be
//! written.

use std::process::ExitCode;
use ttft_lab::{course, first_view};

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: first-view PAGE.html (the built index.html)");
        return ExitCode::from(2);
    };
    let course = match course::load() {
        Ok(course) => course,
        Err(e) => {
            eprintln!("first-view: the course does not load: {e}");
            return ExitCode::FAILURE;
        }
    };
    let page = match std::fs::read_to_string(&path) {
        Ok(page) => page,
        Err(e) => {
            eprintln!("first-view: cannot read {path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let views = first_view::render_all(&Ok(course));
    let filled = match first_view::fill(&page, &views, &first_view::render_embed_bars()) {
        Ok(filled) => filled,
        Err(e) => {
            eprintln!("first-view: {path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let beside = std::path::Path::new(&path).parent().unwrap_or(std::path::Path::new("."));
    let plain = first_view::ViewFile { name: first_view::PLAIN_LESSON_FILE.into(), html: filled.plain_lesson };
    for file in filled.files.iter().chain([&plain]) {
        let file_path = beside.join(&file.name);
        if let Err(e) = std::fs::write(&file_path, &file.html) {
            eprintln!("first-view: cannot write {}: {e}", file_path.display());
            return ExitCode::FAILURE;
        }
    }
    if let Err(e) = std::fs::write(&path, filled.page) {
        eprintln!("first-view: cannot write {path}: {e}");
        return ExitCode::FAILURE;
    }
    let bytes: usize = views.iter().map(|v| v.html.len()).sum();
    println!(
        "first-view: {path}: {} first views written ({bytes} bytes) in files beside it, and the lesson as a plain page, {}",
        filled.files.len(),
        first_view::PLAIN_LESSON_FILE
    );
    ExitCode::SUCCESS
}
