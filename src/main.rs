//! Entry point: installs the panic hook and starts the app. Everything else
//! lives in the library, where tests can reach it.

fn main() {
    ttft_lab::install_panic_hook();
    ttft_lab::start();
}
