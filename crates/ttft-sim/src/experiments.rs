//! The three guided experiments, checked by the core like the course's
//! other exercises: each has a starting point ([`rate_start`],
//! [`head_of_line_start`], [`kv_pressure_start`]), and a checker that
//! simulates the learner's choice with the experiment's fixed seed and
//! workload and judges it against the stated target, with feedback that
//! names what the run shows.
//!
//! 1. [`check_rate`]: raise the arrival rate until hint p95 TTFT misses
//!    1,000 ms, and say which part grew.
//! 2. [`check_head_of_line`]: long prompts hold up short ones; find engine
//!    settings that bring the hints' p95 under target, and say what that
//!    costs the long ones.
//! 3. [`check_kv_pressure`]: requests queue while slots are free; name the
//!    evidence in the run and find a setting that fixes it.
//!
//! What the learner may change: the arrival rate (1); the scheduler's
//! settings, not the hardware or the workload (2); anything but the workload
//! (3). The checkers take whole [`Settings`] as the page holds them and
//! keep only those choices.

use crate::engine::run;
use crate::run::Run;
use crate::settings::{Arrivals, Class, Lengths, Settings, SettingsError, Stop};
use crate::sweep::capacity;
use crate::Preset;
use serde::{Deserialize, Serialize};
use ttft_latency::decimal::fixed;
use ttft_latency::{Micros, Part};

/// The seed every experiment runs with.
pub const SEED: u64 = 13;

fn class(name: &str, share: f64, prompt: u32, output: u32, target_ms: i64) -> Class {
    Class {
        name: name.into(),
        share,
        prompt,
        output,
        target: Micros::from_ms(target_ms),
    }
}

fn ms(t: Micros) -> String {
    t.to_string()
}

/// A class's p95 TTFT and the p95 of each part, from a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClassP95 {
    pub ttft: Micros,
    pub queue_wait: Micros,
    pub prefill: Micros,
    pub emit: Micros,
}

impl ClassP95 {
    fn of(run: &Run, k: usize) -> ClassP95 {
        let s = run.classes.get(k).map(|c| &c.summary);
        let ttft = s
            .and_then(|s| s.ttft.as_ref())
            .map_or(Micros::ZERO, |p| p.p95.value);
        let part = |p: Part| {
            s.and_then(|s| s.parts.as_ref())
                .map_or(Micros::ZERO, |pp| pp.part(p).p95.value)
        };
        ClassP95 {
            ttft,
            queue_wait: part(Part::QueueWait),
            prefill: part(Part::Prefill),
            emit: part(Part::Emit),
        }
    }

    /// One part's p95.
    pub fn part(&self, p: Part) -> Micros {
        match p {
            Part::QueueWait => self.queue_wait,
            Part::Prefill => self.prefill,
            Part::Emit => self.emit,
        }
    }
}

// ---------------------------------------------------------------------------
// 1. The arrival rate.

/// Hints only, on Llama 3 8B on an A100 with vLLM's defaults, at a rate
/// where they are well within the target.
pub fn rate_start() -> Settings {
    let mut s = Settings {
        seed: SEED,
        stop: Stop::Requests(3_000),
        lengths: Lengths::Classes(vec![class("hint", 100.0, 700, 120, 1_000)]),
        ..Settings::for_preset(Preset::A100Llama3_8b)
    };
    s.arrivals = Arrivals::Poisson { rate: 4.0 };
    s
}

/// What the rate experiment's run shows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RateFeedback {
    /// The rate run, requests a second.
    pub rate: f64,
    /// The engine's estimated capacity for this workload.
    pub capacity: f64,
    /// The hints' p95 at 10% of capacity, for comparison, and at the rate.
    pub light: ClassP95,
    pub at_rate: ClassP95,
    pub target: Micros,
    /// p95 TTFT is over the target.
    pub missed: bool,
    /// The part whose p95 grew most from light load.
    pub grew_most: Part,
    /// The part the learner named, and whether it is that one.
    pub named: Part,
    pub named_right: bool,
    /// Both: the target is missed and the right part named.
    pub passed: bool,
    /// What the run shows, in sentences.
    pub feedback: Vec<String>,
}

