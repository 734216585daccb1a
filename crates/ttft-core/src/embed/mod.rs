//! Embedding a part of ttft-lab in another site: the page's query string,
//! the iframe snippet an instructor copies, and the height messages the
//! embedded page and its parent exchange.
//!
//! **Query.** `?part=trace&embed=1&origin=https%3A%2F%2Flms.example.edu`
//! with, optionally, authored content as `content=<base64url JSON>` or
//! `src=<same-origin relative path>`. `origin` may repeat (or hold a
//! comma-separated list): it is the instructor's allow-list of parent
//! origins that may receive result statements. An origin must be exactly
//! `scheme://host[:port]`, https, or http only for `localhost`,
//! `127.0.0.1` and `[::1]`; anything else is rejected with a typed error and
//! left out, so a typo can only stop statements, never send them elsewhere.
//! Posting is to each listed origin in turn: the browser delivers a message
//! only when the parent's origin equals the target, so the unmatched ones
//! are dropped by the browser, and nothing is ever posted to `*`.
//!
//! **Height.** The embedded page speaks two dialects. Its own message is
//! `{"type": "ttft-lab:height", "version": 1, "height": <px>}`. H5P's is the
//! one H5P's `h5p-resizer.js` listens for (h5p/h5p-php-library, `js/h5p-resizer.js`
//! and the iframe side in `js/h5p.js`, commit e15f6d6): every message is an
//! object with `context: "h5p"` and an `action`. The iframe sends `hello`;
//! a parent running the resizer answers `hello` (and sends `ready` when the
//! resizer loads after the iframe, to which the iframe answers `hello`).
//! After the handshake, whenever the content changes size the iframe sends
//! `prepareResize` with `scrollHeight` and `clientHeight`; the parent sets
//! the iframe to `clientHeight` and answers `resizePrepared` (only when the
//! two heights differ from each other or from the iframe's); the iframe
//! then sends `resize` with `scrollHeight`, and the parent sets the iframe's
//! height to it. The parent also sends `resize` when its own window resizes,
//! asking the iframe to measure again. [`H5pChild`](height::H5pChild) is the iframe's side of
//! that exchange; [`read_height_message`](height::read_height_message) is the parent's check of what
//! arrives, which `content/embed/ttft-lab-resizer.js` mirrors.
//!
//! This module builds text and values only: it does not touch the DOM,
//! measure anything or post messages.

pub mod height;
pub mod origin;
pub mod query;
pub mod snippet;
pub mod xapi;
