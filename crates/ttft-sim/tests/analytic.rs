//! The simulator against queueing theory, over enough requests for the
//! stated tolerance.
//!
//! - M/D/1: one batch slot, no batching, a fixed service time D; the mean
//!   queue wait is the Pollaczek-Khinchine value lambda D^2 / (2 (1 - rho))
//!   within 3%. Each request's start is also checked, to the microsecond,
//!   against Lindley's recursion on the same arrivals.
//! - M/G/1: the same with service times drawn from a distribution (a
//!   log-normal prompt length, so S = floor + per-token cost x prompt);
//!   lambda E[S^2] / (2 (1 - rho)) within 5%.
//! - Little's law on every preset: the time-average number in the system
//!   equals the arrival rate times the mean time in the system, within 2%.
//!
//! Why these sizes: the mean wait of one run of 100,000 requests at
//! rho = 0.5 scatters by about 1.1% (M/D/1) and 1.3% (M/G/1) from seed to
//! seed (measured over 20 seeds), so each test pools several seeds' runs
//! to bring that under a quarter of its tolerance. They read the requests
//! with `Simulation::requests`, skipping the summaries, to stay quick in a
//! debug build.

use ttft_latency::Micros;
use ttft_sim::{
    capacity, Arrivals, Lengths, Preset, Settings, SimRequest, Simulation, StepCost, Stop,
};

/// One slot, no batching, no chunking, no cache, no emit: every request is
/// served alone in one step of `floor + per_token x prompt` ms.
fn one_slot(
    seed: u64,
    n: u32,
    rate: f64,
    lengths: Lengths,
    floor_ms: f64,
    per_token_ms: f64,
) -> Settings {
    let mut s = Settings {
        seed,
        stop: Stop::Requests(n),
        arrivals: Arrivals::Poisson { rate },
        lengths,
        ..Settings::default()
    };
    s.engine.max_num_seqs = 1;
    s.engine.max_num_batched_tokens = 1 << 20;
    s.engine.chunked_prefill = false;
    s.engine.prefix_caching = false;
    s.cost = StepCost {
        floor_ms,
        per_token_ms,
        attention_ms: 0.0,
        context_ms: 0.0,
        emit_ms: 0.0,
        ..s.cost
    };
    s
}

fn requests(s: &Settings) -> Vec<SimRequest> {
    let mut sim = Simulation::new(s, None).expect("valid settings");
    assert!(sim.step_until(u64::MAX).done);
    sim.requests()
}

fn queue_wait(r: &SimRequest) -> Micros {
    r.first_scheduled.expect("every request starts") - r.arrival
}

#[test]
fn md1_mean_queue_wait_matches_pollaczek_khinchine() {
    let d = 0.1; // seconds
    let rho = 0.5;
    let lambda = rho / d;
    let want = lambda * d * d / (2.0 * (1.0 - rho));
    let (mut sum, mut n) = (0.0, 0usize);
    for seed in 1..=4 {
        let reqs = requests(&one_slot(
            seed,
            60_000,
            lambda,
            Lengths::Fixed {
                prompt: 100,
                output: 1,
            },
            100.0,
            0.0,
        ));
        // Lindley: each starts when it arrives or when the one before ends.
        let mut free_at = 0i64;
        for r in &reqs {
            let start = r.arrival.0.max(free_at);
            assert_eq!(r.first_scheduled, Some(Micros(start)), "{}", r.id());
            assert_eq!(r.prefill_end, Some(Micros(start + 100_000)));
            free_at = start + 100_000;
            sum += queue_wait(r).as_secs_f64();
            n += 1;
        }
    }
    let got = sum / n as f64;
    let err = (got - want) / want;
    println!(
        "M/D/1 over {n} requests: mean queue wait {got:.5} s, formula {want:.5} s ({:+.2}%)",
        err * 100.0
    );
    assert!(err.abs() < 0.03, "M/D/1 mean wait {got} against {want}");
}

