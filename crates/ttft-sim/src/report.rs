//! A run's figures in words and table cells, for the simulate part: the
//! page shows these strings and draws the series, and does no arithmetic
//! on a latency or a count of its own.
//!
//! - [`class_rows`]: one row per class and one for all requests (targets,
//!   outcomes, goodput, TTFT percentiles and each part's p95, preemptions).
//! - [`totals`]: the run's own figures (throughput, goodput a second, the
//!   KV peak, Little's law checked on the run).
//! - [`reading`]: what the run says in two or three sentences.
//! - [`compare`]: runs A and B side by side with their differences.
//! - [`series_rows`] and [`sweep_rows`]: the data tables beside the charts.
//!
//! Times are shown to 0.1 ms (whole ms from 100 ms up); a percentile's
//! convention is named by the caller once per table.

use crate::run::{ClassStats, Series, Totals};
use crate::sweep::SweepResult;
use serde::{Deserialize, Serialize};
use ttft_latency::decimal::{fixed, signed_fixed};
use ttft_latency::split::format_tenths;
use ttft_latency::time::{group_count, group_thousands};
use ttft_latency::{Micros, Part, Percentiles};

/// A time for a table cell: `12.3 ms`, or `1,234 ms` from 100 ms up.
pub fn shown(t: Micros) -> String {
    let tenths = (t.0 + t.0.signum() * 50) / 100;
    if tenths.abs() >= 1_000 {
        let ms = (t.0 + t.0.signum() * 500) / 1_000;
        let sign = if ms < 0 { "-" } else { "" };
        format!("{sign}{} ms", group_thousands(ms.unsigned_abs()))
    } else {
        format!("{} ms", format_tenths(tenths))
    }
}

/// `part` of `whole` as a whole percentage with one decimal: `97.5%`.
fn percent(part: usize, whole: usize) -> String {
    if whole == 0 {
        return "no requests".into();
    }
    let tenths = (part as u128 * 1_000 + whole as u128 / 2) / whole as u128;
    format!("{}%", format_tenths(tenths as i64))
}

fn rate(x: f64, unit: &str) -> String {
    if !x.is_finite() {
        return "none".into();
    }
    if x >= 100.0 {
        format!("{} {unit}", group_thousands(x.round() as u64))
    } else {
        format!("{} {unit}", fixed(x, 2))
    }
}

/// One class's row (or all requests').
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClassRow {
    pub name: String,
    pub target: String,
    pub requests: String,
    pub finished: String,
    pub rejected: String,
    pub still_running: String,
    /// Met the target: count and share of the class's requests.
    pub goodput: String,
    pub p50: String,
    pub p95: String,
    pub p99: String,
    pub queue_wait_p95: String,
    pub prefill_p95: String,
    pub emit_p95: String,
    pub preemptions: String,
}

fn pick(p: Option<&Percentiles>, f: impl Fn(&Percentiles) -> Micros) -> String {
    p.map_or_else(|| "none".into(), |p| shown(f(p)))
}

fn row(c: &ClassStats) -> ClassRow {
    let ttft = c.summary.ttft.as_ref();
    let part = |part: Part| pick(c.summary.parts.as_ref().map(|pp| pp.part(part)), |p| p.p95.value);
    ClassRow {
        name: c.name.clone(),
        target: c.target.map_or_else(|| "each its own".into(), shown),
        requests: group_count(c.requests),
        finished: group_count(c.finished),
        rejected: group_count(c.rejected.total()),
        still_running: group_count(c.unfinished),
        goodput: format!("{} ({})", group_count(c.met_target), percent(c.met_target, c.requests)),
        p50: pick(ttft, |p| p.p50.value),
        p95: pick(ttft, |p| p.p95.value),
        p99: pick(ttft, |p| p.p99.value),
        queue_wait_p95: part(Part::QueueWait),
        prefill_p95: part(Part::Prefill),
        emit_p95: part(Part::Emit),
        preemptions: if c.preemptions == 0 {
            "none".into()
        } else {
            format!(
                "{} of {} requests, {} recomputing",
                group_thousands(c.preemptions),
                group_count(c.preempted_requests),
                shown(c.before_first_token.recompute + c.after_first_token.recompute)
            )
        },
    }
}

/// A row per class, then one for all requests when there is more than one
/// class.
pub fn class_rows(classes: &[ClassStats], all: &ClassStats) -> Vec<ClassRow> {
    let mut rows: Vec<ClassRow> = classes.iter().map(row).collect();
    if classes.len() != 1 {
        rows.push(ClassRow {
            name: "all requests".into(),
            ..row(all)
        });
    }
    rows
}

