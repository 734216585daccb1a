//! What an imported request is, once a file has been read: the model every
//! importer fills and the page shows.
//!
//! Real files disagree about what they can say. A server span separates queue
//! wait from prefill; a benchmark client only sees a time to first token that
//! also holds the network and the server's queue. So a [`Breakdown`] keeps
//! every figure as an `Option`, says where its clock is ([`Clock`]), and says
//! which prefill convention it uses ([`PrefillConvention`]). When the known
//! parts do not add up to the stated TTFT, the difference is kept as its own
//! part ("unattributed"), never dropped and never spread over the others.
//!
//! This module does not read any file format and does not compute
//! percentiles; it only holds what the importers found and derives the split,
//! the shares and the dominant delay where, and only where, the parts are known.

use serde::{Deserialize, Serialize};
use std::fmt;
use ttft_latency::decimal::shortest;
use ttft_latency::{Decode, Micros, Outcome, Share};

/// Where the clock that timed a request sits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Clock {
    /// Inside the serving runtime: its TTFT starts when the request reaches
    /// the server and excludes the network.
    Server,
    /// In a benchmark client: its TTFT starts when the request is sent and
    /// includes the network, the server's queue and everything else.
    Client,
}

impl Clock {
    /// Lower-case name, as shown in tables and exports.
    pub fn label(self) -> &'static str {
        match self {
            Clock::Server => "server",
            Clock::Client => "client",
        }
    }
}

/// Where a source's "prefill" ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PrefillConvention {
    /// The course's: prefill ends when the first token's scores are ready;
    /// emit (sampling and writing the token) is a separate part.
    Course,
    /// vLLM's: prefill ends when the first token is output, so it includes
    /// emit, which cannot be separated.
    IncludesEmit,
}

impl PrefillConvention {
    /// Lower-case name, as written in the CSV export.
    pub fn label(self) -> &'static str {
        match self {
            PrefillConvention::Course => "course",
            PrefillConvention::IncludesEmit => "includes_emit",
        }
    }
}

/// A prefill duration with the convention it was measured under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Prefill {
    /// How long it took.
    pub duration: Micros,
    /// Where it ends.
    pub convention: PrefillConvention,
}

/// One part of a split TTFT, as far as an imported file can name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Piece {
    /// Arrival at the server until the scheduler admits the request.
    QueueWait,
    /// Prefill in the course's convention.
    Prefill,
    /// Prefill in vLLM's convention: it includes emit.
    PrefillWithEmit,
    /// Sampling the first token and writing it to the stream.
    Emit,
    /// What the stated TTFT holds beyond the known parts (in vLLM, time
    /// before the engine's queue and hand-offs between processes).
    Unattributed,
}

impl Piece {
    /// Plain name for a learner.
    pub fn label(self) -> &'static str {
        match self {
            Piece::QueueWait => "queue wait",
            Piece::Prefill => "prefill",
            Piece::PrefillWithEmit => "prefill (including emit)",
            Piece::Emit => "emit",
            Piece::Unattributed => "unattributed",
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// The largest piece of a split, or the pieces tied for largest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "pieces")]
pub enum Largest {
    /// One piece is strictly the largest.
    Single(Piece),
    /// Several pieces share the largest value (in time order).
    Tie(Vec<Piece>),
}

impl fmt::Display for Largest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Largest::Single(p) => write!(f, "{p}"),
            Largest::Tie(ps) => {
                let names: Vec<&str> = ps.iter().map(|p| p.label()).collect();
                write!(f, "a tie between {}", names.join(" and "))
            }
        }
    }
}

/// Everything a source can say about one request's timing. `None` means
/// "this source does not say", never zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Breakdown {
    /// Where the clock is.
    pub clock: Clock,
    /// Queue wait at the server. Always `None` on a client clock: a client's
    /// own queue is not the server's.
    pub queue_wait: Option<Micros>,
    /// Prefill, with its convention.
    pub prefill: Option<Prefill>,
    /// Emit, when the source separates it from prefill.
    pub emit: Option<Micros>,
    /// The stated TTFT minus the known parts, when the source states a TTFT
    /// and the parts do not add up to it. May be negative when rounding or a
    /// faulty source makes the parts exceed the TTFT; then no dominant piece
    /// is named.
    pub unattributed: Option<Micros>,
    /// Time to first token on this clock.
    pub ttft: Option<Micros>,
    /// First token until last token.
    pub decode: Option<Micros>,
    /// Start until last token on this clock.
    pub e2e: Option<Micros>,
}

