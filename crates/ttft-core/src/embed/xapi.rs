//! xAPI-shaped result statements an embedded page posts to its parent when
//! a learner checks an exercise or saves a self-score.
//!
//! The shape follows xAPI 1.0.3 (adlnet/xAPI-Spec, `xAPI-Data.md`): `verb`
//! with an ADL id (`answered` for an exercise check, `completed` for a saved
//! self-score) and an `en-US` display; `object` an Activity whose id is the
//! instructor's activity base IRI followed by the exercise id, with
//! `definition.name`; `result` with `score {raw, min, max, scaled}`,
//! `success`, `completion`, `response` and an ISO 8601 `duration`; and the
//! `timestamp` the caller gives (this module reads no clock).
//!
//! **Actor.** The spec requires an actor on a statement an LRS stores, and
//! identifies an Agent by exactly one inverse functional identifier. The
//! embedded page does not know who the learner is; the course page around
//! it does. So by default the actor is **omitted** ([`Actor::HostFills`]):
//! the statement is a partial statement for the host page, which adds its
//! own actor (as LMS integrations of H5P do) before forwarding it to an
//! LRS. When a host wants a complete statement, [`Actor::Anonymous`] uses
//! the spec's `account` identifier (`homePage` + `name`) with a name the
//! host chose, such as a per-session id; nothing here invents identity.
//!
//! This module does not post anything or decide where statements go (see
//! `embed` for the origin allow-list).

use crate::content::Rubric;
use crate::exercises::config_choice::{ChoiceError, WorkloadCheck, WorkloadInput};
use crate::exercises::trace_exercise::{LearnerAnswer, ShareEntry, TraceCheck};
use crate::rubric::{RubricScore, MAX_SCORE};
use serde::{Deserialize, Serialize};
use std::fmt;
use ttft_latency::time::Micros;

/// ADL's verb for an exercise check.
pub const VERB_ANSWERED: &str = "http://adlnet.gov/expapi/verbs/answered";
/// ADL's verb for a saved self-score.
pub const VERB_COMPLETED: &str = "http://adlnet.gov/expapi/verbs/completed";
/// ADL's activity type for an assessment item.
pub const ACTIVITY_INTERACTION: &str = "http://adlnet.gov/expapi/activities/cmi.interaction";
/// ADL's activity type for an assessment.
pub const ACTIVITY_ASSESSMENT: &str = "http://adlnet.gov/expapi/activities/assessment";

/// ISO 8601 duration of `t`, as xAPI wants it: `PT1M5.5S`. Hours are not
/// folded into days (a day is not always 24 hours), seconds keep up to two
/// decimals, truncated (xAPI compares durations at 0.01 s), and negative
/// durations, which ISO 8601 cannot write, become `PT0S`.
pub fn iso8601_duration(t: Micros) -> String {
    let hundredths = t.0.max(0) / 10_000;
    let hours = hundredths / 360_000;
    let minutes = (hundredths / 6_000) % 60;
    let secs = (hundredths / 100) % 60;
    let frac = hundredths % 100;
    let mut out = String::from("PT");
    if hours > 0 {
        out.push_str(&format!("{hours}H"));
    }
    if minutes > 0 {
        out.push_str(&format!("{minutes}M"));
    }
    if secs > 0 || frac > 0 || (hours == 0 && minutes == 0) {
        out.push_str(&secs.to_string());
        if frac > 0 {
            let digits = format!("{frac:02}");
            out.push('.');
            out.push_str(digits.trim_end_matches('0'));
        }
        out.push('S');
    }
    out
}

/// The activity base IRI is not usable.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BadActivityBase {
    pub text: String,
}

impl fmt::Display for BadActivityBase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\"{}\" cannot prefix activity ids: use an https:// address such as https://courses.example.edu/ttft-lab/", self.text)
    }
}

impl std::error::Error for BadActivityBase {}

/// The IRI activity ids start with, ending in `/`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ActivityBase(String);

