//! The app's components, one a file, each named for what the learner sees.
//!
//! `prose` turns content strings into elements; `site_header` is the
//! header and navigation; `lesson` renders the lesson with
//! `worked_timeline` (and its `timeline_chart`) and `checklist`;
//! `chart_patterns` holds the fill patterns all three charts share;
//! `chart_width` the width the import and simulator charts are drawn at;
//! `storage_status` shows notices about saved work; `offline_status` the
//! installed app's (a new version to reload into, a part that needs a
//! connection); `practice` holds the
//! exercise parts; `import` reads a learner's own trace; `embed` is what
//! embedding in another site needs (the embed-mode bar, the Embed panel,
//! height messages, result statements); `authoring` loads and writes
//! instructors' exercises. Components hold
//! no latency arithmetic: figures come from `ttft_core` and `ttft_import`.

pub mod authoring;
pub mod chart_patterns;
pub mod chart_width;
pub mod checklist;
pub mod embed;
pub mod import;
pub mod later;
// Built where the worked timeline is embedded: the lesson's build and the
// full app.
#[cfg(course_worked)]
pub mod lesson;
pub mod offline_status;
pub mod on_demand;
pub mod practice;
pub mod prose;
pub mod second_opinion;
pub mod simulate;
pub mod site_header;
pub mod storage_status;
pub mod timeline_chart;
pub mod worked_timeline;
