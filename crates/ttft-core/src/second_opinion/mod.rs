//! The AI second opinion: the grading request, the check of the model's
//! reply, the comparison with the learner's self-score, plain messages for
//! every way the call can fail, and the call's own client-side timings.
//!
//! **The request** is an OpenAI-compatible chat-completions body with
//! `stream: true` and `response_format: {"type": "json_object"}`. The system
//! message states the rubric (each dimension's id, title and what earns 0, 1
//! and 2) and the exact reply shape; the user message holds the question and
//! the learner's answer between marker lines the answer itself cannot
//! contain, with an instruction to treat the answer as data. [`preview`](request::preview)
//! renders exactly what will be sent so the learner can read it first; it
//! takes an [`Endpoint`](provider::Endpoint), which holds no key, so the key cannot appear in it.
//!
//! **The reply** must hold exactly one JSON object of the shape
//! `{"scores": [{"dimension", "score", "evidence", "feedback"}]}`. Some models
//! wrap it in a ```json fence or a sentence despite being asked not to; that
//! is tolerated only when exactly one JSON object is present, and the
//! [`Extraction`](reply::Extraction) says that it happened. Everything else is rejected with
//! every problem named ([`ReplyProblem`](reply::ReplyProblem)): a score is never shown unless all
//! five dimensions are present, known, unique, integral and in 0..=2, with
//! feedback. A quote not found in the answer is a **warning, not a
//! rejection**: models normalise quotes, spacing and case or trim a quote
//! with an ellipsis, so an exact-match rule would throw away sound grades;
//! the warning puts the doubt in front of the learner, who has the answer
//! beside it and can judge.
//!
//! **Timings** are client-side: time to the first streamed text, the gaps
//! between chunks and end-to-end, from instants the caller records on one
//! clock. [`CLIENT_CLOCK_NOTE`](stream::CLIENT_CLOCK_NOTE) says what that clock holds.
//!
//! This module does no I/O, reads no clock and stores nothing; the app
//! sends the request, passes chunks and instants in, and saves the result.

pub mod comparison;
pub mod failures;
pub mod key_origin;
pub mod provider;
pub mod reply;
pub mod reply_limit;
pub mod request;
pub mod sse;
pub mod stream;
