//! Fuzz target: see `ttft_fuzz::suspend_data` for what it feeds and what it asserts.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ttft_fuzz::suspend_data(data));
