//! Fuzz target: see `ttft_fuzz::course` for what it feeds and what it asserts.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ttft_fuzz::course(data));
