//! The lesson: title, contents, and every section's blocks.
//!
//! Each [`Block`] kind of the course content has one rendering here:
//! paragraphs, lists, tables (with a caption and header scopes, scrolling
//! sideways on narrow screens), notes, term lists, the completion checklist,
//! sources, and the worked-timeline widget. Section ids become anchors, and
//! the contents list links to them.
//!
//! What it deliberately does not do: compute anything (figures in prose are
//! template placeholders the core fills) or hold state (the checklist and
//! the worked timeline own theirs).

use crate::components::checklist::CompletionChecklist;
use crate::components::later::Later;
use crate::components::prose::{plain, Prose};
use crate::components::worked_timeline::WorkedTimelineWidget;
use leptos::prelude::*;
use std::sync::Arc;
use ttft_core::content::markup::is_allowed_href;
use ttft_core::content::{Block, Lesson, Section, Widget};

/// The lesson part of the course.
#[component]
pub fn LessonPage(
    /// The lesson's sections.
    lesson: Arc<Lesson>,
    /// What every part reads (the worked timeline widget needs its data).
    course: Arc<crate::course::Embedded>,
) -> impl IntoView {
    let contents = lesson
        .sections
        .iter()
        .map(|s| {
            let href = format!("#{}", s.id);
            view! { <li><a href=href>{plain(&s.title)}</a></li> }
        })
        .collect_view();
    // Each section may be drawn in a short task of its own while the app
    // starts (`later`).
    let sections = lesson
        .sections
        .iter()
        .map(|s| {
            let (s, course) = (s.clone(), Arc::clone(&course));
            view! { <Later>{section(&s, &course)}</Later> }
        })
        .collect_view();
    view! {
        <article class="lesson">
            <header class="lesson-header">
                <h1 id="page-title">{plain(&lesson.title)}</h1>
                <p class="lesson-summary"><Prose text=lesson.summary.clone() /></p>
                <p class="lesson-meta">{format!("Study time: about {} minutes", lesson.study_minutes)}</p>
            </header>
            <nav class="toc" aria-labelledby="toc-title">
                <h2 id="toc-title">"Contents"</h2>
                <ol>{contents}</ol>
            </nav>
            {sections}
        </article>
    }
}

fn section(s: &Section, course: &Arc<crate::course::Embedded>) -> impl IntoView {
    let heading_id = format!("{}-title", s.id);
    let labelled_by = heading_id.clone();
    // The larger blocks (tables, the checklist, the worked timeline) get a
    // short task of their own while the app starts, like each section.
    let blocks = s
        .blocks
        .iter()
        .enumerate()
        .map(|(i, b)| {
            if matches!(b, Block::Table { .. } | Block::Checklist { .. } | Block::Widget { .. }) {
                let (id, b, course) = (s.id.clone(), b.clone(), Arc::clone(course));
                view! { <Later>{block(&id, i, &b, &course)}</Later> }.into_any()
            } else {
                block(&s.id, i, b, course)
            }
        })
        .collect_view();
    view! {
        <section id=s.id.clone() class="lesson-section" aria-labelledby=labelled_by>
            <h2 id=heading_id>{plain(&s.title)}</h2>
            {blocks}
        </section>
    }
}

fn block(section_id: &str, index: usize, block: &Block, course: &Arc<crate::course::Embedded>) -> AnyView {
    match block {
        Block::Paragraph { text } => view! { <p><Prose text=text.clone() /></p> }.into_any(),
        Block::List { items, ordered } => {
            let items = items
                .iter()
                .map(|t| view! { <li><Prose text=t.clone() /></li> })
                .collect_view();
            if *ordered {
                view! { <ol>{items}</ol> }.into_any()
            } else {
                view! { <ul>{items}</ul> }.into_any()
            }
        }
        Block::Table {
            caption,
            columns,
            rows,
        } => {
            let caption_id = format!("{section_id}-table-{index}");
            table(&caption_id, caption, columns, rows).into_any()
        }
        Block::Note { title, text } => {
            let title = title.as_ref().map(
                |t| view! { <p class="note-title"><strong><Prose text=t.clone() /></strong></p> },
            );
            view! {
                <div class="note" role="note">
                    {title}
                    <p><Prose text=text.clone() /></p>
                </div>
            }
            .into_any()
        }
        Block::Terms { items } => {
            let items = items
                .iter()
                .map(|t| {
                    view! {
                        <div class="term">
                            <dt><Prose text=t.term.clone() /></dt>
                            <dd><Prose text=t.meaning.clone() /></dd>
                        </div>
                    }
                })
                .collect_view();
            view! { <dl class="terms">{items}</dl> }.into_any()
        }
        Block::Checklist { items } => {
            view! { <CompletionChecklist items=items.clone() /> }.into_any()
        }
        Block::Sources { items } => {
            let items = items
                .iter()
                .map(|s| {
                    let title = if is_allowed_href(&s.url) {
                        view! { <a href=s.url.clone()><Prose text=s.title.clone() /></a> }
                            .into_any()
                    } else {
                        view! { <span><Prose text=s.title.clone() /></span> }.into_any()
                    };
                    view! {
                        <li>
                            <cite>{title}</cite>
                            ": "
                            <Prose text=s.note.clone() />
                        </li>
                    }
                })
                .collect_view();
            view! { <ul class="sources">{items}</ul> }.into_any()
        }
        Block::Widget {
            widget: Widget::WorkedTimeline,
        } => view! { <WorkedTimelineWidget timeline=course.worked_timeline.clone() /> }.into_any(),
    }
}

/// A content table: the caption names it, the first row heads the columns
/// and the first cell of each row heads its row. The wrapper scrolls
/// sideways on narrow screens and can be scrolled from the keyboard.
pub fn table(
    caption_id: &str,
    caption: &str,
    columns: &[String],
    rows: &[Vec<String>],
) -> impl IntoView {
    let head = columns
        .iter()
        .map(|c| view! { <th scope="col"><Prose text=c.clone() /></th> })
        .collect_view();
    let body = rows
        .iter()
        .map(|row| {
            let cells = row
                .iter()
                .enumerate()
                .map(|(i, cell)| {
                    if i == 0 {
                        view! { <th scope="row"><Prose text=cell.clone() /></th> }.into_any()
                    } else {
                        view! { <td><Prose text=cell.clone() /></td> }.into_any()
                    }
                })
                .collect_view();
            view! { <tr>{cells}</tr> }
        })
        .collect_view();
    view! {
        <div class="table-scroll" role="region" aria-labelledby=caption_id.to_owned() tabindex="0">
            <table>
                <caption id=caption_id.to_owned()><Prose text=caption.to_owned() /></caption>
                <thead><tr>{head}</tr></thead>
                <tbody>{body}</tbody>
            </table>
        </div>
    }
}
