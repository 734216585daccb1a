//! What a page shows about an import beyond the core's summary: each
//! request against a target, the requests sorted by a column, percentiles of
//! every piece a file can name (including vLLM's prefill-with-emit and the
//! unattributed remainder, which the core's three-part summary has no place
//! for), counts by largest piece, a TTFT histogram, the slowest requests,
//! an even sample for a scatter, and a short reading in plain words.
//!
//! Why here and not in the page: every figure a learner sees must come from
//! tested Rust, not from arithmetic inside a component. The page only maps
//! these values to pixels and text.
//!
//! This module does not read files (the importers do), does not compute the
//! TTFT percentiles or outcome rules (it hands those to
//! `ttft_latency::summarise` through [`Import::summarise`]), and does not format
//! HTML.

use crate::model::{ImportedRequest, Largest, Piece};
use crate::read::Import;
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use ttft_latency::axis::nice_ceiling;
use ttft_latency::summary::{self, count_of};
use ttft_latency::time::group_thousands;
use ttft_latency::Part;
use ttft_latency::{percentiles, Convention, Micros, Outcome, Percentiles, Summary};

/// Where one request stands against a TTFT target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Standing {
    /// Its first token came at or under the target.
    Within,
    /// Its first token came later than the target.
    Over,
    /// It has no first token (an error, a rejection, a cancellation), so it
    /// missed the target too; it is never a fast request.
    NoFirstToken,
    /// It produced nothing and recorded no error ([`Outcome::Empty`]): it is
    /// not judged against the target.
    NotJudged,
}

impl Standing {
    /// Plain words for a table cell.
    pub fn label(self) -> &'static str {
        match self {
            Standing::Within => "within",
            Standing::Over => "over",
            Standing::NoFirstToken => "missed: no first token",
            Standing::NotJudged => "not judged: empty reply",
        }
    }
}

/// Where `request` stands against `target`, by the core's rule: a request
/// with a TTFT is within or over; one without a TTFT missed it, except an
/// empty reply, which is not judged.
pub fn standing(request: &ImportedRequest, target: Micros) -> Standing {
    if request.outcome == Outcome::Empty {
        return Standing::NotJudged;
    }
    match first_token(request) {
        Some(t) if t <= target => Standing::Within,
        Some(_) => Standing::Over,
        None => Standing::NoFirstToken,
    }
}

/// The TTFT a request contributes: the stated one, or its split's sum.
pub fn first_token(request: &ImportedRequest) -> Option<Micros> {
    if request.outcome == Outcome::Empty {
        return None;
    }
    request
        .breakdown
        .ttft
        .or_else(|| request.breakdown.split_ttft())
}

/// A column of the per-request table, which the page can sort by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Column {
    /// The request's id.
    Id,
    /// Prompt tokens.
    PromptTokens,
    /// Output tokens.
    OutputTokens,
    /// Queue wait.
    QueueWait,
    /// Prefill, in whatever convention the file uses.
    Prefill,
    /// Emit, when separate.
    Emit,
    /// The unattributed remainder.
    Unattributed,
    /// Time to first token.
    Ttft,
    /// The largest piece's share of TTFT.
    LargestShare,
    /// Output tokens per second after the first token.
    OutputRate,
    /// How the request ended.
    Outcome,
    /// Against the target.
    Standing,
}

impl Column {
    /// Every column, in table order.
    pub const ALL: [Column; 12] = [
        Column::Id,
        Column::PromptTokens,
        Column::OutputTokens,
        Column::QueueWait,
        Column::Prefill,
        Column::Emit,
        Column::Unattributed,
        Column::Ttft,
        Column::LargestShare,
        Column::OutputRate,
        Column::Outcome,
        Column::Standing,
    ];
}

/// A sort key: numbers before text, and a missing value sorts last in
/// either direction.
#[derive(Clone, Debug, PartialEq)]
enum Key<'a> {
    Int(i64),
    Float(f64),
    Text(&'a str),
    Missing,
}

fn compare(a: &Key<'_>, b: &Key<'_>) -> Ordering {
    match (a, b) {
        (Key::Int(x), Key::Int(y)) => x.cmp(y),
        (Key::Float(x), Key::Float(y)) => x.total_cmp(y),
        (Key::Text(x), Key::Text(y)) => x.cmp(y),
        _ => Ordering::Equal,
    }
}

fn count_key(n: Option<u64>) -> Key<'static> {
    n.map_or(Key::Missing, |n| {
        Key::Int(i64::try_from(n).unwrap_or(i64::MAX))
    })
}

