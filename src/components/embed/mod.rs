//! Embedding ttft-lab in another site: the app's half of it.
//!
//! The page's query string is read once, at start, by the core
//! (`ttft_core::embed::query::parse_query`) into an [`Embedding`] that every part
//! can read from context. With `embed=1` the shell drops the site's header
//! and navigation and shows [`embed_bar::EmbedBar`] instead;
//! [`height_reporter`] tells the parent page the content's height in both
//! dialects; [`results`] posts xAPI-shaped statements to the instructor's
//! allow-listed parent origins when a learner checks an exercise or saves a
//! self-score. Outside embed mode, [`embed_panel::EmbedPanel`] under each
//! part writes the iframe snippet an instructor copies.
//!
//! What it deliberately does not do: decide which origins are allowed, build
//! statements or messages, or escape the snippet (the core does all three);
//! insert the snippet into the DOM (it is shown as text only).

pub mod embed_bar;
pub mod embed_panel;
pub mod height_reporter;
pub mod results;

use std::sync::Arc;
use ttft_core::embed::query::{parse_query, EmbedError, EmbedOptions, EmbedQuery};

/// How the page was opened, read from the address once at start.
#[derive(Clone, Debug, Default)]
pub struct Embedding(pub Arc<EmbedQuery>);

impl Embedding {
    /// Reads the page's own query string.
    pub fn from_address() -> Embedding {
        Embedding::from_query(&crate::address::search())
    }

    /// Reads a query string (`?part=trace&embed=1`).
    pub fn from_query(search: &str) -> Embedding {
        Embedding(Arc::new(parse_query(search)))
    }

    /// The options the query asks for.
    pub fn options(&self) -> &EmbedOptions {
        &self.0.options
    }

    /// True in embed mode (`embed=1`).
    pub fn embedded(&self) -> bool {
        self.0.options.embed
    }

    /// The query's problems worth telling the person who wrote the URL:
    /// every one but an unknown `part=` that the app itself knows (such as
    /// `part=author`, which is not embeddable and so not the core's).
    pub fn problems(&self, app_knows_part: impl Fn(&str) -> bool) -> Vec<String> {
        self.0
            .problems
            .iter()
            .filter(|p| !matches!(p, EmbedError::UnknownPart { part } if app_knows_part(part)))
            .map(ToString::to_string)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(search: &str, embedded: bool, problems: &[&str]) {
        let e = Embedding::from_query(search);
        assert_eq!(e.embedded(), embedded, "{search}");
        let got = e.problems(|p| p == "author");
        assert_eq!(got.len(), problems.len(), "{search}: {got:?}");
        for (g, want) in got.iter().zip(problems) {
            assert!(g.contains(want), "{g:?} should contain {want:?}");
        }
    }

    #[test]
    fn the_address_is_read_once_by_the_core() {
        check("", false, &[]);
        check("?part=trace&embed=1", true, &[]);
        check("?part=author", false, &[]);
        check(
            "?part=nope&embed=1&origin=*",
            true,
            &["part=\"nope\"", "any site"],
        );
    }
}
