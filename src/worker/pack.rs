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

use ttft_import::{Breakdown, Clock, ImportedRequest, Prefill, PrefillConvention};
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
    let mut r = Reader { bytes, at: 0 };
    let n = r.u32()? as usize;
    // Every request takes at least 9 bytes: a count beyond that is damage.
    if n > bytes.len() / 9 {
        return Err("the batch says it holds more requests than it has bytes".to_owned());
    }
    let mut requests = Vec::with_capacity(n);
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
    Ok(requests)
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
