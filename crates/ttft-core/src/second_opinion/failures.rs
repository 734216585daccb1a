//! Every way a grading call can fail ([`CallFailure`]), each explained in
//! plain words that say what to do next.

use crate::second_opinion::provider::Endpoint;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ttft_latency::split::format_tenths;
use ttft_latency::time::Micros;

/// Every way a grading call can fail, as the app observes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum CallFailure {
    /// The server answered with a status other than 2xx. `retry_after` is
    /// the `Retry-After` header as sent; `body` the response text, if read.
    Http {
        status: u16,
        retry_after: Option<String>,
        body: Option<String>,
    },
    /// `fetch` rejected with a TypeError: no response at all.
    Network,
    /// No response headers within the time limit.
    Timeout { after: Micros },
    /// The reply started streaming but had not finished within the overall
    /// time limit.
    TooSlow { after: Micros },
    /// The stream started, then sent nothing for this long.
    Stalled { silent_for: Micros },
    /// The learner pressed cancel (the fetch was aborted).
    Cancelled,
    /// The provider sent an error object inside the stream.
    StreamError {
        message: String,
        code: Option<String>,
    },
    /// The stream closed before `[DONE]` or a finish reason.
    EndedEarly,
    /// The stream was not readable as server-sent events.
    Unreadable { reason: String },
    /// The endpoint answered with a redirect, which is not followed: the
    /// key goes only to the address the learner gave.
    Redirected,
    /// The reply's text grew past `limit` bytes (`reply_limit`).
    TooLarge { limit: usize },
}

/// The `message` of a JSON error body, if it has one, shortened.
fn body_message(body: Option<&str>) -> Option<String> {
    let v: Value = serde_json::from_str(body?.trim()).ok()?;
    let err = v.get("error").unwrap_or(&v);
    let msg = match err {
        Value::String(s) => s.as_str(),
        other => other.get("message")?.as_str()?,
    };
    let msg: String = msg.trim().chars().take(300).collect();
    (!msg.is_empty()).then_some(msg)
}

/// How long `Retry-After` asks to wait, in words: seconds when it is a
/// number, the date as sent otherwise.
fn retry_words(retry_after: Option<&str>) -> String {
    match retry_after.map(str::trim) {
        Some(s) if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) => {
            let secs: u64 = s.parse().unwrap_or(u64::MAX);
            let unit = if secs == 1 { "second" } else { "seconds" };
            format!(" The provider asks you to wait {secs} {unit} before trying again.")
        }
        Some(s) if !s.is_empty() => {
            format!(" The provider asks you to wait until {s} before trying again.")
        }
        _ => " Wait a minute before trying again.".to_owned(),
    }
}

/// Seconds to one decimal, rounded half up, and whole seconds without one
/// (`30 s`, `12.5 s`). Integer arithmetic: no float formatter is linked.
fn secs(t: Micros) -> String {
    let us = t.0.max(0);
    format!("{} s", format_tenths((us + 50_000) / 100_000))
}

