//! Imported requests as compact bytes, for the trip from the trace reader
//! to the page: a 100,000-request file's batches decode in a few
//! milliseconds each, where JSON took the page's main thread over a second
//! in all (measured with scripts/import-bench.mjs).
//!
//! Each request is: a `u16` of which optional figures are present, three
//! bytes for the outcome, clock and prefill convention, each present figure
//! as 8 bytes, then the id and the error text, each a `u32` length and its
//! UTF-8. Little-endian throughout. [`unpack`] checks every length and
//! never panics on bytes it did not write; what it cannot read is an error.
//! Deliberately not a general format: it changes with `ImportedRequest`,
//! and both sides are built from the same source.
//!
//! The rest of an import (its format, the run summaries the file states,
//! the problems and counts) crosses the same way ([`pack_rest`],
//! [`unpack_rest`]). As JSON it brought serde_json's readers for those
//! types, floats included, into the import page's wasm: 19 KB of its 296 KB
//! gzipped.

use ttft_import::{
    Breakdown, Clock, Figure, Format, Import, ImportedRequest, Location, Prefill, PrefillConvention,
    Problem, Quantity, RunSummary,
};
use ttft_latency::{Micros, Outcome};

const START: u16 = 1;
const PROMPT: u16 = 1 << 1;
const OUTPUT: u16 = 1 << 2;
const QUEUED: u16 = 1 << 3;
const ERROR: u16 = 1 << 4;
const QUEUE_WAIT: u16 = 1 << 5;
const PREFILL: u16 = 1 << 6;
const EMIT: u16 = 1 << 7;
const UNATTRIBUTED: u16 = 1 << 8;
const TTFT: u16 = 1 << 9;
const DECODE: u16 = 1 << 10;
const E2E: u16 = 1 << 11;

/// The requests as bytes.
pub fn pack(requests: &[ImportedRequest]) -> Vec<u8> {
    let mut out = Vec::with_capacity(requests.len() * 64);
    out.extend_from_slice(&(requests.len() as u32).to_le_bytes());
    for r in requests {
        let b = &r.breakdown;
        let micros = [
            (START, r.start),
            (QUEUE_WAIT, b.queue_wait),
            (PREFILL, b.prefill.map(|p| p.duration)),
            (EMIT, b.emit),
            (UNATTRIBUTED, b.unattributed),
            (TTFT, b.ttft),
            (DECODE, b.decode),
            (E2E, b.e2e),
        ];
        let counts = [(PROMPT, r.prompt_tokens), (OUTPUT, r.output_tokens), (QUEUED, r.queued_at_arrival)];
        let mut flags = if r.error.is_some() { ERROR } else { 0 };
        for (bit, v) in &micros {
            if v.is_some() {
                flags |= bit;
            }
        }
        for (bit, v) in &counts {
            if v.is_some() {
                flags |= bit;
            }
        }
        out.extend_from_slice(&flags.to_le_bytes());
        out.push(outcome_code(r.outcome));
        out.push(match b.clock {
            Clock::Server => 0,
            Clock::Client => 1,
        });
        out.push(match b.prefill.map(|p| p.convention) {
            Some(PrefillConvention::IncludesEmit) => 1,
            _ => 0,
        });
        for v in micros.iter().filter_map(|(_, v)| *v) {
            out.extend_from_slice(&v.0.to_le_bytes());
        }
        for v in counts.iter().filter_map(|(_, v)| *v) {
            out.extend_from_slice(&v.to_le_bytes());
        }
        text(&mut out, &r.id);
        if let Some(e) = &r.error {
            text(&mut out, e);
        }
    }
    out
}

fn outcome_code(o: Outcome) -> u8 {
    Outcome::ALL.iter().position(|x| *x == o).unwrap_or(0) as u8
}

fn text(out: &mut Vec<u8>, s: &str) {
    out.extend_from_slice(&(s.len() as u32).to_le_bytes());
    out.extend_from_slice(s.as_bytes());
}

