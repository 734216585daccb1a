//! What the learner types into the worked timeline, read into the core's
//! types.
//!
//! The six boxes hold text; [`Entries::evaluate`] reads each as a time in
//! milliseconds, builds the core's [`RequestTrace`] from the lesson's request
//! with the learner's times, and asks the core for the split and the
//! browser-versus-server gap. Each problem is attached to the box that caused
//! it, whether it is a reading problem (not a number, negative) found here or
//! a timing problem (out of order, missing) found by the core.
//!
//! What it deliberately does not do: any latency arithmetic. Every duration,
//! share and rate comes from `ttft_core`; this module only parses numbers and
//! routes errors to boxes.

use std::fmt;
use ttft_core::content::WorkedTimeline;
use ttft_latency::split::unseen_by_server;
use ttft_latency::{
    parse_ms, split_request, Events, Field, Micros, MsError, RequestSplit, Timing, TimingError,
};

/// One box of the worked timeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Entry {
    /// The request reaches the runtime.
    Arrival,
    /// The scheduler admits it.
    Admitted,
    /// Prefill ends.
    PrefillEnd,
    /// The first token is written to the stream.
    FirstToken,
    /// The last token is written.
    LastToken,
    /// The browser shows the first text (a duration measured in the browser).
    BrowserFirstText,
}

impl Entry {
    /// Every box, in the order the lesson shows them.
    pub const ALL: [Entry; 6] = [
        Entry::Arrival,
        Entry::Admitted,
        Entry::PrefillEnd,
        Entry::FirstToken,
        Entry::LastToken,
        Entry::BrowserFirstText,
    ];

    /// The five server events, in time order.
    pub const SERVER: [Entry; 5] = [
        Entry::Arrival,
        Entry::Admitted,
        Entry::PrefillEnd,
        Entry::FirstToken,
        Entry::LastToken,
    ];

    /// The box's label.
    pub fn label(self) -> &'static str {
        match self {
            Entry::Arrival => "Arrives at the runtime (server ms)",
            Entry::Admitted => "Admitted by the scheduler (server ms)",
            Entry::PrefillEnd => "Prefill ends (server ms)",
            Entry::FirstToken => "First token written (server ms)",
            Entry::LastToken => "Last token written (server ms)",
            Entry::BrowserFirstText => "Browser: send to first visible text (ms)",
        }
    }

    /// A stable id for the input element and its error.
    pub fn id(self) -> &'static str {
        match self {
            Entry::Arrival => "wt-arrival",
            Entry::Admitted => "wt-admitted",
            Entry::PrefillEnd => "wt-prefill-end",
            Entry::FirstToken => "wt-first-token",
            Entry::LastToken => "wt-last-token",
            Entry::BrowserFirstText => "wt-browser-first-text",
        }
    }

    fn index(self) -> usize {
        match self {
            Entry::Arrival => 0,
            Entry::Admitted => 1,
            Entry::PrefillEnd => 2,
            Entry::FirstToken => 3,
            Entry::LastToken => 4,
            Entry::BrowserFirstText => 5,
        }
    }

    /// The box a core error belongs next to. Token-count errors concern the
    /// decode, whose end the last-token box sets.
    pub fn for_field(field: Field) -> Entry {
        match field {
            Field::Arrival => Entry::Arrival,
            Field::Admitted | Field::QueueWait => Entry::Admitted,
            Field::PrefillEnd | Field::Prefill => Entry::PrefillEnd,
            Field::FirstToken | Field::Emit | Field::Ttft => Entry::FirstToken,
            Field::LastToken | Field::Decode | Field::PromptTokens | Field::OutputTokens => {
                Entry::LastToken
            }
        }
    }
}

