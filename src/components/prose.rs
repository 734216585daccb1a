//! Course prose on the page: placeholders filled from the course through the
//! core, inline markup turned into elements.
//!
//! Every string from a content file passes through here. Placeholders such
//! as `{H2.share.queue_wait}` are filled by `ttft_core::content::template` first, so
//! a figure in a sentence is whatever the core computes; the result is then
//! parsed by `ttft_core::content::markup` and each [`Inline`] becomes an element.
//! Text is only ever set as text, never as HTML.
//!
//! Links get a second lock after the core's text check
//! (`markup::is_allowed_href`): a relative link is resolved against the
//! page's own address, as the browser will resolve it, and shown as a link
//! only when it stays on the page's origin ([`checked_href`]); otherwise its
//! words are shown as plain text. An absolute link must be `http(s)`.
//!
//! What it deliberately does not do: block layout (the lesson decides
//! paragraphs and lists) or any formatting of its own.

use crate::course::CourseContext;
use crate::navigation::Navigator;
use leptos::prelude::*;
use std::sync::Arc;
use ttft_core::authoring::AuthoredExercise;
use ttft_core::content::markup::{self, Inline};
use ttft_core::content::template::{fill_from, Sources};
use ttft_core::course_part::CoursePart;

/// An instructor's authored file, provided around the exercise it shows:
/// prose inside it fills its placeholders from that file alone, as the
/// core's validation checked them, never from the built-in course.
#[derive(Clone, Debug)]
pub struct AuthoredScope(pub Arc<AuthoredExercise>);

/// A content string with its placeholders filled. If filling fails (the
/// content test should make that impossible) the text is shown as written
/// and the reason goes to the console.
pub fn fill(text: &str) -> String {
    let filled = if let Some(AuthoredScope(file)) = use_context::<AuthoredScope>() {
        let sources = Sources {
            trace: file.trace_exercise.as_ref(),
            config: file.config_exercise.as_ref(),
            worked: None,
        };
        fill_from(text, &sources)
    } else if let Some(CourseContext(course)) = use_context::<CourseContext>() {
        fill_from(text, &crate::course::sources(&course))
    } else {
        return text.to_owned();
    };
    match filled {
        Ok(filled) => filled,
        Err(e) => {
            leptos::logging::warn!("course text could not be filled ({e}): {text}");
            text.to_owned()
        }
    }
}

/// The inline elements of a content string.
pub fn inlines(text: &str) -> Vec<AnyView> {
    let parsed = markup::parse(&fill(text));
    render(&parsed)
}

/// A content string's words without formatting, for labels and titles.
pub fn plain(text: &str) -> String {
    markup::plain_text(&markup::parse(&fill(text)))
}

fn render(parsed: &[Inline]) -> Vec<AnyView> {
    parsed.iter().map(render_one).collect()
}

fn render_one(inline: &Inline) -> AnyView {
    match inline {
        Inline::Text(text) => text.clone().into_any(),
        Inline::Strong(inner) => view! { <strong>{render(inner)}</strong> }.into_any(),
        Inline::Emphasis(inner) => view! { <em>{render(inner)}</em> }.into_any(),
        Inline::Code(code) => view! { <code>{code.clone()}</code> }.into_any(),
        Inline::Link { text, href } => link(text, href),
    }
}

/// `href` when following it from the page at `page` goes where it says:
/// an absolute `http(s)` address, or a relative one that the browser
/// resolves to the page's own origin. `None` for anything else, such as a
/// relative link a browser would take to another host.
#[cfg(target_arch = "wasm32")]
pub fn checked_href(href: &str, page: &str) -> Option<String> {
    // Only an address with a scheme parses alone; asking the browser about
    // any other costs a thrown exception, once per link of a long lesson.
    if has_scheme(href) {
        if let Ok(absolute) = web_sys::Url::new(href) {
            return matches!(absolute.protocol().as_str(), "http:" | "https:").then(|| href.to_owned());
        }
    }
    let here = web_sys::Url::new(page).ok()?;
    let there = web_sys::Url::new_with_base(href, page).ok()?;
    (there.origin() == here.origin()).then(|| href.to_owned())
}