fn time_key(t: Option<Micros>) -> Key<'static> {
    t.map_or(Key::Missing, |t| Key::Int(t.0))
}

fn key<'a>(r: &'a ImportedRequest, column: Column, target: Micros) -> Key<'a> {
    let b = &r.breakdown;
    match column {
        Column::Id => Key::Text(&r.id),
        Column::PromptTokens => count_key(r.prompt_tokens),
        Column::OutputTokens => count_key(r.output_tokens),
        Column::QueueWait => time_key(b.queue_wait),
        Column::Prefill => time_key(b.prefill.map(|p| p.duration)),
        Column::Emit => time_key(b.emit),
        Column::Unattributed => time_key(b.unattributed),
        Column::Ttft => time_key(first_token(r)),
        Column::LargestShare => match largest_share(r) {
            Some((_, share)) => share.tenths().map_or(Key::Missing, Key::Int),
            None => Key::Missing,
        },
        Column::OutputRate => r.output_rate().map_or(Key::Missing, Key::Float),
        Column::Outcome => Key::Text(r.outcome.label()),
        Column::Standing => Key::Int(match standing(r, target) {
            Standing::Within => 0,
            Standing::Over => 1,
            Standing::NoFirstToken => 2,
            Standing::NotJudged => 3,
        }),
    }
}

/// The positions of `requests` sorted by `column` (stable: equal keys keep
/// file order), descending when asked; requests without a value for the
/// column come last either way. The target decides the standing column.
pub fn order(
    requests: &[ImportedRequest],
    column: Column,
    descending: bool,
    target: Micros,
) -> Vec<usize> {
    let mut keyed: Vec<(Key<'_>, usize)> = requests
        .iter()
        .enumerate()
        .map(|(i, r)| (key(r, column, target), i))
        .collect();
    ttft_latency::sort::sort_by(&mut keyed, |(a, _), (b, _)| match (a, b) {
        (Key::Missing, Key::Missing) => Ordering::Equal,
        (Key::Missing, _) => Ordering::Greater,
        (_, Key::Missing) => Ordering::Less,
        _ if descending => compare(b, a),
        _ => compare(a, b),
    });
    keyed.into_iter().map(|(_, i)| i).collect()
}

/// The largest piece of a request's split and that piece's share of its
/// TTFT (for a tie, the first tied piece's share, which all tied pieces
/// have). `None` when the request cannot be split.
pub fn largest_share(request: &ImportedRequest) -> Option<(Largest, ttft_latency::Share)> {
    let b = &request.breakdown;
    let largest = b.largest()?;
    let piece = match &largest {
        Largest::Single(p) => *p,
        Largest::Tie(ps) => *ps.first()?,
    };
    let share = b.share(piece)?;
    Some((largest, share))
}

/// The percentiles of one piece over the requests whose split names it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PieceSpread {
    /// The piece.
    pub piece: Piece,
    /// Its percentiles.
    pub percentiles: Percentiles,
}

/// Percentiles under `convention` of every piece the file's splits name, in
/// time order, over the requests that can be split (whatever their outcome,
/// as the core does for parts). The unattributed remainder enters with its
/// value even when it is zero, so its percentiles describe every split.
pub fn piece_percentiles(requests: &[ImportedRequest], convention: Convention) -> Vec<PieceSpread> {
    const PIECES: [Piece; 5] = [
        Piece::QueueWait,
        Piece::Prefill,
        Piece::PrefillWithEmit,
        Piece::Emit,
        Piece::Unattributed,
    ];
    let mut samples: [Vec<Micros>; 5] = Default::default();
    for r in requests {
        let b = &r.breakdown;
        if !b.splits() {
            continue;
        }
        let values = [
            b.queue_wait,
            b.prefill
                .filter(|p| p.convention == crate::model::PrefillConvention::Course)
                .map(|p| p.duration),
            b.prefill
                .filter(|p| p.convention == crate::model::PrefillConvention::IncludesEmit)
                .map(|p| p.duration),
            b.emit,
            b.unattributed,
        ];
        for (slot, v) in samples.iter_mut().zip(values) {
            if let Some(v) = v {
                slot.push(v);
            }
        }
    }
    PIECES
        .into_iter()
        .zip(samples.iter())
        .filter_map(|(piece, s)| {
            percentiles(s, convention)
                .ok()
                .map(|percentiles| PieceSpread { piece, percentiles })
        })
        .collect()
}

