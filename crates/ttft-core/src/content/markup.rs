//! The course's tiny inline markup, parsed into values the app renders as
//! elements.
//!
//! Content strings may use `**strong**`, `*emphasis*`, `` `code` `` and
//! `[text](url)`. [`parse`] turns a string into a list of [`Inline`] values;
//! the app builds DOM nodes from them one by one and never hands a string to
//! the browser as HTML, so neither file nor learner text can become markup.
//!
//! What it deliberately does not do: block structure (paragraphs and lists
//! are content types), escapes, nested links, raw HTML, or any link scheme
//! other than `http`, `https`, relative paths and `#anchors`. Anything it
//! does not recognise, including an unbalanced delimiter or a link to another
//! scheme, stays plain text. It never panics: delimiters are ASCII, so every
//! slice it takes falls on a UTF-8 boundary, and nesting is capped.

use serde::{Deserialize, Serialize};

/// A run of inline text with its formatting.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "value", rename_all = "snake_case")]
pub enum Inline {
    /// Plain text, shown as is.
    Text(String),
    /// `**strong**`: important words.
    Strong(Vec<Inline>),
    /// `*emphasis*`: stressed words.
    Emphasis(Vec<Inline>),
    /// `` `code` ``: a name, value or formula, shown in a monospace font.
    Code(String),
    /// `[text](href)` with an allowed destination.
    Link {
        /// What the learner reads and clicks.
        text: Vec<Inline>,
        /// Where it goes: `http(s)://…`, a relative path, or `#anchor`.
        href: String,
    },
}

/// How deep strong, emphasis and link text may nest inside each other before
/// further delimiters are read as plain text.
const MAX_DEPTH: usize = 4;

/// Parses inline markup. Never fails: what is not markup is text.
pub fn parse(source: &str) -> Vec<Inline> {
    parse_at(source, 0)
}

/// The text a learner would read, without formatting: for titles, `aria`
/// labels and the document title.
pub fn plain_text(inlines: &[Inline]) -> String {
    let mut out = String::new();
    push_plain(inlines, &mut out);
    out
}

fn push_plain(inlines: &[Inline], out: &mut String) {
    for inline in inlines {
        match inline {
            Inline::Text(t) | Inline::Code(t) => out.push_str(t),
            Inline::Strong(inner) | Inline::Emphasis(inner) => push_plain(inner, out),
            Inline::Link { text, .. } => push_plain(text, out),
        }
    }
}

/// True for `http://…`, `https://…`, `#anchor`, and relative paths such as
/// `?part=trace` or `notes.html`; false for any other scheme
/// (`javascript:`, `data:`), for protocol-relative `//host` links, and for
/// any backslash: browsers read `\` as `/` in web addresses, so
/// `/\evil.example` would leave the site. This checks the text only; the app
/// also resolves a relative link against the page before showing it.
pub fn is_allowed_href(href: &str) -> bool {
    let href = href.trim();
    if href.is_empty()
        || href
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || c == '\\')
    {
        return false;
    }
    let lower = href.to_ascii_lowercase();
    if lower.starts_with("https://") || lower.starts_with("http://") {
        return href.len() > lower.find("://").map_or(0, |i| i + 3);
    }
    if href.starts_with("//") {
        return false;
    }
    // A relative reference has no scheme: no ':' before the first '/', '?' or '#'.
    let head_end = href.find(['/', '?', '#']).unwrap_or(href.len());
    !href[..head_end].contains(':')
}

