//! What a hostile or huge file does: an unclosed CSV quote, lines and
//! documents past their format's limit, cells that would fill a message,
//! and timestamps that do not fit a time. Each case is reported at its line
//! or path and costs no more than its own row, except where reading must
//! stop, and then the import says so. The multi-megabyte cases are
//! `#[ignore]`d: run them with `cargo test -p ttft-import --release --test
//! reliability -- --ignored`.

use std::time::{Duration, Instant};
use ttft_import::csv::{MAX_ROW_LINES, QUOTED_CELL_CHARS};
use ttft_import::{import, parse_document, report, Format, Import, Importer, Location};
use ttft_latency::Micros;

const HEADER: &str = "id,queue_ms,prefill_ms,emit_ms";

fn good_rows(from: usize, n: usize) -> String {
    (from..from + n)
        .map(|i| format!("r{i},10,20,5\n"))
        .collect()
}

fn csv(text: &str) -> Import {
    parse_document(Format::Csv, text)
}

/// Feeds `text` in slices of `size` bytes.
fn sliced(format: Format, text: &str, size: usize) -> Import {
    let mut imp = Importer::new(format);
    let mut rest = text;
    while !rest.is_empty() {
        let mut cut = rest.len().min(size);
        while !rest.is_char_boundary(cut) {
            cut += 1;
        }
        let (a, b) = rest.split_at(cut);
        imp.feed(a);
        rest = b;
    }
    imp.finish()
}

#[test]
fn one_unclosed_quote_costs_one_row() {
    let text = format!("{HEADER}\n\"r0,10,20,5\n{}", good_rows(1, 1_999));
    for imp in [csv(&text), sliced(Format::Csv, &text, 1_000)] {
        assert_eq!(imp.requests.len(), 1_999, "{:?}", imp.problems);
        assert_eq!(imp.problems.len(), 1);
        assert_eq!(imp.problems[0].location, Location::Line(2));
        assert!(
            imp.problems[0]
                .message
                .contains("not closed within 200 lines"),
            "{}",
            imp.problems[0].message
        );
        assert!(!imp.stopped);
        assert_eq!(imp.requests[0].id, "r1");
        assert_eq!(imp.requests[1_998].id, "r1999");
    }
}

#[test]
fn an_unclosed_quote_near_the_end_is_reported_and_the_rest_read() {
    let text = format!(
        "{HEADER}\n{}\"bad,1,2,3\n{}",
        good_rows(0, 5),
        good_rows(5, 3)
    );
    let imp = csv(&text);
    assert_eq!(imp.requests.len(), 8, "{:?}", imp.problems);
    assert_eq!(imp.problems[0].location, Location::Line(7));
    assert!(imp.problems[0].message.contains("never closed"));
}

#[test]
fn a_multi_line_cell_within_the_limit_is_one_row() {
    let lines: String = (0..MAX_ROW_LINES - 2)
        .map(|i| format!("note {i}\n"))
        .collect();
    let text =
        format!("id,queue_ms,prefill_ms,emit_ms,error\nr0,1,2,3,\"{lines}end\"\nr1,1,2,3,\n");
    let imp = csv(&text);
    assert_eq!(imp.requests.len(), 2, "{:?}", imp.problems);
    assert!(imp.requests[0]
        .error
        .as_deref()
        .is_some_and(|e| e.ends_with("end")));
    assert_eq!(imp.requests[1].id, "r1");
}

#[test]
fn a_cell_past_64_kib_is_cut_off_and_the_rows_after_it_read() {
    let long = "x".repeat(1_000);
    let lines: String = (0..70).map(|i| format!("x{i},{long},1,1\n")).collect();
    let text = format!("{HEADER}\nr0,\"{lines}{}", good_rows(1, 10));
    let imp = csv(&text);
    assert_eq!(imp.problems[0].location, Location::Line(2));
    assert!(imp.problems[0].message.contains("64 KiB"));
    // The lines of x held in the row are read again as rows with no
    // readable numbers (reported each); the 10 good rows after them are
    // imported.
    assert_eq!(imp.requests.len(), 10, "{:?}", imp.problems);
    assert_eq!(imp.requests[0].id, "r1");
    assert!(!imp.stopped);
}

#[test]
fn quoted_cells_in_messages_are_cut_to_80_characters() {
    let huge = "9x".repeat(5_000);
    let imp = csv(&format!("{HEADER}\nr0,{huge},1,1\n"));
    let msg = &imp.problems[0].message;
    assert!(msg.len() < 200, "{msg}");
    assert!(
        msg.contains(&format!("\"{}\u{2026}\"", &huge[..QUOTED_CELL_CHARS])),
        "{msg}"
    );
}

#[test]
fn a_line_past_the_csv_limit_is_skipped_without_being_held() {
    let long = format!("r0,{},1,1", "1".repeat((1 << 20) + 10));
    let text = format!("{HEADER}\n{long}\n{}", good_rows(1, 3));
    for imp in [csv(&text), sliced(Format::Csv, &text, 64 * 1024)] {
        assert_eq!(imp.requests.len(), 3, "{:?}", imp.problems);
        assert_eq!(imp.problems[0].location, Location::Line(2));
        assert!(
            imp.problems[0].message.contains("longer than 1 MiB"),
            "{}",
            imp.problems[0].message
        );
        assert_eq!(imp.requests[0].id, "r1");
    }
}

