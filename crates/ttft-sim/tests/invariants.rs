//! What must hold for every run, checked over settings that exercise every
//! mechanism (batching, chunking, both policies, prefix caching, KV
//! pressure and preemption, a queue limit, a deadline, priority, a
//! duration), and over random settings:
//!
//! - every request with a first token splits, through the core's
//!   `split_request`, into parts that add up exactly to its TTFT;
//! - KV use never exceeds capacity;
//! - no request is lost: finished + rejected + still running = total;
//! - events are in order, and a finished request wrote all its tokens;
//! - with the same seed, p95 queue wait does not fall as the rate rises;
//! - the same seed and settings give the same run, bit for bit, however
//!   the run is sliced, and whether stretches of pure decode steps are
//!   fast-forwarded or taken one by one.

use proptest::prelude::*;
use ttft_latency::{split_request, Micros, Outcome};
use ttft_sim::{
    capacity, from_query, run, to_query, Arrivals, Class, End, Lengths, Policy, Preset, Run,
    Settings, Simulation, Stop,
};

fn base(n: u32) -> Settings {
    Settings {
        stop: Stop::Requests(n),
        ..Settings::default()
    }
}

/// Checks every invariant of one run; returns it for more checks.
fn check(s: &Settings) -> Run {
    let run = run(s, None).unwrap_or_else(|e| panic!("{e}"));
    let t = &run.totals;
    assert_eq!(t.stopped, None, "{}", to_query(s));
    assert_eq!(t.finished + t.rejected.total() + t.unfinished, t.requests);
    assert_eq!(t.requests, run.requests.len());
    let per_class: usize = run.classes.iter().map(|c| c.requests).sum();
    assert_eq!(per_class, t.requests);
    for c in &run.classes {
        assert_eq!(
            c.finished + c.rejected.total() + c.unfinished,
            c.requests,
            "{}",
            c.name
        );
    }
    assert!(
        t.kv_peak_tokens <= t.kv_capacity_tokens,
        "KV peak {} over {}",
        t.kv_peak_tokens,
        t.kv_capacity_tokens
    );
    for p in &run.series.points {
        assert!(p.kv_tokens_max <= t.kv_capacity_tokens);
        assert!(p.running_max <= s.engine.max_num_seqs);
    }
    let area: i128 = run
        .requests
        .iter()
        .map(|r| r.time_in_system().0 as i128)
        .sum();
    assert_eq!(t.in_system_area, area);
    for r in &run.requests {
        let trace = r.trace();
        if let Some(first) = r.first_token {
            let split = split_request(&trace).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(split.split.ttft(), first - r.arrival, "{}", r.id());
            assert_eq!(
                split.split.queue_wait + split.split.prefill + split.split.emit,
                first - r.arrival
            );
            assert_eq!(Some(split.split), r.split());
            assert_eq!(
                split.split.emit,
                Micros(((s.cost.emit_ms) * 1000.0).round() as i64)
            );
        }
        let events = [
            r.first_scheduled,
            r.prefill_end,
            r.first_token,
            r.last_token,
        ];
        let mut prev = r.arrival;
        for e in events.into_iter().flatten() {
            assert!(e >= prev, "{}: events out of order", r.id());
            prev = e;
        }
        match r.end {
            End::Finished => {
                assert_eq!(r.generated, r.output_tokens);
                assert_eq!(r.last_token, Some(r.ended));
                assert_eq!(trace.outcome, Outcome::Completed);
            }
            End::Rejected(_) => {
                assert_eq!(
                    r.first_scheduled,
                    None,
                    "{}: rejected only before starting",
                    r.id()
                );
                assert_eq!(trace.outcome, Outcome::Rejected);
            }
            End::Unfinished => assert_eq!(trace.outcome, Outcome::Cancelled),
        }
        let cost = r.before_first_token;
        if cost.count == 0 {
            assert_eq!(cost.waiting + cost.recompute, Micros::ZERO);
        } else if let Some(p) = r.split().map(|s| s.prefill) {
            assert!(
                cost.waiting + cost.recompute <= p,
                "{}: preemption cost inside prefill",
                r.id()
            );
        }
    }
    run
}