/// One part's percentiles for one class (or all requests).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PartRow {
    pub class: String,
    pub part: String,
    pub p50: String,
    pub p95: String,
    pub p99: String,
}

/// p50, p95 and p99 of queue wait, prefill and emit, per class, then for
/// all requests when there is more than one class.
pub fn part_rows(classes: &[ClassStats], all: &ClassStats) -> Vec<PartRow> {
    let mut out = Vec::new();
    let mut add = |name: &str, c: &ClassStats| {
        for part in [Part::QueueWait, Part::Prefill, Part::Emit] {
            let p = c.summary.parts.as_ref().map(|pp| pp.part(part));
            out.push(PartRow {
                class: name.to_owned(),
                part: part.label().to_owned(),
                p50: pick(p, |p| p.p50.value),
                p95: pick(p, |p| p.p95.value),
                p99: pick(p, |p| p.p99.value),
            });
        }
    };
    for c in classes {
        add(&c.name, c);
    }
    if classes.len() != 1 {
        add("all requests", all);
    }
    out
}

/// The run's own figures, as label and value.
pub fn totals(t: &Totals) -> Vec<(String, String)> {
    let mut out = vec![
        ("Simulated time".into(), shown(t.elapsed)),
        ("Engine steps".into(), group_thousands(t.steps)),
        ("Arrival rate over the run".into(), rate(t.arrival_rate, "requests a second")),
        ("Throughput".into(), rate(t.throughput, "output tokens a second")),
        (
            "Goodput (met their class's target)".into(),
            format!("{}, {}", group_count(t.goodput), rate(t.goodput_per_s, "a second")),
        ),
        (
            "Rejected".into(),
            if t.rejected.total() == 0 {
                "none".into()
            } else {
                format!(
                    "{} (queue full {}, waited past the deadline {}, too long for the cache {})",
                    group_count(t.rejected.total()),
                    group_count(t.rejected.queue_full),
                    group_count(t.rejected.deadline),
                    group_count(t.rejected.too_long)
                )
            },
        ),
        ("Still running at the end".into(), group_count(t.unfinished)),
        ("Preemptions".into(), group_thousands(t.preemptions)),
        (
            "KV cache at its fullest".into(),
            format!(
                "{} of {} tokens ({})",
                group_thousands(t.kv_peak_tokens),
                group_thousands(t.kv_capacity_tokens),
                percent(t.kv_peak_tokens as usize, t.kv_capacity_tokens as usize)
            ),
        ),
        (
            "Little's law on this run".into(),
            format!(
                "{} requests in the system on average; arrival rate \u{d7} mean time in the system = {} \u{d7} {} s = {}",
                fixed(t.mean_in_system, 2),
                fixed(t.arrival_rate, 2),
                fixed(t.mean_time_in_system, 3),
                fixed(t.arrival_rate * t.mean_time_in_system, 2)
            ),
        ),
    ];
    if let Some(stopped) = t.stopped {
        out.push(("Stopped early".into(), stopped.describe().into()));
    }
    out
}

/// What the run shows, in sentences: the p95 and its largest part, and
/// which part dominated most requests.
pub fn reading(all: &ClassStats) -> Vec<String> {
    let s = &all.summary;
    let mut out = Vec::new();
    let (Some(ttft), Some(parts)) = (s.ttft.as_ref(), s.parts.as_ref()) else {
        out.push("No request got a first token, so there is nothing to split.".into());
        return out;
    };
    let largest = [Part::QueueWait, Part::Prefill, Part::Emit]
        .into_iter()
        .max_by_key(|&p| parts.part(p).p95.value)
        .unwrap_or(Part::QueueWait);
    out.push(format!(
        "p95 TTFT is {} over {} requests with a first token ({} percentiles); of the parts, {} has the largest p95, {}.",
        shown(ttft.p95.value),
        group_count(ttft.count),
        s.convention.label(),
        largest.label(),
        shown(parts.part(largest).p95.value)
    ));
    let d = &s.dominant;
    out.push(format!(
        "Queue wait was the largest part of {} requests, prefill of {}, emit of {}{}.",
        group_count(d.queue_wait),
        group_count(d.prefill),
        group_count(d.emit),
        if d.ties > 0 { format!(", and {} were ties", group_count(d.ties)) } else { String::new() }
    ));
    out
}

/// One figure of runs A and B and how B differs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Difference {
    pub figure: String,
    pub a: String,
    pub b: String,
    pub change: String,
}

fn time_change(a: Micros, b: Micros) -> String {
    let d = b - a;
    let sign = if d.0 > 0 { "+" } else { "" };
    if a.0 == 0 {
        return format!("{sign}{}", shown(d));
    }
    let pct = (d.0 as f64 / a.0 as f64) * 100.0;
    format!("{sign}{} ({sign}{}%)", shown(d), fixed(pct, 0))
}

