//! The page header: the app's name and the navigation between the parts.
//!
//! The navigation is a landmark with real links; the part on show carries
//! `aria-current="page"`. What it deliberately does not do: know what the
//! parts contain.

use crate::navigation::Navigator;
use leptos::prelude::*;
use ttft_core::course_part::CoursePart;

/// The header with the app's name and the course's parts.
#[component]
pub fn SiteHeader(
    /// Which part shows, and how to move.
    nav: Navigator,
) -> impl IntoView {
    let links = CoursePart::ALL
        .into_iter()
        .map(|part| {
            let href = part.href();
            let target = href.clone();
            view! {
                <li>
                    <a
                        href=href
                        aria-current=move || (nav.current() == part).then_some("page")
                        on:click=move |ev| nav.follow(&ev, &target)
                    >
                        {part.label()}
                    </a>
                </li>
            }
        })
        .collect_view();
    let home = CoursePart::Lesson.href();
    let home_target = home.clone();
    view! {
        <header class="site-header" data-not-embedded="">
            <p class="app-name">
                <a href=home on:click=move |ev| nav.follow(&ev, &home_target)>"ttft-lab"</a>
                <span class="app-tagline">" \u{b7} diagnose a slow first token"</span>
            </p>
            <nav class="parts" aria-label="Course parts">
                <ul>{links}</ul>
            </nav>
        </header>
    }
}