impl CallFailure {
    /// A plain message for the learner, naming `endpoint`'s model and
    /// saying what to do.
    pub fn explain(&self, endpoint: &Endpoint) -> String {
        let provider_says = |body: &Option<String>| {
            body_message(body.as_deref())
                .map(|m| format!(" The provider said: \"{m}\""))
                .unwrap_or_default()
        };
        match self {
            CallFailure::Http { status: 401 | 403, body, .. } => format!(
                "The provider refused the key. Check that it is complete, still active, and issued by this provider: \
                 a key from one provider does not work at another.{}",
                provider_says(body)
            ),
            CallFailure::Http { status: 404, body, .. } => format!(
                "Not found: either the model \"{}\" does not exist at this endpoint (check its exact spelling in the \
                 provider's model list), or the base URL is wrong (it should end in the API's version path, such as /v1).{}",
                endpoint.model,
                provider_says(body)
            ),
            CallFailure::Http { status: 429, retry_after, body } => format!(
                "Rate limited: the provider is refusing requests for now, because of too many requests or a used-up \
                 quota.{}{}",
                retry_words(retry_after.as_deref()),
                provider_says(body)
            ),
            CallFailure::Http { status, body, .. } if (500..600).contains(status) => format!(
                "The provider failed with its own error ({status}); nothing is wrong with your settings. Try again later.{}",
                provider_says(body)
            ),
            CallFailure::Http { status, body, .. } => {
                format!("The provider refused the request with status {status}.{}", provider_says(body))
            }
            CallFailure::Network if endpoint.local => format!(
                "No reply from {}. Is the local server running? If it is, it must allow requests from this page's \
                 origin (CORS): the browser blocks the reply otherwise and reports only a network error.",
                endpoint.url
            ),
            CallFailure::Network => "The request got no reply. The browser reports only that the network request \
                 failed; the usual cause is that the endpoint does not allow calls from a web page (CORS), which \
                 some providers refuse by design. It can also be a wrong address or being offline."
                .to_owned(),
            CallFailure::Timeout { after } => format!(
                "No reply within {}. The provider may be overloaded, or the address may not lead to a server.",
                secs(*after)
            ),
            CallFailure::TooSlow { after } => format!(
                "The reply was still arriving after {}, so it was stopped. The provider is sending very \
                 slowly; try again later, or choose a smaller or faster model.",
                secs(*after)
            ),
            CallFailure::Stalled { silent_for } => format!(
                "The reply started, then nothing arrived for {}, so the call was stopped. Try again; a partial \
                 reply is never shown as a score.",
                secs(*silent_for)
            ),
            CallFailure::Cancelled => "You cancelled the grading call; nothing was scored.".to_owned(),
            CallFailure::StreamError { message, code } => {
                let code = code.as_ref().map(|c| format!(" ({c})")).unwrap_or_default();
                format!("The provider reported an error partway through its reply{code}: \"{message}\"")
            }
            CallFailure::EndedEarly => {
                "The reply stopped before it was complete, so it is not shown as a score. Try again.".to_owned()
            }
            CallFailure::Unreadable { reason } => format!("The reply could not be read as a stream: {reason}."),
            CallFailure::Redirected => crate::second_opinion::reply_limit::REDIRECTED.to_owned(),
            CallFailure::TooLarge { limit } => crate::second_opinion::reply_limit::too_large(*limit),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::second_opinion::sse::{error_code, error_message};

    /// An error body (what a 4xx carries) read as a stream failure, as a
    /// provider that answers 200 and then an error object would send it.
    fn stream_error_from_body(body: &str) -> Option<CallFailure> {
        let v: serde_json::Value = serde_json::from_str(body.trim()).ok()?;
        let err = v.get("error")?;
        Some(CallFailure::StreamError {
            message: error_message(err),
            code: error_code(err),
        })
    }

    fn explain(f: CallFailure) -> String {
        f.explain(&Endpoint {
            url: "http://localhost:8000/v1/chat/completions".into(),
            model: "qwen".into(),
            local: false,
        })
    }

    #[test]
    fn failures_in_plain_words() {
        let http = |status, retry: Option<&str>, body: Option<&str>| CallFailure::Http {
            status,
            retry_after: retry.map(str::to_owned),
            body: body.map(str::to_owned),
        };
        assert!(explain(http(
            401,
            None,
            Some(r#"{"error":{"message":"Incorrect API key provided"}}"#)
        ))
        .ends_with("The provider said: \"Incorrect API key provided\""));
        assert!(explain(http(404, None, None)).contains("the model \"qwen\" does not exist"));
        assert!(explain(http(429, Some("20"), None)).contains("wait 20 seconds"));
        assert!(explain(http(429, None, None)).contains("Wait a minute"));
        assert!(explain(http(503, None, Some("<html>")))
            .starts_with("The provider failed with its own error (503)"));
        assert!(explain(CallFailure::Network).contains("(CORS)"));
        let local = Endpoint {
            url: "http://localhost:8080/v1/chat/completions".into(),
            model: "x".into(),
            local: true,
        };
        assert!(CallFailure::Network
            .explain(&local)
            .starts_with("No reply from http://localhost:8080"));
        assert!(explain(CallFailure::Timeout {
            after: Micros::from_ms(30_000)
        })
        .contains("within 30 s"));
        assert!(explain(CallFailure::TooSlow {
            after: Micros::from_ms(60_000)
        })
        .contains("still arriving after 60 s"));
        assert!(explain(CallFailure::Stalled {
            silent_for: Micros::from_ms(12_500)
        })
        .contains("for 12.5 s"));
        assert!(explain(CallFailure::Stalled {
            silent_for: Micros(12_449_999)
        })
        .contains("for 12.4 s"));
        assert!(explain(CallFailure::Stalled {
            silent_for: Micros(12_950_000)
        })
        .contains("for 13 s"));
        assert_eq!(
            explain(CallFailure::Cancelled),
            "You cancelled the grading call; nothing was scored."
        );
        assert_eq!(
            stream_error_from_body(r#"{"error":{"message":"busy","code":503}}"#),
            Some(CallFailure::StreamError {
                message: "busy".into(),
                code: Some("503".into())
            })
        );
    }
}