fn parse_at(source: &str, depth: usize) -> Vec<Inline> {
    let mut out: Vec<Inline> = Vec::new();
    let mut text = String::new();
    let mut rest = source;
    while let Some(c) = rest.chars().next() {
        if let Some((inline, used)) = recognise(rest, depth) {
            if !text.is_empty() {
                push_merged(&mut out, Inline::Text(std::mem::take(&mut text)));
            }
            push_merged(&mut out, inline);
            rest = &rest[used..];
        } else {
            text.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    if !text.is_empty() {
        push_merged(&mut out, Inline::Text(text));
    }
    out
}

/// Appends, joining plain text with a preceding plain text.
fn push_merged(out: &mut Vec<Inline>, inline: Inline) {
    if let (Some(Inline::Text(prev)), Inline::Text(next)) = (out.last_mut(), &inline) {
        prev.push_str(next);
        return;
    }
    out.push(inline);
}

/// Markup starting at the beginning of `rest`, with the bytes it used.
fn recognise(rest: &str, depth: usize) -> Option<(Inline, usize)> {
    if rest.starts_with('`') {
        return code(rest);
    }
    if depth >= MAX_DEPTH {
        return None;
    }
    if rest.starts_with("**") {
        return delimited(rest, "**", depth).map(|(inner, used)| (Inline::Strong(inner), used));
    }
    if rest.starts_with('*') {
        return delimited(rest, "*", depth).map(|(inner, used)| (Inline::Emphasis(inner), used));
    }
    if rest.starts_with('[') {
        return link(rest, depth);
    }
    None
}

/// `` `code` ``: up to the next backquote, taken literally.
fn code(rest: &str) -> Option<(Inline, usize)> {
    let body = &rest[1..];
    let end = body.find('`')?;
    let inner = &body[..end];
    if inner.is_empty() {
        return None;
    }
    Some((Inline::Code(inner.to_owned()), end + 2))
}

/// `**…**` or `*…*`: the closing delimiter is the next one that follows a
/// non-space character. Emphasis does not close on a `*` that is half of
/// `**`, so `*a **b** c*` keeps its strong words.
fn delimited(rest: &str, delim: &str, depth: usize) -> Option<(Vec<Inline>, usize)> {
    let body = &rest[delim.len()..];
    if body.starts_with(char::is_whitespace) || (delim == "*" && body.starts_with('*')) {
        return None;
    }
    let mut from = 0;
    while let Some(found) = body[from..].find(delim) {
        let at = from + found;
        let inner = &body[..at];
        let closes = !inner.is_empty() && !inner.ends_with(char::is_whitespace);
        let doubled = delim == "*" && body[at..].starts_with("**");
        if closes && !doubled {
            return Some((parse_at(inner, depth + 1), delim.len() + at + delim.len()));
        }
        from = at + if doubled { 2 } else { delim.len() };
    }
    None
}

/// `[text](href)`. A link to a scheme that is not allowed becomes its text.
fn link(rest: &str, depth: usize) -> Option<(Inline, usize)> {
    let close_text = rest.find("](")?;
    let text_src = &rest[1..close_text];
    if text_src.is_empty() || text_src.contains('[') {
        return None;
    }
    let after = &rest[close_text + 2..];
    let close_href = after.find(')')?;
    let href = &after[..close_href];
    let used = close_text + 2 + close_href + 1;
    let text = parse_at(text_src, depth + 1);
    if is_allowed_href(href) {
        Some((
            Inline::Link {
                text,
                href: href.trim().to_owned(),
            },
            used,
        ))
    } else {
        Some((Inline::Text(plain_text(&text)), used))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Inline {
        Inline::Text(s.into())
    }

    fn check(source: &str, expected: Vec<Inline>) {
        assert_eq!(parse(source), expected, "parsing {source:?}");
    }

    #[test]
    fn plain_text_stays_text() {
        check("", vec![]);
        check(
            "TTFT = queue wait + prefill + emit",
            vec![t("TTFT = queue wait + prefill + emit")],
        );
        check("2 * 3 * 4", vec![t("2 * 3 * 4")]);
    }

    #[test]
    fn formatting() {
        check(
            "the **dominant** delay",
            vec![t("the "), Inline::Strong(vec![t("dominant")]), t(" delay")],
        );
        check(
            "an *estimate*",
            vec![t("an "), Inline::Emphasis(vec![t("estimate")])],
        );
        check(
            "`time_in_queue` metric",
            vec![Inline::Code("time_in_queue".into()), t(" metric")],
        );
        check("`**not bold**`", vec![Inline::Code("**not bold**".into())]);
        check(
            "*a **b** c*",
            vec![Inline::Emphasis(vec![
                t("a "),
                Inline::Strong(vec![t("b")]),
                t(" c"),
            ])],
        );
        check(
            "**a *b* c**",
            vec![Inline::Strong(vec![
                t("a "),
                Inline::Emphasis(vec![t("b")]),
                t(" c"),
            ])],
        );
    }

    #[test]
    fn links() {
        check(
            "see [vLLM metrics](https://docs.vllm.ai/en/latest/design/metrics.html).",
            vec![
                t("see "),
                Inline::Link {
                    text: vec![t("vLLM metrics")],
                    href: "https://docs.vllm.ai/en/latest/design/metrics.html".into(),
                },
                t("."),
            ],
        );
        check(
            "[the split](#split)",
            vec![Inline::Link {
                text: vec![t("the split")],
                href: "#split".into(),
            }],
        );
        check(
            "[practise](?part=trace)",
            vec![Inline::Link {
                text: vec![t("practise")],
                href: "?part=trace".into(),
            }],
        );
        check(
            "[**bold** link](https://example.org)",
            vec![Inline::Link {
                text: vec![Inline::Strong(vec![t("bold")]), t(" link")],
                href: "https://example.org".into(),
            }],
        );
    }

    #[test]
    fn disallowed_links_become_their_text() {
        check("[click](javascript:alert(1))", vec![t("click)")]);
        check("a [x](data:text/html,hi) b", vec![t("a x b")]);
        check("[x](//evil.example)", vec![t("x")]);
        check("[x](/\\evil.example)", vec![t("x")]);
        check("[x](https://a.b\\@evil.example)", vec![t("x")]);
        check("[x](https://)", vec![t("x")]);
        for bad in [
            "javascript:alert(1)",
            "JAVASCRIPT:x",
            "vbscript:x",
            "data:x",
            "//h",
            "",
            " ",
            "a b",
            "mailto:x",
            "/\\h",
            "\\\\h",
            "a\\b",
        ] {
            assert!(!is_allowed_href(bad), "{bad:?} must be refused");
        }
        for good in [
            "https://a.b",
            "http://a.b/c?d#e",
            "#top",
            "?part=trace",
            "notes/a.html",
            "./x:y",
        ] {
            assert!(is_allowed_href(good), "{good:?} must be allowed");
        }
    }

    #[test]
    fn unbalanced_is_plain_text() {
        check("**never closed", vec![t("**never closed")]);
        check("*never closed", vec![t("*never closed")]);
        check("`never closed", vec![t("`never closed")]);
        check("[text](no close", vec![t("[text](no close")]);
        check("[text] (https://a.b)", vec![t("[text] (https://a.b)")]);
        check("** spaced **", vec![t("** spaced **")]);
        check("``", vec![t("``")]);
        check("[](https://a.b)", vec![t("[](https://a.b)")]);
    }

    #[test]
    fn any_utf8_is_safe() {
        check("**é**", vec![Inline::Strong(vec![t("é")])]);
        check(
            "*日本*語 `ß`",
            vec![
                Inline::Emphasis(vec![t("日本")]),
                t("語 "),
                Inline::Code("ß".into()),
            ],
        );
        check("🙂*", vec![t("🙂*")]);
        let nested = "*".repeat(200) + "x" + &"*".repeat(200);
        assert_eq!(
            plain_text(&parse(&nested))
                .chars()
                .filter(|&c| c == 'x')
                .count(),
            1
        );
        let deep = "[".repeat(100) + &"*a".repeat(100) + &"](https://a.b)".repeat(100);
        assert!(plain_text(&parse(&deep)).contains('a'));
    }

    #[test]
    fn plain_text_keeps_words() {
        assert_eq!(
            plain_text(&parse("the **dominant** [delay](#d) `x`")),
            "the dominant delay x"
        );
    }

    #[test]
    fn never_panics_on_arbitrary_strings() {
        // A small deterministic generator over the delimiters and multi-byte
        // characters, instead of a property test, keeps this module free of
        // test-only dependencies.
        let alphabet = [
            "*",
            "**",
            "`",
            "[",
            "]",
            "(",
            ")",
            "](",
            "a",
            " ",
            "é",
            "🙂",
            "https://x",
            "#",
            ":",
        ];
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..5_000 {
            let mut s = String::new();
            for _ in 0..(seed % 24) {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                s.push_str(alphabet[(seed % alphabet.len() as u64) as usize]);
            }
            let parsed = parse(&s);
            // Formatting only ever removes delimiters, so no text is invented.
            assert!(plain_text(&parsed).len() <= s.len(), "{s:?}");
            seed = seed.wrapping_add(0x2545_f491_4f6c_dd1d);
        }
    }
}
