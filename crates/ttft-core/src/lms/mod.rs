//! Running as a SCORM package inside a learning system: what the page
//! reports there and how it is packaged, with no browser in sight.
//!
//! - `progress`: the learner's progress as one value ([`progress::Progress`],
//!   the same shapes the app stores), the score for the graded work and
//!   completion from the checklist;
//! - `suspend`: that progress packed into `cmi.suspend_data` within SCORM
//!   1.2's 4,096 characters, and read back with validation;
//! - `cmi`: the two standards' names (API object, methods, data model
//!   elements) and the values a report sets;
//! - `interaction`: one record per checked exercise, in each standard's
//!   vocabulary;
//! - `manifest`: `imsmanifest.xml` for SCORM 1.2 and SCORM 2004 4th edition.
//!
//! What it deliberately does not do: find or call the host's API (the app's
//! `lms` module does), read a clock (callers pass times in), or zip files
//! (`scripts/scorm-package.mjs` does).

pub mod cmi;
pub mod interaction;
pub mod manifest;
pub mod progress;
pub mod suspend;
