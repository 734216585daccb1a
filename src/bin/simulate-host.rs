//! A build of the app with the shell and
//! the simulate part's host, which loads that part's own page (`simulate-part`)
//! (`--no-default-features --features csr,simulate`), which index.html
//! starts for that part instead of the full app; built and handed over as
//! the lesson's own build is (`src/bin/lesson-part.rs`, `ttft_lab::hand_over`).

fn main() {
    ttft_lab::install_panic_hook();
    ttft_lab::start();
}
