//! `first-view PAGE.html`: writes every part's static first view into the
//! built page, in place of its placeholder (see `ttft_lab::first_view`).
//! `scripts/release` runs it on `dist/index.html` after Trunk and before
//! the Content-Security-Policy is written. Built natively with
//! `--no-default-features --features ssr`; it fails, saying why, when the
//! course does not load or the page has no single placeholder.

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
    if let Err(e) = std::fs::write(&path, filled) {
        eprintln!("first-view: cannot write {path}: {e}");
        return ExitCode::FAILURE;
    }
    let bytes: usize = views.iter().map(|v| v.html.len()).sum();
    println!("first-view: {path}: {} first views written ({bytes} bytes)", views.len());
    ExitCode::SUCCESS
}
