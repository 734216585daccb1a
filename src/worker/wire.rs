//! What crosses between the page and a worker, the same on both sides.
//!
//! Every message is a JavaScript array `[kind, head, body]`:
//! - `kind` says who speaks: [`REQUEST`] (page to worker), [`REPLY`]
//!   (worker to page), or one of the loader's own words: [`READY`] (the
//!   worker's wasm runs and listens), [`LOAD_FAILED`] (its files could not
//!   be fetched or compiled; `head` is the browser's reason) and
//!   [`STOPPED`] (it panicked; `head` says where).
//! - `head` is the typed request or reply as JSON: small, so JSON costs
//!   nothing worth measuring, and it keeps both sides honest about the type.
//! - `body` is an optional `ArrayBuffer`, transferred (moved, not copied)
//!   with the message: a file slice, or a batch of results.
//!
//! `worker-loader.js` posts `LOAD_FAILED` itself, so these names are part
//! of its contract too. What this module deliberately does not do: touch
//! the browser; the bridge and the host do.

use serde::de::DeserializeOwned;
use serde::Serialize;

/// A request from the page to the worker.
pub const REQUEST: &str = "request";
/// A reply from the worker to the page.
pub const REPLY: &str = "reply";
/// The worker has started and listens for requests.
pub const READY: &str = "ready";
/// The worker's files could not be loaded (posted by `worker-loader.js`).
pub const LOAD_FAILED: &str = "load-failed";
/// The worker hit a bug and stopped.
pub const STOPPED: &str = "stopped";

/// One part's conversation with its worker: what the page asks and what
/// the worker answers.
pub trait Protocol: 'static {
    /// What the page sends.
    type Request: Serialize + DeserializeOwned;
    /// What the worker sends back.
    type Response: Serialize + DeserializeOwned;
    /// The worker binary's name (`[[bin]]`, and Trunk's `data-bin`).
    const BIN: &'static str;
}

/// A request's or reply's head as JSON.
pub fn encode<T: Serialize>(head: &T) -> String {
    // Serialising plain enums of numbers and strings cannot fail; should it
    // ever, the other side reads an empty head as a message it cannot read.
    serde_json::to_string(head).unwrap_or_default()
}

/// A head read back, or why it could not be.
pub fn decode<T: DeserializeOwned>(head: &str) -> Result<T, String> {
    serde_json::from_str(head).map_err(|e| format!("a message could not be read ({e})"))
}

/// The address of the loader that starts worker `bin`, relative to the
/// page, so a build works under any sub-path.
pub fn loader_url(bin: &str) -> String {
    format!("./worker-loader.js?bin={bin}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    enum Ask {
        Slice { read: u64 },
        End,
    }

    #[test]
    fn heads_cross_unchanged() {
        for ask in [Ask::Slice { read: 1 << 40 }, Ask::End] {
            assert_eq!(decode::<Ask>(&encode(&ask)), Ok(ask));
        }
    }

    #[test]
    fn an_unreadable_head_is_an_error_not_a_panic() {
        assert!(decode::<Ask>("").is_err());
        assert!(decode::<Ask>("{\"Nope\":1}").is_err());
    }

    #[test]
    fn the_loader_is_found_beside_the_page() {
        assert_eq!(loader_url("import-worker"), "./worker-loader.js?bin=import-worker");
    }
}
