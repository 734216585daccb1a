//! The AI second opinion against the course's real rubric and question.
//!
//! A grading request is built from `content/rubric.toml` and
//! `content/interview.toml`; a reply that scores the reference answer as the
//! content does is streamed through the SSE parser in awkward chunks,
//! assembled, checked and compared with a self-score; the preview names
//! every rubric dimension and never the key; and replies that break the
//! contract are refused with the dimension named.

use serde_json::{json, Value};
use ttft_core::content::{Interview, Rubric};
use ttft_core::rubric::RubricScore;
use ttft_core::second_opinion::comparison::{compare, Difference};
use ttft_core::second_opinion::provider::{resolve, ApiKey, EndpointSettings};
use ttft_core::second_opinion::reply::{parse_reply, ReplyProblem};
use ttft_core::second_opinion::request::{build_request, preview, question_text};
use ttft_core::second_opinion::stream::GradingStream;
use ttft_latency::Micros;

fn content<T: serde::de::DeserializeOwned>(name: &str) -> T {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../content")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    toml::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn course() -> (Rubric, Interview) {
    (content("rubric.toml"), content("interview.toml"))
}

/// The reply a well-behaved model would give for the reference answer: the
/// content's reference scores, each with a quote taken from the answer.
fn reference_reply(interview: &Interview, answer: &str) -> String {
    let quote: String = answer
        .split_whitespace()
        .take(6)
        .collect::<Vec<_>>()
        .join(" ");
    let scores: Vec<Value> = interview
        .reference_scores
        .iter()
        .map(|s| json!({"dimension": s.dimension, "score": s.score, "evidence": quote, "feedback": "Covered with figures from the trace."}))
        .collect();
    json!({ "scores": scores }).to_string()
}

/// Turns reply text into a chat-completions SSE body, one delta per
/// `piece` characters.
fn sse_body(reply: &str, piece: usize) -> Vec<u8> {
    let chars: Vec<char> = reply.chars().collect();
    let mut body = String::from(
        ": connected\n\ndata: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\"}}]}\n\n",
    );
    for chunk in chars.chunks(piece.max(1)) {
        let text: String = chunk.iter().collect();
        let event =
            json!({"choices": [{"index": 0, "delta": {"content": text}, "finish_reason": null}]});
        body.push_str(&format!("data: {event}\r\n\r\n"));
    }
    body.push_str("data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n");
    body.into_bytes()
}

#[test]
fn the_reference_answer_round_trips_through_a_stream() {
    let (rubric, interview) = course();
    let answer = interview.reference_answer.join("\n\n");
    let reply = reference_reply(&interview, &answer);
    let body = sse_body(&reply, 7);
    // Deliver the bytes in uneven network chunks, 10 ms apart.
    let mut stream = GradingStream::new(Micros::from_ms(0));
    let mut at = Micros::from_ms(300);
    for chunk in body.chunks(13) {
        stream.receive(chunk, at).expect("a well-formed stream");
        at = at + Micros::from_ms(10);
    }
    let received = stream.finish(at).expect("complete");
    assert_eq!(received.text, reply);
    // The first text is complete once its event's blank line has arrived.
    let text = String::from_utf8(body.clone()).unwrap();
    let first_content = text.find("\"content\"").unwrap();
    let event_end = first_content + text[first_content..].find("\r\n\r\n").unwrap() + 4;
    // The blank line ends at its `\r`: the parser dispatches there.
    let chunk_index = (event_end - 2) / 13;
    assert_eq!(
        received.timing.first_token,
        Micros::from_ms(300 + 10 * chunk_index as i64)
    );
    assert_eq!(received.timing.end_to_end, at);
    let grade = parse_reply(&received.text, &rubric, &answer)
        .expect("the reference reply is a valid grade");
    assert!(grade.warnings.is_empty(), "{:?}", grade.warnings);
    let reference = RubricScore::from_dimension_scores(&interview.reference_scores).unwrap();
    assert_eq!(grade.as_rubric_score(), reference);
    let rows = compare(&reference, &grade, &rubric);
    assert_eq!(rows.len(), rubric.dimensions.len());
    assert!(rows.iter().all(|r| r.difference == Difference::Same));
}

#[test]
fn the_request_shows_the_rubric_and_never_the_key() {
    let (rubric, interview) = course();
    let key = ApiKey::new("sk-test-0123456789abcdefSECRET").unwrap();
    let settings = EndpointSettings {
        preset: "openai".into(),
        base_url: "https://api.openai.com/v1".into(),
        model: "gpt-4o-mini".into(),
    };
    let endpoint = resolve(&settings, Some(&key)).unwrap();
    let request = build_request(
        &endpoint.model,
        &rubric,
        &question_text(&interview),
        "My answer: queue wait dominates.",
    );
    let shown = preview(&endpoint, &request);
    for d in &rubric.dimensions {
        assert!(
            shown.contains(&d.id) && shown.contains(&d.title),
            "{} is in the preview",
            d.id
        );
        for level in &d.levels {
            assert!(
                shown.contains(level.trim()),
                "{}'s levels are in the preview",
                d.id
            );
        }
    }
    assert!(shown.contains(interview.question.trim()));
    assert!(shown.contains("My answer: queue wait dominates."));
    let body = request.body.to_string();
    assert!(
        !shown.contains("SECRET")
            && !body.contains("SECRET")
            && !format!("{endpoint:?}").contains("SECRET")
    );
    assert_eq!(
        request.body["messages"][0]["content"],
        json!(request.system)
    );
}

#[test]
fn a_contract_breaking_reply_names_the_dimension() {
    let (rubric, interview) = course();
    let answer = interview.reference_answer.join("\n\n");
    let mut reply: Value = serde_json::from_str(&reference_reply(&interview, &answer)).unwrap();
    let scores = reply["scores"].as_array_mut().unwrap();
    let dropped = scores.remove(0)["dimension"].as_str().unwrap().to_owned();
    scores[0]["score"] = json!(3);
    let bumped = scores[0]["dimension"].as_str().unwrap().to_owned();
    let problems = parse_reply(&reply.to_string(), &rubric, &answer).unwrap_err();
    assert_eq!(
        problems,
        vec![
            ReplyProblem::OutOfRange {
                dimension: bumped,
                score: "3".into()
            },
            ReplyProblem::MissingDimension {
                dimension: dropped.clone()
            }
        ]
    );
    assert!(problems[1].to_string().contains(&dropped));
}
