//! Where the AI second opinion is sent: provider presets, base-URL checks,
//! the chat-completions URL, and the learner's API key.
//!
//! Every preset speaks the OpenAI-compatible chat-completions API, so one
//! request shape serves them all; only the base URL and whether a key is
//! needed differ. A base URL must be `https://`, or plain `http://` only
//! for the learner's own machine (`localhost`, `127.0.0.1`; not `[::1]`,
//! which the page's Content-Security-Policy cannot name), so a key is never
//! sent in clear over a network.
//!
//! The key is an [`ApiKey`]: it implements neither `Serialize` nor `Display`,
//! and its `Debug` masks it, so no type in this module (or one that contains
//! it) can write the key into JSON, a log line or the request preview by
//! accident. The app hands it to the browser's `fetch` header and nowhere
//! else. This module does no I/O and does not store settings.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A ready-made endpoint choice in the settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Preset {
    /// Stable id, kept in settings.
    pub id: &'static str,
    /// What the settings list shows.
    pub label: &'static str,
    /// The OpenAI-compatible base URL, ending in the API version path
    /// (`…/v1`); empty for "custom".
    pub base_url: &'static str,
    /// Whether the endpoint refuses requests without a key.
    pub needs_key: bool,
    /// A model id to start from; the learner may change it.
    pub default_model: &'static str,
    /// One sentence shown under the choice.
    pub note: &'static str,
}

/// The presets, in the order the settings list them. Model names are a
/// starting point only: providers rename models often, so the field stays
/// editable and a 404 explains that the model may not exist.
pub const PRESETS: [Preset; 6] = [
    Preset {
        id: "openai",
        label: "OpenAI",
        base_url: "https://api.openai.com/v1",
        needs_key: true,
        default_model: "gpt-4o-mini",
        note: "Needs an API key from your OpenAI account; each grading call is billed to it.",
    },
    Preset {
        id: "openrouter",
        label: "OpenRouter",
        base_url: "https://openrouter.ai/api/v1",
        needs_key: true,
        default_model: "openai/gpt-4o-mini",
        note: "One key for many hosted models; model ids carry the maker's prefix.",
    },
    Preset {
        id: "groq",
        label: "Groq",
        base_url: "https://api.groq.com/openai/v1",
        needs_key: true,
        default_model: "llama-3.3-70b-versatile",
        note: "Hosted open-weight models behind an OpenAI-compatible API; needs a Groq key.",
    },
    Preset {
        id: "local-vllm",
        label: "vLLM on this computer",
        base_url: "http://localhost:8000/v1",
        needs_key: false,
        default_model: "",
        note: "Start `vllm serve <model>`; it accepts browser requests from any origin unless `--allowed-origins` narrows them, so include this page's origin if you set it.",
    },
    Preset {
        id: "local-llama-cpp",
        label: "llama.cpp on this computer",
        base_url: "http://localhost:8080/v1",
        needs_key: false,
        default_model: "",
        note: "Start `llama-server -m <model.gguf>`; it answers browser requests from any origin by default.",
    },
    Preset {
        id: "custom",
        label: "Other OpenAI-compatible API",
        base_url: "",
        needs_key: false,
        default_model: "",
        note: "Give the base URL up to and including its version path, such as https://example.com/v1.",
    },
];

/// The preset with this id.
pub fn find_preset(id: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.id == id)
}

/// Why a base URL cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum BaseUrlError {
    /// Nothing was typed.
    Empty,
    /// Not `scheme://host…`.
    NotAUrl,
    /// A scheme other than https (or http on this machine).
    Scheme { scheme: String },
    /// Plain http to a host other than this machine: the key would travel
    /// unencrypted.
    InsecureRemote { host: String },
    /// `user:password@` in the URL.
    Credentials,
    /// A query string or fragment, which the chat-completions path cannot
    /// follow.
    QueryOrFragment,
    /// Characters a URL cannot hold (spaces, quotes, control characters).
    BadCharacter,
    /// `http://[::1]`: this machine, but the released page's security policy
    /// (`connect-src`) can name only `localhost` and `127.0.0.1`.
    Ipv6Loopback,
}

