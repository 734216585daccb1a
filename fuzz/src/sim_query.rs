//! The simulator's settings parser, as a fuzz body. It uses only `ttft_sim`
//! and `ttft_latency`: `fuzz_targets/sim_query.rs` includes this file, and
//! so does `crates/ttft-sim/tests/query.rs`, which runs it over
//! `fuzz/corpus/sim_query/` in the ordinary test suite.

use ttft_sim::{from_query, to_query, Lengths, Settings, Simulation, Stop};

/// Anything the parser accepts writes back to a query that reads as the
/// same settings (with nothing ignored) and writes the same text again;
/// and a small run of those settings, cut short, does not panic.
pub fn sim_query(data: &[u8]) {
    let Some(s) = parse_and_write_back(data) else {
        return;
    };
    if let Ok(mut sim) = Simulation::new(&small(s), None) {
        if sim.step_until(20_000).done {
            let run = sim.finish();
            assert_eq!(
                run.totals.finished + run.totals.rejected.total() + run.totals.unfinished,
                run.totals.requests
            );
        }
    }
}

/// The parsing half of [`sim_query`]: the settings `data` holds, if any,
/// after checking that they write back and read again unchanged.
pub fn parse_and_write_back(data: &[u8]) -> Option<Settings> {
    let text = String::from_utf8_lossy(data);
    let s = from_query(&text).ok()?.settings;
    let q = to_query(&s);
    let again = from_query(&q).expect("what the parser accepts, it reads back");
    assert_eq!(again.settings, s, "{q}");
    assert!(again.ignored.is_empty(), "{q}");
    assert_eq!(to_query(&again.settings), q);
    Some(s)
}

/// The same settings with few requests and short outputs, so a fuzzer's
/// run stays quick.
fn small(mut s: Settings) -> Settings {
    s.stop = match (s.stop, s.arrivals.rate()) {
        (Stop::Requests(n), _) => Stop::Requests(n.min(40)),
        (Stop::Duration(d), Some(rate)) => {
            // About 20 arrivals.
            let most = ttft_latency::Micros((20.0 / rate * 1e6).max(1.0) as i64);
            Stop::Duration(d.min(most))
        }
        (Stop::Duration(_), None) => Stop::Requests(20),
    };
    let cap = |t: &mut u32, max: u32| *t = (*t).min(max);
    match &mut s.lengths {
        Lengths::Fixed { prompt, output } | Lengths::LogNormal { prompt, output, .. } => {
            cap(prompt, 20_000);
            cap(output, 32);
        }
        Lengths::Classes(classes) => {
            for c in classes {
                cap(&mut c.prompt, 20_000);
                cap(&mut c.output, 32);
            }
        }
        Lengths::Replay => {}
    }
    s
}
