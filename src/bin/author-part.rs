//! A build of the app with the shell, the
//! trace and choice exercises, an instructor's own exercise (`content=`,
//! `src=`) and the authoring page (`--no-default-features --features
//! csr,authoring`), which index.html starts for the authoring page and for
//! an address with an instructor's exercise instead of the full app; built
//! and handed over as the lesson's own build is (`src/bin/lesson-part.rs`,
//! `ttft_lab::hand_over`).

fn main() {
    ttft_lab::install_panic_hook();
    ttft_lab::start();
}