impl fmt::Display for BaseUrlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BaseUrlError::Empty => f.write_str("give the endpoint's base URL, such as https://api.openai.com/v1"),
            BaseUrlError::NotAUrl => f.write_str("this is not a web address: it should start with https://"),
            BaseUrlError::Scheme { scheme } => write!(f, "\"{scheme}\" addresses cannot be used: use https://"),
            BaseUrlError::InsecureRemote { host } => write!(
                f,
                "plain http:// to {host} would send your key unencrypted; use https://, or http:// only for localhost"
            ),
            BaseUrlError::Credentials => f.write_str("remove the user name and password from the address; the key goes in its own field"),
            BaseUrlError::QueryOrFragment => f.write_str("remove the ? or # part: give the base URL only"),
            BaseUrlError::BadCharacter => f.write_str("the address holds a space, quote or other character a URL cannot contain"),
            BaseUrlError::Ipv6Loopback => f.write_str("this page may not call http://[::1]; use http://localhost or http://127.0.0.1 with the same port"),
        }
    }
}

impl std::error::Error for BaseUrlError {}

/// A base URL that passed [`parse_base_url`]: scheme and host lower-cased,
/// no trailing slash.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BaseUrl {
    /// `https://api.openai.com/v1`.
    pub url: String,
    /// The host, without port: `api.openai.com`, `localhost`, `[::1]`.
    pub host: String,
    /// True when the endpoint is on the learner's own machine.
    pub local: bool,
}

impl BaseUrl {
    /// The chat-completions URL: the base URL followed by
    /// `/chat/completions`.
    pub fn chat_completions(&self) -> String {
        format!("{}/chat/completions", self.url)
    }
}

/// True for the loopback names a browser treats as this machine.
pub fn is_loopback_host(host: &str) -> bool {
    matches!(host, "localhost" | "127.0.0.1" | "[::1]")
}

/// Splits `host[:port]` (with `[v6]` literals) into host and port text.
/// `None` when the authority cannot be a host.
pub(crate) fn split_authority(authority: &str) -> Option<(&str, Option<&str>)> {
    let (host, port) = if authority.starts_with('[') {
        let close = authority.find(']')?;
        let host = authority.get(..=close)?;
        let rest = authority.get(close + 1..)?;
        match rest.strip_prefix(':') {
            Some(p) => (host, Some(p)),
            None if rest.is_empty() => (host, None),
            None => return None,
        }
    } else {
        match authority.split_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (authority, None),
        }
    };
    if host.is_empty() || host == "[]" {
        return None;
    }
    if let Some(p) = port {
        if p.is_empty()
            || p.len() > 5
            || !p.bytes().all(|b| b.is_ascii_digit())
            || p.parse::<u32>().map_or(true, |n| n > 65_535)
        {
            return None;
        }
    }
    let host_ok = if host.starts_with('[') {
        host.bytes()
            .all(|b| b.is_ascii_hexdigit() || b == b':' || b == b'.' || b == b'[' || b == b']')
    } else {
        host.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-')
    };
    host_ok.then_some((host, port))
}

/// Checks a base URL as typed: https anywhere, http only on this machine.
/// Surrounding spaces and trailing slashes are dropped.
pub fn parse_base_url(text: &str) -> Result<BaseUrl, BaseUrlError> {
    let text = text.trim().trim_end_matches('/');
    if text.is_empty() {
        return Err(BaseUrlError::Empty);
    }
    if text.chars().any(|c| {
        c.is_whitespace() || c.is_control() || matches!(c, '"' | '\'' | '<' | '>' | '\\' | '`')
    }) {
        return Err(BaseUrlError::BadCharacter);
    }
    let Some((scheme, rest)) = text.split_once("://") else {
        return Err(BaseUrlError::NotAUrl);
    };
    let scheme = scheme.to_ascii_lowercase();
    if rest.contains('?') || rest.contains('#') {
        return Err(BaseUrlError::QueryOrFragment);
    }
    let (authority, path) = match rest.find('/') {
        Some(i) => (rest.get(..i).unwrap_or(""), rest.get(i..).unwrap_or("")),
        None => (rest, ""),
    };
    if authority.contains('@') {
        return Err(BaseUrlError::Credentials);
    }
    let authority = authority.to_ascii_lowercase();
    let Some((host, port)) = split_authority(&authority) else {
        return Err(BaseUrlError::NotAUrl);
    };
    let local = is_loopback_host(host);
    match scheme.as_str() {
        "https" => {}
        "http" if host == "[::1]" => return Err(BaseUrlError::Ipv6Loopback),
        "http" if local => {}
        "http" => {
            return Err(BaseUrlError::InsecureRemote {
                host: host.to_owned(),
            })
        }
        _ => return Err(BaseUrlError::Scheme { scheme }),
    }
    let port = port.map(|p| format!(":{p}")).unwrap_or_default();
    Ok(BaseUrl {
        url: format!("{scheme}://{host}{port}{path}"),
        host: host.to_owned(),
        local,
    })
}

