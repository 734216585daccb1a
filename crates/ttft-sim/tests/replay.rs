//! Replaying a real trace from `tests/fixtures/real-traces/`: the run keeps
//! its arrival times and its prompt and output lengths.

use ttft_import::{import, Import};
use ttft_latency::Micros;
use ttft_sim::{run, Arrivals, Lengths, Replay, Setting, Settings, Simulation, Stop};

fn fixture(rel: &str) -> Import {
    let path = format!(
        "{}/../../tests/fixtures/real-traces/{rel}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    import(&text).expect("a known format")
}

fn replaying() -> Settings {
    Settings {
        arrivals: Arrivals::Replay { speed: 1.0 },
        lengths: Lengths::Replay,
        stop: Stop::Requests(1_000_000),
        ..Settings::default()
    }
}

#[test]
fn an_aiperf_trace_keeps_its_arrivals_and_lengths() {
    let imp = fixture("aiperf/profile_export.jsonl");
    let replay = Replay::from_import(&imp).unwrap();
    // 100 records: 11 cancelled with no lengths recorded, so 89 replayable.
    assert_eq!(replay.requests().len(), 89);
    assert_eq!(replay.skipped.total(), 11);
    assert!(replay.has_arrivals());
    let r = run(&replaying(), Some(&replay)).unwrap();
    assert_eq!(r.requests.len(), 89);
    // The trace's own requests, in start order, from the earliest start.
    let mut kept: Vec<_> = imp
        .requests
        .iter()
        .filter(|q| q.output_tokens.is_some_and(|o| o > 0))
        .collect();
    kept.sort_by_key(|q| q.start);
    let first = kept[0].start.unwrap();
    for (sim, real) in r.requests.iter().zip(&kept) {
        assert_eq!(sim.arrival, real.start.unwrap() - first, "{}", real.id);
        assert_eq!(
            Some(sim.prompt_tokens as u64),
            real.prompt_tokens,
            "{}",
            real.id
        );
        assert_eq!(
            Some(sim.output_tokens as u64),
            real.output_tokens,
            "{}",
            real.id
        );
        assert_eq!(sim.generated, sim.output_tokens, "replayed to the end");
    }
    // Values read off the file by hand (timestamp_ns rounded to microseconds).
    let arrivals: Vec<Micros> = r.requests.iter().map(|q| q.arrival).collect();
    assert_eq!(&arrivals[..3], &[Micros(0), Micros(141), Micros(258)]);
    assert_eq!(arrivals[88], Micros(20_474));
    assert_eq!(
        (r.requests[0].prompt_tokens, r.requests[0].output_tokens),
        (550, 247)
    );
    assert_eq!(
        r.requests
            .iter()
            .map(|q| q.output_tokens as u64)
            .sum::<u64>(),
        21_624
    );

    // Twice as fast: every gap halved.
    let mut fast = replaying();
    fast.arrivals = Arrivals::Replay { speed: 2.0 };
    let f = run(&fast, Some(&replay)).unwrap();
    for (a, b) in f.requests.iter().zip(&r.requests) {
        assert_eq!(a.arrival.0, (b.arrival.0 as f64 / 2.0).round() as i64);
    }
    // A request count takes the first requests.
    let mut ten = replaying();
    ten.stop = Stop::Requests(10);
    assert_eq!(
        Simulation::new(&ten, Some(&replay))
            .unwrap()
            .requests()
            .len(),
        10
    );
}

#[test]
fn a_trace_without_start_times_gives_lengths_only() {
    let imp = fixture("vllm-bench/llama-3.3-70b-tp8-sharegpt-qps04.json");
    let replay = Replay::from_import(&imp).unwrap();
    assert!(!replay.has_arrivals());
    assert_eq!(replay.requests().len(), 200);
    let err = run(&replaying(), Some(&replay)).unwrap_err();
    assert_eq!(err.setting, Setting::Arrivals);
    // Its lengths with generated arrivals: every request is one of the trace's.
    let mut s = replaying();
    s.arrivals = Arrivals::Poisson { rate: 4.0 };
    s.stop = Stop::Requests(300);
    let r = run(&s, Some(&replay)).unwrap();
    let pairs: Vec<(u32, u32)> = replay
        .requests()
        .iter()
        .map(|q| (q.prompt_tokens, q.output_tokens))
        .collect();
    assert!(r
        .requests
        .iter()
        .all(|q| pairs.contains(&(q.prompt_tokens, q.output_tokens))));
    assert_eq!(r.totals.finished, 300);
    // Asking for a replay without a trace is a typed error.
    assert_eq!(run(&s, None).unwrap_err().setting, Setting::Lengths);
}

#[test]
fn a_trace_with_nothing_to_replay_says_why() {
    let imp = fixture("llmperf/lepton_7b_individual_responses.json");
    match Replay::from_import(&imp) {
        Ok(r) => assert!(r.skipped.total() > 0),
        Err(e) => assert!(e.to_string().contains("nothing to replay"), "{e}"),
    }
    let empty = ttft_import::parse_document(ttft_import::Format::Csv, "");
    let e = Replay::from_import(&empty).unwrap_err();
    assert_eq!(
        e.to_string(),
        "none of the trace's 0 requests records both a prompt and an output length, so there is nothing to replay (0 without a prompt length, 0 without an output length, 0 too long)"
    );
}