impl Breakdown {
    /// A breakdown with nothing known yet.
    pub fn empty(clock: Clock) -> Breakdown {
        Breakdown {
            clock,
            queue_wait: None,
            prefill: None,
            emit: None,
            unattributed: None,
            ttft: None,
            decode: None,
            e2e: None,
        }
    }

    /// A server-side breakdown from the parts a source states. The
    /// unattributed remainder is computed here, and only when a TTFT is
    /// stated: it is `ttft - (queue + prefill + emit)` over the known parts,
    /// kept even when it is zero so the export shows the parts were checked.
    pub fn server(
        queue_wait: Option<Micros>,
        prefill: Option<Prefill>,
        emit: Option<Micros>,
        ttft: Option<Micros>,
    ) -> Breakdown {
        let mut b = Breakdown::empty(Clock::Server);
        b.queue_wait = queue_wait;
        b.prefill = prefill;
        b.emit = emit;
        b.ttft = ttft;
        if let (Some(t), Some(q)) = (ttft, queue_wait) {
            let known =
                q + prefill.map(|p| p.duration).unwrap_or_default() + emit.unwrap_or_default();
            b.unattributed = t.checked_sub(known);
        }
        b
    }

    /// A client-side breakdown: only TTFT and what follows it.
    pub fn client(ttft: Option<Micros>, decode: Option<Micros>, e2e: Option<Micros>) -> Breakdown {
        let mut b = Breakdown::empty(Clock::Client);
        b.ttft = ttft;
        b.decode = decode;
        b.e2e = e2e;
        b
    }

    /// The pieces of the TTFT in time order, or `None` when this breakdown
    /// cannot be split: a client clock, or no queue wait, or no TTFT and no
    /// complete set of course parts. The unattributed remainder is a piece
    /// when it is not zero.
    pub fn pieces(&self) -> Option<Vec<(Piece, Micros)>> {
        self.piece_list().map(|list| list.as_slice().to_vec())
    }

    /// [`Breakdown::pieces`] without a heap allocation, for the methods
    /// below, which a page calls for every request of a large file.
    fn piece_list(&self) -> Option<PieceList> {
        if self.clock != Clock::Server {
            return None;
        }
        let queue = self.queue_wait?;
        let mut out = PieceList::default();
        out.push(Piece::QueueWait, queue);
        if let Some(p) = self.prefill {
            let piece = match p.convention {
                PrefillConvention::Course => Piece::Prefill,
                PrefillConvention::IncludesEmit => Piece::PrefillWithEmit,
            };
            out.push(piece, p.duration);
        }
        if let Some(e) = self.emit {
            out.push(Piece::Emit, e);
        }
        match self.unattributed {
            Some(u) if u != Micros::ZERO => out.push(Piece::Unattributed, u),
            Some(_) => {}
            None => {
                // Without a stated TTFT the split is only whole when all three
                // course parts are known.
                let whole = self.ttft.is_none()
                    && self.emit.is_some()
                    && matches!(
                        self.prefill,
                        Some(Prefill {
                            convention: PrefillConvention::Course,
                            ..
                        })
                    );
                if !whole {
                    return None;
                }
            }
        }
        Some(out)
    }

    /// The TTFT the pieces are shares of: the stated one, or the sum of the
    /// pieces when none is stated.
    pub fn split_ttft(&self) -> Option<Micros> {
        let pieces = self.piece_list()?;
        Some(self.ttft.unwrap_or_else(|| {
            pieces
                .as_slice()
                .iter()
                .fold(Micros::ZERO, |acc, (_, v)| acc + *v)
        }))
    }

    /// One piece's share of the TTFT, when the breakdown can be split and
    /// holds that piece.
    pub fn share(&self, piece: Piece) -> Option<Share> {
        let whole = self.split_ttft()?;
        let part = self
            .piece_list()?
            .as_slice()
            .iter()
            .find(|(p, _)| *p == piece)?
            .1;
        Some(Share { part, whole })
    }

