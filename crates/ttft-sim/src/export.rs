//! A run as a trace file the import part reads back unchanged.
//!
//! The format is the importer's CSV with server events
//! (`crates/ttft-import/README.md`, "CSV input columns"): the one format it
//! reads that carries all five events on one clock in the course's
//! convention, where prefill ends when the first token's scores are ready
//! and emit is its own part. (vLLM's spans fold emit into prefill, so an
//! OTLP export would lose the split.) Times are milliseconds with up to
//! three decimals, exact from integer microseconds. Rejected and
//! still-running requests are rows with their outcome (`rejected`,
//! `cancelled`) and the reason in `error`; still-running ones keep the
//! events they reached.
//!
//! Columns the importer does not read are ignored by it and kept for a
//! spreadsheet: `class`, `preemptions`, `preempted_wait_ms`, `recompute_ms`
//! (before and after the first token together), `cached_tokens` and `ttft_ms`
//! (the sum of the three parts, for a spreadsheet to check).

use crate::run::{End, Run, SimRequest};
use ttft_latency::Micros;

/// The header row, in column order.
pub const HEADER: [&str; 17] = [
    "id",
    "class",
    "outcome",
    "error",
    "arrival_ms",
    "admitted_ms",
    "prefill_end_ms",
    "first_token_ms",
    "last_token_ms",
    "prompt_tokens",
    "output_tokens",
    "queued_at_arrival",
    "preemptions",
    "preempted_wait_ms",
    "recompute_ms",
    "cached_tokens",
    "ttft_ms",
];

fn ms(t: Option<Micros>) -> String {
    t.map(ttft_import::export::ms_text).unwrap_or_default()
}

fn quote(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r'])
        || s.starts_with(char::is_whitespace)
        || s.ends_with(char::is_whitespace)
    {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_owned()
    }
}

/// One request as a row (without the line break).
pub fn row(run: &Run, r: &SimRequest) -> String {
    let error = match r.end {
        End::Finished => String::new(),
        End::Rejected(why) => why.describe().to_owned(),
        End::Unfinished => "still running when the simulation ended".to_owned(),
    };
    let b = &r.before_first_token;
    let a = &r.after_first_token;
    let cells = [
        r.id(),
        quote(run.class_name(r)),
        r.outcome().label().to_owned(),
        quote(&error),
        ms(Some(r.arrival)),
        ms(r.first_scheduled),
        ms(r.prefill_end),
        ms(r.first_token),
        ms(r.last_token),
        r.prompt_tokens.to_string(),
        if r.generated > 0 {
            r.generated.to_string()
        } else {
            String::new()
        },
        r.queued_at_arrival.to_string(),
        r.preemptions().to_string(),
        ms(Some(b.waiting + a.waiting)),
        ms(Some(b.recompute + a.recompute)),
        r.cached_tokens.to_string(),
        ms(r.ttft()),
    ];
    cells.join(",")
}

/// The whole run as CSV text with a header row, `\n` line endings.
pub fn to_csv(run: &Run) -> String {
    let mut out = HEADER.join(",");
    out.push('\n');
    for r in &run.requests {
        out.push_str(&row(run, r));
        out.push('\n');
    }
    out
}

/// The run as the import part reads its exported CSV: each request through
/// `ttft_import::csv::event_request`, the same function that reads a row, so
/// the page shows a simulated run with every view of an imported trace
/// without writing and parsing the text. A test checks it against
/// `ttft_import::import(&to_csv(run))`.
pub fn to_import(run: &Run) -> ttft_import::Import {
    use ttft_import::csv::{event_request, EventRow};
    use ttft_latency::Events;
    let mut imp = ttft_import::Import::new(ttft_import::Format::Csv);
    imp.requests.reserve(run.requests.len());
    for r in &run.requests {
        let outcome = r.outcome();
        let error = match r.end {
            End::Finished => None,
            End::Rejected(why) => Some(why.describe().to_owned()),
            End::Unfinished => Some("still running when the simulation ended".to_owned()),
        };
        let row = EventRow {
            id: r.id(),
            prompt_tokens: Some(u64::from(r.prompt_tokens)),
            output_tokens: (r.generated > 0).then_some(u64::from(r.generated)),
            queued_at_arrival: Some(u64::from(r.queued_at_arrival)),
            outcome,
            error,
            events: Events {
                arrival: Some(r.arrival),
                admitted: r.first_scheduled,
                prefill_end: r.prefill_end,
                first_token: r.first_token,
                last_token: r.last_token,
            },
        };
        match event_request(row) {
            Ok(req) => imp.requests.push(req),
            Err(message) => imp.problems.push(ttft_import::model::Problem {
                location: ttft_import::model::Location::Line(r.index as usize + 2),
                message,
            }),
        }
    }
    imp
}