#[test]
fn mg1_mean_queue_wait_matches_pollaczek_khinchine() {
    // S = 20 ms + 0.08 ms x P, P log-normal with median 1,000 and spread 0.5.
    let (floor, per_token, median, sigma) = (20.0, 0.08, 1000.0f64, 0.5f64);
    let ep = median * (sigma * sigma / 2.0).exp();
    let ep2 = median * median * (2.0 * sigma * sigma).exp();
    let es = (floor + per_token * ep) / 1e3;
    let es2 = (floor * floor + 2.0 * floor * per_token * ep + per_token * per_token * ep2) / 1e6;
    let rho = 0.5;
    let lambda = rho / es;
    let want = lambda * es2 / (2.0 * (1.0 - rho));
    let (mut sum, mut n) = (0.0, 0usize);
    let (mut s1, mut s2) = (0.0, 0.0);
    for seed in 1..=3 {
        let reqs = requests(&one_slot(
            seed,
            60_000,
            lambda,
            Lengths::LogNormal {
                prompt: median as u32,
                prompt_spread: sigma,
                output: 1,
                output_spread: 0.0,
            },
            floor,
            per_token,
        ));
        for r in &reqs {
            let service = r.prefill_end.unwrap() - r.first_scheduled.unwrap();
            let expected = ((floor + per_token * r.prompt_tokens as f64) * 1000.0).round() as i64;
            assert_eq!(
                service,
                Micros(expected),
                "{}: service time from its prompt",
                r.id()
            );
            let s = service.as_secs_f64();
            s1 += s;
            s2 += s * s;
            sum += queue_wait(r).as_secs_f64();
            n += 1;
        }
    }
    let (m1, m2) = (s1 / n as f64, s2 / n as f64);
    assert!((m1 - es).abs() / es < 0.01, "drawn E[S] {m1} against {es}");
    assert!(
        (m2 - es2).abs() / es2 < 0.02,
        "drawn E[S^2] {m2} against {es2}"
    );
    let got = sum / n as f64;
    let err = (got - want) / want;
    println!(
        "M/G/1 over {n} requests: mean queue wait {got:.5} s, formula {want:.5} s ({:+.2}%)",
        err * 100.0
    );
    assert!(err.abs() < 0.05, "M/G/1 mean wait {got} against {want}");
}

#[test]
fn littles_law_holds_on_every_preset() {
    for preset in Preset::ALL {
        let mut s = Settings::for_preset(preset);
        s.stop = Stop::Requests(20_000);
        s.lengths = Lengths::LogNormal {
            prompt: 700,
            prompt_spread: 0.6,
            output: 120,
            output_spread: 0.6,
        };
        let lambda = 0.6 * capacity(&s, None).unwrap().requests_per_s;
        s.arrivals = Arrivals::Poisson { rate: lambda };
        let run = ttft_sim::run(&s, None).unwrap();
        let t = &run.totals;
        assert_eq!(t.stopped, None);
        assert_eq!(t.finished, t.requests, "{preset:?}: all finish");
        // The sample-path identity, exactly: the engine's count of requests
        // in the system, integrated over time, is every request's time in
        // the system added up.
        let sum: i128 = run
            .requests
            .iter()
            .map(|r| r.time_in_system().0 as i128)
            .sum();
        assert_eq!(t.in_system_area, sum, "{preset:?}");
        let l = t.mean_in_system;
        let lw = lambda * t.mean_time_in_system;
        let err = (l - lw) / lw;
        println!(
            "{preset:?}: L = {l:.3}, lambda W = {lw:.3} ({:+.2}%), {:.0} tok/s",
            err * 100.0,
            t.throughput
        );
        assert!(err.abs() < 0.02, "{preset:?}: L {l} against lambda W {lw}");
    }
}

/// The capacity estimate the sweep is placed by is within 10% of the
/// throughput of a saturated run (twice the estimated rate), on every
/// preset.
#[test]
fn the_capacity_estimate_matches_a_saturated_run() {
    for preset in Preset::ALL {
        let mut s = Settings::for_preset(preset);
        s.stop = Stop::Requests(3_000);
        let cap = capacity(&s, None).unwrap();
        s.arrivals = Arrivals::Poisson {
            rate: 2.0 * cap.requests_per_s,
        };
        let t = ttft_sim::run(&s, None).unwrap().totals;
        let served = t.finished as f64 / t.elapsed.as_secs_f64();
        let err = (served - cap.requests_per_s) / cap.requests_per_s;
        println!(
            "{preset:?}: estimated {:.2}/s ({:?}), served {served:.2}/s ({:+.1}%)",
            cap.requests_per_s,
            cap.limited_by,
            err * 100.0
        );
        assert!(err.abs() < 0.10, "{preset:?}");
    }
}
