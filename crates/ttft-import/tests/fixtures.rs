//! Every real fixture file, imported natively, with its expected counts and
//! a few per-request values computed by hand from the file (with
//! `python3 -c`, seconds × 10⁶ rounded) and written here as literals.
//!
//! The Apache-2.0 fixtures live in the repository, in
//! `tests/fixtures/real-traces/` (see its PROVENANCE.md). The GuideLLM file
//! states no licence and is not copied: the default test reads a small file
//! of our own in its format (`tests/fixtures/own/`), and the real file is
//! read only when the team's `shared/` folder is beside the clone.

use ttft_import::{detect, import, Clock, Format, Import, Importer, OutcomeCounts, Quantity};
use ttft_latency::{Micros, Outcome};

/// A file under the repository's `tests/fixtures/`.
fn fixture(rel: &str) -> String {
    let path = format!("{}/../../tests/fixtures/{rel}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// A file in the shared real-trace folder beside the clone, when it is there.
fn shared_fixture(rel: &str) -> Option<String> {
    let path = format!(
        "{}/../../../shared/fixtures/real-traces/{rel}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(path).ok()
}

/// Imports a fixture, checks the detected format, the outcome counts and
/// that nothing was reported as a problem, and returns the import.
fn check(rel: &str, format: Format, counts: OutcomeCounts) -> Import {
    check_text(rel, &fixture(&format!("real-traces/{rel}")), format, counts)
}

fn check_text(rel: &str, text: &str, format: Format, counts: OutcomeCounts) -> Import {
    let text = text.to_owned();
    assert_eq!(
        detect(&text[..text.len().min(64 * 1024)]),
        Ok(format),
        "{rel}"
    );
    let imp = import(&text).expect("detected");
    assert_eq!(imp.format, format);
    assert_eq!(imp.counts(), counts, "{rel}");
    assert!(imp.problems.is_empty(), "{rel}: {:?}", imp.problems);
    // Fed in awkward 4,093-byte slices, the result is the same.
    let mut imp2 = Importer::new(format);
    let mut rest = text.as_str();
    while !rest.is_empty() {
        let mut cut = rest.len().min(4_093);
        while !rest.is_char_boundary(cut) {
            cut += 1;
        }
        let (a, b) = rest.split_at(cut);
        imp2.feed(a);
        rest = b;
    }
    assert_eq!(imp2.finish(), imp, "{rel}: sliced import differs");
    imp
}

/// The counts of a file with no empty replies; `total` is checked against the sum.
fn counts(
    total: usize,
    completed: usize,
    failed: usize,
    rejected: usize,
    cancelled: usize,
) -> OutcomeCounts {
    let c = OutcomeCounts {
        completed,
        failed,
        rejected,
        cancelled,
        empty: 0,
    };
    assert_eq!(c.total(), total);
    c
}

#[test]
fn vllm_bench_qps4() {
    let imp = check(
        "vllm-bench/llama-3.3-70b-tp8-sharegpt-qps04.json",
        Format::VllmBench,
        counts(200, 200, 0, 0, 0),
    );
    let r = &imp.requests[0];
    assert_eq!(r.breakdown.clock, Clock::Client);
    assert_eq!(r.breakdown.ttft, Some(Micros(30_286)));
    assert_eq!((r.prompt_tokens, r.output_tokens), (Some(13), Some(120)));
    assert_eq!(r.breakdown.decode, Some(Micros(2_771_339)));
    assert_eq!(r.breakdown.pieces(), None, "a client's TTFT is never split");
    assert_eq!(r.breakdown.queue_wait, None);
    let last = &imp.requests[199];
    assert_eq!(
        (last.breakdown.ttft, last.prompt_tokens, last.output_tokens),
        (Some(Micros(57_785)), Some(401), Some(103))
    );
    // A one-token request: no gaps, zero decode time, no rate.
    let one = &imp.requests[7];
    assert_eq!(
        (one.output_tokens, one.breakdown.decode, one.output_rate()),
        (Some(1), Some(Micros::ZERO), None)
    );
    let s = &imp.summaries[0];
    assert_eq!(s.get("p99_ttft_ms"), Some(&Quantity::Time(Micros(67_564))));
    assert_eq!(s.get("request_goodput:"), Some(&Quantity::Null));
    let sum = imp.summarise(None, ttft_latency::Convention::NearestRank);
    assert_eq!(sum.requests, 200);
    assert!(sum.ttft.is_some());
}

#[test]
fn vllm_bench_tool_figures_are_each_explained() {
    let text = fixture("real-traces/vllm-bench/llama-3.3-70b-tp8-sharegpt-qps04.json");
    let imp = import(&text).expect("detected");
    for convention in [
        ttft_latency::Convention::Linear,
        ttft_latency::Convention::NearestRank,
    ] {
        let rows = ttft_import::tool_summary::compare(&imp, convention);
        let keys: Vec<&str> = rows.iter().map(|r| r.key.as_str()).collect();
        assert!(
            keys.contains(&"median_ttft_ms")
                && keys.contains(&"p99_ttft_ms")
                && keys.contains(&"mean_ttft_ms"),
            "{keys:?}"
        );
        for r in &rows {
            assert!(
                !r.why.starts_with("This page cannot rebuild"),
                "{convention}: {}: {}",
                r.key,
                r.why
            );
            if convention == ttft_latency::Convention::Linear {
                assert!(r.why.starts_with("The same figure"), "{}: {}", r.key, r.why);
            }
        }
    }
    assert!(
        !ttft_import::tool_summary::unstreamed(&imp),
        "a streamed run"
    );
}

#[test]
fn vllm_bench_rate_inf() {
    let imp = check(
        "vllm-bench/llama-3.3-70b-tp8-sharegpt-qpsinf.json",
        Format::VllmBench,
        counts(200, 200, 0, 0, 0),
    );
    assert_eq!(
        imp.summaries[0].get("request_rate"),
        Some(&Quantity::Text("inf".into()))
    );
    assert_eq!(imp.requests[0].breakdown.ttft, Some(Micros(248_413)));
    assert_eq!(imp.requests[199].breakdown.decode, Some(Micros(3_832_868)));
}

#[test]
fn aiperf_records() {
    let imp = check(
        "aiperf/profile_export.jsonl",
        Format::AiperfRecords,
        counts(100, 89, 0, 0, 11),
    );
    let cancelled: Vec<_> = imp
        .requests
        .iter()
        .filter(|r| r.outcome == Outcome::Cancelled)
        .collect();
    assert!(cancelled.iter().all(|r| r.breakdown.ttft.is_none()));
    assert_eq!(
        cancelled[0].error.as_deref(),
        Some("499 RequestCancellationError: Request was cancelled after 0.000 seconds")
    );
    let r = imp
        .requests
        .iter()
        .find(|r| r.id == "1ed40a0d-e708-434d-bb8e-fb1b44cb8717")
        .expect("record");
    assert_eq!(r.breakdown.ttft, Some(Micros(1_680_544)));
    assert_eq!(r.breakdown.e2e, Some(Micros(7_936_968)));
    assert_eq!(r.breakdown.decode, Some(Micros(7_936_968 - 1_680_544)));
    assert_eq!((r.prompt_tokens, r.output_tokens), (Some(550), Some(193)));
    assert_eq!(r.start, Some(Micros(1_759_522_419_159_192)));
}

#[test]
fn aiperf_aggregate_is_a_summary() {
    let imp = check(
        "aiperf/profile_export_aiperf.json",
        Format::AiperfAggregate,
        counts(0, 0, 0, 0, 0),
    );
    assert!(imp.summary_only());
    assert_eq!(
        imp.summaries[0].get("ttft.p99"),
        Some(&Quantity::Time(Micros(3_833_389)))
    );
    assert!(!imp.capability().per_request);
}

#[test]
fn llmperf_groq() {
    let imp = check(
        "llmperf/groq_70b_individual_responses.json",
        Format::LlmPerf,
        counts(150, 150, 0, 0, 0),
    );
    let r = &imp.requests[0];
    assert_eq!(
        (r.breakdown.ttft, r.breakdown.e2e),
        (Some(Micros(297_978)), Some(Micros(890_009)))
    );
    assert_eq!((r.prompt_tokens, r.output_tokens), (Some(550), Some(150)));
}

#[test]
fn llmperf_lepton_rate_limited_are_errors_not_fast_requests() {
    let imp = check(
        "llmperf/lepton_7b_individual_responses.json",
        Format::LlmPerf,
        counts(150, 20, 0, 130, 0),
    );
    assert_eq!(imp.requests[0].breakdown.ttft, Some(Micros(1_127_241)));
    for r in imp
        .requests
        .iter()
        .filter(|r| r.outcome == Outcome::Rejected)
    {
        assert_eq!(
            r.breakdown.ttft, None,
            "{}: a 429's ttft_s of 0 must not survive",
            r.id
        );
        assert_eq!(r.error.as_deref(), Some("error code 429"));
    }
    let sum = imp.summarise(None, ttft_latency::Convention::NearestRank);
    let p = sum.ttft.expect("20 completed");
    assert!(
        p.values().iter().all(|v| v.value > Micros::ZERO),
        "no zero TTFT in a percentile"
    );
}

#[test]
fn guidellm_own_file_reads_each_group() {
    let rel = "own/guidellm-benchmarks.json";
    let imp = check_text(rel, &fixture(rel), Format::GuideLlm, counts(6, 4, 1, 0, 1));
    let r = &imp.requests[0];
    assert_eq!(r.id, "own-00");
    assert_eq!(
        (r.breakdown.ttft, r.breakdown.e2e),
        (Some(Micros(212_500)), Some(Micros(4_212_500)))
    );
    assert_eq!(r.start, Some(Micros(1_767_225_600_000_000)));
    assert_eq!((r.prompt_tokens, r.output_tokens), (Some(180), Some(200)));
    let failed = imp
        .requests
        .iter()
        .find(|r| r.outcome == Outcome::Failed)
        .expect("errored");
    assert_eq!(
        failed.error.as_deref(),
        Some("HTTPStatusError: 500 Internal Server Error")
    );
    assert_eq!(failed.breakdown.ttft, None);
    assert!(
        imp.requests
            .iter()
            .all(|r| r.breakdown.queue_wait.is_none()),
        "the client's queue is not the server's"
    );
}

#[test]
fn guidellm_real_file_when_shared_is_present() {
    let rel = "guidellm/gpt-oss-20b-synchronous-benchmarks.json";
    let Some(text) = shared_fixture(rel) else {
        println!("skipped: ../shared/fixtures/real-traces/{rel} is not beside this clone (it states no licence, so it is not copied)");
        return;
    };
    let imp = check_text(rel, &text, Format::GuideLlm, counts(30, 30, 0, 0, 0));
    let r = &imp.requests[0];
    assert_eq!(r.id, "c30bfa09-d4c0-4dd2-b17c-fadbd9add747");
    assert_eq!(r.breakdown.ttft, Some(Micros(173_857)));
    assert_eq!(r.breakdown.e2e, Some(Micros(38_791_608)));
    assert_eq!((r.prompt_tokens, r.output_tokens), (Some(130), Some(1024)));
    assert!(imp
        .requests
        .iter()
        .all(|r| r.breakdown.queue_wait.is_none()));
}

#[test]
fn sample_course_trace_splits_server_side() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../content/samples/course-trace.otlp.jsonl"
    ))
    .expect("sample");
    let imp = import(&text).expect("detected");
    assert_eq!(imp.format, Format::VllmOtlp);
    assert_eq!(imp.counts(), counts(5, 5, 0, 0, 0));
    let h2 = &imp.requests[1];
    assert_eq!(h2.id, "H2");
    assert_eq!(h2.breakdown.queue_wait, Some(Micros::from_ms(2_325)));
    assert_eq!(h2.breakdown.ttft, Some(Micros::from_ms(2_400)));
    assert_eq!(
        h2.breakdown
            .share(ttft_import::Piece::QueueWait)
            .map(|s| s.to_string()),
        Some("96.9%".into())
    );
    let review = &imp.requests[4];
    assert_eq!(review.output_rate(), Some(40.0));
    assert_eq!(review.breakdown.e2e, Some(Micros::from_ms(12_360)));
}
