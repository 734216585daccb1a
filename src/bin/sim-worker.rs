//! The serving simulator's worker (`data-type="worker"` in index.html): the
//! engine of `ttft_sim`, off the page's main thread and out of the page's
//! own wasm. `ttft_lab::worker::sim` says what it answers.

use ttft_lab::worker::{host, sim};

fn main() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        host::stopped(&info.to_string());
    }));
    let mut lab = sim::Lab::new();
    host::serve::<sim::Simulator>(move |ask, body, reply| {
        lab.handle(ask, body, &mut |(answer, body)| reply(answer, body));
    });
}
