//! A build of the app with the shell and the trace exercise, reading an
//! instructor's own exercise in its place (`?part=trace&content=…` or
//! `src=…`; `--no-default-features --features csr,trace,authored`), which
//! index.html starts for such an address instead of the full app; built
//! and handed over as the lesson's own build is (`src/bin/lesson-part.rs`,
//! `ttft_lab::hand_over`).

fn main() {
    ttft_lab::install_panic_hook();
    ttft_lab::start();
}