    /// The largest piece, counting the unattributed remainder as a piece.
    /// `None` when the breakdown cannot be split or a piece is negative.
    ///
    /// One pass over the pieces, as a plain loop: a page asks this of every
    /// request of a large file, twice, and three passes through iterator
    /// adapters were a tenth of its work in showing a 100,000-request
    /// import (size-optimised wasm inlines little).
    pub fn largest(&self) -> Option<Largest> {
        let list = self.piece_list()?;
        let pieces = list.as_slice();
        let mut first = *pieces.first()?;
        let mut tied = 1;
        for &(piece, v) in pieces {
            if v.is_negative() {
                return None;
            }
            if v > first.1 {
                first = (piece, v);
                tied = 1;
            } else if v == first.1 && piece != first.0 {
                tied += 1;
            }
        }
        if tied == 1 {
            return Some(Largest::Single(first.0));
        }
        Some(Largest::Tie(
            pieces
                .iter()
                .filter(|(_, v)| *v == first.1)
                .map(|(p, _)| *p)
                .collect(),
        ))
    }

    /// Whether the breakdown can be split: [`Breakdown::pieces`] is `Some`,
    /// without making the list.
    pub fn splits(&self) -> bool {
        self.piece_list().is_some()
    }
}

/// At most the four pieces a split can have, in time order.
struct PieceList {
    items: [(Piece, Micros); 4],
    len: usize,
}

impl Default for PieceList {
    fn default() -> PieceList {
        PieceList {
            items: [(Piece::QueueWait, Micros::ZERO); 4],
            len: 0,
        }
    }
}

impl PieceList {
    fn push(&mut self, piece: Piece, value: Micros) {
        if let Some(slot) = self.items.get_mut(self.len) {
            *slot = (piece, value);
            self.len += 1;
        }
    }

    fn as_slice(&self) -> &[(Piece, Micros)] {
        self.items.get(..self.len).unwrap_or_default()
    }
}

/// One request as imported from a file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ImportedRequest {
    /// The source's id for it, or its position when the source has none.
    pub id: String,
    /// When it started, in microseconds since the Unix epoch, when the source
    /// says (the CSV's events shape: its `arrival_ms`, on the file's own
    /// clock). On a client clock this is when it was sent.
    pub start: Option<Micros>,
    /// Tokens in the prompt, if recorded.
    pub prompt_tokens: Option<u64>,
    /// Tokens generated, if recorded.
    pub output_tokens: Option<u64>,
    /// Requests already waiting at the server when it arrived, if recorded.
    pub queued_at_arrival: Option<u64>,
    /// How it ended.
    pub outcome: Outcome,
    /// The source's own error text, when it gives one.
    pub error: Option<String>,
    /// What the source can say about its timing.
    pub breakdown: Breakdown,
}

impl ImportedRequest {
    /// Generation after the first token, when decode time and output tokens
    /// are both known and at least one token was generated.
    pub fn decode(&self) -> Option<Decode> {
        let n = self.output_tokens?;
        let duration = self.breakdown.decode?;
        (n >= 1 && !duration.is_negative()).then_some(Decode {
            tokens_after_first: n - 1,
            duration,
        })
    }

    /// Output tokens per second after the first token.
    pub fn output_rate(&self) -> Option<f64> {
        self.decode()?.output_rate()
    }

    /// True when the file records the request as completed with no error
    /// but it produced nothing: no output tokens, or no first-token time
    /// (none, exactly zero, or first token at the instant it started).
    pub fn produced_nothing(&self) -> bool {
        let first = self.breakdown.ttft.or_else(|| self.breakdown.split_ttft());
        self.outcome == Outcome::Completed
            && self.error.is_none()
            && (self.output_tokens == Some(0) || first.is_none_or(|t| t == Micros::ZERO))
    }

    /// Relabels a request that produced nothing as [`Outcome::Empty`] and
    /// drops the first-token figures it does not have (a recorded zero is
    /// not a fast first token). Its end-to-end time is kept.
    pub fn mark_if_empty(&mut self) {
        if self.produced_nothing() {
            self.outcome = Outcome::Empty;
            self.breakdown = Breakdown {
                e2e: self.breakdown.e2e,
                ..Breakdown::empty(self.breakdown.clock)
            };
        }
    }
}

/// Where in a file a problem was found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "at")]
pub enum Location {
    /// A 1-based line number.
    Line(usize),
    /// A JSON path such as `$.benchmarks[0].requests.successful[3]`.
    Path(String),
    /// A line and a path inside that line's JSON.
    LinePath(usize, String),
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Line(n) => write!(f, "line {n}"),
            Location::Path(p) => f.write_str(p),
            Location::LinePath(n, p) => write!(f, "line {n}, {p}"),
        }
    }
}

