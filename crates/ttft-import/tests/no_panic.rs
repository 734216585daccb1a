//! Property: no input makes an importer panic, whatever the format it is
//! read as and however it is sliced; and the problems list stays bounded.

use proptest::prelude::*;
use ttft_import::{detect, export, import, Format, Importer, MAX_PROBLEMS};

/// Text made of the pieces real files are made of, shuffled.
fn tricky() -> impl Strategy<Value = String> {
    let atoms = prop::sample::select(vec![
        "{", "}", "[", "]", ",", ":", "\"", "\n", "\r\n", "\"resourceSpans\"", "\"scopeSpans\"", "\"spans\"",
        "\"name\":\"llm_request\"", "\"attributes\"", "\"key\":\"gen_ai.latency.time_in_queue\"", "\"value\"",
        "\"doubleValue\":", "\"intValue\":\"9\"", "-1e308", "1e400", "NaN", "\"inf\"", "null", "0", "0.25",
        "\"ttfts\"", "\"itls\"", "\"errors\"", "\"metrics\"", "\"metadata\"", "\"unit\":\"ns\"", "\"benchmarks\"",
        "\"requests\"", "\"successful\"", "\"experiments\"", "\"timestamp\":", "\"response_timestamps\"",
        "queue_ms,prefill_ms,emit_ms,ttft_ms", "arrival_ms,admitted_ms,prefill_end_ms,first_token_ms", "9223372036854775807",
        "-9223372036854775808", "é", "\u{feff}",
    ]);
    prop::collection::vec(atoms, 0..60).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn no_input_panics(text in tricky(), cut in 0usize..200) {
        let _ = detect(&text);
        if let Ok(imp) = import(&text) {
            let _ = export::to_csv(&imp.requests);
            prop_assert!(imp.problems.len() <= MAX_PROBLEMS);
        }
        for format in Format::ALL {
            let mut imp = Importer::new(format);
            let mut at = cut.min(text.len());
            while !text.is_char_boundary(at) { at -= 1; }
            let (a, b) = text.split_at(at);
            imp.feed(a);
            imp.feed(b);
            let out = imp.finish();
            for r in &out.requests {
                let _ = (r.breakdown.pieces(), r.breakdown.largest(), r.output_rate(), export::row(r));
            }
        }
    }

    #[test]
    fn arbitrary_strings_do_not_panic(text in ".{0,300}") {
        for format in Format::ALL {
            let _ = ttft_import::parse_document(format, &text);
        }
    }
}