/// Requests counted by their largest piece.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LargestCounts {
    /// Requests whose one largest piece is this, in time order of pieces;
    /// only pieces with at least one request appear.
    pub single: Vec<(Piece, usize)>,
    /// Requests with two or more pieces tied for largest.
    pub ties: usize,
    /// Requests with a first token that cannot be split (a client clock, or
    /// a negative remainder from a faulty source).
    pub unsplit: usize,
    /// Requests with no first token at all.
    pub no_first_token: usize,
}

impl LargestCounts {
    /// All requests with a split.
    pub fn split(&self) -> usize {
        self.single.iter().map(|(_, n)| n).sum::<usize>() + self.ties
    }

    /// The piece that is largest in more than half of the split requests.
    pub fn majority(&self) -> Option<Piece> {
        let total = self.split();
        self.single
            .iter()
            .find(|(_, n)| n * 2 > total)
            .map(|(p, _)| *p)
    }
}

/// Counts by largest piece over `requests`; with `over` set to a target,
/// only over the requests whose first token came later than it.
pub fn largest_counts(requests: &[ImportedRequest], over: Option<Micros>) -> LargestCounts {
    let mut by_piece: [usize; 5] = [0; 5];
    let mut counts = LargestCounts::default();
    let slot = |p: Piece| match p {
        Piece::QueueWait => 0,
        Piece::Prefill => 1,
        Piece::PrefillWithEmit => 2,
        Piece::Emit => 3,
        Piece::Unattributed => 4,
    };
    for r in requests {
        let Some(ttft) = first_token(r) else {
            if over.is_none() {
                counts.no_first_token += 1;
            }
            continue;
        };
        if over.is_some_and(|t| ttft <= t) {
            continue;
        }
        match r.breakdown.largest() {
            Some(Largest::Single(p)) => {
                if let Some(n) = by_piece.get_mut(slot(p)) {
                    *n += 1;
                }
            }
            Some(Largest::Tie(_)) => counts.ties += 1,
            None => counts.unsplit += 1,
        }
    }
    counts.single = [
        Piece::QueueWait,
        Piece::Prefill,
        Piece::PrefillWithEmit,
        Piece::Emit,
        Piece::Unattributed,
    ]
    .into_iter()
    .zip(by_piece)
    .filter(|(_, n)| *n > 0)
    .collect();
    counts
}

/// One bar of a histogram: requests with `from <= TTFT < to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bin {
    /// Lower edge, included.
    pub from: Micros,
    /// Upper edge, excluded (the last bin includes it).
    pub to: Micros,
    /// Requests in it.
    pub count: usize,
}

/// The distribution of TTFT in equal bins from zero.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Histogram {
    /// The bins, from zero upwards.
    pub bins: Vec<Bin>,
    /// The fullest bin's count.
    pub tallest: usize,
    /// Requests with a TTFT (the histogram's total).
    pub total: usize,
    /// Requests with a negative TTFT (a faulty source), not drawn.
    pub negative: usize,
}

/// A histogram of every request's TTFT in about `bins` equal, round-width
/// bins from zero to past the larger of the slowest TTFT and `target`, so
/// the target can be marked on it. `None` when no request has a TTFT.
pub fn histogram(requests: &[ImportedRequest], bins: usize, target: Micros) -> Option<Histogram> {
    let ttfts: Vec<Micros> = requests.iter().filter_map(first_token).collect();
    let max = *ttfts.iter().max()?;
    let bins = bins.clamp(1, 200) as i64;
    let top = if max > target { max } else { target };
    let width = nice_ceiling(Micros(top.0 / bins + 1));
    let n = usize::try_from(top.0 / width.0 + 1).unwrap_or(1).max(1);
    let mut out: Vec<Bin> = (0..n)
        .map(|i| Bin {
            from: Micros(width.0.saturating_mul(i as i64)),
            to: Micros(width.0.saturating_mul(i as i64 + 1)),
            count: 0,
        })
        .collect();
    let mut negative = 0;
    for t in &ttfts {
        if t.is_negative() {
            negative += 1;
            continue;
        }
        let i = usize::try_from(t.0 / width.0)
            .unwrap_or(usize::MAX)
            .min(n - 1);
        if let Some(bin) = out.get_mut(i) {
            bin.count += 1;
        }
    }
    let tallest = out.iter().map(|b| b.count).max().unwrap_or(0);
    Some(Histogram {
        bins: out,
        tallest,
        total: ttfts.len(),
        negative,
    })
}