/// The learner's API key. It cannot be serialised (no `Serialize`), has no
/// `Display`, and its `Debug` shows only [`ApiKey::masked`], so it cannot leak
/// into saved settings, the request preview or an error message.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(String);

impl ApiKey {
    /// A key as pasted; surrounding spaces dropped. `None` when empty.
    pub fn new(text: &str) -> Option<ApiKey> {
        let t = text.trim();
        (!t.is_empty()).then(|| ApiKey(t.to_owned()))
    }

    /// The key itself, for the `Authorization` header only.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// The `Authorization` header's value: `Bearer <key>`.
    pub fn bearer(&self) -> String {
        format!("Bearer {}", self.0)
    }

    /// Dots and the last four characters (`••••wxyz`), or dots alone for a
    /// key of eight characters or fewer, where four would give away half.
    pub fn masked(&self) -> String {
        let chars: Vec<char> = self.0.chars().collect();
        if chars.len() <= 8 {
            return "••••".to_owned();
        }
        let tail: String = chars.get(chars.len() - 4..).unwrap_or(&[]).iter().collect();
        format!("••••{tail}")
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ApiKey({})", self.masked())
    }
}

/// The endpoint settings as saved: everything except the key, which the app
/// keeps (or not) on its own, by the learner's choice.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EndpointSettings {
    /// The preset chosen, or "custom".
    pub preset: String,
    /// The base URL as typed.
    pub base_url: String,
    /// The model id.
    pub model: String,
}

/// Why the settings cannot be used for a grading call.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum SettingsError {
    /// The base URL is not usable.
    BaseUrl { error: BaseUrlError },
    /// No model id.
    NoModel,
    /// The preset needs a key and none was given.
    NoKey { provider: String },
}

impl fmt::Display for SettingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SettingsError::BaseUrl { error } => write!(f, "base URL: {error}"),
            SettingsError::NoModel => {
                f.write_str("name the model to ask, as the provider spells it")
            }
            SettingsError::NoKey { provider } => write!(f, "{provider} needs an API key"),
        }
    }
}

impl std::error::Error for SettingsError {}

/// Everything a grading call needs, checked: the URL to post to and the
/// model. The key stays with the caller.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Endpoint {
    /// The full chat-completions URL.
    pub url: String,
    pub model: String,
    /// True when the endpoint is on the learner's own machine.
    pub local: bool,
}

