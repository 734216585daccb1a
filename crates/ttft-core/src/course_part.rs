//! Which part of the course the address shows, without a router.
//!
//! The part is the `part` query parameter (`?part=trace`), so every part
//! works on a plain static host: reloading and deep links need no server
//! rewrite. Lesson sections are ordinary `#anchors`. This module only maps
//! between addresses and parts, as plain strings; following links and the
//! back button live in the app's `navigation`. Two parts are not in the navigation: the worked timeline
//! alone (`?part=timeline`, for embedding) and the instructors' authoring
//! page (`?part=author`, linked from the footer). Every part but the
//! authoring page can also be embedded in another site
//! ([`CoursePart::embeds`]); the embed query and snippet use this type.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A part of the course, each a page of its own.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CoursePart {
    /// The lesson with the worked timeline and the checklist.
    #[default]
    Lesson,
    /// The trace exercise: four hint requests.
    Trace,
    /// Choosing a configuration per workload.
    Choice,
    /// The interview question with hints, reference answer and self-score.
    Interview,
    /// A learner's own trace file, split as far as its format allows.
    Import,
    /// The serving simulator: make queue wait and prefill happen.
    Simulate,
    /// The lesson's worked timeline alone, for embedding.
    Timeline,
    /// Writing an exercise as data (for instructors).
    Author,
}

impl CoursePart {
    /// Every part, in the order the navigation lists them.
    pub const ALL: [CoursePart; 6] = [
        CoursePart::Lesson,
        CoursePart::Trace,
        CoursePart::Choice,
        CoursePart::Interview,
        CoursePart::Import,
        CoursePart::Simulate,
    ];

    /// The parts that have an address but no place in the navigation.
    pub const UNLISTED: [CoursePart; 2] = [CoursePart::Timeline, CoursePart::Author];

    /// The value of `?part=`.
    pub fn id(self) -> &'static str {
        match self {
            CoursePart::Lesson => "lesson",
            CoursePart::Trace => "trace",
            CoursePart::Choice => "choice",
            CoursePart::Interview => "interview",
            CoursePart::Import => "import",
            CoursePart::Simulate => "simulate",
            CoursePart::Timeline => "timeline",
            CoursePart::Author => "author",
        }
    }

    /// Whether another site can embed this part: all but the authoring
    /// page, which is for instructors.
    pub fn embeds(self) -> bool {
        self != CoursePart::Author
    }

    /// What an embedding iframe's `title` says, for screen-reader users.
    pub fn embed_title(self) -> &'static str {
        match self {
            CoursePart::Lesson => "ttft-lab lesson: diagnosing a slow first token",
            CoursePart::Timeline => {
                "ttft-lab worked timeline: split one request's time to first token"
            }
            CoursePart::Trace => "ttft-lab exercise: find the dominant delay in a trace",
            CoursePart::Choice => "ttft-lab exercise: choose a serving configuration",
            CoursePart::Interview => "ttft-lab interview question with self-score",
            CoursePart::Import => "ttft-lab: split your own trace",
            CoursePart::Simulate => "ttft-lab serving simulator: make queue wait and prefill happen",
            CoursePart::Author => "ttft-lab: author an exercise",
        }
    }

    /// The name the navigation shows.
    pub fn label(self) -> &'static str {
        match self {
            CoursePart::Lesson => "Lesson",
            CoursePart::Trace => "Trace exercise",
            CoursePart::Choice => "Configuration choice",
            CoursePart::Interview => "Interview question",
            CoursePart::Import => "Import a trace",
            CoursePart::Simulate => "Simulate",
            CoursePart::Timeline => "Worked timeline",
            CoursePart::Author => "Author an exercise",
        }
    }

    /// The document title while this part shows.
    pub fn document_title(self) -> String {
        format!("{} \u{b7} ttft-lab", self.label())
    }

    /// The link to this part, relative to the page.
    pub fn href(self) -> String {
        format!("?part={}", self.id())
    }

    /// The part an id names, if any.
    pub fn from_id(id: &str) -> Option<CoursePart> {
        CoursePart::ALL
            .into_iter()
            .chain(CoursePart::UNLISTED)
            .find(|p| p.id() == id)
    }

    /// The part a query string asks for (`?part=trace&x=1`); the lesson when
    /// it names none or one that does not exist.
    pub fn from_search(search: &str) -> CoursePart {
        Self::named_in(search)
            .and_then(CoursePart::from_id)
            .unwrap_or_default()
    }

    /// The part a link's `href` names, when it is a link to a part of this
    /// page (`?part=choice`, optionally with a `#section`).
    pub fn from_href(href: &str) -> Option<CoursePart> {
        let query = href.strip_prefix('?')?;
        let query = query.split('#').next().unwrap_or_default();
        Self::named_in(query).and_then(CoursePart::from_id)
    }

    fn named_in(search: &str) -> Option<&str> {
        search
            .trim_start_matches('?')
            .split('&')
            .find_map(|pair| pair.strip_prefix("part="))
    }
}

impl fmt::Display for CoursePart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(search: &str, expected: CoursePart) {
        assert_eq!(CoursePart::from_search(search), expected, "{search:?}");
    }

    #[test]
    fn parts_from_the_address() {
        check("", CoursePart::Lesson);
        check("?part=lesson", CoursePart::Lesson);
        check("?part=trace", CoursePart::Trace);
        check("?embed=1&part=interview", CoursePart::Interview);
        check("?part=choice&embed=1", CoursePart::Choice);
        check("?part=import", CoursePart::Import);
        check("?part=simulate&sim=1&seqs=4", CoursePart::Simulate);
        check("?part=nonsense", CoursePart::Lesson);
        check("?part=", CoursePart::Lesson);
        check("?parts=trace", CoursePart::Lesson);
        check("?part=timeline&embed=1", CoursePart::Timeline);
        check("?part=author", CoursePart::Author);
    }

    #[test]
    fn every_part_but_authoring_embeds() {
        for part in CoursePart::ALL.into_iter().chain(CoursePart::UNLISTED) {
            assert_eq!(part.embeds(), part != CoursePart::Author, "{part:?}");
            assert!(!part.embed_title().is_empty());
            assert_eq!(
                serde_json::to_string(&part).unwrap(),
                format!("\"{}\"", part.id())
            );
        }
    }

    #[test]
    fn links_and_titles() {
        for part in CoursePart::ALL.into_iter().chain(CoursePart::UNLISTED) {
            assert_eq!(CoursePart::from_href(&part.href()), Some(part));
            assert_eq!(CoursePart::from_search(&part.href()), part);
        }
        assert_eq!(
            CoursePart::from_href("?part=trace#h2"),
            Some(CoursePart::Trace)
        );
        assert_eq!(CoursePart::from_href("#split"), None);
        assert_eq!(
            CoursePart::from_href("https://example.org/?part=trace"),
            None
        );
        assert_eq!(
            CoursePart::Lesson.document_title(),
            "Lesson \u{b7} ttft-lab"
        );
    }
}