/// The positions of the `n` slowest requests by TTFT, slowest first (ties
/// in file order). Requests without a TTFT are not among them.
pub fn slowest(requests: &[ImportedRequest], n: usize) -> Vec<usize> {
    // The same as sorting by TTFT, descending and stable, then keeping `n`,
    // but in one pass that keeps the `n` slowest seen so far in order: this
    // runs on the page's main thread over files of 100,000 requests, and
    // brings no sort of its own into the page's wasm. A request goes in
    // only when it is strictly slower than the last kept (so an equal time
    // later in the file stays behind), after every kept request at least
    // as slow.
    let mut kept: Vec<(Micros, usize)> = Vec::with_capacity(n.min(requests.len()) + 1);
    if n == 0 {
        return Vec::new();
    }
    for (i, r) in requests.iter().enumerate() {
        let Some(t) = first_token(r) else { continue };
        if kept.len() == n && kept.last().is_some_and(|&(last, _)| t <= last) {
            continue;
        }
        let at = kept.partition_point(|&(k, _)| k >= t);
        kept.insert(at, (t, i));
        kept.truncate(n);
    }
    kept.into_iter().map(|(_, i)| i).collect()
}

/// Up to `max` positions spread evenly over `0..len`, first included, for a
/// chart that cannot draw every request.
pub fn spread(len: usize, max: usize) -> Vec<usize> {
    if len <= max {
        return (0..len).collect();
    }
    if max == 0 {
        return Vec::new();
    }
    (0..max)
        .map(|k| ((k as u128 * len as u128) / max as u128) as usize)
        .collect()
}

/// What to look at first when `piece` is the largest delay.
fn first_look(piece: Piece) -> &'static str {
    match piece {
        Piece::QueueWait => summary::first_look(Part::QueueWait),
        Piece::Prefill | Piece::PrefillWithEmit => summary::first_look(Part::Prefill),
        Piece::Emit => summary::first_look(Part::Emit),
        Piece::Unattributed => {
            "look before the engine's queue (the API server, tokenisation, hand-offs between processes)"
        }
    }
}

/// A short reading of the import in plain words: the core's reading of
/// `summary` (made with [`Import::summarise`] for the same requests), told
/// which requests truly cannot be split, followed, when the core could not
/// name a dominant part because the file's pieces are not the course's
/// three (vLLM's prefill includes emit), by the same judgement over the
/// file's own pieces.
pub fn reading(import: &Import, summary: &Summary) -> Vec<String> {
    let requests = &import.requests;
    let mut told = summary.clone();
    // The core counts every request it was not given parts for as "TTFT
    // only"; a vLLM span is split, just not into the core's three parts.
    told.ttft_only = requests
        .iter()
        .filter(|r| first_token(r).is_some() && !r.breakdown.splits())
        .count();
    let mut out = told.reading();
    if summary.dominant.total() > 0 || summary.ttft.is_none() {
        return out;
    }
    let target = summary.target.map(|t| t.target);
    let (counts, which) = match summary.target {
        Some(t) if t.over == 0 => return out,
        Some(_) => (largest_counts(requests, target), "slow first tokens"),
        None => (largest_counts(requests, None), "first tokens"),
    };
    let split = counts.split();
    if split == 0 {
        return out;
    }
    match counts.majority() {
        Some(piece) => {
            let n = counts
                .single
                .iter()
                .find(|(p, _)| *p == piece)
                .map_or(0, |(_, n)| *n);
            out.push(format!(
                "In most {which} here, {}, the largest piece is {piece}: {}.",
                count_of(n, split),
                first_look(piece)
            ));
        }
        None => {
            let parts: Vec<String> = counts
                .single
                .iter()
                .map(|(p, n)| format!("{p} {}", group_thousands(*n as u64)))
                .collect();
            out.push(format!(
                "No single piece is the largest in most {which} ({}, ties {}): diagnose each request from its own split.",
                parts.join(", "),
                group_thousands(counts.ties as u64)
            ));
        }
    }
    out
}