/// Runs the hints at `rate` (and at 10% of capacity to compare) and judges
/// the learner's `part`.
pub fn check_rate(rate: f64, part: Part) -> Result<RateFeedback, SettingsError> {
    let base = rate_start();
    let cap = capacity(&base, None)?.requests_per_s;
    let at = |r: f64| {
        let mut s = base.clone();
        s.arrivals = Arrivals::Poisson { rate: r };
        run(&s, None)
    };
    let light = ClassP95::of(&at(0.1 * cap)?, 0);
    let at_rate = ClassP95::of(&at(rate)?, 0);
    let target = Micros::from_ms(1_000);
    let missed = at_rate.ttft > target;
    let grew_most = Part::ALL
        .into_iter()
        .max_by_key(|&p| at_rate.part(p) - light.part(p))
        .unwrap_or(Part::QueueWait);
    let named_right = part == grew_most;
    let mut feedback = vec![format!(
        "At {} requests a second ({}% of the estimated capacity of {}), hint p95 TTFT is {}, {} the 1,000 ms target.",
        fixed(rate, 2),
        fixed(rate / cap * 100.0, 0),
        fixed(cap, 1),
        ms(at_rate.ttft),
        if missed { "over" } else { "within" }
    )];
    if !missed {
        feedback.push("Raise the rate until p95 TTFT passes 1,000 ms; it stays low for a long way and then climbs steeply near capacity.".into());
    }
    let growth: Vec<String> = Part::ALL
        .iter()
        .map(|&p| format!("{} {} to {}", p, ms(light.part(p)), ms(at_rate.part(p))))
        .collect();
    feedback.push(format!(
        "From 10% of capacity to this rate, the p95 of each part went: {}.",
        growth.join("; ")
    ));
    feedback.push(if named_right {
        format!(
            "Right: {grew_most} grew most. Prefill grew a little too, because each step it runs in holds more \
             decodes, but a hint's prompt is the same work at any load; what explodes near capacity is the time \
             waiting to be scheduled."
        )
    } else {
        format!("Not {part}: the part that grew most is {grew_most}. Compare the p95 of each part above.")
    });
    Ok(RateFeedback {
        rate,
        capacity: cap,
        light,
        at_rate,
        target,
        missed,
        grew_most,
        named: part,
        named_right,
        passed: missed && named_right,
        feedback,
    })
}

// ---------------------------------------------------------------------------
// 2. Long prompts holding up short ones.

/// Nine hints in ten and a few full histories of 18,000 tokens, at 0.9
/// requests a second (about 30% of capacity), with vLLM's defaults: the
/// hints miss their target behind the long prompts.
pub fn head_of_line_start() -> Settings {
    Settings {
        seed: SEED,
        stop: Stop::Requests(3_000),
        arrivals: Arrivals::Poisson { rate: 0.9 },
        lengths: Lengths::Classes(vec![
            class("hint", 90.0, 700, 120, 1_000),
            class("full history", 10.0, 18_000, 300, 15_000),
        ]),
        ..Settings::for_preset(Preset::A100Llama3_8b)
    }
}

/// Which way a figure moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Change {
    Rose,
    Fell,
    /// Within 5% either way.
    Unchanged,
}

impl Change {
    fn between(before: Micros, after: Micros) -> Change {
        let (b, a) = (before.0 as f64, after.0 as f64);
        if a > b * 1.05 {
            Change::Rose
        } else if a < b * 0.95 {
            Change::Fell
        } else {
            Change::Unchanged
        }
    }

    fn words(self) -> &'static str {
        match self {
            Change::Rose => "rose",
            Change::Fell => "fell",
            Change::Unchanged => "stayed about the same",
        }
    }
}

/// What the head-of-line experiment's run shows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HeadOfLineFeedback {
    /// The hints' and the long prompts' p95, with the starting settings and
    /// with the learner's.
    pub hints_before: ClassP95,
    pub hints_after: ClassP95,
    pub long_before: ClassP95,
    pub long_after: ClassP95,
    pub target: Micros,
    /// The hints' p95 TTFT is within the target with the learner's settings.
    pub hints_met: bool,
    /// How the long prompts' p95 TTFT moved, and what the learner said.
    pub long_change: Change,
    pub said: Change,
    pub said_right: bool,
    pub passed: bool,
    pub feedback: Vec<String>,
}

