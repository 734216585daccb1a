//! Fuzz target: see `ttft_fuzz::history` for what it feeds and what it asserts.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ttft_fuzz::history(data));
