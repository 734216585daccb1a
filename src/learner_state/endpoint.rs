//! The AI second opinion's endpoint as it is stored: preset, base URL and
//! model. Never the key: that is kept apart, in `crate::key_storage`,
//! mostly in `sessionStorage`.
//!
//! What it deliberately does not do: check the URL or decide whether a key
//! is needed (`ttft_core::second_opinion::provider` does both).

use crate::learner_state::merge::later_wins;
use serde::{Deserialize, Serialize};
use ttft_core::second_opinion::provider::EndpointSettings;

/// The endpoint as stored: no key, ever.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedEndpoint {
    /// The preset id; empty until one is chosen.
    #[serde(default)]
    pub preset: String,
    /// The base URL as typed.
    #[serde(default)]
    pub base_url: String,
    /// The model id.
    #[serde(default)]
    pub model: String,
    /// When this last changed, in milliseconds since the epoch.
    #[serde(default)]
    pub changed_ms: i64,
}

impl SavedEndpoint {
    /// The core's view of these settings.
    pub fn settings(&self) -> EndpointSettings {
        EndpointSettings {
            preset: self.preset.clone(),
            base_url: self.base_url.clone(),
            model: self.model.clone(),
        }
    }

    /// Two tabs' copies: the later change wins.
    pub fn merge(mine: &SavedEndpoint, theirs: &SavedEndpoint) -> SavedEndpoint {
        later_wins(mine, mine.changed_ms, theirs, theirs.changed_ms)
    }
}
