//! A build of the app with the shell and
//! the interview question
//! (`--no-default-features --features csr,interview`), which index.html
//! starts for that part instead of the full app; built and handed over as
//! the lesson's own build is (`src/bin/lesson-part.rs`, `ttft_lab::hand_over`).

fn main() {
    ttft_lab::install_panic_hook();
    ttft_lab::start();
}
