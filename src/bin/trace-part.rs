//! A build of the app with the shell and the course's trace exercise
//! (`--no-default-features --features csr,trace`), which index.html starts
//! for that part instead of the full app; the configuration choice is in
//! `choice-part`, an instructor's own trace exercise in
//! `authored-trace-part`, the authoring page in `author-part`. Built and handed over as the lesson's own build is
//! (`src/bin/lesson-part.rs`, `ttft_lab::hand_over`).

fn main() {
    ttft_lab::install_panic_hook();
    ttft_lab::start();
}
