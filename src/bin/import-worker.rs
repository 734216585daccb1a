//! The trace reader's worker (`data-type="worker"` in index.html): the
//! format parsers of `ttft_import`, off the page's main thread and out of
//! the page's own wasm. `ttft_lab::worker::import` says what it answers.

use ttft_lab::worker::{host, import};

fn main() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        host::stopped(&info.to_string());
    }));
    let mut session = import::Session::new();
    host::serve::<import::Reader>(move |ask, body, reply| {
        session.handle(ask, body, &mut |(answer, body)| reply(answer, body));
    });
}
