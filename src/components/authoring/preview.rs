//! The authoring page's preview: an instructor's file shown in the very
//! exercises learners use, as a wasm of its own (`author-preview-part`).
//!
//! The authoring page itself (the editor, the check, the links) needs no
//! exercise's code; the preview needs both exercises'. So the page loads
//! the preview's wasm only once it has a file with no problems to show,
//! through `part-loader.js`, as the simulate part and the embed panel are
//! loaded ([`OnDemandPart`]), and mounts it again whenever the file or the
//! chosen exercise changes: the page sends the file as it checked it, the
//! preview reads it with the same core and shows it.
//!
//! What it deliberately does not do: keep the file (the editor holds it),
//! or share answers with a learner's: its exercises' ids start with
//! `preview-`, so the instructor's trial answers are stored apart from any
//! learner's to the same file in this browser.

use crate::components::authoring::authored_content::AuthoredKind;
use crate::components::on_demand::OnDemandPart;
use ttft_core::authoring::{parse_authored, AuthoredExercise};

/// The preview's wasm, loaded on demand.
pub const PREVIEW: OnDemandPart = OnDemandPart { name: "author-preview" };

/// The element the preview mounts into, which the authoring page renders.
pub const PREVIEW_ROOT: &str = "author-preview-root";

/// What the page sends the preview: the exercise to show on the first
/// line (`trace` or `choice`), the file as compact JSON after it.
pub fn preview_config(file: &AuthoredExercise, kind: AuthoredKind) -> String {
    let kind = match kind {
        AuthoredKind::Trace => "trace",
        AuthoredKind::Choice => "choice",
    };
    format!("{kind}\n{}", file.to_json())
}

/// The exercise to show and the file, from what the page sent, keyed as
/// the preview keeps it; or why it cannot be read. A file with one
/// exercise shows that one, whatever was chosen.
pub fn read_preview_config(config: &str) -> Result<(AuthoredKind, AuthoredExercise), String> {
    let (kind, text) = config
        .split_once('\n')
        .ok_or("it was not given a file to show; reload the page")?;
    let file = parse_authored(text).map_err(|problems| {
        format!(
            "the file it was given has {} problem(s); check the file again",
            problems.len()
        )
    })?;
    let kind = match (kind, &file.trace_exercise, &file.config_exercise) {
        (_, None, _) => AuthoredKind::Choice,
        (_, _, None) => AuthoredKind::Trace,
        ("choice", _, _) => AuthoredKind::Choice,
        _ => AuthoredKind::Trace,
    };
    // Preview ids keep the instructor's trial answers apart from a
    // learner's answers to the same file in this browser.
    let keyed = file.keyed();
    let preview_id = |id: &str| format!("preview-{id}");
    let trace = keyed.trace_exercise.map(|mut x| {
        x.id = preview_id(&x.id);
        x
    });
    let config = keyed.config_exercise.map(|mut x| {
        x.id = preview_id(&x.id);
        x
    });
    Ok((kind, AuthoredExercise::new(trace, config)))
}

/// The preview itself, in the preview's own wasm (which has both
/// exercises): the chosen exercise of `file`, whose prose is filled from
/// the file.
#[cfg(all(feature = "trace", feature = "choice"))]
#[leptos::component]
pub fn AuthoringPreview(
    /// The file, keyed for the preview ([`read_preview_config`]).
    file: AuthoredExercise,
    /// Which of its exercises to show.
    kind: AuthoredKind,
) -> impl leptos::IntoView {
    use crate::components::practice::config_choice::ConfigChoicePage;
    use crate::components::practice::trace_exercise::TraceExercisePage;
    use crate::components::prose::AuthoredScope;
    use leptos::prelude::*;
    let shown = match (kind, &file.trace_exercise, &file.config_exercise) {
        (AuthoredKind::Trace, Some(x), _) => view! { <TraceExercisePage exercise=x.clone() /> }.into_any(),
        (AuthoredKind::Choice, _, Some(x)) => view! { <ConfigChoicePage exercise=x.clone() /> }.into_any(),
        _ => ().into_any(),
    };
    let scope = AuthoredScope(std::sync::Arc::new(file));
    view! { <leptos::context::Provider value=scope>{shown}</leptos::context::Provider> }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> AuthoredExercise {
        parse_authored(include_str!(
            "../../../content/schema/examples/review-bot.json"
        ))
        .unwrap_or_else(|e| panic!("{e:?}"))
    }

    #[test]
    fn the_preview_reads_what_the_page_sends() {
        let file = example();
        for (kind, shown) in [(AuthoredKind::Trace, AuthoredKind::Trace), (AuthoredKind::Choice, AuthoredKind::Choice)] {
            let (got, read) = read_preview_config(&preview_config(&file, kind)).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(got, shown);
            let keyed = file.keyed();
            let trace = read.trace_exercise.unwrap_or_else(|| panic!("a trace exercise"));
            assert_eq!(trace.id, format!("preview-{}", keyed.trace_exercise.map(|x| x.id).unwrap_or_default()));
            assert!(trace.id.starts_with("preview-authored-"), "{}", trace.id);
        }
        // One exercise: that one, whatever was asked.
        let only_choice = AuthoredExercise::new(None, file.config_exercise.clone());
        let read = read_preview_config(&preview_config(&only_choice, AuthoredKind::Trace));
        assert_eq!(read.map(|(kind, _)| kind), Ok(AuthoredKind::Choice));
        // What cannot be read is said, not shown.
        assert!(read_preview_config("trace").is_err());
        assert!(read_preview_config("trace\n{}").is_err());
    }
}
