//! Fuzz target: the authored-exercise reader, from file text and from a
//! URL's `content=` value.
//!
//! Every refusal carries at least one problem with a path; anything
//! accepted encodes for a URL (when it fits) and reads back the same.
#![no_main]

use ttft_core::authoring::{encode_for_url, load_from_url, parse_authored};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match parse_authored(text) {
        Ok(file) => {
            if let Ok(encoded) = encode_for_url(&file) {
                assert_eq!(load_from_url(&encoded), Ok(file));
            }
        }
        Err(problems) => {
            assert!(!problems.is_empty());
            assert!(problems.iter().all(|p| !p.path.is_empty()));
        }
    }
    let _ = load_from_url(text);
});
