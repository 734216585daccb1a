//! A build of the app with the shell, the lesson, the worked timeline and
//! the course's trace and choice exercises (`--no-default-features
//! --features csr,exercises`), which index.html starts for those two parts
//! instead of the full app; an instructor's own exercise and the authoring
//! page are in `author-part`. Built and handed over as the lesson's own
//! build is (`src/bin/lesson-part.rs`, `ttft_lab::hand_over`).

fn main() {
    ttft_lab::install_panic_hook();
    ttft_lab::start();
}
