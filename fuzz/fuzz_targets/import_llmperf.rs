//! Fuzz target: the LlmPerf importer must not panic on any text, whole or
//! fed in two slices cut at a point the fuzzer chooses (first byte).
#![no_main]

use libfuzzer_sys::fuzz_target;
use ttft_import::{export, parse_document, Format, Importer};

fuzz_target!(|data: &[u8]| {
    let Some((&cut, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let whole = parse_document(Format::LlmPerf, text);
    let _ = export::to_csv(&whole.requests);
    let mut at = (cut as usize * text.len()) / 255;
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let (a, b) = text.split_at(at);
    let mut importer = Importer::new(Format::LlmPerf);
    importer.feed(a);
    importer.feed(b);
    let _ = importer.finish();
});