/// The page's sentence about what could not be read, or `None` when
/// nothing was skipped. It says "everything else was imported" only when
/// that is so: reading did not stop early and some request was read.
pub fn problems_sentence(import: &Import) -> Option<String> {
    let n = import.problem_count();
    if n == 0 {
        return None;
    }
    let what = if n == 1 {
        "1 line or record could not be read".to_owned()
    } else {
        format!(
            "{} lines or records could not be read",
            group_thousands(n as u64)
        )
    };
    Some(if import.stopped {
        format!(
            "{what}, and reading stopped early: the file may hold requests that were not imported."
        )
    } else if import.requests.is_empty() {
        format!(
            "{what} and {} skipped; no request in the file could be read.",
            if n == 1 { "was" } else { "were" }
        )
    } else {
        format!(
            "{what} and {} skipped; everything else was imported.",
            if n == 1 { "was" } else { "were" }
        )
    })
}

/// How the page should describe requests that ended without completing,
/// stated from the core's rule so the page never drops them silently.
pub const TREATMENT: &str = "Every request counts in the totals and the outcome counts. TTFT percentiles use every \
    request that has a first token, whatever its outcome: a first token that reached the stream happened. A request \
    with no first token (rejected, failed before it, or cancelled) cannot enter a latency percentile, so it is counted \
    apart and, against the target, counts as missed. A rate-limited request that a tool records with a zero TTFT is \
    imported as an error with no latency, never as a fast request. An empty reply (nothing produced, no error \
    recorded) is counted apart and judged against no target.";

