//! The grading stream against `reply_limit`: a reply up to 64 KiB of text is
//! read, one byte more stops the call with a plain message, and a redirect
//! is explained rather than reported as a network failure.

use ttft_core::second_opinion::failures::CallFailure;
use ttft_core::second_opinion::provider::Endpoint;
use ttft_core::second_opinion::reply_limit::REPLY_TEXT_LIMIT;
use ttft_core::second_opinion::stream::GradingStream;
use ttft_latency::time::Micros;

/// One chat-completions stream event carrying `text`.
fn event(text: &str) -> String {
    let chunk = serde_json::json!({ "choices": [{ "index": 0, "delta": { "content": text }, "finish_reason": null }] });
    format!("data: {chunk}\n\n")
}

#[test]
fn a_reply_up_to_the_limit_is_read_and_one_past_it_stops() {
    let piece = "x".repeat(1024);
    let mut stream = GradingStream::new(Micros(0));
    for i in 0..64 {
        assert_eq!(
            stream
                .receive(event(&piece).as_bytes(), Micros(i))
                .map(|t| t.len()),
            Ok(1024),
            "piece {i}"
        );
    }
    assert_eq!(stream.text().len(), REPLY_TEXT_LIMIT);
    assert_eq!(
        stream.receive(event("y").as_bytes(), Micros(65)),
        Err(CallFailure::TooLarge {
            limit: REPLY_TEXT_LIMIT
        })
    );

    // One network chunk holding many events is stopped too, not read whole.
    let flood: String = (0..100).map(|_| event(&piece)).collect();
    let mut stream = GradingStream::new(Micros(0));
    assert_eq!(
        stream.receive(flood.as_bytes(), Micros(1)),
        Err(CallFailure::TooLarge {
            limit: REPLY_TEXT_LIMIT
        })
    );
    assert_eq!(
        stream.text(),
        "",
        "nothing from the over-long chunk is kept"
    );
}

#[test]
fn limits_and_redirects_in_plain_words() {
    let ep = Endpoint {
        url: "http://127.0.0.1:9/v1/chat/completions".into(),
        model: "m".into(),
        local: true,
    };
    let big = CallFailure::TooLarge {
        limit: REPLY_TEXT_LIMIT,
    }
    .explain(&ep);
    assert!(
        big.starts_with("The reply grew past 64 KiB of text, far more than a grade needs"),
        "{big}"
    );
    let redirected = CallFailure::Redirected.explain(&ep);
    assert!(
        redirected.contains("the redirect was not followed"),
        "{redirected}"
    );
}