/// Runs the experiment's workload and hardware with the learner's scheduler
/// settings (chunked prefill, token budget, the longest chunk, the order,
/// slots, priority) and judges it, and the learner's word on the long
/// prompts.
pub fn check_head_of_line(
    learner: &Settings,
    said: Change,
) -> Result<HeadOfLineFeedback, SettingsError> {
    let start = head_of_line_start();
    let mut mine = start.clone();
    let e = &learner.engine;
    mine.engine.chunked_prefill = e.chunked_prefill;
    mine.engine.max_num_batched_tokens = e.max_num_batched_tokens;
    mine.engine.max_prefill_chunk = e.max_prefill_chunk;
    mine.engine.policy = e.policy;
    mine.engine.max_num_seqs = e.max_num_seqs;
    mine.engine.priority = e.priority.clone();
    let before = run(&start, None)?;
    let after = run(&mine, None)?;
    let (hints_before, hints_after) = (ClassP95::of(&before, 0), ClassP95::of(&after, 0));
    let (long_before, long_after) = (ClassP95::of(&before, 1), ClassP95::of(&after, 1));
    let target = Micros::from_ms(1_000);
    let hints_met = hints_after.ttft <= target;
    let long_change = Change::between(long_before.ttft, long_after.ttft);
    let said_right = said == long_change;
    let mut feedback = vec![format!(
        "With your settings hint p95 TTFT is {} (queue wait {}, prefill {}), against {} with vLLM's defaults: {} the 1,000 ms target.",
        ms(hints_after.ttft),
        ms(hints_after.queue_wait),
        ms(hints_after.prefill),
        ms(hints_before.ttft),
        if hints_met { "within" } else { "still over" }
    )];
    if !hints_met {
        feedback.push(
            "A long prompt being prefilled takes all the budget the decodes leave, step after step, so hints that \
             arrive meanwhile wait until it is done. Priority only orders the waiting queue; a larger or smaller \
             budget changes the size of each chunk, not who gets it. Capping the tokens one request takes per step \
             (vLLM's long_prefill_token_threshold) lets hints share the steps."
                .into(),
        );
    }
    feedback.push(format!(
        "The full histories' p95 TTFT {}: {} before, {} now (their prefill p95 {} to {}).",
        long_change.words(),
        ms(long_before.ttft),
        ms(long_after.ttft),
        ms(long_before.prefill),
        ms(long_after.prefill)
    ));
    if !said_right {
        feedback.push(format!(
            "You said it {}; the run says it {}.",
            said.words(),
            long_change.words()
        ));
    }
    Ok(HeadOfLineFeedback {
        hints_before,
        hints_after,
        long_before,
        long_after,
        target,
        hints_met,
        long_change,
        said,
        said_right,
        passed: hints_met && said_right,
        feedback,
    })
}

// ---------------------------------------------------------------------------
// 3. KV-cache pressure.

/// Chats of 6,000 tokens (4,000 of them a system prompt every request
/// shares) and 1,200 output tokens, on Llama 2 7B on an A100 (110,000 KV
/// tokens) with 256 slots and prefix caching off, at 0.25 requests a second:
/// the cache holds about 16 of them, and the rest queue with slots free.
pub fn kv_pressure_start() -> Settings {
    let mut s = Settings {
        seed: SEED,
        stop: Stop::Requests(2_000),
        arrivals: Arrivals::Poisson { rate: 0.25 },
        lengths: Lengths::Classes(vec![class("chat", 100.0, 6_000, 1_200, 4_000)]),
        shared_prefix: 4_000,
        ..Settings::for_preset(Preset::A100Llama2_7b)
    };
    s.engine.prefix_caching = false;
    s
}

/// Something a learner may point to in the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Evidence {
    /// KV use reaches the capacity.
    KvFull,
    /// Requests were preempted.
    Preemptions,
    /// Requests wait while most batch slots are empty.
    SlotsFreeWhileQueued,
    /// Prefill is most of the p95 TTFT.
    PrefillDominates,
    /// Emit is a large part of TTFT.
    EmitSlow,
}

impl Evidence {
    pub const ALL: [Evidence; 5] = [
        Evidence::KvFull,
        Evidence::Preemptions,
        Evidence::SlotsFreeWhileQueued,
        Evidence::PrefillDominates,
        Evidence::EmitSlow,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Evidence::KvFull => "KV-cache use reaches its capacity",
            Evidence::Preemptions => "requests are preempted",
            Evidence::SlotsFreeWhileQueued => "requests wait while most batch slots are empty",
            Evidence::PrefillDominates => "prefill is most of the p95 TTFT",
            Evidence::EmitSlow => "emit is a large part of TTFT",
        }
    }
}

