//! Work that runs off the page's main thread, in a Web Worker of its own
//! wasm, loaded only when a part needs it.
//!
//! A part's heavy code (the trace importer's format parsers now, the
//! serving simulator later) is a second `[[bin]]` of this package, built by
//! Trunk as a worker (`data-type="worker"` in index.html: no hashed name, no
//! preload) and started by `worker-loader.js?bin=<name>` the first time
//! the part opens. The page and the worker speak one typed protocol per
//! part:
//!
//! - `wire`: what every message is on both sides (a [`wire::Protocol`]'s
//!   request or response as a JSON head, plus an optional byte body whose
//!   `ArrayBuffer` is transferred, never copied), and the loader's own
//!   messages (ready, failed to load, stopped).
//! - `bridge` (the page's side): starts a worker, tells the part when it is
//!   ready, failed to load or stopped, sends requests, and restarts it
//!   (Cancel is `terminate`, at once, whatever the worker is doing).
//! - `host` (the worker's side): hands each request to the part's handler
//!   and posts its replies as they are made.
//! - `sim`: the serving simulator's protocol and its lab (the
//!   `sim-worker` binary), which owns `ttft_sim`'s runs, sweeps and
//!   experiment checks.
//! - `import`: the trace reader's protocol and its session (the
//!   `import-worker` binary), which owns `ttft_import::Importer`; `pack`
//!   is how its requests cross: compact bytes, quick to read on the page.
//!
//! What it deliberately does not do: know any part's view, or let a worker
//! reach anything but the page that started it.

pub mod bridge;
pub mod host;
pub mod import;
pub mod pack;
pub mod sim;
pub mod wire;
