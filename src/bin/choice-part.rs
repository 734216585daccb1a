//! A build of the app with the shell and the course's configuration choice
//! (`--no-default-features --features csr,choice`), which index.html starts
//! for that part instead of the full app; the trace exercise is in
//! `trace-part`, an instructor's own configuration exercise in
//! `authored-choice-part`, the authoring page in `author-part`. Built and handed over as the lesson's own build is
//! (`src/bin/lesson-part.rs`, `ttft_lab::hand_over`).

fn main() {
    ttft_lab::install_panic_hook();
    ttft_lab::start();
}