fn count_change(a: u64, b: u64) -> String {
    match b.cmp(&a) {
        std::cmp::Ordering::Greater => format!("+{}", group_thousands(b - a)),
        std::cmp::Ordering::Less => format!("-{}", group_thousands(a - b)),
        std::cmp::Ordering::Equal => "same".into(),
    }
}

/// Runs A and B (each a run's classes, all requests and totals), figure by
/// figure: p95 TTFT and each part's p95 for all requests and for every
/// class both runs have, goodput, rejections, preemptions, throughput.
pub fn compare(
    a: (&[ClassStats], &ClassStats, &Totals),
    b: (&[ClassStats], &ClassStats, &Totals),
) -> Vec<Difference> {
    let mut out = Vec::new();
    let mut times = |label: &str, x: &ClassStats, y: &ClassStats| {
        let p95 = |c: &ClassStats, part: Option<Part>| -> Option<Micros> {
            match part {
                None => c.summary.ttft.as_ref().map(|p| p.p95.value),
                Some(part) => c.summary.parts.as_ref().map(|pp| pp.part(part).p95.value),
            }
        };
        for (what, part) in [
            ("p95 TTFT", None),
            ("p95 queue wait", Some(Part::QueueWait)),
            ("p95 prefill", Some(Part::Prefill)),
            ("p95 emit", Some(Part::Emit)),
        ] {
            let (va, vb) = (p95(x, part), p95(y, part));
            out.push(Difference {
                figure: format!("{what}, {label}"),
                a: va.map_or_else(|| "none".into(), shown),
                b: vb.map_or_else(|| "none".into(), shown),
                change: match (va, vb) {
                    (Some(va), Some(vb)) => time_change(va, vb),
                    _ => "not comparable".into(),
                },
            });
        }
        out.push(Difference {
            figure: format!("met the target, {label}"),
            a: format!("{} ({})", group_count(x.met_target), percent(x.met_target, x.requests)),
            b: format!("{} ({})", group_count(y.met_target), percent(y.met_target, y.requests)),
            change: count_change(x.met_target as u64, y.met_target as u64),
        });
    };
    times("all requests", a.1, b.1);
    for ca in a.0.iter().filter(|_| a.0.len() > 1) {
        if let Some(cb) = b.0.iter().find(|c| c.name == ca.name) {
            times(&ca.name, ca, cb);
        }
    }
    let (ta, tb) = (a.2, b.2);
    out.push(Difference {
        figure: "rejected".into(),
        a: group_count(ta.rejected.total()),
        b: group_count(tb.rejected.total()),
        change: count_change(ta.rejected.total() as u64, tb.rejected.total() as u64),
    });
    out.push(Difference {
        figure: "preemptions".into(),
        a: group_thousands(ta.preemptions),
        b: group_thousands(tb.preemptions),
        change: count_change(ta.preemptions, tb.preemptions),
    });
    out.push(Difference {
        figure: "throughput".into(),
        a: rate(ta.throughput, "tokens/s"),
        b: rate(tb.throughput, "tokens/s"),
        change: if ta.throughput > 0.0 {
            format!("{}%", signed_fixed((tb.throughput / ta.throughput - 1.0) * 100.0, 0))
        } else {
            "not comparable".into()
        },
    });
    out
}

/// One bucket of the series, as table cells.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeriesRow {
    pub from: String,
    pub queue: String,
    pub running: String,
    pub kv: String,
}

/// The series as a table: each bucket's start, and the time-weighted mean
/// (with the most at any instant) of the queue, the running batch and the
/// KV tokens in use.
pub fn series_rows(series: &Series) -> Vec<SeriesRow> {
    series
        .points
        .iter()
        .map(|p| SeriesRow {
            from: shown(p.start),
            queue: format!("{} (at most {})", fixed(p.queue, 1), p.queue_max),
            running: format!("{} (at most {})", fixed(p.running, 1), p.running_max),
            kv: format!("{} (at most {})", group_thousands(p.kv_tokens.round() as u64), group_thousands(p.kv_tokens_max)),
        })
        .collect()
}

/// One point of a sweep, as table cells, with the split of its p95 request
/// for the stacked chart.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SweepRow {
    pub load: String,
    pub rate: String,
    pub ttft_p95: String,
    pub queue_wait_p95: String,
    pub prefill_p95: String,
    pub emit_p95: String,
    pub met_target: String,
    pub throughput: String,
    /// The p95 request's queue wait, prefill and emit (they add up to its
    /// TTFT), for drawing.
    pub at_p95: Option<[Micros; 3]>,
}