/// One piece of evidence: whether the run shows it, what it shows, and
/// whether the learner picked it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EvidenceCheck {
    pub evidence: Evidence,
    pub shown: bool,
    pub picked: bool,
    pub detail: String,
}

/// What the KV-pressure experiment's runs show.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KvPressureFeedback {
    /// Each piece of evidence in the starting run.
    pub evidence: Vec<EvidenceCheck>,
    /// The learner picked exactly what the run shows.
    pub evidence_right: bool,
    pub before: ClassP95,
    pub after: ClassP95,
    pub target: Micros,
    pub preemptions_before: u64,
    pub preemptions_after: u64,
    /// The chats' p95 TTFT is within the target with the learner's settings.
    pub fixed: bool,
    pub passed: bool,
    pub feedback: Vec<String>,
}

fn evidence_of(run: &Run) -> Vec<(Evidence, bool, String)> {
    let t = &run.totals;
    let p = ClassP95::of(run, 0);
    let seqs = run.settings.engine.max_num_seqs as f64;
    // Time-weighted mean batch over the time the queue held a request.
    let (mut busy, mut batch) = (0.0, 0.0);
    for pt in &run.series.points {
        if pt.queue >= 1.0 {
            busy += pt.covered.0 as f64;
            batch += pt.running * pt.covered.0 as f64;
        }
    }
    let queued_batch = if busy > 0.0 { batch / busy } else { seqs };
    let share = |part: Micros| {
        if p.ttft.0 > 0 {
            part.0 as f64 / p.ttft.0 as f64
        } else {
            0.0
        }
    };
    vec![
        (
            Evidence::KvFull,
            t.kv_peak_tokens as f64 >= 0.95 * t.kv_capacity_tokens as f64,
            format!(
                "KV use peaked at {} of {} tokens",
                crate::settings::group(t.kv_peak_tokens),
                crate::settings::group(t.kv_capacity_tokens)
            ),
        ),
        (
            Evidence::Preemptions,
            t.preemptions > 0,
            format!("{} preemption{}", t.preemptions, if t.preemptions == 1 { "" } else { "s" }),
        ),
        (
            Evidence::SlotsFreeWhileQueued,
            busy > 0.0 && queued_batch < 0.5 * seqs,
            format!(
                "while requests waited, {} of {} slots were running on average",
                fixed(queued_batch, 0),
                run.settings.engine.max_num_seqs
            ),
        ),
        (
            Evidence::PrefillDominates,
            share(p.prefill) > 0.5,
            format!("p95 prefill {} of p95 TTFT {}", ms(p.prefill), ms(p.ttft)),
        ),
        (
            Evidence::EmitSlow,
            share(p.emit) > 0.1,
            format!("p95 emit {}", ms(p.emit)),
        ),
    ]
}

/// Judges the evidence the learner `picked` in the starting run, and runs
/// the experiment's workload with the learner's engine and hardware.
pub fn check_kv_pressure(
    learner: &Settings,
    picked: &[Evidence],
) -> Result<KvPressureFeedback, SettingsError> {
    let start = kv_pressure_start();
    let mine = Settings {
        engine: learner.engine.clone(),
        cost: learner.cost,
        convention: learner.convention,
        ..start.clone()
    };
    let before = run(&start, None)?;
    let after = run(&mine, None)?;
    let evidence: Vec<EvidenceCheck> = evidence_of(&before)
        .into_iter()
        .map(|(e, shown, detail)| EvidenceCheck {
            evidence: e,
            shown,
            picked: picked.contains(&e),
            detail,
        })
        .collect();
    let evidence_right = evidence.iter().all(|c| c.shown == c.picked);
    let (b, a) = (ClassP95::of(&before, 0), ClassP95::of(&after, 0));
    let target = Micros::from_ms(4_000);
    let fixed = a.ttft <= target;
    let mut feedback = Vec::new();
    for c in &evidence {
        let verdict = match (c.shown, c.picked) {
            (true, true) => "yes, the run shows it",
            (true, false) => "the run shows this too",
            (false, true) => "not in this run",
            (false, false) => continue,
        };
        feedback.push(format!(
            "{}: {verdict} ({}).",
            capitalise(c.evidence.label()),
            c.detail
        ));
    }
    feedback.push(format!(
        "With your settings the chats' p95 TTFT is {} (queue wait {}), against {} at the start, {} the 4,000 ms target; {} preemptions against {}.",
        ms(a.ttft),
        ms(a.queue_wait),
        ms(b.ttft),
        if fixed { "within" } else { "still over" },
        after.totals.preemptions,
        before.totals.preemptions
    ));
    if !fixed {
        feedback.push(
            "Each chat holds its whole context in the cache, so the cache, not the slots, decides how many run \
             at once. Give each request fewer private blocks (the prompts share a 4,000-token system prompt) or \
             the cache more tokens per gigabyte."
                .into(),
        );
    }
    Ok(KvPressureFeedback {
        evidence,
        evidence_right,
        before: b,
        after: a,
        target,
        preemptions_before: before.totals.preemptions,
        preemptions_after: after.totals.preemptions,
        fixed,
        passed: evidence_right && fixed,
        feedback,
    })
}