/// A problem with one box.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EntryError {
    /// The text is not a number of milliseconds.
    NotANumber { text: String },
    /// A time below zero: the server clock counts from arrival, and the
    /// browser's figure is a duration.
    Negative,
    /// The number is too large to be a time.
    TooLarge,
    /// The box is empty and nothing that needs it can be worked out.
    Empty { needed_for: &'static str },
    /// The core refused the timings, for a reason it names.
    Timing(TimingError),
    /// The browser's duration is shorter than the server's TTFT.
    BrowserBeforeServer {
        browser: Micros,
        server_ttft: Micros,
    },
}

impl fmt::Display for EntryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EntryError::NotANumber { text } => {
                write!(f, "\u{201c}{text}\u{201d} is not a number of milliseconds; type digits such as 350")
            }
            EntryError::Negative => f.write_str("a time here cannot be negative: the server clock counts from arrival"),
            EntryError::TooLarge => f.write_str("this number is too large to be a time in milliseconds"),
            EntryError::Empty { needed_for } => write!(f, "this time is empty, so {needed_for} cannot be worked out"),
            EntryError::Timing(e) => write!(f, "{e}"),
            EntryError::BrowserBeforeServer { browser, server_ttft } => write!(
                f,
                "the browser's {browser} is shorter than the server's TTFT of {server_ttft}; the browser's \
                 clock starts before the server's and stops after it, so these cannot be the same request"
            ),
        }
    }
}

/// The text in each box.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entries {
    texts: [String; 6],
}

/// What the boxes add up to right now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evaluation {
    /// Problems, each with the box it belongs to, in box order.
    pub errors: Vec<(Entry, EntryError)>,
    /// The core's split, when the server times are valid.
    pub split: Option<RequestSplit>,
    /// The browser's measured time to first text, when valid.
    pub browser_first_text: Option<Micros>,
    /// Browser time minus server TTFT, when both are valid and it is not
    /// negative.
    pub unseen_by_server: Option<Micros>,
}

impl Evaluation {
    /// The problem with one box, if any.
    pub fn error_for(&self, entry: Entry) -> Option<&EntryError> {
        self.errors
            .iter()
            .find(|(e, _)| *e == entry)
            .map(|(_, err)| err)
    }
}

impl Entries {
    /// The lesson's own values.
    pub fn from_timeline(wt: &WorkedTimeline) -> Entries {
        let ms = [
            wt.arrival_ms,
            wt.admitted_ms,
            wt.prefill_end_ms,
            wt.first_token_ms,
            wt.last_token_ms,
            wt.browser_first_text_ms,
        ];
        Entries {
            texts: ms.map(|v| v.to_string()),
        }
    }

    /// The text in a box.
    pub fn text(&self, entry: Entry) -> &str {
        self.texts.get(entry.index()).map_or("", String::as_str)
    }

    /// Replaces the text in a box.
    pub fn set(&mut self, entry: Entry, text: String) {
        if let Some(slot) = self.texts.get_mut(entry.index()) {
            *slot = text;
        }
    }

    /// Reads every box and asks the core what they mean. `wt` supplies the
    /// request's id and token counts.
    pub fn evaluate(&self, wt: &WorkedTimeline) -> Evaluation {
        let mut errors = Vec::new();
        let mut times = [None; 6];
        for entry in Entry::ALL {
            match read_ms(self.text(entry)) {
                Ok(Some(t)) => times[entry.index()] = Some(t),
                Ok(None) => {}
                Err(e) => errors.push((entry, e)),
            }
        }
        let reading_ok = errors.is_empty();
        let mut trace = wt.request_trace();
        trace.timing = Timing::Events(Events {
            arrival: times[0],
            admitted: times[1],
            prefill_end: times[2],
            first_token: times[3],
            last_token: times[4],
        });
        let server_ok = Entry::SERVER
            .iter()
            .all(|e| !errors.iter().any(|(bad, _)| bad == e));
        let split = if server_ok {
            match split_request(&trace) {
                Ok(split) => Some(split),
                Err(e) => {
                    errors.push((Entry::for_field(e.field()), EntryError::Timing(e)));
                    None
                }
            }
        } else {
            None
        };
        if reading_ok && times[4].is_none() && split.is_some() {
            errors.push((
                Entry::LastToken,
                EntryError::Empty {
                    needed_for: "the output rate and end-to-end latency",
                },
            ));
        }
        let browser_first_text = times[5];
        if reading_ok && browser_first_text.is_none() {
            errors.push((
                Entry::BrowserFirstText,
                EntryError::Empty {
                    needed_for: "the gap the server cannot see",
                },
            ));
        }
        let mut unseen = None;
        if let (Some(split), Some(browser)) = (&split, browser_first_text) {
            let gap = unseen_by_server(split.ttft(), browser);
            if gap.is_negative() {
                errors.push((
                    Entry::BrowserFirstText,
                    EntryError::BrowserBeforeServer {
                        browser,
                        server_ttft: split.ttft(),
                    },
                ));
            } else {
                unseen = Some(gap);
            }
        }
        ttft_latency::short_sort::sort_short_by(&mut errors, |(a, _), (b, _)| a.index().cmp(&b.index()));
        Evaluation {
            errors,
            split,
            browser_first_text,
            unseen_by_server: unseen,
        }
    }
}