/// Why an empty reply is counted on its own, in one sentence for the page.
pub const EMPTY_REPLY: &str = "A request that ended with nothing produced and no error recorded (no output tokens, or \
    no first-token time: none, zero, or the instant it started) is counted as an empty reply: it had no first token, \
    so it enters neither the TTFT percentiles nor the target counts, where a recorded zero would pass for the fastest \
    request of the run.";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import;

    const OTLP: &str = include_str!("../../../content/samples/course-trace.otlp.jsonl");

    fn course() -> Import {
        import(OTLP).expect("the course sample is OTLP")
    }

    fn ids(imp: &Import, positions: &[usize]) -> Vec<String> {
        positions
            .iter()
            .filter_map(|&i| imp.requests.get(i))
            .map(|r| r.id.clone())
            .collect()
    }

    /// Checks the ids in the order `column` sorts them.
    fn check(column: Column, descending: bool, expected: &[&str]) {
        let imp = course();
        let got = ids(
            &imp,
            &order(&imp.requests, column, descending, Micros::from_ms(1_000)),
        );
        assert_eq!(got, expected, "{column:?} descending={descending}");
    }

    #[test]
    fn sorting_by_columns() {
        check(Column::Id, false, &["H1", "H2", "H3", "H4", "review"]);
        check(Column::Ttft, true, &["H2", "H3", "H4", "review", "H1"]);
        check(Column::Ttft, false, &["H1", "review", "H4", "H3", "H2"]);
        check(
            Column::OutputTokens,
            false,
            &["review", "H1", "H2", "H3", "H4"],
        );
        check(
            Column::OutputTokens,
            true,
            &["review", "H1", "H2", "H3", "H4"],
        );
        check(Column::QueueWait, true, &["H2", "H4", "review", "H3", "H1"]);
        check(Column::Standing, false, &["H1", "review", "H2", "H3", "H4"]);
    }

    #[test]
    fn the_problems_sentence_says_everything_else_only_when_true() {
        let header = "id,queue_ms,prefill_ms,emit_ms\n";
        let sentence =
            |text: &str| problems_sentence(&crate::parse_document(crate::Format::Csv, text));
        assert_eq!(sentence(&format!("{header}a,1,2,3\n")), None);
        assert_eq!(
            sentence(&format!("{header}a,1,2,3\nb,x,2,3\n")).as_deref(),
            Some(
                "1 line or record could not be read and was skipped; everything else was imported."
            )
        );
        assert_eq!(
            sentence(&format!("{header}b,x,2,3\nc,y,2,3\n")).as_deref(),
            Some("2 lines or records could not be read and were skipped; no request in the file could be read.")
        );
        // One unclosed quote before good rows: they are imported, so "everything else" is true.
        let good: String = (0..300).map(|i| format!("r{i},1,2,3\n")).collect();
        let imp =
            crate::parse_document(crate::Format::Csv, &format!("{header}\"bad,1,2,3\n{good}"));
        assert_eq!(imp.requests.len(), 300);
        assert!(
            problems_sentence(&imp).is_some_and(|s| s.ends_with("everything else was imported."))
        );
        let broken = crate::parse_document(crate::Format::LlmPerf, "[{\"ttft_s\": 0.1,");
        assert_eq!(
            problems_sentence(&broken).as_deref(),
            Some("1 line or record could not be read, and reading stopped early: the file may hold requests that were not imported.")
        );
    }

    #[test]
    fn standing_against_a_target() {
        let imp = course();
        let got: Vec<Standing> = imp
            .requests
            .iter()
            .map(|r| standing(r, Micros::from_ms(1_000)))
            .collect();
        assert_eq!(
            got,
            [
                Standing::Within,
                Standing::Over,
                Standing::Over,
                Standing::Over,
                Standing::Within
            ]
        );
    }

    #[test]
    fn pieces_and_largest() {
        let imp = course();
        let spread = piece_percentiles(&imp.requests, Convention::NearestRank);
        let names: Vec<Piece> = spread.iter().map(|s| s.piece).collect();
        assert_eq!(
            names,
            [
                Piece::QueueWait,
                Piece::PrefillWithEmit,
                Piece::Unattributed
            ]
        );
        // Queue waits 20, 30, 40, 970, 2,325 ms: nearest-rank p50 of five
        // is the 3rd; every remainder is zero and still counted.
        let queue = &spread[0].percentiles;
        assert_eq!(queue.count, 5);
        assert_eq!(queue.p50.value, Micros::from_ms(40));
        assert_eq!(queue.max, Micros::from_ms(2_325));
        assert_eq!(spread[2].percentiles.max, Micros::ZERO);
        assert_eq!(spread[2].percentiles.count, 5);
        let counts = largest_counts(&imp.requests, None);
        assert_eq!(counts.split(), 5);
        assert_eq!(
            counts.single,
            [(Piece::QueueWait, 2), (Piece::PrefillWithEmit, 3)]
        );
        assert_eq!(counts.majority(), Some(Piece::PrefillWithEmit));
        let over = largest_counts(&imp.requests, Some(Micros::from_ms(1_000)));
        assert_eq!(over.split(), 3);
        // H2 and H4 wait in the queue longest; H3 (18,000 tokens) prefills.
        assert_eq!(
            over.single,
            [(Piece::QueueWait, 2), (Piece::PrefillWithEmit, 1)]
        );
    }

    #[test]
    fn histogram_bins_every_first_token_and_reaches_the_target() {
        let imp = course();
        let h = histogram(&imp.requests, 10, Micros::from_ms(1_000)).expect("has TTFTs");
        assert_eq!(h.total, 5);
        assert_eq!(h.bins.iter().map(|b| b.count).sum::<usize>(), 5);
        let last = h.bins.last().expect("bins");
        assert!(last.to > Micros::from_ms(2_400));
        assert_eq!(h.bins[0].from, Micros::ZERO);
        assert_eq!(histogram(&[], 10, Micros::ZERO), None);
    }

    #[test]
    fn slowest_is_the_stable_sort_by_ttft_cut_short() {
        let mut imp = course();
        let copy = imp.requests.clone();
        imp.requests.extend(copy.iter().cloned());
        imp.requests.extend(copy);
        for n in 0..=imp.requests.len() + 1 {
            let mut sorted = order(&imp.requests, Column::Ttft, true, Micros::ZERO);
            sorted.retain(|&i| imp.requests.get(i).and_then(first_token).is_some());
            sorted.truncate(n);
            assert_eq!(slowest(&imp.requests, n), sorted, "n = {n}");
        }
    }

    #[test]
    fn slowest_and_spread() {
        let imp = course();
        assert_eq!(ids(&imp, &slowest(&imp.requests, 2)), ["H2", "H3"]);
        assert_eq!(spread(3, 10), [0, 1, 2]);
        assert_eq!(spread(10, 4), [0, 2, 5, 7]);
        assert!(spread(5, 0).is_empty());
    }

    #[test]
    fn reading_names_the_largest_piece_for_vllm_spans() {
        let imp = course();
        let summary = imp.summarise(Some(Micros::from_ms(1_000)), Convention::Linear);
        let text = reading(&imp, &summary).join(" ");
        assert!(!text.contains("cannot be split"), "{text}");
        assert!(text.contains("In most slow first tokens here, 2 of 3 requests (66.7%), the largest piece is queue wait: look at admission"), "{text}");
        // A reader loses track of parentheses within parentheses.
        let mut depth = 0i32;
        for c in text.chars() {
            depth += match c {
                '(' => 1,
                ')' => -1,
                _ => 0,
            };
            assert!((0..=1).contains(&depth), "nested parentheses: {text}");
        }
    }
}