impl ActivityBase {
    /// Checks an `http(s)://` IRI without spaces, query or fragment, and
    /// adds the final `/` if missing.
    pub fn parse(text: &str) -> Result<ActivityBase, BadActivityBase> {
        let t = text.trim();
        let bad = || BadActivityBase {
            text: t.chars().take(200).collect(),
        };
        let rest = t
            .strip_prefix("https://")
            .or_else(|| t.strip_prefix("http://"))
            .ok_or_else(bad)?;
        let host = rest.split('/').next().unwrap_or("");
        if host.is_empty()
            || t.contains(['?', '#', ' ', '"', '<', '>', '\\'])
            || t.chars().any(char::is_control)
        {
            return Err(bad());
        }
        let slash = if t.ends_with('/') { "" } else { "/" };
        Ok(ActivityBase(format!("{t}{slash}")))
    }

    /// The activity id for `exercise_id` (percent-encoded where needed).
    pub fn activity_id(&self, exercise_id: &str) -> String {
        format!(
            "{}{}",
            self.0,
            crate::embed::query::percent_encode(exercise_id)
        )
    }
}

/// Who the statement is about.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Actor {
    /// No actor: the host page adds its own (the default).
    HostFills,
    /// An Agent identified only by an account the host named.
    Anonymous { home_page: String, name: String },
}

/// A language map with one `en-US` entry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LanguageMap {
    #[serde(rename = "en-US")]
    pub en_us: String,
}

fn en(text: &str) -> LanguageMap {
    LanguageMap {
        en_us: text.to_owned(),
    }
}

/// An account identifier.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Account {
    #[serde(rename = "homePage")]
    pub home_page: String,
    pub name: String,
}

/// The statement's actor when one is given.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Agent {
    #[serde(rename = "objectType")]
    pub object_type: String,
    pub account: Account,
}

/// A verb.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verb {
    pub id: String,
    pub display: LanguageMap,
}

/// An activity's definition.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Definition {
    pub name: LanguageMap,
    #[serde(rename = "type")]
    pub kind: String,
}

/// The activity acted on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Activity {
    #[serde(rename = "objectType")]
    pub object_type: String,
    pub id: String,
    pub definition: Definition,
}

/// A score.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Score {
    pub raw: u32,
    pub min: u32,
    pub max: u32,
    /// raw / max, in 0..=1 (0 when max is 0).
    pub scaled: f64,
}

/// The outcome.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct XapiResult {
    pub score: Score,
    pub success: bool,
    pub completion: bool,
    pub response: String,
    pub duration: String,
}

/// An xAPI statement as posted to the parent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Statement {
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub actor: Option<Agent>,
    pub verb: Verb,
    pub object: Activity,
    pub result: XapiResult,
    pub timestamp: String,
}

/// What every statement needs from the caller.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatementContext {
    pub base: ActivityBase,
    pub actor: Actor,
    /// The exercise's id (`hint-trace`) and title.
    pub exercise_id: String,
    pub exercise_name: String,
    /// When it happened, ISO 8601 with zone (`2026-11-29T10:15:00.000Z`).
    pub timestamp: String,
    /// Time spent: from opening the exercise to this check or save.
    pub duration: Micros,
}

fn score(raw: u32, max: u32) -> Score {
    let scaled = if max == 0 {
        0.0
    } else {
        f64::from(raw.min(max)) / f64::from(max)
    };
    // Three decimals are plenty for a dashboard and keep the JSON tidy.
    Score {
        raw,
        min: 0,
        max,
        scaled: (scaled * 1_000.0).round() / 1_000.0,
    }
}

