//! A parent origin on the instructor's allow-list (`origin=`): exactly
//! `scheme://host[:port]`, https, or http only for a loopback host, written
//! as a browser writes `event.origin`.

use crate::second_opinion::provider::{is_loopback_host, split_authority};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A parent origin on the allow-list: `scheme://host[:port]`, lower case,
/// default port dropped, exactly as a browser writes `event.origin`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Origin(String);

impl Origin {
    /// The origin as text, for `postMessage`'s target.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Why an origin was refused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum OriginError {
    /// Not `scheme://host[:port]`.
    Malformed { text: String },
    /// A path, query or fragment after the host.
    HasPath { text: String },
    /// A scheme other than https (http is for this machine only).
    Scheme { text: String },
    /// Plain http to a host other than this machine.
    InsecureRemote { text: String },
    /// `*` or `null`, which would send results to anyone.
    Wildcard { text: String },
}

impl fmt::Display for OriginError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OriginError::Malformed { text } => write!(
                f,
                "\"{text}\" is not an origin: write it as https://host or https://host:port"
            ),
            OriginError::HasPath { text } => write!(
                f,
                "\"{text}\" has a path; an origin is only https://host[:port]"
            ),
            OriginError::Scheme { text } => write!(
                f,
                "\"{text}\" is not https; results are sent only to https origins"
            ),
            OriginError::InsecureRemote { text } => {
                write!(
                    f,
                    "\"{text}\" is plain http; http is accepted only for localhost and 127.0.0.1"
                )
            }
            OriginError::Wildcard { text } => write!(
                f,
                "\"{text}\" would let any site receive results; name the site's origin"
            ),
        }
    }
}

impl std::error::Error for OriginError {}

/// Checks and normalises one origin.
pub fn parse_origin(text: &str) -> Result<Origin, OriginError> {
    let raw = text.trim();
    let err_text = raw.chars().take(200).collect::<String>();
    if raw == "*" || raw.eq_ignore_ascii_case("null") {
        return Err(OriginError::Wildcard { text: err_text });
    }
    let Some((scheme, rest)) = raw.split_once("://") else {
        return Err(OriginError::Malformed { text: err_text });
    };
    let scheme = scheme.to_ascii_lowercase();
    // One trailing slash is how origins often get pasted; anything more is a path.
    let rest = rest.strip_suffix('/').unwrap_or(rest);
    if rest.contains(['/', '?', '#']) {
        return Err(OriginError::HasPath { text: err_text });
    }
    if rest.contains('@') {
        return Err(OriginError::Malformed { text: err_text });
    }
    let authority = rest.to_ascii_lowercase();
    let Some((host, port)) = split_authority(&authority) else {
        return Err(OriginError::Malformed { text: err_text });
    };
    if host.starts_with('.') || host.ends_with('.') || host.contains("..") {
        return Err(OriginError::Malformed { text: err_text });
    }
    let default_port = match scheme.as_str() {
        "https" => "443",
        "http" if is_loopback_host(host) => "80",
        "http" => return Err(OriginError::InsecureRemote { text: err_text }),
        _ => return Err(OriginError::Scheme { text: err_text }),
    };
    let port = match port {
        Some(p) if p.trim_start_matches('0') != default_port => {
            format!(":{}", p.trim_start_matches('0'))
        }
        _ => String::new(),
    };
    if port == ":" {
        return Err(OriginError::Malformed { text: err_text });
    }
    Ok(Origin(format!("{scheme}://{host}{port}")))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn origin(s: &str) -> Origin {
        parse_origin(s).unwrap()
    }

    #[test]
    fn origins() {
        assert_eq!(
            origin("https://LMS.example.edu/").as_str(),
            "https://lms.example.edu"
        );
        assert_eq!(
            origin("https://lms.example.edu:443").as_str(),
            "https://lms.example.edu"
        );
        assert_eq!(
            origin("https://lms.example.edu:8443").as_str(),
            "https://lms.example.edu:8443"
        );
        assert_eq!(
            origin("http://localhost:3000").as_str(),
            "http://localhost:3000"
        );
        assert_eq!(origin("http://127.0.0.1").as_str(), "http://127.0.0.1");
        assert_eq!(origin("http://[::1]:80").as_str(), "http://[::1]");
        let e = |s: &str| parse_origin(s).unwrap_err();
        assert_eq!(e("*"), OriginError::Wildcard { text: "*".into() });
        assert_eq!(
            e("null"),
            OriginError::Wildcard {
                text: "null".into()
            }
        );
        assert_eq!(
            e("http://lms.example.edu"),
            OriginError::InsecureRemote {
                text: "http://lms.example.edu".into()
            }
        );
        assert_eq!(
            e("https://lms.example.edu/course/1"),
            OriginError::HasPath {
                text: "https://lms.example.edu/course/1".into()
            }
        );
        assert_eq!(
            e("javascript://x"),
            OriginError::Scheme {
                text: "javascript://x".into()
            }
        );
        assert_eq!(
            e("lms.example.edu"),
            OriginError::Malformed {
                text: "lms.example.edu".into()
            }
        );
        assert_eq!(
            e("https://a@b.com"),
            OriginError::Malformed {
                text: "https://a@b.com".into()
            }
        );
        assert_eq!(
            e("https://b..com"),
            OriginError::Malformed {
                text: "https://b..com".into()
            }
        );
        assert_eq!(
            e("https://b.com:"),
            OriginError::Malformed {
                text: "https://b.com:".into()
            }
        );
        assert_eq!(
            e("https://b.com:0"),
            OriginError::Malformed {
                text: "https://b.com:0".into()
            }
        );
        assert_eq!(
            e("https://"),
            OriginError::Malformed {
                text: "https://".into()
            }
        );
    }
}
