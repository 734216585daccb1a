//! scripts/compare-builds.mjs: whether build B starts faster than build A,
//! measured as a learner meets them, with the two alternated so that the
//! machine's own ups and downs fall on both alike.
//!
//!   node scripts/compare-builds.mjs A B [--rounds N] [--part PART] [--phone] [--blocking]
//!
//! A and B are two release builds (`dist/` folders; copy one aside before
//! building the other). Each round loads the part cold in both, in turn
//! (A first in even rounds, B first in odd ones; at least 10 rounds, and
//! an even number, so each goes first equally often), each from its own static
//! server sending the precompressed copies, in headless Chromium. Per load
//! it records the first contentful paint and the first usable control
//! (`markUsable` in e2e/support.mjs, as scripts/size-report times it). `--phone` applies Lighthouse's
//! mobile conditions for real instead of simulating them: 4x CPU slowdown,
//! 1.6 Mbit/s down, 750 kbit/s up, 150 ms latency. `--blocking` also traces
//! each load, unthrottled, until the page's frames have come on time (no
//! gap over 30 ms) for 2 s, so that an on-demand part, such as the
//! simulator, is drawn and its worker started, and reports the blocking
//! time as Lighthouse computes it from such a trace: every main-thread
//! task after the first contentful paint counted four times over (its 4x
//! CPU), less 50 ms each, summed. On
//! this shared machine one build's blocking time swings by a factor of two
//! or more from load to load, and unpaired batches of `start-profile.mjs`
//! pointed both ways for the same change; alternated rounds and the
//! interval are what tell a real difference.
//!
//! It prints each build's medians and the difference B - A with a 95%
//! bootstrap interval of that difference. Only an interval that leaves out
//! zero says the builds differ: on a shared machine the same build's median
//! moves by 30 ms from one run to the next, and eleven rounds once showed a
//! 29 ms gain that twenty-one did not (PERFORMANCE.md tells the story), hence
//! the default of 20.
//!
//! A report, not a test: it never fails on a slow build.

import { launchBrowser, markUsable, startServer } from '../e2e/support.mjs';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

const MIN_ROUNDS = 10;
const argv = process.argv.slice(2);
const dirs = [];
let rounds = 20;
let part = 'lesson';
let phone = false;
let blocking = false;
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--rounds') rounds = Number(argv[++i]) || 0;
  else if (argv[i] === '--part') part = argv[++i] || part;
  else if (argv[i] === '--phone') phone = true;
  else if (argv[i] === '--blocking') blocking = true;
  else dirs.push(resolve(argv[i]));
}
// Fewer rounds make the interval too narrow to trust (three rounds of one
// build against itself once reported a 28 ms difference); an even number
// puts each build first equally often.
rounds = Math.max(MIN_ROUNDS, rounds + (rounds % 2));
if (dirs.length !== 2 || dirs.some((d) => !existsSync(join(d, 'index.html')))) {
  console.error('usage: node scripts/compare-builds.mjs A B [--rounds N] [--part PART] [--phone] [--blocking]');
  console.error('  A and B: two release builds, each a folder holding index.html');
  process.exit(2);
}

/** Lighthouse's mobile conditions, applied (throughput in bytes a second). */
const PHONE = { cpu: 4, latency: 150, down: (1.6 * 1024 * 1024) / 8, up: (750 * 1024) / 8 };
const TIMEOUT_MS = phone ? 90000 : 30000;

async function loadOnce(browser, url) {
  const context = await browser.newContext({ viewport: { width: 360, height: 780 } });
  try {
    const page = await context.newPage();
    if (phone) {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: PHONE.latency,
        downloadThroughput: PHONE.down,
        uploadThroughput: PHONE.up,
      });
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: PHONE.cpu });
    }
    await page.addInitScript(markUsable);
    if (blocking) {
      await page.addInitScript(watchTasks);
      await browser.startTracing(page, { categories: TRACE_CATEGORIES });
    }
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForFunction(() => window.__ttftReadyAt !== undefined, null, { timeout: TIMEOUT_MS });
    const got = await page.evaluate(() => ({
      usable: window.__ttftReadyAt,
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
    }));
    if (blocking) {
      await page.waitForFunction(
        (quiet) => performance.now() - window.__ttftLastTaskAt >= quiet,
        QUIET_MS,
        { timeout: TIMEOUT_MS, polling: 100 },
      );
      got.blocking = blockingTime(JSON.parse(await browser.stopTracing()).traceEvents);
    }
    return got;
  } finally {
    await context.close();
  }
}

/** The trace categories that hold the main thread's tasks and the paints. */
const TRACE_CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel', 'loading'];
/** How long the page's frames must have come on time. */
const QUIET_MS = 2000;

