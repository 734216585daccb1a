//! Exercises an instructor writes as data, in the app.
//!
//! `authored_content` loads an authored file named by the address
//! (`content=` in the URL or `src=` on this site) into the trace exercise
//! or the configuration choice in place of the built-in one, or shows why
//! it cannot; `authoring_page` is `?part=author`, where an instructor
//! writes or loads a file, sees every problem with its path, previews the
//! exercise as learners will see it (`preview`, a wasm of its own) and
//! gets the URL that loads it.
//!
//! What it deliberately does not do: read or check the file's shape or
//! answers (`ttft_core::authoring` does, against the published schema), or
//! load anything from another origin.

pub mod authored_content;
// Built where both exercises' content is embedded (the authoring page
// starts a file from them): the authoring build and the full app.
#[cfg(all(course_trace, course_config))]
pub mod authoring_page;
pub mod preview;