/// Reads what [`pack`] wrote.
pub fn unpack(bytes: &[u8]) -> Result<Vec<ImportedRequest>, String> {
    let mut requests = Vec::new();
    unpack_into(bytes, &mut requests)?;
    Ok(requests)
}

/// Reads what [`pack`] wrote onto the end of `requests`, with no list of
/// its own in between (a 100,000-request import arrives in 20 batches, and
/// copying each into the whole was a tenth of the page's work at the end).
/// On an error, `requests` is left as it was.
pub fn unpack_into(bytes: &[u8], requests: &mut Vec<ImportedRequest>) -> Result<(), String> {
    let before = requests.len();
    let read = unpack_onto(bytes, requests);
    if read.is_err() {
        requests.truncate(before);
    }
    read
}

fn unpack_onto(bytes: &[u8], requests: &mut Vec<ImportedRequest>) -> Result<(), String> {
    let mut r = Reader { bytes, at: 0 };
    // Every request takes at least 9 bytes.
    let n = r.length(9)?;
    requests.reserve(n);
    for _ in 0..n {
        let flags = u16::from_le_bytes(r.array()?);
        let [outcome, clock, convention] = r.array()?;
        let outcome = *Outcome::ALL.get(outcome as usize).ok_or("an unknown outcome")?;
        let mut micros = |bit: u16| -> Result<Option<Micros>, String> {
            Ok(if flags & bit != 0 { Some(Micros(i64::from_le_bytes(r.array()?))) } else { None })
        };
        let start = micros(START)?;
        let queue_wait = micros(QUEUE_WAIT)?;
        let prefill = micros(PREFILL)?;
        let emit = micros(EMIT)?;
        let unattributed = micros(UNATTRIBUTED)?;
        let ttft = micros(TTFT)?;
        let decode = micros(DECODE)?;
        let e2e = micros(E2E)?;
        let mut count = |bit: u16| -> Result<Option<u64>, String> {
            Ok(if flags & bit != 0 { Some(u64::from_le_bytes(r.array()?)) } else { None })
        };
        let prompt_tokens = count(PROMPT)?;
        let output_tokens = count(OUTPUT)?;
        let queued_at_arrival = count(QUEUED)?;
        let id = r.text()?;
        let error = if flags & ERROR != 0 { Some(r.text()?) } else { None };
        let mut breakdown = Breakdown::empty(if clock == 1 { Clock::Client } else { Clock::Server });
        breakdown.queue_wait = queue_wait;
        breakdown.prefill = prefill.map(|duration| Prefill {
            duration,
            convention: if convention == 1 { PrefillConvention::IncludesEmit } else { PrefillConvention::Course },
        });
        breakdown.emit = emit;
        breakdown.unattributed = unattributed;
        breakdown.ttft = ttft;
        breakdown.decode = decode;
        breakdown.e2e = e2e;
        requests.push(ImportedRequest {
            id,
            start,
            prompt_tokens,
            output_tokens,
            queued_at_arrival,
            outcome,
            error,
            breakdown,
        });
    }
    if r.at != bytes.len() {
        return Err("the batch has bytes after its last request".to_owned());
    }
    Ok(())
}

