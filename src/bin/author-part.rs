//! A build of the app with the shell and the authoring page, which
//! previews an instructor's file in the trace and choice exercises
//! (`--no-default-features --features csr,authoring`), which index.html
//! starts for the authoring page instead of the full app (an address with
//! an instructor's exercise starts `authored-trace-part` or
//! `authored-choice-part`, which carry one exercise each); built
//! and handed over as the lesson's own build is (`src/bin/lesson-part.rs`,
//! `ttft_lab::hand_over`).

fn main() {
    ttft_lab::install_panic_hook();
    ttft_lab::start();
}
