//! A build of the app with the shell and the configuration choice, reading
//! an instructor's own exercise in its place (`?part=choice&content=…` or
//! `src=…`; `--no-default-features --features csr,choice,authored`), which
//! index.html starts for such an address instead of the full app; built
//! and handed over as the lesson's own build is (`src/bin/lesson-part.rs`,
//! `ttft_lab::hand_over`).

fn main() {
    ttft_lab::install_panic_hook();
    ttft_lab::start();
}