/// A capital first letter: the simulator's own English, so ASCII is enough.
fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => std::iter::once(f.to_ascii_uppercase()).chain(c).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rate_right_and_wrong() {
        let low = check_rate(4.0, Part::QueueWait).unwrap();
        assert!(!low.missed && !low.passed, "{:?}", low.feedback);
        let cap = low.capacity;
        let high = check_rate(1.05 * cap, Part::QueueWait).unwrap();
        assert!(
            high.missed && high.named_right && high.passed,
            "{:?}",
            high.feedback
        );
        assert_eq!(high.grew_most, Part::QueueWait);
        let grew = |p: Part| high.at_rate.part(p) - high.light.part(p);
        assert!(
            grew(Part::QueueWait).0 > 5 * grew(Part::Prefill).0,
            "queue wait grows far more than prefill"
        );
        let wrong = check_rate(1.05 * cap, Part::Prefill).unwrap();
        assert!(wrong.missed && !wrong.passed);
        assert!(
            wrong
                .feedback
                .iter()
                .any(|l| l.contains("Not prefill: the part that grew most is queue wait")),
            "{:?}",
            wrong.feedback
        );
    }

    #[test]
    fn head_of_line_right_and_wrong() {
        let start = head_of_line_start();
        let same = check_head_of_line(&start, Change::Unchanged).unwrap();
        assert!(
            !same.hints_met && same.said_right && !same.passed,
            "{:?}",
            same.feedback
        );
        // Priority alone is not enough: the long prefill in progress still takes the budget.
        let mut prio = start.clone();
        prio.engine.priority = Some("hint".into());
        assert!(!check_head_of_line(&prio, Change::Rose).unwrap().hints_met);
        // Capping the chunk a request takes per step lets the hints through, at a cost.
        let mut cap = start.clone();
        cap.engine.max_prefill_chunk = Some(256);
        let ok = check_head_of_line(&cap, Change::Rose).unwrap();
        assert!(ok.hints_met && ok.passed, "{:?}", ok.feedback);
        assert_eq!(ok.long_change, Change::Rose);
        let wrong = check_head_of_line(&cap, Change::Fell).unwrap();
        assert!(wrong.hints_met && !wrong.passed);
        // Hardware is not the learner's to change here.
        let mut faster = start.clone();
        faster.cost = Preset::H100Llama2_7b.cost();
        assert!(
            !check_head_of_line(&faster, Change::Unchanged)
                .unwrap()
                .hints_met
        );
    }

    #[test]
    fn kv_pressure_right_and_wrong() {
        let start = kv_pressure_start();
        let shown = [
            Evidence::KvFull,
            Evidence::Preemptions,
            Evidence::SlotsFreeWhileQueued,
        ];
        let nothing = check_kv_pressure(&start, &shown).unwrap();
        assert!(
            nothing.evidence_right && !nothing.fixed && !nothing.passed,
            "{:?}",
            nothing.feedback
        );
        let mut cached = start.clone();
        cached.engine.prefix_caching = true;
        let ok = check_kv_pressure(&cached, &shown).unwrap();
        assert!(ok.fixed && ok.passed, "{:?}", ok.feedback);
        let wrong = check_kv_pressure(&cached, &[Evidence::KvFull, Evidence::EmitSlow]).unwrap();
        assert!(ok.fixed && !wrong.evidence_right && !wrong.passed);
        assert!(
            wrong
                .feedback
                .iter()
                .any(|l| l.starts_with("Emit is a large part of TTFT: not in this run")),
            "{:?}",
            wrong.feedback
        );
        // Fewer slots do not help: the cache decides how many run.
        let mut fewer = start.clone();
        fewer.engine.max_num_seqs = 10;
        assert!(!check_kv_pressure(&fewer, &shown).unwrap().fixed);
    }
}
