//! Which web origin the learner's API key belongs to.
//!
//! A key is entered for one endpoint: the learner reads the base URL above
//! the key field and pastes the key that host issued. If the key then
//! followed every later change of provider or base URL, a key entered for
//! one host would be sent to another one the learner never meant it for.
//! So a key is kept together with the origin (`scheme://host[:port]`) of the
//! base URL it was entered for, and is handed out only for a base URL with
//! that same origin; for any other, the app asks for a key again.
//!
//! The origin, not the whole base URL: a path change on the same host (say
//! `/v1` to `/openai/v1`) reaches the same server, which already has the
//! key. Default ports are dropped, so `https://h:443` and `https://h` are one
//! origin, as in the browser.
//!
//! The stored form ([`BoundKey::to_stored`]) is JSON holding the key, so it
//! is written only to the key's own storage entry; a bare key from before
//! keys were tied to an origin is not read ([`BoundKey::from_stored`] gives
//! `None`), so the learner is asked for it once more rather than have it
//! sent wherever the settings now point. This module does no I/O.

use crate::second_opinion::provider::{parse_base_url, ApiKey, BaseUrl, BaseUrlError};
use serde_json::{json, Value};

/// The version of the stored form.
const STORED_VERSION: u64 = 1;

/// `scheme://host[:port]` of a checked base URL, without a default port.
pub fn origin_of(base: &BaseUrl) -> String {
    let (scheme, rest) = base
        .url
        .split_once("://")
        .unwrap_or(("", base.url.as_str()));
    let authority = rest.split('/').next().unwrap_or("");
    let authority = match scheme {
        "https" => authority.strip_suffix(":443").unwrap_or(authority),
        "http" => authority.strip_suffix(":80").unwrap_or(authority),
        _ => authority,
    };
    format!("{scheme}://{authority}")
}

/// The origin a base URL as typed sends to, or `None` when it is not usable.
pub fn endpoint_origin(base_url: &str) -> Option<String> {
    parse_base_url(base_url).ok().map(|b| origin_of(&b))
}

/// A key and the origin it was entered for. Its `Debug` shows the key
/// masked (see [`ApiKey`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoundKey {
    /// The key itself.
    pub key: ApiKey,
    /// `scheme://host[:port]` of the base URL it was entered for.
    pub origin: String,
}

impl BoundKey {
    /// `key`, entered while the settings named `base_url`. A key can only
    /// be tied to a usable base URL, so the base URL's error otherwise.
    pub fn new(key: ApiKey, base_url: &str) -> Result<BoundKey, BaseUrlError> {
        let base = parse_base_url(base_url)?;
        Ok(BoundKey {
            key,
            origin: origin_of(&base),
        })
    }

    /// The key, when `base_url` sends to the origin it was entered for;
    /// `None` for any other base URL, and for one that is not usable.
    pub fn for_base_url(&self, base_url: &str) -> Option<&ApiKey> {
        (endpoint_origin(base_url).as_deref() == Some(self.origin.as_str())).then_some(&self.key)
    }

    /// The text kept in storage: `{"version":1,"origin":…,"key":…}`.
    pub fn to_stored(&self) -> String {
        json!({ "version": STORED_VERSION, "origin": self.origin, "key": self.key.expose() })
            .to_string()
    }

    /// Reads [`BoundKey::to_stored`]'s text back. `None` for anything else,
    /// including a bare key saved before keys were tied to an origin, and a
    /// stored origin that is not one a base URL could have.
    pub fn from_stored(text: &str) -> Option<BoundKey> {
        let v: Value = serde_json::from_str(text).ok()?;
        if v.get("version")?.as_u64()? != STORED_VERSION {
            return None;
        }
        let origin = v.get("origin")?.as_str()?;
        let key = ApiKey::new(v.get("key")?.as_str()?)?;
        (endpoint_origin(origin).as_deref() == Some(origin)).then(|| BoundKey {
            key,
            origin: origin.to_owned(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key() -> ApiKey {
        ApiKey::new("sk-test-abcdefghijklmnop7x9Q").unwrap()
    }

    fn check_origin(base_url: &str, expected: Option<&str>) {
        assert_eq!(endpoint_origin(base_url).as_deref(), expected, "{base_url}");
    }

    #[test]
    fn origins() {
        check_origin("https://api.openai.com/v1", Some("https://api.openai.com"));
        check_origin(
            "HTTPS://API.OpenAI.com:443/v1/",
            Some("https://api.openai.com"),
        );
        check_origin(
            "https://api.openai.com:8443/v1",
            Some("https://api.openai.com:8443"),
        );
        check_origin("http://localhost:8000/v1", Some("http://localhost:8000"));
        check_origin("http://localhost:80/v1", Some("http://localhost"));
        check_origin("http://127.0.0.1:8080", Some("http://127.0.0.1:8080"));
        check_origin("https://[::1]:8443/v1", Some("https://[::1]:8443"));
        check_origin("http://example.com/v1", None);
        check_origin("", None);
    }

    #[test]
    fn a_key_goes_only_to_the_origin_it_was_entered_for() {
        let bound = BoundKey::new(key(), "https://api.openai.com/v1").unwrap();
        assert_eq!(bound.origin, "https://api.openai.com");
        // The same server, another path or a spelled-out default port: the key goes.
        for same in [
            "https://api.openai.com/v1",
            "https://API.openai.com:443/v2/",
            "https://api.openai.com",
        ] {
            assert_eq!(bound.for_base_url(same), Some(&key()), "{same}");
        }
        // Another provider, host, port or scheme, or nothing usable: it does not.
        for other in [
            "https://openrouter.ai/api/v1",
            "https://api.openai.com.evil.example/v1",
            "https://api.openai.com:8443/v1",
            "http://localhost:8000/v1",
            "http://api.openai.com/v1",
            "",
            "not a url",
        ] {
            assert_eq!(bound.for_base_url(other), None, "{other}");
        }
        assert_eq!(
            BoundKey::new(key(), "ftp://x/v1"),
            Err(BaseUrlError::Scheme {
                scheme: "ftp".into()
            })
        );
        assert_eq!(BoundKey::new(key(), ""), Err(BaseUrlError::Empty));
    }

    #[test]
    fn stored_form_round_trips_and_refuses_anything_else() {
        let bound = BoundKey::new(key(), "http://127.0.0.1:9000/v1").unwrap();
        let text = bound.to_stored();
        assert_eq!(
            text,
            r#"{"key":"sk-test-abcdefghijklmnop7x9Q","origin":"http://127.0.0.1:9000","version":1}"#
        );
        assert_eq!(BoundKey::from_stored(&text), Some(bound));
        for refused in [
            "sk-test-abcdefghijklmnop7x9Q",
            r#"{"key":"sk-x","version":1}"#,
            r#"{"key":"sk-x","origin":"http://127.0.0.1:9000","version":2}"#,
            r#"{"key":"  ","origin":"http://127.0.0.1:9000","version":1}"#,
            r#"{"key":"sk-x","origin":"http://evil.example","version":1}"#,
            r#"{"key":"sk-x","origin":"https://h/v1","version":1}"#,
            "",
        ] {
            assert_eq!(BoundKey::from_stored(refused), None, "{refused}");
        }
        assert!(
            !format!("{:?}", BoundKey::from_stored(&text)).contains("abcdef"),
            "Debug masks the key"
        );
    }
}