/// Whether `href` starts with a scheme (`https:`, `javascript:`) as the
/// WHATWG URL parser reads it: after leading C0 controls and spaces, with
/// tabs and newlines anywhere ignored, a letter, then letters, digits, `+`,
/// `-` or `.`, then `:`. Without one, `new URL(href)` with no base always
/// fails.
pub fn has_scheme(href: &str) -> bool {
    let mut chars = href
        .trim_start_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'));
    if !chars.next().is_some_and(|c| c.is_ascii_alphabetic()) {
        return false;
    }
    for c in chars {
        match c {
            ':' => return true,
            c if c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.') => {}
            _ => return false,
        }
    }
    false
}

/// Natively (the release step's static first view) the same check by the
/// same WHATWG URL rules, through the `url` crate. The page's address is not
/// known there (`page` is empty), so a relative link is resolved against a
/// stand-in web page: whether a relative link leaves its page's origin does
/// not depend on which http(s) page that is.
#[cfg(not(target_arch = "wasm32"))]
pub fn checked_href(href: &str, page: &str) -> Option<String> {
    /// A page under the reserved `.invalid` name (RFC 2606), never a real one.
    const STAND_IN: &str = "https://first-view.invalid/ttft-lab/";
    if let Ok(absolute) = url::Url::parse(href) {
        return matches!(absolute.scheme(), "http" | "https").then(|| href.to_owned());
    }
    let here = url::Url::parse(page)
        .or_else(|_| url::Url::parse(STAND_IN))
        .ok()?;
    let there = here.join(href).ok()?;
    (there.origin() == here.origin()).then(|| href.to_owned())
}

fn link(text: &[Inline], href: &str) -> AnyView {
    let children = render(text);
    let Some(href) = checked_href(href, &crate::address::href()) else {
        return view! { <span>{children}</span> }.into_any();
    };
    let href = href.as_str();
    if CoursePart::from_href(href).is_some() {
        let nav = use_context::<Navigator>();
        let target = href.to_owned();
        view! {
            <a href=href.to_owned() on:click=move |ev| if let Some(nav) = nav { nav.follow(&ev, &target) }>
                {children}
            </a>
        }
        .into_any()
    } else {
        view! { <a href=href.to_owned()>{children}</a> }.into_any()
    }
}

/// A content string as inline elements, for use inside any element.
#[component]
pub fn Prose(
    /// The content string, with placeholders and inline markup.
    #[prop(into)]
    text: String,
) -> impl IntoView {
    inlines(&text)
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::checked_href;

    /// The cases of `tests/prose.rs`, which checks the browser's version.
    fn check(href: &str, expected: Option<&str>) {
        for page in ["", "https://courses.example.org/ttft-lab/?part=trace"] {
            assert_eq!(checked_href(href, page).as_deref(), expected, "{href} from {page:?}");
        }
    }

    #[test]
    fn a_scheme_is_read_as_the_url_parser_reads_it() {
        use super::has_scheme;
        for yes in ["https://x", "HTTP:x", "javascript:alert(1)", " \u{1}data:x", "java\tscript:x", "a+b-c.d:", "mailto:"] {
            assert!(has_scheme(yes), "{yes:?}");
        }
        for no in ["?part=trace", "#a", "notes/w.html", "./x:y", "/x:y", "//evil.example", "1http:x", ":x", "", "ht tp:x", "\\\\x"] {
            assert!(!has_scheme(no), "{no:?}");
        }
        // Natively, every `no` is what the URL parser cannot read alone.
        for no in ["?part=trace", "#a", "notes/w.html", "./x:y", "/x:y", "//evil.example", "1http:x", ":x", ""] {
            assert!(url::Url::parse(no).is_err(), "{no:?}");
        }
    }

    #[test]
    fn natively_links_are_checked_as_the_browser_checks_them() {
        for same in ["?part=choice", "#split", "notes/week3.html", "/other/page", "../up.html", "./x:y"] {
            check(same, Some(same));
        }
        check("/\\evil.example", None);
        check("\\\\evil.example/x", None);
        check("//evil.example", None);
        check("https://docs.vllm.ai/en/latest/", Some("https://docs.vllm.ai/en/latest/"));
        check("http://example.org", Some("http://example.org"));
        check("javascript:alert(1)", None);
        check("data:text/html,hi", None);
    }
}
