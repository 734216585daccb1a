//! Property: no input makes an importer panic, whatever the format it is
//! read as and however it is sliced; and the problems list stays bounded.

use proptest::prelude::*;
use ttft_import::{detect, export, import, Format, Importer, MAX_PROBLEMS};

/// Text made of the pieces real files are made of, shuffled.
fn tricky() -> impl Strategy<Value = String> {
    let atoms = prop::sample::select(vec![
        "{",
        "}",
        "[",
        "]",
        ",",
        ":",
        "\"",
        "\n",
        "\r\n",
        "\"resourceSpans\"",
        "\"scopeSpans\"",
        "\"spans\"",
        "\"name\":\"llm_request\"",
        "\"attributes\"",
        "\"key\":\"gen_ai.latency.time_in_queue\"",
        "\"value\"",
        "\"doubleValue\":",
        "\"intValue\":\"9\"",
        "-1e308",
        "1e400",
        "NaN",
        "\"inf\"",
        "null",
        "0",
        "0.25",
        "\"ttfts\"",
        "\"itls\"",
        "\"errors\"",
        "\"metrics\"",
        "\"metadata\"",
        "\"unit\":\"ns\"",
        "\"benchmarks\"",
        "\"requests\"",
        "\"successful\"",
        "\"experiments\"",
        "\"timestamp\":",
        "\"response_timestamps\"",
        "queue_ms,prefill_ms,emit_ms,ttft_ms",
        "arrival_ms,admitted_ms,prefill_end_ms,first_token_ms",
        "9223372036854775807",
        "-9223372036854775808",
        "é",
        "\u{feff}",
        // Timestamps that do not fit a time (issue 11): near 2^127, and GenAI-Perf's +/-1e38.
        "\"startTimeUnixNano\":\"170141183460469231731687303715884105727\"",
        "170141183460469231731687303715884105727",
        "\"timestamp\":1e38",
        "\"timestamp\":\"-100000000000000000000000000000000000000\"",
        "-1e38",
        "1e38",
        "\"request_start_ns\":",
        "\"unit\":\"ns\"",
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

/// The committed fuzz seeds for the import targets (`fuzz/corpus/import_*`),
/// each read as every format, whole and cut where its first byte says, as
/// the fuzz targets do; so the seeds keep passing without a fuzzer.
#[test]
fn fuzz_seeds_do_not_panic() {
    let corpus = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus");
    let mut ran = 0;
    for dir in std::fs::read_dir(&corpus).expect("fuzz/corpus").flatten() {
        if !dir.file_name().to_string_lossy().starts_with("import_") {
            continue;
        }
        for seed in std::fs::read_dir(dir.path())
            .expect("a corpus folder")
            .flatten()
        {
            let bytes = std::fs::read(seed.path()).expect("a seed");
            let Some((&cut, rest)) = bytes.split_first() else {
                continue;
            };
            let Ok(text) = std::str::from_utf8(rest) else {
                continue;
            };
            let _ = import(text);
            for format in Format::ALL {
                let _ = export::to_csv(&ttft_import::parse_document(format, text).requests);
                let mut at = (cut as usize * text.len()) / 255;
                while !text.is_char_boundary(at) {
                    at -= 1;
                }
                let (a, b) = text.split_at(at);
                let mut imp = Importer::new(format);
                imp.feed(a);
                imp.feed(b);
                let _ = imp.finish();
            }
            ran += 1;
        }
    }
    assert!(ran >= 5, "the import seeds were found; ran {ran}");
}