/**
 * An init script: keeps in `window.__ttftLastTaskAt` when a frame last
 * came late (over 30 ms after the one before, where 16.7 ms is on time):
 * the browser's `longtask` entries start at 50 ms, and a task of 13 ms
 * already counts at 4x CPU, so the page times its own frames' gaps.
 */
function watchTasks() {
  window.__ttftLastTaskAt = performance.now();
  let last = performance.now();
  const tick = (now) => {
    if (now - last > 30) window.__ttftLastTaskAt = now;
    last = now;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

/**
 * Lighthouse's total blocking time from an unthrottled trace: each task
 * of the page's main thread that starts after the first contentful paint,
 * times four, less 50 ms, summed.
 */
function blockingTime(events) {
  const threads = new Set();
  for (const e of events) {
    if (e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain') threads.add(`${e.pid}:${e.tid}`);
  }
  const tasks = events.filter((e) => e.name === 'RunTask' && e.ph === 'X' && e.dur && threads.has(`${e.pid}:${e.tid}`));
  // The page's main thread is the one that painted it (a load can start in
  // one renderer and move to another).
  const paint = events.find((e) => e.name === 'firstContentfulPaint' && threads.has(`${e.pid}:${e.tid}`));
  if (paint === undefined) return NaN;
  const main = `${paint.pid}:${paint.tid}`;
  const fcp = paint.ts;
  let sum = 0;
  for (const t of tasks) {
    if (`${t.pid}:${t.tid}` === main && t.ts >= fcp) sum += Math.max(0, (4 * t.dur) / 1000 - 50);
  }
  return sum;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** A 95% interval for median(b) - median(a), by resampling each side. */
function interval(a, b, draws = 4000) {
  // mulberry32 with a fixed seed, so one set of loads always gives one
  // interval (32-bit arithmetic throughout: Math.imul, >>> 0).
  let seed = 12345;
  const random = () => {
    seed = (seed + 0x6d2b79f5) >>> 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = (xs) => xs.map(() => xs[Math.floor(random() * xs.length)]);
  const diffs = [];
  for (let i = 0; i < draws; i++) diffs.push(median(pick(b)) - median(pick(a)));
  diffs.sort((x, y) => x - y);
  return [diffs[Math.floor(draws * 0.025)], diffs[Math.floor(draws * 0.975)]];
}

function verdict(name, a, b) {
  const d = median(b) - median(a);
  const [lo, hi] = interval(a, b);
  const says = lo > 0 ? 'B is slower' : hi < 0 ? 'B is faster' : 'no clear difference';
  const f = (x) => `${x >= 0 ? '+' : ''}${x.toFixed(0)}`;
  return `  ${name.padEnd(22)} A ${median(a).toFixed(0).padStart(5)} ms, B ${median(b).toFixed(0).padStart(5)} ms; B - A ${f(d)} ms (95% interval ${f(lo)} to ${f(hi)}): ${says}`;
}

const servers = [await startServer({ root: dirs[0] }), await startServer({ root: dirs[1] })];
const browser = await launchBrowser();
const got = [[], []];
console.log(`Comparing A = ${dirs[0]} and B = ${dirs[1]}`);
console.log(`  ?part=${part}, ${rounds} alternated rounds, ${phone ? "Lighthouse's mobile conditions applied (4x CPU, 1.6 Mbit/s, 150 ms)" : 'localhost, no throttling'}`);
try {
  for (let r = 0; r < rounds; r++) {
    for (const side of r % 2 ? [1, 0] : [0, 1]) {
      got[side].push(await loadOnce(browser, `${servers[side].url}?part=${part}`));
    }
  }
} finally {
  await browser.close();
  for (const s of servers) await s.close?.();
}
for (const [i, name] of [[0, 'A'], [1, 'B']]) {
  console.log(`  ${name}: first usable control (ms) ${got[i].map((m) => m.usable.toFixed(0)).join(' ')}`);
}
console.log(verdict('first contentful paint', got[0].map((m) => m.fcp), got[1].map((m) => m.fcp)));
console.log(verdict('first usable control', got[0].map((m) => m.usable), got[1].map((m) => m.usable)));
if (blocking) {
  for (const [i, name] of [[0, 'A'], [1, 'B']]) {
    console.log(`  ${name}: blocking time, 4x (ms) ${got[i].map((m) => m.blocking.toFixed(0)).join(' ')}`);
  }
  // A trace that lacks the first paint or the page's thread is left out,
  // and said.
  const measured = got.map((side) => side.map((m) => m.blocking).filter((x) => Number.isFinite(x)));
  const missing = got.map((side, i) => side.length - measured[i].length);
  if (missing[0] + missing[1] > 0) console.log(`  (left out, their traces incomplete: ${missing[0]} of A's loads, ${missing[1]} of B's)`);
  console.log(verdict('blocking time (4x)', measured[0], measured[1]));
}
process.exit(0);
