//! Fuzz target: the SSE parser and the chat-completions chunk reader.
//!
//! The input is split at a point chosen by its first byte; both halves fed
//! in order must give the same events as the whole fed at once, and no
//! event's data may exceed the limit.
#![no_main]

use ttft_core::second_opinion::sse::{read_chunk, SseParser};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Some((&cut, rest)) = data.split_first() else { return };
    let at = usize::from(cut) % (rest.len() + 1);
    let mut whole = SseParser::with_limit(4096);
    let mut split = SseParser::with_limit(4096);
    let all = whole.feed(rest);
    let first = split.feed(&rest[..at]);
    let second = split.feed(&rest[at..]);
    if let (Ok(all), Ok(mut a), Ok(b)) = (all, first, second) {
        a.extend(b);
        assert_eq!(a, all, "chunking changes nothing");
        for e in &all {
            assert!(e.data.len() <= 4096);
            let _ = read_chunk(e);
        }
    }
    let _ = whole.finish();
});