/// Reads a box: empty is `None`; digits with an optional decimal part and
/// thousands commas are milliseconds, read exactly to the microsecond by the
/// core's one reader of millisecond text (`parse_ms`, no float in between).
fn read_ms(text: &str) -> Result<Option<Micros>, EntryError> {
    let cleaned: String = text
        .trim()
        .chars()
        .filter(|c| *c != ',' && *c != '_' && !c.is_whitespace())
        .collect();
    let cleaned = cleaned.strip_suffix("ms").unwrap_or(&cleaned).trim();
    if cleaned.is_empty() {
        return Ok(None);
    }
    // A box takes plain decimals only: no exponent, no plus sign, one point.
    let well_formed = cleaned
        .chars()
        .all(|c| c.is_ascii_digit() || c == '.' || c == '-')
        && cleaned.chars().filter(|c| *c == '.').count() <= 1
        && !cleaned.chars().skip(1).any(|c| c == '-')
        && cleaned.chars().any(|c| c.is_ascii_digit());
    let not_a_number = || EntryError::NotANumber {
        text: text.trim().chars().take(40).collect(),
    };
    if !well_formed {
        return Err(not_a_number());
    }
    // Below zero, however little (`-0.0000001` would round to zero).
    if cleaned.starts_with('-') && cleaned.bytes().any(|b| (b'1'..=b'9').contains(&b)) {
        return Err(EntryError::Negative);
    }
    let value = match parse_ms(cleaned) {
        Ok(t) => t,
        Err(MsError::NotANumber) => return Err(not_a_number()),
        Err(MsError::TooLarge) => return Err(EntryError::TooLarge),
    };
    if value.is_negative() {
        return Err(EntryError::Negative);
    }
    // A bound far beyond any request keeps later sums from overflowing.
    if value > Micros::from_ms(1_000_000_000_000) {
        return Err(EntryError::TooLarge);
    }
    Ok(Some(value))
}

#[cfg(test)]
mod tests {
    use super::*;
    /// The worked timeline exactly as the page embeds it, so these tests
    /// follow the lesson's own data rather than a copy of it.
    fn lesson() -> WorkedTimeline {
        crate::course::load()
            .expect("the embedded course loads")
            .worked_timeline
    }

    fn check(
        changes: &[(Entry, &str)],
        expected_errors: &[(Entry, &str)],
        expected_ttft_ms: Option<i64>,
    ) {
        let wt = lesson();
        let mut entries = Entries::from_timeline(&wt);
        for (entry, text) in changes {
            entries.set(*entry, (*text).to_owned());
        }
        let eval = entries.evaluate(&wt);
        let errors: Vec<(Entry, String)> = eval
            .errors
            .iter()
            .map(|(e, err)| (*e, err.to_string()))
            .collect();
        assert_eq!(errors.len(), expected_errors.len(), "{errors:?}");
        for ((entry, text), (want_entry, want_part)) in errors.iter().zip(expected_errors) {
            assert_eq!(entry, want_entry, "{text}");
            assert!(
                text.contains(want_part),
                "{text:?} should contain {want_part:?}"
            );
        }
        assert_eq!(
            eval.split.map(|s| s.ttft()),
            expected_ttft_ms.map(Micros::from_ms)
        );
    }

