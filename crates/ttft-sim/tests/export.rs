//! Export then import: a simulated run written as the importer's event CSV
//! reads back through `ttft-import` with the same split, outcome, lengths
//! and summary for every request.

use ttft_import::{import, Clock, Format, PrefillConvention};
use ttft_latency::{Convention, Micros};
use ttft_sim::{export, run, Arrivals, End, Preset, Settings, Stop};

#[test]
fn export_then_import_gives_the_same_splits() {
    // Every kind of ending: finished, rejected (deadline, queue limit, too
    // long), still running at the end, and preempted along the way.
    let mut s = Settings::for_preset(Preset::A100Llama2_7b);
    s.stop = Stop::Duration(Micros::from_ms(600_000));
    s.arrivals = Arrivals::Gamma { rate: 3.5, cv: 3.0 };
    s.engine.kv_capacity = 15_000;
    s.engine.queue_limit = Some(40);
    s.engine.deadline = Some(Micros::from_ms(20_000));
    s.convention = Convention::NearestRank;
    let run = run(&s, None).unwrap();
    let t = &run.totals;
    assert!(t.finished > 0 && t.unfinished > 0 && t.preemptions > 0);
    assert!(t.rejected.deadline > 0 && t.rejected.queue_full > 0 && t.rejected.too_long > 0);

    let csv = export::to_csv(&run);
    let imp = import(&csv).expect("detected");
    assert_eq!(imp.format, Format::Csv);
    assert!(
        imp.problems.is_empty(),
        "{:?}",
        &imp.problems[..imp.problems.len().min(3)]
    );
    assert_eq!(imp.requests.len(), run.requests.len());
    for (sim, back) in run.requests.iter().zip(&imp.requests) {
        assert_eq!(back.id, sim.id());
        assert_eq!(back.outcome, sim.outcome(), "{}", sim.id());
        assert_eq!(back.prompt_tokens, Some(sim.prompt_tokens as u64));
        assert_eq!(
            back.output_tokens,
            (sim.generated > 0).then_some(sim.generated as u64)
        );
        assert_eq!(back.queued_at_arrival, Some(sim.queued_at_arrival as u64));
        let b = &back.breakdown;
        assert_eq!(b.clock, Clock::Server);
        match sim.split() {
            Some(split) => {
                assert_eq!(b.queue_wait, Some(split.queue_wait), "{}", sim.id());
                let p = b.prefill.expect("prefill");
                assert_eq!(
                    (p.duration, p.convention),
                    (split.prefill, PrefillConvention::Course)
                );
                assert_eq!(b.emit, Some(split.emit));
                assert_eq!(b.ttft, Some(split.ttft()));
                assert_eq!(b.unattributed, Some(Micros::ZERO));
                assert_eq!(
                    b.decode,
                    sim.last_token.map(|l| l - sim.first_token.unwrap())
                );
            }
            None => {
                assert!(!matches!(sim.end, End::Finished));
                assert_eq!(b.ttft, None, "{}", sim.id());
            }
        }
    }
    // The core's summary of the import is the run's own.
    assert_eq!(
        imp.summarise(None, Convention::NearestRank),
        run.all.summary
    );
    // The page's view of the run is the imported file, request for request
    // (each arrival kept as its start, so a replay keeps the gaps).
    let direct = export::to_import(&run);
    assert_eq!(direct.requests, imp.requests);
    assert!(direct.problems.is_empty());
    for (sim, back) in run.requests.iter().zip(&imp.requests) {
        assert_eq!(back.start, Some(sim.arrival));
    }
    // The export is stable: the same run writes the same bytes.
    assert_eq!(export::to_csv(&run), csv);
    assert!(csv.starts_with("id,class,outcome,error,arrival_ms,admitted_ms,prefill_end_ms,first_token_ms,last_token_ms,"));
}
