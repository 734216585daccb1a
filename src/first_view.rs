//! The lesson's first view as static HTML, written into the released page
//! so that a learner reads the lesson before the app's wasm has arrived,
//! and with scripting off (issue #12).
//!
//! [`render`] renders [`Shell`] natively (leptos `ssr`) over the embedded
//! course and an empty store in memory: exactly what the app shows a
//! learner who opens the page's plain address with nothing saved (no ticks,
//! the worked timeline's own values). Natively the address is the default
//! one (`address`). [`fill`] puts that HTML into the built page in place of
//! [`PLACEHOLDER`], inside `<div id="first-view">`. In the browser the app
//! mounts beside it and removes it in the same task (`start`), so no frame
//! shows both or neither, and the same markup means nothing moves.
//!
//! What it deliberately does not do: write any text of its own (every word
//! comes from the components and the course), render any part but the
//! lesson (index.html's start-up script hides the first view when the
//! address names another part or embed mode), or hydrate (the app renders
//! afresh, so what it shows never depends on this HTML).

use crate::course::CourseError;
use crate::storage::{MemoryBackend, Store};
use crate::Shell;
use leptos::prelude::*;
use std::fmt;
use std::sync::Arc;
use ttft_core::content::Course;

/// Where `index.html` takes the first view; nothing else may contain it.
pub const PLACEHOLDER: &str = "<!-- first-view -->";

/// The id of the element that holds the first view in the page.
pub const CONTAINER_ID: &str = "first-view";

/// The page as the app first shows it at the plain address, as HTML.
pub fn render(course: Result<Course, CourseError>) -> String {
    let store = Store::with_backend(Arc::new(MemoryBackend::default()));
    let html = Owner::new().with(|| view! { <Shell course=course store=store /> }.to_html());
    strip_markers(&html)
}

/// Leptos marks where dynamic text starts and ends with empty comments
/// (`<!>`), for hydration; a page that is replaced, not hydrated, needs
/// none. Text never contains `<` unescaped, so only markers match.
fn strip_markers(html: &str) -> String {
    html.replace("<!>", "")
}

/// Why the first view could not be written into a page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FillError {
    /// The page has no placeholder (it is not ttft-lab's index.html).
    NoPlaceholder,
    /// The page has more than one placeholder, or was filled already.
    SeveralPlaceholders(usize),
}

impl fmt::Display for FillError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FillError::NoPlaceholder => write!(f, "the page has no {PLACEHOLDER} to fill"),
            FillError::SeveralPlaceholders(n) => {
                write!(f, "the page has {n} placeholders {PLACEHOLDER}; it needs exactly one")
            }
        }
    }
}

impl std::error::Error for FillError {}

/// `page` with its placeholder replaced by `view` in the first view's
/// container.
pub fn fill(page: &str, view: &str) -> Result<String, FillError> {
    match page.matches(PLACEHOLDER).count() {
        0 => Err(FillError::NoPlaceholder),
        1 => Ok(page.replacen(
            PLACEHOLDER,
            &format!("<div id=\"{CONTAINER_ID}\">{view}</div>"),
            1,
        )),
        n => Err(FillError::SeveralPlaceholders(n)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::course;

    #[test]
    fn the_placeholder_is_filled_once() {
        let page = format!("<body>{PLACEHOLDER}<div id=\"boot\"></div></body>");
        assert_eq!(
            fill(&page, "<main>hi</main>").as_deref(),
            Ok("<body><div id=\"first-view\"><main>hi</main></div><div id=\"boot\"></div></body>")
        );
        assert_eq!(fill("<body></body>", "x"), Err(FillError::NoPlaceholder));
        let twice = format!("{PLACEHOLDER}{PLACEHOLDER}");
        assert_eq!(fill(&twice, "x"), Err(FillError::SeveralPlaceholders(2)));
    }

    #[test]
    fn the_page_has_exactly_one_placeholder() {
        let page = include_str!("../index.html");
        assert_eq!(page.matches(PLACEHOLDER).count(), 1);
    }

    #[test]
    fn the_lesson_renders_with_its_landmarks_and_words() {
        let course = course::load().expect("the embedded course loads");
        let title = course.lesson.title.clone();
        let first_section = course.lesson.sections[0].title.clone();
        let html = render(Ok(course));
        for landmark in [
            "class=\"skip-link\"",
            "<header class=\"site-header\">",
            "<main id=\"main\"",
            "<footer class=\"site-footer\">",
            "<h1 id=\"page-title\">",
        ] {
            assert!(html.contains(landmark), "{landmark} in {html:.400}");
        }
        // Titles may hold markup; their first word is plain text.
        for words in [&title, &first_section] {
            let first_word = words.split_whitespace().next().unwrap_or_default();
            assert!(html.contains(first_word), "{first_word} in the first view");
        }
        assert!(!html.contains("<!>"), "no hydration markers");
        assert!(html.contains("aria-current=\"page\""), "the lesson is the current part");
    }

    #[test]
    fn a_course_that_does_not_load_says_why() {
        let html = render(Err(CourseError::Missing("no lesson.toml".into())));
        assert!(html.contains("The course could not be loaded"));
        assert!(html.contains("no lesson.toml"));
    }
}