/// Everything of `imp` but its requests (sent before, in batches), as
/// bytes: the format's place in `Format::ALL`, whether reading stopped,
/// the two counts, then the run summaries (label; each figure's key, a
/// tag and its value) and the problems (a tag, the line and path, the
/// message), each list after its `u32` length.
pub fn pack_rest(imp: &Import) -> Vec<u8> {
    // Named in full, so that a field added to `Import` cannot be left out.
    let Import {
        format,
        requests: _,
        summaries,
        problems,
        problems_not_listed,
        ignored_records,
        stopped,
    } = imp;
    let mut out = Vec::with_capacity(64);
    out.push(Format::ALL.iter().position(|f| f == format).unwrap_or(0) as u8);
    out.push(u8::from(*stopped));
    out.extend_from_slice(&(*problems_not_listed as u64).to_le_bytes());
    out.extend_from_slice(&(*ignored_records as u64).to_le_bytes());
    out.extend_from_slice(&(summaries.len() as u32).to_le_bytes());
    for summary in summaries {
        text(&mut out, &summary.label);
        out.extend_from_slice(&(summary.figures.len() as u32).to_le_bytes());
        for figure in &summary.figures {
            text(&mut out, &figure.key);
            match &figure.value {
                Quantity::Time(t) => {
                    out.push(0);
                    out.extend_from_slice(&t.0.to_le_bytes());
                }
                Quantity::Number { value, unit } => {
                    out.push(1);
                    out.extend_from_slice(&value.to_bits().to_le_bytes());
                    text(&mut out, unit);
                }
                Quantity::Text(t) => {
                    out.push(2);
                    text(&mut out, t);
                }
                Quantity::Null => out.push(3),
            }
        }
    }
    out.extend_from_slice(&(problems.len() as u32).to_le_bytes());
    for problem in problems {
        let (tag, line, path) = match &problem.location {
            Location::Line(n) => (0, *n, ""),
            Location::Path(p) => (1, 0, p.as_str()),
            Location::LinePath(n, p) => (2, *n, p.as_str()),
        };
        out.push(tag);
        out.extend_from_slice(&(line as u64).to_le_bytes());
        text(&mut out, path);
        text(&mut out, &problem.message);
    }
    out
}