/// A record that could not be read, and was skipped.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Problem {
    /// Where it is.
    pub location: Location,
    /// What is wrong, in plain words.
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.location, self.message)
    }
}

/// A value a file states about a whole run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "value")]
pub enum Quantity {
    /// A latency, converted from the file's unit.
    Time(Micros),
    /// A count, rate or size, in the unit named beside it.
    Number { value: f64, unit: String },
    /// Text, such as `inf` for an unbounded request rate.
    Text(String),
    /// The file writes null here.
    Null,
}

impl fmt::Display for Quantity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Quantity::Time(t) => write!(f, "{t}"),
            Quantity::Number { value, unit } if unit.is_empty() => f.write_str(&shortest(*value)),
            Quantity::Number { value, unit } => write!(f, "{} {unit}", shortest(*value)),
            Quantity::Text(s) => f.write_str(s),
            Quantity::Null => f.write_str("not stated"),
        }
    }
}

/// One figure of a run summary, under the file's own key.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Figure {
    /// The key exactly as the file spells it (`request_goodput:` included).
    pub key: String,
    /// Its value.
    pub value: Quantity,
}

/// The figures a file states about a run as a whole.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunSummary {
    /// Which run, when a file holds several (`run 2`), else empty.
    pub label: String,
    /// The figures, by key in alphabetical order.
    pub figures: Vec<Figure>,
}

impl RunSummary {
    /// The figure under `key`, if stated.
    pub fn get(&self, key: &str) -> Option<&Quantity> {
        self.figures.iter().find(|f| f.key == key).map(|f| &f.value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `largest()` as it was written over `pieces()`, before it stopped
    /// allocating: the reference the faster one must match.
    fn reference_largest(b: &Breakdown) -> Option<Largest> {
        let pieces = b.pieces()?;
        if pieces.iter().any(|(_, v)| v.is_negative()) {
            return None;
        }
        let max = pieces.iter().map(|(_, v)| *v).max()?;
        let top: Vec<Piece> = pieces
            .iter()
            .filter(|(_, v)| *v == max)
            .map(|(p, _)| *p)
            .collect();
        match top.as_slice() {
            [one] => Some(Largest::Single(*one)),
            _ => Some(Largest::Tie(top)),
        }
    }

    #[test]
    fn largest_share_and_split_ttft_match_the_pieces() {
        let values = [None, Some(-5), Some(0), Some(10), Some(20)];
        let us = |v: Option<i64>| v.map(Micros);
        let mut ties = 0;
        for clock in [Clock::Server, Clock::Client] {
            for q in values {
                for p in values {
                    for e in values {
                        for t in [None, Some(0), Some(30), Some(40), Some(60)] {
                            for conv in [PrefillConvention::Course, PrefillConvention::IncludesEmit]
                            {
                                let prefill = us(p).map(|duration| Prefill {
                                    duration,
                                    convention: conv,
                                });
                                let mut b = Breakdown::server(us(q), prefill, us(e), us(t));
                                b.clock = clock;
                                let expected = reference_largest(&b);
                                if matches!(expected, Some(Largest::Tie(_))) {
                                    ties += 1;
                                }
                                assert_eq!(b.largest(), expected, "{b:?}");
                                let pieces = b.pieces();
                                assert_eq!(b.splits(), pieces.is_some(), "{b:?}");
                                let whole = pieces.as_ref().map(|ps| {
                                    b.ttft.unwrap_or_else(|| {
                                        ps.iter().fold(Micros::ZERO, |acc, (_, v)| acc + *v)
                                    })
                                });
                                assert_eq!(b.split_ttft(), whole, "{b:?}");
                                for piece in [
                                    Piece::QueueWait,
                                    Piece::Prefill,
                                    Piece::PrefillWithEmit,
                                    Piece::Emit,
                                    Piece::Unattributed,
                                ] {
                                    let part = pieces
                                        .as_ref()
                                        .and_then(|ps| ps.iter().find(|(x, _)| *x == piece))
                                        .map(|(_, v)| *v);
                                    let expected =
                                        part.zip(whole).map(|(part, whole)| Share { part, whole });
                                    assert_eq!(b.share(piece), expected, "{b:?} {piece:?}");
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(ties > 0);
    }
}