#[test]
fn timestamps_that_do_not_fit_are_refused_where_they_are() {
    // GenAI-Perf: one request sent at -1e38 ns with a response at +1e38 ns.
    let genai = r#"{"service_kind":"openai","experiments":[{"experiment":{},"requests":[
        {"timestamp":"-100000000000000000000000000000000000000","response_timestamps":["100000000000000000000000000000000000000"]},
        {"timestamp":170141183460469231731687303715884105727,"response_timestamps":[]},
        {"timestamp":1000,"response_timestamps":[2000000]}]}]}"#;
    let imp = parse_document(Format::GenaiPerf, genai);
    assert_eq!(imp.requests.len(), 1, "{:?}", imp.problems);
    assert_eq!(
        imp.problems[0].location,
        Location::Path("$.experiments[0].requests[0]".into())
    );
    assert_eq!(imp.requests[0].breakdown.ttft, Some(Micros(1_999)));
    // OTLP: startTimeUnixNano near 2^127.
    let otlp = r#"{"resourceSpans":[{"scopeSpans":[{"spans":[{"name":"llm_request","startTimeUnixNano":"170141183460469231731687303715884105000","attributes":[{"key":"gen_ai.latency.time_to_first_token","value":{"doubleValue":0.1}}]}]}]}]}"#;
    let imp = parse_document(Format::VllmOtlp, otlp);
    assert!(imp.requests.is_empty());
    assert_eq!(
        imp.problems[0].location,
        Location::LinePath(1, "$.resourceSpans[0].scopeSpans[0].spans[0]".into())
    );
    assert!(imp.problems[0].message.contains("startTimeUnixNano"));
    // AIPerf: a start in nanoseconds past i64 microseconds.
    let aiperf = r#"{"metadata":{"x_request_id":"a","request_start_ns":170141183460469231731687303715884105000},"metrics":{"time_to_first_token":{"value":5,"unit":"ms"}}}"#;
    let imp = parse_document(Format::AiperfRecords, aiperf);
    assert!(imp.requests.is_empty());
    assert!(matches!(imp.problems[0].location, Location::LinePath(1, _)));
}

#[test]
fn a_target_of_9e15_ms_does_not_overflow_the_histogram() {
    let imp = csv(&format!("{HEADER}\n{}", good_rows(0, 5)));
    let target = Micros::from_ms_f64(9e15).expect("fits");
    let h = report::histogram(&imp.requests, 40, target).expect("requests have a TTFT");
    assert_eq!(h.total, 5);
    assert!(h.bins.last().is_some_and(|b| b.to >= b.from));
}

#[test]
fn a_broken_document_says_reading_stopped() {
    let imp = import("[{\"ttft_s\": 0.1, \"end_to_end_latency_s\": 1").expect("detected");
    assert!(imp.stopped);
    assert!(imp.requests.is_empty());
}

#[test]
#[ignore = "generates 300 MiB; run with --release --ignored"]
fn a_document_past_its_limit_stops_with_the_limit_named() {
    let row = format!(
        "{{\"ttft_s\":0.1,\"end_to_end_latency_s\":1.0,\"pad\":\"{}\"}},",
        "p".repeat(1_000)
    );
    let mut imp = Importer::new(Format::LlmPerf);
    imp.feed("[");
    for _ in 0..300 * 1024 {
        imp.feed(&row);
    }
    imp.feed("{}]");
    let out = imp.finish();
    assert!(out.stopped);
    assert!(
        out.problems[0].message.contains("larger than 256 MiB"),
        "{}",
        out.problems[0].message
    );
}

#[test]
#[ignore = "generates a 48 MiB line; run with --release --ignored"]
fn an_unfinished_line_is_searched_once() {
    // A 48 MiB OTLP line fed in 64 KiB slices: searching it again from its
    // start on every slice would scan about 18 GB; once is 48 MiB.
    let slice = "a".repeat(64 * 1024);
    let mut imp = Importer::new(Format::VllmOtlp);
    imp.feed("{\"resourceSpans\":[], \"pad\":\"");
    let began = Instant::now();
    for _ in 0..768 {
        imp.feed(&slice);
    }
    imp.feed("\"}\n");
    let spent = began.elapsed();
    let out = imp.finish();
    assert!(out.problems.is_empty(), "{:?}", out.problems);
    assert!(spent < Duration::from_secs(5), "feeding took {spent:?}");
}

#[test]
#[ignore = "generates a 70 MiB line; run with --release --ignored"]
fn a_line_past_the_otlp_limit_is_skipped() {
    let slice = "a".repeat(1 << 20);
    let mut imp = Importer::new(Format::VllmOtlp);
    imp.feed("{\"resourceSpans\":[]}\n{\"pad\":\"");
    for _ in 0..70 {
        imp.feed(&slice);
    }
    imp.feed("\"}\n{\"resourceSpans\":[]}\n");
    let out = imp.finish();
    assert_eq!(out.problems.len(), 1, "{:?}", out.problems);
    assert_eq!(out.problems[0].location, Location::Line(2));
    assert!(out.problems[0].message.contains("longer than 64 MiB"));
}
