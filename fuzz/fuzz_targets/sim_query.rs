//! Fuzz target: the simulator's settings parser; see `src/sim_query.rs`
//! for what it feeds and what it asserts.
#![no_main]

#[path = "../src/sim_query.rs"]
mod body;

libfuzzer_sys::fuzz_target!(|data: &[u8]| body::sim_query(data));