    #[test]
    fn the_lessons_values_split() {
        check(&[], &[], Some(360));
        let eval = Entries::from_timeline(&lesson()).evaluate(&lesson());
        assert_eq!(eval.unseen_by_server, Some(Micros::from_ms(90)));
        check(&[(Entry::LastToken, " 12,360 ")], &[], Some(360));
        check(
            &[(Entry::Admitted, "é")],
            &[(Entry::Admitted, "is not a number")],
            None,
        );
        check(&[(Entry::Admitted, "40.5 ms")], &[], Some(360));
    }

    #[test]
    fn errors_go_next_to_their_box() {
        check(
            &[(Entry::PrefillEnd, "30")],
            &[(
                Entry::PrefillEnd,
                "end of prefill at 30 ms comes before admission at 40 ms",
            )],
            None,
        );
        check(
            &[(Entry::Admitted, "abc")],
            &[(Entry::Admitted, "is not a number")],
            None,
        );
        check(
            &[(Entry::Admitted, "-5")],
            &[(Entry::Admitted, "cannot be negative")],
            None,
        );
        check(
            &[(Entry::Admitted, "4-0")],
            &[(Entry::Admitted, "is not a number")],
            None,
        );
        check(
            &[(Entry::Admitted, "")],
            &[(Entry::Admitted, "admission time is missing")],
            None,
        );
        check(
            &[(Entry::LastToken, "")],
            &[(Entry::LastToken, "output rate")],
            Some(360),
        );
        check(
            &[(Entry::BrowserFirstText, "300")],
            &[(Entry::BrowserFirstText, "shorter than the server")],
            Some(360),
        );
        check(
            &[(Entry::BrowserFirstText, "")],
            &[(Entry::BrowserFirstText, "cannot be worked out")],
            Some(360),
        );
        check(
            &[(Entry::Arrival, "1e300")],
            &[(Entry::Arrival, "not a number")],
            None,
        );
        check(
            &[(Entry::Arrival, "99999999999999999999")],
            &[(Entry::Arrival, "too large")],
            None,
        );
        check(
            &[(Entry::LastToken, "200")],
            &[(
                Entry::LastToken,
                "last token at 200 ms comes before first token",
            )],
            None,
        );
        check(
            &[(Entry::LastToken, "-"), (Entry::Arrival, ".")],
            &[
                (Entry::Arrival, "not a number"),
                (Entry::LastToken, "not a number"),
            ],
            None,
        );
    }

    #[test]
    fn boxes_read_exactly_to_the_microsecond() {
        // Half a microsecond rounds up, with no float in between.
        assert_eq!(read_ms("0.0005"), Ok(Some(Micros(1))));
        assert_eq!(read_ms(" 1,234.5675 ms"), Ok(Some(Micros(1_234_568))));
        assert_eq!(read_ms("40.1234994"), Ok(Some(Micros(40_123))));
        assert_eq!(read_ms("5."), Ok(Some(Micros(5_000))));
        assert_eq!(read_ms(".25"), Ok(Some(Micros(250))));
        assert_eq!(read_ms("-0"), Ok(Some(Micros(0))));
        assert_eq!(read_ms("-0.0000001"), Err(EntryError::Negative));
        assert_eq!(read_ms("+5").map_err(|e| e.to_string().contains("not a number")), Err(true));
        assert_eq!(read_ms("1000000000000"), Ok(Some(Micros::from_ms(1_000_000_000_000))));
        assert_eq!(read_ms("1000000000000.001"), Err(EntryError::TooLarge));
    }

}
