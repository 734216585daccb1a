//! How much of a provider's reply the second opinion reads.
//!
//! A grade is five short entries: a few KB of text. An endpoint that keeps
//! streaming (a model repeating itself, a misconfigured proxy, a hostile
//! server) would otherwise grow the reply, and the page's memory, for as
//! long as the time limit allows. So the reply's text is capped at
//! [`REPLY_TEXT_LIMIT`] (64 KiB, more than ten times a long grade): the
//! grading stream (`grader::GradingStream`) checks each piece before adding
//! it, and the call stops with `CallFailure::TooLarge`, explained in plain
//! words by [`too_large`].
//!
//! An error body (what a 4xx or 5xx carries) is shown only up to
//! [`ERROR_BODY_CHARS`] characters, so it is read only that far:
//! [`ErrorBody`] takes chunks until it holds enough bytes for that many
//! characters and then says to stop, so the app cancels the download of a
//! whole HTML page or an endless body.
//!
//! Also here: the message for a redirect, which the app does not follow.
//! This module does no I/O and depends on no other module: the grader
//! imports it, not the other way round.

/// The most text a grading reply may hold, in bytes of UTF-8: 64 KiB.
pub const REPLY_TEXT_LIMIT: usize = 64 * 1024;

/// How many characters of an error body are kept and shown.
pub const ERROR_BODY_CHARS: usize = 4_000;

/// The most bytes [`ERROR_BODY_CHARS`] characters can take (4 per
/// character): the bound on what is read when the body is not UTF-8.
const ERROR_BODY_BYTES: usize = ERROR_BODY_CHARS * 4;

/// What the learner reads when the endpoint answered with a redirect.
pub const REDIRECTED: &str = "The endpoint answered with a redirect to another address. Your key goes only to the \
base URL shown in the settings, so the redirect was not followed and nothing was graded. If you trust the address it \
redirects to, put that address in Base URL instead.";

/// What the learner reads when the reply passed `limit` bytes.
pub fn too_large(limit: usize) -> String {
    let size = if limit % 1024 == 0 {
        format!("{} KiB", limit / 1024)
    } else {
        format!("{limit} bytes")
    };
    format!(
        "The reply grew past {size} of text, far more than a grade needs (a few KB), so it was stopped and \
         nothing from it is shown. The model may be repeating itself: try again, or choose another model."
    )
}

/// The start of an error body, read chunk by chunk.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ErrorBody {
    bytes: Vec<u8>,
    /// Characters begun so far (bytes that do not continue a character).
    chars: usize,
    full: bool,
}

impl ErrorBody {
    /// Nothing read yet.
    pub fn new() -> ErrorBody {
        ErrorBody::default()
    }

    /// Takes the next chunk. Returns `true` once enough has been read to
    /// show [`ERROR_BODY_CHARS`] characters: the caller stops reading.
    /// The count runs along with the bytes, so nothing is counted twice.
    pub fn push(&mut self, chunk: &[u8]) -> bool {
        for &b in chunk {
            let starts_char = b & 0xC0 != 0x80;
            if self.full
                || (starts_char && self.chars == ERROR_BODY_CHARS)
                || self.bytes.len() == ERROR_BODY_BYTES
            {
                self.full = true;
                break;
            }
            self.chars += usize::from(starts_char);
            self.bytes.push(b);
        }
        self.full
    }

    /// The text read, at most [`ERROR_BODY_CHARS`] characters. A character
    /// cut off by the end of what was read is left out; bytes that are not
    /// UTF-8 become U+FFFD.
    pub fn text(&self) -> String {
        let whole = match std::str::from_utf8(&self.bytes) {
            Ok(_) => self.bytes.as_slice(),
            // Only an incomplete character at the very end is dropped.
            Err(e) if e.error_len().is_none() => self.bytes.get(..e.valid_up_to()).unwrap_or(&[]),
            Err(_) => self.bytes.as_slice(),
        };
        String::from_utf8_lossy(whole)
            .chars()
            .take(ERROR_BODY_CHARS)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limit_in_words() {
        assert!(too_large(REPLY_TEXT_LIMIT)
            .starts_with("The reply grew past 64 KiB of text, far more than a grade needs"));
        assert!(too_large(1000).contains("past 1000 bytes of text"));
    }

    #[test]
    fn an_error_body_is_read_only_as_far_as_it_is_shown() {
        let mut body = ErrorBody::new();
        assert!(!body.push(b"{\"error\":"));
        assert_eq!(body.text(), "{\"error\":");

        // An endless ASCII page: reading stops once 4,000 characters are in.
        let mut page = ErrorBody::new();
        let chunk = vec![b'<'; 1000];
        let reads = (1..100).find(|_| page.push(&chunk)).unwrap();
        assert_eq!(
            reads, 5,
            "four chunks hold 4,000 characters; the fifth shows there is more"
        );
        assert_eq!(page.text().chars().count(), ERROR_BODY_CHARS);

        // Four-byte characters split across chunks, and one cut off at the end.
        let mut wide = ErrorBody::new();
        let text = "🙂".repeat(5);
        let (a, b) = text.as_bytes().split_at(6);
        wide.push(a);
        wide.push(b.get(..b.len() - 1).unwrap());
        assert_eq!(wide.text(), "🙂".repeat(4));
        let mut bad = ErrorBody::new();
        bad.push(&[b'a', 0xff, b'b']);
        assert_eq!(bad.text(), "a\u{fffd}b");
        // Bytes that never start a character still end the reading.
        let mut junk = ErrorBody::new();
        assert!(junk.push(&vec![0x80; ERROR_BODY_BYTES + 1]));
    }
}