/// Reads what [`pack_rest`] wrote: the import without its requests.
pub fn unpack_rest(bytes: &[u8]) -> Result<Import, String> {
    let mut r = Reader { bytes, at: 0 };
    let [format, stopped] = r.array()?;
    let format = *Format::ALL.get(format as usize).ok_or("an unknown format")?;
    let stopped = match stopped {
        0 => false,
        1 => true,
        _ => return Err("a yes-or-no that is neither".to_owned()),
    };
    let problems_not_listed = r.count()?;
    let ignored_records = r.count()?;
    // A summary takes at least 8 bytes, a figure 5, a problem 17.
    let n = r.length(8)?;
    let mut summaries = Vec::with_capacity(n);
    for _ in 0..n {
        let label = r.text()?;
        let m = r.length(5)?;
        let mut figures = Vec::with_capacity(m);
        for _ in 0..m {
            let key = r.text()?;
            let [tag] = r.array()?;
            let value = match tag {
                0 => Quantity::Time(Micros(i64::from_le_bytes(r.array()?))),
                1 => {
                    let value = f64::from_bits(u64::from_le_bytes(r.array()?));
                    Quantity::Number { value, unit: r.text()? }
                }
                2 => Quantity::Text(r.text()?),
                3 => Quantity::Null,
                _ => return Err("an unknown kind of figure".to_owned()),
            };
            figures.push(Figure { key, value });
        }
        summaries.push(RunSummary { label, figures });
    }
    let n = r.length(17)?;
    let mut problems = Vec::with_capacity(n);
    for _ in 0..n {
        let [tag] = r.array()?;
        let line = r.count()?;
        let path = r.text()?;
        let location = match tag {
            0 => Location::Line(line),
            1 => Location::Path(path),
            2 => Location::LinePath(line, path),
            _ => return Err("an unknown kind of place in the file".to_owned()),
        };
        problems.push(Problem { location, message: r.text()? });
    }
    if r.at != bytes.len() {
        return Err("the result has bytes after its end".to_owned());
    }
    Ok(Import {
        format,
        requests: Vec::new(),
        summaries,
        problems,
        problems_not_listed,
        ignored_records,
        stopped,
    })
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let slice = end.and_then(|e| self.bytes.get(self.at..e)).ok_or("the batch ends early")?;
        self.at += n;
        Ok(slice)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], String> {
        let mut a = [0u8; N];
        a.copy_from_slice(self.take(N)?);
        Ok(a)
    }

    fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    /// A count written as a `u64`.
    fn count(&mut self) -> Result<usize, String> {
        usize::try_from(u64::from_le_bytes(self.array()?)).map_err(|_| "a count too large to hold".to_owned())
    }

    /// A list's length, when the bytes left could hold that many entries of
    /// at least `least` bytes each (more is damage, not a reason to
    /// reserve memory).
    fn length(&mut self, least: usize) -> Result<usize, String> {
        let n = self.u32()? as usize;
        if n > (self.bytes.len() - self.at) / least {
            return Err("a list says it holds more than it has bytes".to_owned());
        }
        Ok(n)
    }

    fn text(&mut self) -> Result<String, String> {
        let n = self.u32()? as usize;
        let bytes = self.take(n)?;
        String::from_utf8(bytes.to_vec()).map_err(|_| "a text in the batch is not UTF-8".to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ttft_import::import;

    fn check(requests: &[ImportedRequest]) {
        assert_eq!(unpack(&pack(requests)).as_deref(), Ok(requests));
    }

    fn full() -> ImportedRequest {
        let mut b = Breakdown::empty(Clock::Server);
        b.queue_wait = Some(Micros(5));
        b.prefill = Some(Prefill { duration: Micros(i64::MAX), convention: PrefillConvention::IncludesEmit });
        b.emit = Some(Micros(3));
        b.unattributed = Some(Micros(-9));
        b.ttft = Some(Micros(i64::MIN));
        b.decode = Some(Micros(7));
        b.e2e = Some(Micros(8));
        ImportedRequest {
            id: "r\u{2014}1".to_owned(),
            start: Some(Micros(1_700_000_000_000_000)),
            prompt_tokens: Some(u64::MAX),
            output_tokens: Some(0),
            queued_at_arrival: Some(12),
            outcome: Outcome::Rejected,
            error: Some("429 Too Many Requests".to_owned()),
            breakdown: b,
        }
    }

    #[test]
    fn requests_cross_unchanged() {
        check(&[]);
        check(&[full()]);
        let mut bare = full();
        bare.start = None;
        bare.prompt_tokens = None;
        bare.output_tokens = None;
        bare.queued_at_arrival = None;
        bare.error = None;
        bare.id = String::new();
        bare.breakdown = Breakdown::client(None, None, None);
        for outcome in Outcome::ALL {
            bare.outcome = outcome;
            check(&[bare.clone(), full(), bare.clone()]);
        }
        let example = import(super::super::import::EXAMPLE).expect("the example reads");
        check(&example.requests);
    }

    #[test]
    fn batches_unpack_onto_the_end_and_a_damaged_one_adds_nothing() {
        let mut all = vec![full()];
        let batch = [full(), full()];
        unpack_into(&pack(&batch), &mut all).expect("a whole batch");
        assert_eq!(all.len(), 3);
        assert_eq!(all.get(1..), Some(&batch[..]));
        let bytes = pack(&batch);
        for cut in 0..bytes.len() {
            let cut_short = bytes.get(..cut).unwrap_or_default();
            assert!(unpack_into(cut_short, &mut all).is_err(), "cut at {cut}");
            assert_eq!(all.len(), 3, "a batch cut at {cut} left requests behind");
        }
    }

    /// An import with every kind of summary figure and problem place.
    fn rest() -> Import {
        let mut imp = Import::new(Format::GuideLlm);
        imp.summaries = vec![
            RunSummary { label: String::new(), figures: Vec::new() },
            RunSummary {
                label: "run 2 \u{2014} rate 4/s".to_owned(),
                figures: vec![
                    Figure { key: "ttft_p99".to_owned(), value: Quantity::Time(Micros(i64::MIN)) },
                    Figure {
                        key: "request_goodput:".to_owned(),
                        value: Quantity::Number { value: -0.0, unit: "req/s".to_owned() },
                    },
                    Figure { key: "rate".to_owned(), value: Quantity::Number { value: 1e300, unit: String::new() } },
                    Figure { key: "request_rate".to_owned(), value: Quantity::Text("inf".to_owned()) },
                    Figure { key: "itl".to_owned(), value: Quantity::Null },
                ],
            },
        ];
        imp.problems = vec![
            Problem { location: Location::Line(usize::MAX), message: "not JSON".to_owned() },
            Problem { location: Location::Path("$.benchmarks[0]".to_owned()), message: String::new() },
            Problem { location: Location::LinePath(3, "$.spans[1]".to_owned()), message: "no end".to_owned() },
        ];
        imp.problems_not_listed = 7;
        imp.ignored_records = 12;
        imp.stopped = true;
        imp
    }

    #[test]
    fn the_rest_of_an_import_crosses_unchanged_without_its_requests() {
        let imp = rest();
        assert_eq!(unpack_rest(&pack_rest(&imp)), Ok(imp));
        for format in Format::ALL {
            let imp = Import::new(format);
            assert_eq!(unpack_rest(&pack_rest(&imp)), Ok(imp));
        }
        let mut example = import(super::super::import::EXAMPLE).expect("the example reads");
        let back = unpack_rest(&pack_rest(&example)).expect("read back");
        assert!(back.requests.is_empty(), "the requests cross in batches, not here");
        example.requests.clear();
        assert_eq!(back, example);
        // Floats cross bit for bit, NaN too.
        let mut nan = Import::new(Format::Csv);
        nan.summaries = vec![RunSummary {
            label: String::new(),
            figures: vec![Figure { key: "x".to_owned(), value: Quantity::Number { value: f64::NAN, unit: String::new() } }],
        }];
        let back = unpack_rest(&pack_rest(&nan)).expect("read back");
        let bits = |i: &Import| match i.summaries.first().and_then(|s| s.figures.first()).map(|f| &f.value) {
            Some(Quantity::Number { value, .. }) => Some(value.to_bits()),
            _ => None,
        };
        assert_eq!(bits(&back), bits(&nan));
    }

    #[test]
    fn a_damaged_rest_is_an_error_never_a_panic() {
        let bytes = pack_rest(&rest());
        for cut in 0..bytes.len() {
            assert!(unpack_rest(bytes.get(..cut).unwrap_or_default()).is_err(), "cut at {cut}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(unpack_rest(&longer).is_err());
        let mut bad = bytes.clone();
        bad[0] = Format::ALL.len() as u8;
        assert!(unpack_rest(&bad).is_err(), "an unknown format");
        let mut bad = bytes.clone();
        bad[1] = 2;
        assert!(unpack_rest(&bad).is_err(), "stopped is 0 or 1");
        let mut huge = bytes.clone();
        huge[18..22].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(unpack_rest(&huge).is_err(), "a summary count beyond the bytes");
        // Every byte changed to every value: read or refused, never a panic,
        // and what is read packs back to the same bytes.
        for at in 0..bytes.len() {
            for value in 0..=u8::MAX {
                let mut changed = bytes.clone();
                changed[at] = value;
                if let Ok(imp) = unpack_rest(&changed) {
                    let again = pack_rest(&imp);
                    assert_eq!(unpack_rest(&again).map(|i| pack_rest(&i)), Ok(again), "byte {at} = {value}");
                }
            }
        }
    }

    #[test]
    fn damaged_bytes_are_an_error_never_a_panic() {
        let bytes = pack(&[full(), full()]);
        for cut in 0..bytes.len() {
            assert!(unpack(bytes.get(..cut).unwrap_or_default()).is_err(), "cut at {cut}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(unpack(&longer).is_err());
        assert!(unpack(&[255, 255, 255, 255]).is_err());
        let mut bad_outcome = bytes;
        if let Some(b) = bad_outcome.get_mut(6) {
            *b = 99;
        }
        assert!(unpack(&bad_outcome).is_err());
    }
}
