//! Whether the browser says it has a network connection, as a signal.
//!
//! `navigator.onLine` and the window's `online`/`offline` events: when it
//! is false the browser is certainly offline; when it is true a request
//! may still fail, which the part making it handles as before. The one
//! part that needs the network, the AI second opinion, reads this to say
//! so before the learner tries to send. What it deliberately does not do:
//! probe the network itself, or make anything else wait for it (the rest of
//! the course works offline).

use leptos::ev;
use leptos::prelude::*;

/// Whether the browser is online, shared through context.
#[derive(Clone, Copy, Debug)]
pub struct Online(pub ReadSignal<bool>);

impl Online {
    /// Reads `navigator.onLine` now and follows its changes.
    pub fn watch() -> Online {
        if cfg!(not(target_arch = "wasm32")) {
            // Rendered natively for the first view: there is no browser to
            // ask, and nothing on that view needs the network.
            return Online(signal(true).0);
        }
        let (online, set_online) = signal(window().navigator().on_line());
        let _ = window_event_listener(ev::online, move |_| set_online.set(true));
        let _ = window_event_listener(ev::offline, move |_| set_online.set(false));
        Online(online)
    }

    /// The signal from context; always online where no one watches, as in
    /// a component test that provides none. Call it while the component is
    /// created, not inside a view's closure.
    pub fn from_context() -> Signal<bool> {
        use_context::<Online>().map_or_else(|| Signal::derive(|| true), |o| o.0.into())
    }
}