fn statement(
    ctx: &StatementContext,
    verb: (&str, &str),
    kind: &str,
    result: XapiResult,
) -> Statement {
    let actor = match &ctx.actor {
        Actor::HostFills => None,
        Actor::Anonymous { home_page, name } => Some(Agent {
            object_type: "Agent".into(),
            account: Account {
                home_page: home_page.clone(),
                name: name.clone(),
            },
        }),
    };
    Statement {
        actor,
        verb: Verb {
            id: verb.0.to_owned(),
            display: en(verb.1),
        },
        object: Activity {
            object_type: "Activity".into(),
            id: ctx.base.activity_id(&ctx.exercise_id),
            definition: Definition {
                name: en(&ctx.exercise_name),
                kind: kind.to_owned(),
            },
        },
        result,
        timestamp: ctx.timestamp.clone(),
    }
}

/// xAPI's separator between the parts of a response.
const SEP: &str = "[,]";

/// Each request's answers, as a response lists them: `H1: prefill; 70;
/// within-target` (`-` for a field left empty).
pub fn trace_response(request_ids: &[String], answers: &[LearnerAnswer]) -> Vec<String> {
    let empty = LearnerAnswer::default();
    request_ids
        .iter()
        .enumerate()
        .map(|(i, id)| {
            let a = answers.get(i).unwrap_or(&empty);
            let dominant = a.dominant.map_or("-", |d| d.label());
            let share = match &a.share_percent {
                Some(entry @ ShareEntry::Number(_)) => entry.text(),
                Some(ShareEntry::Text(t)) if !t.trim().is_empty() => t.trim().to_owned(),
                _ => "-".to_owned(),
            };
            let act = a
                .investigate
                .as_deref()
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .unwrap_or("-");
            format!("{id}: {dominant}; {share}; {act}")
        })
        .collect()
}

/// Each workload's choice, as a response lists them: `W1: B` (`-` for
/// none).
pub fn choice_response(workload_ids: &[String], inputs: &[WorkloadInput]) -> Vec<String> {
    workload_ids
        .iter()
        .enumerate()
        .map(|(i, id)| format!("{id}: {}", chosen(inputs, i).unwrap_or("-")))
        .collect()
}

