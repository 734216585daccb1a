//! The lesson's build of the app (`--no-default-features --features csr,lesson`):
//! the shell, the lesson and the worked timeline, for a learner who opens
//! the lesson on the site or embedded in another, but not in a learning
//! system. index.html's start-up script picks it (`data-app-build`) and
//! Trunk.toml's loader starts it instead of the full app; leaving for
//! another part hands the page to the full app (`ttft_lab::hand_over`).
//! Trunk builds it beside the page under fixed names with ES-module glue
//! (`data-type="worker"`, `data-bindgen-target="web"`), and it runs on the
//! main thread. The other `*-part` builds are the same shell with another
//! group of parts instead of the lesson's.

fn main() {
    ttft_lab::install_panic_hook();
    ttft_lab::start();
}