#[test]
fn every_mechanism_keeps_the_invariants() {
    let mut cases: Vec<(&str, Settings)> = Vec::new();
    cases.push(("default", base(1_500)));
    let mut s = base(1_500);
    s.engine.policy = Policy::PrefillFirst;
    cases.push(("prefill-first", s));
    let mut s = base(1_000);
    s.engine.chunked_prefill = false;
    cases.push(("no chunking", s));
    let mut s = base(1_000);
    s.engine.chunked_prefill = false;
    s.engine.policy = Policy::PrefillFirst;
    cases.push(("no chunking, prefill-first", s));
    let mut s = base(1_500);
    s.shared_prefix = 500;
    cases.push(("prefix caching", s));
    let mut s = Settings::for_preset(Preset::A100Llama2_7b);
    s.stop = Stop::Requests(1_500);
    s.engine.kv_capacity = 60_000;
    s.shared_prefix = 300;
    s.arrivals = Arrivals::Poisson { rate: 2.0 };
    cases.push(("KV pressure", s));
    let mut s = base(1_500);
    s.arrivals = Arrivals::Gamma { rate: 4.0, cv: 3.0 };
    s.engine.queue_limit = Some(20);
    s.engine.deadline = Some(Micros::from_ms(5_000));
    s.engine.priority = Some("hint".into());
    cases.push(("limit, deadline, priority", s));
    let mut s = base(0);
    s.stop = Stop::Duration(Micros::from_ms(200_000));
    s.arrivals = Arrivals::Poisson { rate: 5.0 };
    cases.push(("duration, overloaded", s));
    for (name, s) in cases {
        let run = check(&s);
        let slow = Simulation::new(&s, None).unwrap().step_by_step().finish();
        assert!(slow == run, "{name}: step by step differs");
        let t = &run.totals;
        println!(
            "{name}: {} finished, {} rejected {:?}, {} still running, {} preemptions, KV peak {} of {}",
            t.finished, t.rejected.total(), t.rejected, t.unfinished, t.preemptions, t.kv_peak_tokens, t.kv_capacity_tokens
        );
        match name {
            "KV pressure" => {
                assert!(t.preemptions > 0, "the small cache preempts");
                let recompute: Micros = run
                    .classes
                    .iter()
                    .map(|c| c.before_first_token.recompute + c.after_first_token.recompute)
                    .fold(Micros::ZERO, |a, b| a + b);
                assert!(
                    recompute > Micros::ZERO,
                    "and the recomputation is recorded"
                );
            }
            "limit, deadline, priority" => {
                assert!(t.rejected.queue_full > 0 && t.rejected.deadline > 0);
                let q = |k: usize| {
                    run.classes[k]
                        .summary
                        .parts
                        .as_ref()
                        .unwrap()
                        .queue_wait
                        .p95
                        .value
                };
                assert!(q(0) < q(1), "the priority class waits less");
            }
            "duration, overloaded" => {
                assert!(
                    t.unfinished > 0,
                    "an overloaded run ends with requests still in it"
                );
                assert!(run
                    .requests
                    .iter()
                    .all(|r| r.arrival < Micros::from_ms(200_000)));
            }
            "prefix caching" => {
                assert!(run.requests.iter().skip(10).all(|r| r.cached_tokens == 496));
                let plain = run_prefill_p50(&base(1_500));
                let cached = run.all.summary.parts.as_ref().unwrap().prefill.p50.value;
                assert!(
                    cached < plain,
                    "cached prefill p50 {cached} against {plain}"
                );
            }
            _ => {}
        }
    }
}

fn run_prefill_p50(s: &Settings) -> Micros {
    run(s, None)
        .unwrap()
        .all
        .summary
        .parts
        .unwrap()
        .prefill
        .p50
        .value
}

#[test]
fn a_prompt_longer_than_the_cache_is_rejected_not_stuck() {
    let mut s = base(50);
    s.engine.kv_capacity = 10_000;
    let run = check(&s);
    let long = run
        .classes
        .iter()
        .position(|c| c.name == "full history")
        .unwrap();
    assert!(run.classes[long].rejected.too_long > 0);
    assert_eq!(
        run.classes[long].rejected.too_long,
        run.classes[long].requests
    );
}

#[test]
fn p95_queue_wait_does_not_fall_as_the_rate_rises() {
    let mut s = base(2_000);
    let cap = capacity(&s, None).unwrap().requests_per_s;
    let mut last = Micros::ZERO;
    for pct in [10, 25, 40, 55, 70, 85, 100, 115] {
        s.arrivals = Arrivals::Poisson {
            rate: cap * pct as f64 / 100.0,
        };
        let run = run(&s, None).unwrap();
        let q = run.all.summary.parts.unwrap().queue_wait.p95.value;
        println!("{pct}% of capacity: p95 queue wait {q}");
        assert!(q >= last, "at {pct}%: {q} after {last}");
        last = q;
    }
}