fn chosen(inputs: &[WorkloadInput], i: usize) -> Option<&str> {
    inputs
        .get(i)
        .and_then(|x| x.choice.as_deref())
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

/// A trace-exercise check: one point per field (dominant delay, share,
/// first investigation) of every request; success when all are right,
/// completion when none was left empty. The response lists each request's
/// answers: `H1 prefill 70 within-target[,]H2 …`.
pub fn trace_check(
    ctx: &StatementContext,
    check: &TraceCheck,
    request_ids: &[String],
    answers: &[LearnerAnswer],
) -> Statement {
    let tally = check.tally();
    let max = u32::try_from(check.rows.len().saturating_mul(3)).unwrap_or(u32::MAX);
    let raw = u32::try_from(tally.correct).unwrap_or(u32::MAX);
    let answered_all = tally.missing == 0 && check.rows.iter().all(|r| r.is_ok());
    let result = XapiResult {
        score: score(raw, max),
        success: check.all_correct(),
        completion: answered_all,
        response: trace_response(request_ids, answers).join(SEP),
        duration: iso8601_duration(ctx.duration),
    };
    statement(
        ctx,
        (VERB_ANSWERED, "answered"),
        ACTIVITY_INTERACTION,
        result,
    )
}

/// Fields right and fields asked in one workload's check: the choice, each
/// number and yes/no the workload asks for, and the evidence as one field.
pub fn workload_points(check: &WorkloadCheck) -> (u32, u32) {
    let mut right = 0u32;
    let mut total = 0u32;
    let mut add = |ok: bool| {
        total += 1;
        right += u32::from(ok);
    };
    add(check.choice.is_correct());
    if let Some(n) = &check.numbers {
        add(n.total_tokens.is_correct());
        n.seconds.iter().for_each(|(_, v)| add(v.is_correct()));
        n.fits.iter().for_each(|(_, v)| add(v.is_correct()));
    }
    if let Some(n) = &check.interactive {
        n.meets.iter().for_each(|(_, v)| add(v.is_correct()));
        n.late.iter().for_each(|(_, v)| add(v.is_correct()));
    }
    add(check.evidence.complete());
    (right, total)
}

/// A configuration-choice check: points as [`workload_points`] over every
/// workload (a workload whose arithmetic failed counts one point, missed);
/// success when every workload is fully right, completion when every
/// workload has a choice. The response lists the choices: `W1: B[,]W2: A`.
pub fn config_check(
    ctx: &StatementContext,
    checks: &[Result<WorkloadCheck, ChoiceError>],
    workload_ids: &[String],
    inputs: &[WorkloadInput],
) -> Statement {
    let (mut raw, mut max) = (0u32, 0u32);
    for c in checks {
        let (r, t) = c.as_ref().map_or((0, 1), workload_points);
        raw = raw.saturating_add(r);
        max = max.saturating_add(t);
    }
    let result = XapiResult {
        score: score(raw, max),
        success: !checks.is_empty()
            && checks
                .iter()
                .all(|c| c.as_ref().is_ok_and(WorkloadCheck::all_correct)),
        completion: (0..workload_ids.len()).all(|i| chosen(inputs, i).is_some()),
        response: choice_response(workload_ids, inputs).join(SEP),
        duration: iso8601_duration(ctx.duration),
    };
    statement(
        ctx,
        (VERB_ANSWERED, "answered"),
        ACTIVITY_INTERACTION,
        result,
    )
}

/// A saved self-score: raw is the total (of 10 for five dimensions),
/// success is the readiness verdict, completion is every dimension scored.
/// The response lists the scores in rubric order: `latency_metrics=2[,]…`.
pub fn self_score(ctx: &StatementContext, score_in: &RubricScore, rubric: &Rubric) -> Statement {
    let readiness = score_in.assess(rubric);
    let response: Vec<String> = rubric
        .dimensions
        .iter()
        .map(|d| match score_in.get(&d.id) {
            Some(s) => format!("{}={}", d.id, s.min(MAX_SCORE)),
            None => format!("{}=-", d.id),
        })
        .collect();
    let result = XapiResult {
        score: score(readiness.total, readiness.max),
        success: readiness.ready(),
        completion: readiness.scored == readiness.dimensions,
        response: response.join(SEP),
        duration: iso8601_duration(ctx.duration),
    };
    statement(
        ctx,
        (VERB_COMPLETED, "completed"),
        ACTIVITY_ASSESSMENT,
        result,
    )
}

/// The `type` of the message that carries a statement to the parent page.
pub const STATEMENT_MESSAGE_TYPE: &str = "ttft-lab:statement";

/// The message the embedded page posts to its parent:
/// `{"type": "ttft-lab:statement", "version": 1, "statement": {…}}`. The
/// envelope lets a host tell results apart from height messages and from
/// other scripts' messages before it forwards `statement` to its learning
/// record store.
pub fn statement_message(statement: &Statement) -> serde_json::Value {
    serde_json::json!({
        "type": STATEMENT_MESSAGE_TYPE,
        "version": 1,
        "statement": serde_json::to_value(statement).unwrap_or(serde_json::Value::Null),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exercises::config_choice::check_config;
    use crate::exercises::trace_exercise::{check_trace, DominantChoice};
    use serde_json::json;

    fn check_duration(us: i64, expected: &str) {
        assert_eq!(iso8601_duration(Micros(us)), expected, "{us}");
    }

    #[test]
    fn durations() {
        check_duration(65_500_000, "PT1M5.5S");
        check_duration(0, "PT0S");
        check_duration(-5, "PT0S");
        check_duration(9_999, "PT0S");
        check_duration(10_000, "PT0.01S");
        check_duration(1_239_999, "PT1.23S");
        check_duration(60_000_000, "PT1M");
        check_duration(3_600_000_000, "PT1H");
        check_duration(3_723_400_000, "PT1H2M3.4S");
        check_duration(90_000_000_000, "PT25H");
        check_duration(i64::MAX, "PT2562047788H54.77S");
    }

    fn ctx(actor: Actor) -> StatementContext {
        StatementContext {
            base: ActivityBase::parse("https://courses.example.edu/ttft-lab").unwrap(),
            actor,
            exercise_id: "hint-trace".into(),
            exercise_name: "Find the dominant delay".into(),
            timestamp: "2026-11-29T10:15:00.000Z".into(),
            duration: Micros::from_ms(65_500),
        }
    }

    fn check(statement: Statement, expected: serde_json::Value) {
        assert_eq!(serde_json::to_value(&statement).unwrap(), expected);
    }

    #[test]
    fn the_message_wraps_the_statement() {
        let rubric = crate::content::Rubric {
            dimensions: Vec::new(),
            ready_at: 8,
            gate: String::new(),
            threshold_note: String::new(),
        };
        let s = self_score(&ctx(Actor::HostFills), &RubricScore::default(), &rubric);
        let m = statement_message(&s);
        assert_eq!(m["type"], json!("ttft-lab:statement"));
        assert_eq!(m["version"], json!(1));
        assert_eq!(m["statement"], serde_json::to_value(&s).unwrap());
        assert!(
            m["statement"].get("actor").is_none(),
            "the host adds the actor"
        );
    }

    #[test]
    fn a_trace_check() {
        let x = crate::exercises::trace_exercise::tests::exercise();
        let ids: Vec<String> = x.requests.iter().map(|r| r.id.clone()).collect();
        let first = &x.requests[0];
        let right = LearnerAnswer {
            dominant: Some(match first.answer.dominant {
                ttft_latency::split::Part::QueueWait => DominantChoice::QueueWait,
                ttft_latency::split::Part::Prefill => DominantChoice::Prefill,
                ttft_latency::split::Part::Emit => DominantChoice::Emit,
            }),
            share_percent: Some(ShareEntry::Number(first.answer.share_percent)),
            investigate: x
                .actions
                .iter()
                .find(|a| a.class == first.answer.investigate)
                .map(|a| a.id.clone()),
        };
        let answers = vec![right.clone()];
        let checked = check_trace(&x, &answers);
        let s = trace_check(&ctx(Actor::HostFills), &checked, &ids, &answers);
        let max = 3 * x.requests.len() as u32;
        let share = format!("{}", first.answer.share_percent);
        let mut response = vec![format!(
            "{}: {}; {share}; {}",
            first.id,
            right.dominant.unwrap().label(),
            right.investigate.clone().unwrap()
        )];
        response.extend(ids.iter().skip(1).map(|id| format!("{id}: -; -; -")));
        check(
            s,
            json!({
                "verb": {"id": "http://adlnet.gov/expapi/verbs/answered", "display": {"en-US": "answered"}},
                "object": {
                    "objectType": "Activity",
                    "id": "https://courses.example.edu/ttft-lab/hint-trace",
                    "definition": {"name": {"en-US": "Find the dominant delay"}, "type": "http://adlnet.gov/expapi/activities/cmi.interaction"}
                },
                "result": {
                    "score": {"raw": 3, "min": 0, "max": max, "scaled": (3.0 / max as f64 * 1000.0).round() / 1000.0},
                    "success": false,
                    "completion": false,
                    "response": response.join("[,]"),
                    "duration": "PT1M5.5S"
                },
                "timestamp": "2026-11-29T10:15:00.000Z"
            }),
        );
    }

    #[test]
    fn a_config_check() {
        let x = crate::exercises::config_choice::tests::exercise();
        let ids: Vec<String> = x.workloads.iter().map(|w| w.id.clone()).collect();
        let inputs: Vec<WorkloadInput> = x
            .workloads
            .iter()
            .map(|w| WorkloadInput {
                choice: Some(w.answer.choice.clone()),
                ..WorkloadInput::default()
            })
            .collect();
        let checks = check_config(&x, &inputs);
        let expected_points: (u32, u32) = checks
            .iter()
            .map(|c| c.as_ref().map_or((0, 1), workload_points))
            .fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
        let s = config_check(
            &ctx(Actor::Anonymous {
                home_page: "https://lms.example.edu".into(),
                name: "session-7f3a".into(),
            }),
            &checks,
            &ids,
            &inputs,
        );
        let v = serde_json::to_value(&s).unwrap();
        assert_eq!(
            v["actor"],
            json!({"objectType": "Agent", "account": {"homePage": "https://lms.example.edu", "name": "session-7f3a"}})
        );
        assert_eq!(v["result"]["score"]["raw"], json!(expected_points.0));
        assert_eq!(v["result"]["score"]["max"], json!(expected_points.1));
        assert!(
            expected_points.0 >= ids.len() as u32,
            "every choice is right"
        );
        assert_eq!(v["result"]["completion"], json!(true));
        assert_eq!(
            v["result"]["success"],
            json!(false),
            "numbers and evidence were left empty"
        );
        let response: Vec<String> = x
            .workloads
            .iter()
            .map(|w| format!("{}: {}", w.id, w.answer.choice))
            .collect();
        assert_eq!(v["result"]["response"], json!(response.join("[,]")));
    }

    #[test]
    fn a_saved_self_score() {
        let rubric = crate::rubric::tests::rubric();
        let mut s = RubricScore::default();
        for (d, v) in [
            ("latency_metrics", 2),
            ("clocks", 2),
            ("changes", 1),
            ("memory", 2),
            ("overload", 1),
        ] {
            s.set(d, v).unwrap();
        }
        let mut c = ctx(Actor::HostFills);
        c.exercise_id = "ttft-interview".into();
        c.exercise_name = "Interview: a slow first token".into();
        c.duration = Micros::from_ms(1_234_560);
        check(
            self_score(&c, &s, &rubric),
            json!({
                "verb": {"id": "http://adlnet.gov/expapi/verbs/completed", "display": {"en-US": "completed"}},
                "object": {
                    "objectType": "Activity",
                    "id": "https://courses.example.edu/ttft-lab/ttft-interview",
                    "definition": {"name": {"en-US": "Interview: a slow first token"}, "type": "http://adlnet.gov/expapi/activities/assessment"}
                },
                "result": {
                    "score": {"raw": 8, "min": 0, "max": 10, "scaled": 0.8},
                    "success": true,
                    "completion": true,
                    "response": "latency_metrics=2[,]clocks=2[,]changes=1[,]memory=2[,]overload=1",
                    "duration": "PT20M34.56S"
                },
                "timestamp": "2026-11-29T10:15:00.000Z"
            }),
        );
        s.clear("overload");
        let v = serde_json::to_value(self_score(&c, &s, &rubric)).unwrap();
        assert_eq!(
            (
                v["result"]["success"].clone(),
                v["result"]["completion"].clone()
            ),
            (json!(false), json!(false))
        );
        assert!(v["result"]["response"]
            .as_str()
            .unwrap()
            .ends_with("overload=-"));
    }

    #[test]
    fn activity_bases() {
        assert_eq!(
            ActivityBase::parse("https://x.edu/a/")
                .unwrap()
                .activity_id("id one"),
            "https://x.edu/a/id%20one"
        );
        assert!(ActivityBase::parse("ftp://x.edu").is_err());
        assert!(ActivityBase::parse("https://").is_err());
        assert!(ActivityBase::parse("https://x.edu/?q").is_err());
    }

    proptest::proptest! {
        #[test]
        fn durations_read_back(us in 0i64..10_000_000_000_000) {
            let text = iso8601_duration(Micros(us));
            let mut rest = text.strip_prefix("PT").unwrap();
            let mut total = 0.0f64;
            for (unit, scale) in [('H', 3600.0), ('M', 60.0), ('S', 1.0)] {
                if let Some((n, r)) = rest.split_once(unit) {
                    total += n.parse::<f64>().unwrap() * scale;
                    rest = r;
                }
            }
            let secs = us as f64 / 1e6;
            proptest::prop_assert!(rest.is_empty() && total <= secs + 1e-6 && secs - total < 0.01 + 1e-6, "{} for {}", text, us);
        }
    }
}