/// A sweep's points for all requests, as table cells.
pub fn sweep_rows(result: &SweepResult) -> Vec<SweepRow> {
    let t = |m: Option<Micros>| m.map_or_else(|| "none".into(), shown);
    result
        .points
        .iter()
        .map(|p| SweepRow {
            load: format!("{}%", fixed(p.load * 100.0, 0)),
            rate: rate(p.rate, "/s"),
            ttft_p95: t(p.all.ttft_p95),
            queue_wait_p95: t(p.all.queue_wait_p95),
            prefill_p95: t(p.all.prefill_p95),
            emit_p95: t(p.all.emit_p95),
            met_target: format!("{} ({})", group_count(p.all.met_target), percent(p.all.met_target, p.all.requests)),
            throughput: rate(p.throughput, "tokens/s"),
            at_p95: p.all.at_p95.map(|s| [s.queue_wait, s.prefill, s.emit]),
        })
        .collect()
}

/// What a sweep shows, in one sentence: how the p95 request's queue wait
/// and prefill moved from the lightest load to the heaviest.
pub fn sweep_reading(result: &SweepResult) -> String {
    let ends = result
        .points
        .first()
        .zip(result.points.last())
        .and_then(|(a, b)| Some((a, a.all.at_p95?, b, b.all.at_p95?)));
    match ends {
        Some((a, sa, b, sb)) => format!(
            "From {}% to {}% of the estimated capacity ({} requests a second, bounded by {}), the p95 request's queue wait went from {} to {} and its prefill from {} to {}.",
            fixed(a.load * 100.0, 0),
            fixed(b.load * 100.0, 0),
            rate(result.capacity.requests_per_s, "").trim_end(),
            result.capacity.limited_by.describe(),
            shown(sa.queue_wait),
            shown(sb.queue_wait),
            shown(sa.prefill),
            shown(sb.prefill)
        ),
        None => "No point of the sweep has a request with a first token to compare.".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{run, Settings, Stop};

    #[test]
    fn times_round_to_a_tenth_then_to_whole_ms() {
        assert_eq!(shown(Micros(12_345)), "12.3 ms");
        assert_eq!(shown(Micros(12_350)), "12.4 ms");
        assert_eq!(shown(Micros(99_949)), "99.9 ms");
        assert_eq!(shown(Micros(99_950)), "100 ms");
        assert_eq!(shown(Micros(1_234_567)), "1,235 ms");
        assert_eq!(shown(Micros(-1_500)), "-1.5 ms");
        assert_eq!(shown(Micros(-150_400)), "-150 ms");
        assert_eq!(shown(Micros::ZERO), "0 ms");
        assert_eq!(percent(1, 3), "33.3%");
        assert_eq!(percent(0, 0), "no requests");
    }

    #[test]
    fn a_run_reads_as_rows_and_sentences() {
        let s = Settings {
            stop: Stop::Requests(800),
            ..Settings::default()
        };
        let r = run(&s, None).unwrap();
        let rows = class_rows(&r.classes, &r.all);
        assert_eq!(rows.len(), r.classes.len() + 1);
        assert_eq!(rows.last().unwrap().name, "all requests");
        assert_eq!(rows.last().unwrap().requests, "800");
        let t = totals(&r.totals);
        assert!(t.iter().any(|(k, _)| k == "Throughput"));
        let words = reading(&r.all);
        assert!(words[0].starts_with("p95 TTFT is "), "{words:?}");
        let d = compare((&r.classes, &r.all, &r.totals), (&r.classes, &r.all, &r.totals));
        assert!(d.iter().any(|d| d.figure == "p95 TTFT, all requests" && d.change == "0 ms (0%)"), "{d:?}");
        assert!(d.iter().any(|d| d.figure == "preemptions" && d.change == "same"));
        assert_eq!(series_rows(&r.series).len(), r.series.points.len());
        let parts = part_rows(&r.classes, &r.all);
        assert_eq!(parts.len(), 3 * (r.classes.len() + 1));
        assert_eq!((parts[0].class.as_str(), parts[0].part.as_str()), ("hint", "queue wait"));
        assert!(parts.iter().all(|p| p.p50.ends_with(" ms")));
    }

    #[test]
    fn a_slower_b_shows_as_a_rise() {
        assert_eq!(time_change(Micros::from_ms(100), Micros::from_ms(150)), "+50 ms (+50%)");
        assert_eq!(time_change(Micros::from_ms(100), Micros::from_ms(50)), "-50 ms (-50%)");
        assert_eq!(time_change(Micros::ZERO, Micros::from_ms(5)), "+5 ms");
        assert_eq!(count_change(3, 1), "-2");
    }
}
