//! The per-request split as CSV, for a learner to take into a spreadsheet.
//! The columns are documented in the crate README; times are milliseconds
//! with up to three decimals (exact: they come from integer microseconds),
//! and an empty cell means the source does not say.
//!
//! This module does not re-import its own output: the export holds derived
//! figures (shares, largest part) that the CSV importer has no column for.

use crate::model::{ImportedRequest, Piece};
use ttft_latency::decimal::fixed;
use ttft_latency::Micros;

/// The header row, in column order.
pub const HEADER: [&str; 19] = [
    "id",
    "outcome",
    "error",
    "clock",
    "start_unix_ms",
    "prompt_tokens",
    "output_tokens",
    "queue_ms",
    "prefill_ms",
    "prefill_convention",
    "emit_ms",
    "unattributed_ms",
    "ttft_ms",
    "decode_ms",
    "e2e_ms",
    "output_tokens_per_s",
    "largest",
    "queue_share_pct",
    "prefill_share_pct",
];

/// Milliseconds with up to three decimals and no thousands separator:
/// `12360`, `0.5`, `-40`.
pub fn ms_text(t: Micros) -> String {
    let neg = t.0 < 0;
    let abs = t.0.unsigned_abs();
    let mut out = String::new();
    if neg {
        out.push('-');
    }
    out.push_str(&(abs / 1_000).to_string());
    let frac = abs % 1_000;
    if frac != 0 {
        out.push('.');
        out.push_str(format!("{frac:03}").trim_end_matches('0'));
    }
    out
}

fn quote(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_owned()
    }
}

fn opt_ms(t: Option<Micros>) -> String {
    t.map(ms_text).unwrap_or_default()
}

/// One request as a CSV row (without the line break).
pub fn row(r: &ImportedRequest) -> String {
    let b = &r.breakdown;
    let share = |piece: Piece| {
        b.share(piece)
            .and_then(|s| s.tenths())
            .map(ttft_latency::split::format_tenths)
            .unwrap_or_default()
    };
    let prefill_share = if b.share(Piece::Prefill).is_some() {
        share(Piece::Prefill)
    } else {
        share(Piece::PrefillWithEmit)
    };
    let cells = [
        quote(&r.id),
        r.outcome.label().to_owned(),
        quote(r.error.as_deref().unwrap_or_default()),
        b.clock.label().to_owned(),
        opt_ms(r.start),
        r.prompt_tokens.map(|n| n.to_string()).unwrap_or_default(),
        r.output_tokens.map(|n| n.to_string()).unwrap_or_default(),
        opt_ms(b.queue_wait),
        opt_ms(b.prefill.map(|p| p.duration)),
        b.prefill
            .map(|p| p.convention.label().to_owned())
            .unwrap_or_default(),
        opt_ms(b.emit),
        opt_ms(b.unattributed),
        opt_ms(b.ttft.or_else(|| b.split_ttft())),
        opt_ms(b.decode),
        opt_ms(b.e2e),
        r.output_rate()
            .map(|x| fixed(x, 1))
            .unwrap_or_default(),
        quote(&b.largest().map(|l| l.to_string()).unwrap_or_default()),
        share(Piece::QueueWait),
        prefill_share,
    ];
    cells.join(",")
}

/// All requests as CSV text with a header row, one line each, `\n` endings.
pub fn to_csv(requests: &[ImportedRequest]) -> String {
    let mut out = HEADER.join(",");
    out.push('\n');
    for r in requests {
        out.push_str(&row(r));
        out.push('\n');
    }
    out
}