#[test]
fn same_seed_same_run_bit_for_bit() {
    let mut s = base(800);
    s.arrivals = Arrivals::Gamma { rate: 3.0, cv: 2.0 };
    s.shared_prefix = 200;
    let a = run(&s, None).unwrap();
    let b = run(&s, None).unwrap();
    assert_eq!(a, b);
    // Through the address bar.
    let again = from_query(&to_query(&s)).unwrap().settings;
    assert_eq!(run(&again, None).unwrap(), a);
    // In slices of any size, as a worker runs it.
    for slice in [1, 7, 1_000] {
        let mut sim = Simulation::new(&s, None).unwrap();
        let mut last = 0.0;
        loop {
            let p = sim.step_until(slice);
            assert!(p.fraction >= last);
            last = p.fraction;
            if p.done {
                break;
            }
        }
        assert_eq!(sim.finish(), a, "sliced by {slice}");
    }
    // Another seed is another run.
    s.seed = 2;
    assert_ne!(run(&s, None).unwrap().requests, a.requests);
}

fn settings_strategy() -> impl Strategy<Value = Settings> {
    (
        (any::<u64>(), 1u32..150, 0u8..3, 0.5f64..40.0, 0.2f64..4.0),
        (0u8..3, 1u32..3000, 1u32..300, 0.0f64..1.5),
        (
            1u32..64,
            1u32..5000,
            any::<bool>(),
            any::<bool>(),
            1_000u64..200_000,
            0.0f64..0.2,
        ),
        (
            any::<bool>(),
            0u32..2000,
            prop::option::of(1u32..50),
            prop::option::of(1i64..20_000),
        ),
        (any::<bool>(), 0usize..3, prop::option::of(1u32..2000)),
    )
        .prop_map(|(w, l, e, x, p)| {
            let mut s = Settings {
                seed: w.0,
                stop: Stop::Requests(w.1),
                ..Settings::default()
            };
            s.arrivals = match w.2 {
                0 => Arrivals::Poisson { rate: w.3 },
                1 => Arrivals::Gamma { rate: w.3, cv: w.4 },
                _ => Arrivals::Poisson { rate: w.3 / 10.0 },
            };
            s.lengths = match l.0 {
                0 => Lengths::Fixed {
                    prompt: l.1,
                    output: l.2,
                },
                1 => Lengths::LogNormal {
                    prompt: l.1,
                    prompt_spread: l.3,
                    output: l.2,
                    output_spread: l.3,
                },
                _ => Lengths::Classes(vec![
                    Class {
                        name: "short".into(),
                        share: 80.0,
                        prompt: l.1 / 4 + 1,
                        output: l.2,
                        target: Micros::from_ms(500),
                    },
                    Class {
                        name: "long".into(),
                        share: 20.0,
                        prompt: l.1 * 4,
                        output: l.2 / 2 + 1,
                        target: Micros::from_ms(5_000),
                    },
                ]),
            };
            s.engine.max_num_seqs = e.0;
            s.engine.max_num_batched_tokens = e.1;
            s.engine.chunked_prefill = e.2;
            s.engine.max_prefill_chunk = p.2;
            s.engine.policy = if e.3 {
                Policy::DecodeFirst
            } else {
                Policy::PrefillFirst
            };
            s.engine.kv_capacity = e.4;
            s.engine.watermark = e.5;
            s.engine.prefix_caching = x.0;
            s.shared_prefix = x.1;
            s.engine.queue_limit = x.2;
            s.engine.deadline = x.3.map(Micros::from_ms);
            if p.0 && matches!(s.lengths, Lengths::Classes(_)) {
                s.engine.priority = Some("short".into());
            }
            s.cost = Preset::ALL[p.1].cost();
            s
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Random settings, small runs: every invariant holds, and taking
    /// every step one by one gives the same run.
    #[test]
    fn random_settings_keep_the_invariants(s in settings_strategy()) {
        let fast = check(&s);
        let slow = Simulation::new(&s, None).unwrap().step_by_step().finish();
        prop_assert_eq!(slow, fast);
    }
}
