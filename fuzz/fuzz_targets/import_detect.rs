//! Fuzz target: format detection and the one-call import must not panic on
//! any text.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = ttft_import::detect(text);
        let _ = ttft_import::import(text);
    }
});