/// Checks settings and a key together: a usable base URL, a model, and a
/// key when the preset needs one.
pub fn resolve(
    settings: &EndpointSettings,
    key: Option<&ApiKey>,
) -> Result<Endpoint, SettingsError> {
    let base =
        parse_base_url(&settings.base_url).map_err(|error| SettingsError::BaseUrl { error })?;
    let model = settings.model.trim();
    if model.is_empty() {
        return Err(SettingsError::NoModel);
    }
    if let Some(p) = find_preset(&settings.preset) {
        if p.needs_key && key.is_none() {
            return Err(SettingsError::NoKey {
                provider: p.label.to_owned(),
            });
        }
    }
    Ok(Endpoint {
        url: base.chat_completions(),
        model: model.to_owned(),
        local: base.local,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str, expected: Result<&str, BaseUrlError>) {
        let got = parse_base_url(text).map(|b| b.chat_completions());
        assert_eq!(got.as_deref().map_err(Clone::clone), expected, "{text}");
    }

    #[test]
    fn base_urls() {
        check(
            "https://api.openai.com/v1",
            Ok("https://api.openai.com/v1/chat/completions"),
        );
        check(
            " HTTPS://API.openai.com/v1/ ",
            Ok("https://api.openai.com/v1/chat/completions"),
        );
        check(
            "http://localhost:8000/v1",
            Ok("http://localhost:8000/v1/chat/completions"),
        );
        check(
            "http://127.0.0.1:8080/v1",
            Ok("http://127.0.0.1:8080/v1/chat/completions"),
        );
        check("http://[::1]:8080/v1", Err(BaseUrlError::Ipv6Loopback));
        check(
            "https://[::1]:8080/v1",
            Ok("https://[::1]:8080/v1/chat/completions"),
        );
        check(
            "http://example.com/v1",
            Err(BaseUrlError::InsecureRemote {
                host: "example.com".into(),
            }),
        );
        check(
            "http://localhost.evil.com/v1",
            Err(BaseUrlError::InsecureRemote {
                host: "localhost.evil.com".into(),
            }),
        );
        check(
            "ftp://x/v1",
            Err(BaseUrlError::Scheme {
                scheme: "ftp".into(),
            }),
        );
        check("javascript:alert(1)", Err(BaseUrlError::NotAUrl));
        check("", Err(BaseUrlError::Empty));
        check("https://user:pw@host/v1", Err(BaseUrlError::Credentials));
        check("https://host/v1?x=1", Err(BaseUrlError::QueryOrFragment));
        check("https://ho st/v1", Err(BaseUrlError::BadCharacter));
        check("https://host:99999/v1", Err(BaseUrlError::NotAUrl));
        check("https://:80/v1", Err(BaseUrlError::NotAUrl));
        check("https://[::1/v1", Err(BaseUrlError::NotAUrl));
    }

    #[test]
    fn presets_are_valid_and_unique() {
        for (i, p) in PRESETS.iter().enumerate() {
            assert!(
                PRESETS.iter().skip(i + 1).all(|q| q.id != p.id),
                "duplicate {}",
                p.id
            );
            if p.id != "custom" {
                let b = parse_base_url(p.base_url).unwrap();
                assert_eq!(
                    b.local, !p.needs_key,
                    "{}: local endpoints need no key",
                    p.id
                );
            }
        }
        assert_eq!(
            find_preset("local-vllm").map(|p| p.base_url),
            Some("http://localhost:8000/v1")
        );
        assert_eq!(
            find_preset("local-llama-cpp").map(|p| p.base_url),
            Some("http://localhost:8080/v1")
        );
    }

    #[test]
    fn the_key_never_shows() {
        let key = ApiKey::new("  sk-proj-abcdefghijklmnopwxyz ").unwrap();
        assert_eq!(key.masked(), "••••wxyz");
        assert_eq!(format!("{key:?}"), "ApiKey(••••wxyz)");
        assert_eq!(key.bearer(), "Bearer sk-proj-abcdefghijklmnopwxyz");
        assert_eq!(ApiKey::new("short").unwrap().masked(), "••••");
        assert_eq!(ApiKey::new("   "), None);
        let settings = EndpointSettings {
            preset: "openai".into(),
            base_url: "https://api.openai.com/v1".into(),
            model: " m ".into(),
        };
        assert_eq!(
            resolve(&settings, None),
            Err(SettingsError::NoKey {
                provider: "OpenAI".into()
            })
        );
        let ok = resolve(&settings, Some(&key)).unwrap();
        assert_eq!(
            (ok.url.as_str(), ok.model.as_str(), ok.local),
            ("https://api.openai.com/v1/chat/completions", "m", false)
        );
        assert!(!format!("{ok:?}{}", serde_json::to_string(&ok).unwrap()).contains("abcdef"));
        let local = EndpointSettings {
            preset: "local-vllm".into(),
            base_url: "http://localhost:8000/v1".into(),
            model: "".into(),
        };
        assert_eq!(resolve(&local, None), Err(SettingsError::NoModel));
    }
}
