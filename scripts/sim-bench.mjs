//! scripts/sim-bench.mjs: how fast the serving simulator is in headless
//! Chromium, in the release build's own worker (dist/sim-worker*), for the
//! figures issue 13 sets:
//!
//! 1. 100,000 requests at a realistic batch size: log-normal prompts
//!    (median 700 tokens) and outputs (median 150), Llama 3 8B on an A100
//!    with vLLM's defaults, Poisson arrivals at 85% of the estimated
//!    capacity (the same run as `cargo bench -p ttft-sim`'s first). Timed
//!    in the worker, from the request to its last reply (the simulation,
//!    the requests as the importer reads them, packed for the page), and
//!    through the page, from pressing "Run as A" to the page saying the run
//!    is shown, with the longest main-thread task meanwhile.
//! 2. A 20-point sweep, 10% to 120% of capacity, of 20,000 requests each.
//!
//! Targets: (1) under 1 s in Chromium, (2) under 3 s. Usage:
//! node scripts/sim-bench.mjs [--runs N]. Needs dist/ (./scripts/release).
//! A report, not a timed test: it prints the figures and exits 0.

import { ROOT, launchBrowser, newPage, partUrl, startServer, waitForApp } from '../e2e/support.mjs';

const args = process.argv.slice(2);
const runsAt = args.indexOf('--runs');
const runs = runsAt >= 0 ? Math.max(1, Number(args[runsAt + 1]) || 1) : 3;

const BASE = 'sim=1&seed=1&arr=poisson&len=lognormal&in=700&in_sd=0.5&out=150&out_sd=0.5&hw=a100-llama3-8b';

/** Runs `asks` in a fresh simulator worker inside the page; resolves to the
 * milliseconds from each request until its last reply, and that reply. */
function inWorker(page, asks) {
  return page.evaluate(
    (asks) =>
      new Promise((done, failed) => {
        const w = new Worker('./worker-loader.js?bin=sim-worker');
        const times = [];
        let k = -1;
        let t0 = 0;
        const next = () => {
          k += 1;
          if (k === asks.length) {
            w.terminate();
            done(times);
            return;
          }
          t0 = performance.now();
          w.postMessage(['request', JSON.stringify(asks[k])]);
        };
        w.onmessage = (e) => {
          const [kind, head, body] = e.data;
          if (kind === 'ready') return next();
          if (kind !== 'reply') return failed(new Error(`${kind}: ${head}`));
          const reply = JSON.parse(head);
          const name = typeof reply === 'string' ? reply : Object.keys(reply)[0];
          if (['Progress', 'Requests', 'Sweeping'].includes(name)) return;
          let extra = {};
          if (name === 'Ran') {
            const bytes = new Uint8Array(body);
            const cut = bytes.indexOf(0);
            const figures = JSON.parse(new TextDecoder().decode(bytes.subarray(0, cut)));
            const pts = figures.series.points;
            const covered = pts.reduce((s, p) => s + p.covered, 0);
            extra = {
              requests: figures.totals.requests,
              steps: figures.totals.steps,
              batch: pts.reduce((s, p) => s + p.running * p.covered, 0) / Math.max(1, covered),
            };
          }
          if (name === 'Swept') extra = { capacity: reply.Swept.result.capacity.requests_per_s, points: reply.Swept.result.points.length };
          if (name === 'Invalid') return failed(new Error(JSON.stringify(reply.Invalid.error)));
          times.push({ ms: performance.now() - t0, name, ...extra });
          next();
        };
        w.onerror = (e) => failed(new Error(e.message || 'the worker did not start'));
      }),
    asks,
  );
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const server = await startServer();
const browser = await launchBrowser();
try {
  const { page, context } = await newPage(browser, server.origin);
  await page.goto(partUrl(server, 'simulate'));
  await waitForApp(page);
  // The capacity of the workload, from a sweep's estimate.
  const [probe] = await inWorker(page, [{ Sweep: { query: `${BASE}&n=200`, spec: { from: 0.5, to: 1, points: 2 } } }]);
  const rate = (0.85 * probe.capacity).toFixed(3);
  const run = { Run: { slot: 'A', query: `${BASE}&n=100000&rate=${rate}` } };
  const sweep = { Sweep: { query: `${BASE}&n=20000&rate=1`, spec: { from: 0.1, to: 1.2, points: 20 } } };
  const runTimes = [];
  const sweepTimes = [];
  let about;
  for (let i = 0; i < runs; i++) {
    const [r, s] = await inWorker(page, [run, sweep]);
    runTimes.push(r.ms);
    sweepTimes.push(s.ms);
    about = r;
  }
  // Through the page: the form set from the same address, then Run as A.
  const pageTimes = [];
  const tasks = [];
  for (let i = 0; i < runs; i++) {
    await page.goto(`${partUrl(server, 'simulate')}`);
    await waitForApp(page);
    await page.getByRole('button', { name: 'Run as A', exact: true }).waitFor({ timeout: 60000 });
    await page.evaluate(() => {
      window.__longest = 0;
      new PerformanceObserver((l) => {
        for (const e of l.getEntries()) window.__longest = Math.max(window.__longest, e.duration);
      }).observe({ type: 'longtask', buffered: false });
    });
    for (const [label, value] of [
      ['Lengths', 'lognormal'],
    ]) {
      await page.getByLabel(label, { exact: true }).selectOption(value);
    }
    for (const [label, value] of [
      ['Arrival rate (requests a second)', rate],
      ['Request count', '100000'],
      ['Prompt length (tokens)', '700'],
      ['Output length (tokens)', '150'],
      ['Prompt length spread', '0.5'],
      ['Output length spread', '0.5'],
    ]) {
      const f = page.getByLabel(label, { exact: true });
      await f.fill(value);
      await f.blur();
    }
    const t0 = Date.now();
    await page.getByRole('button', { name: 'Run as A', exact: true }).click();
    await page.locator('.sim-status [role="status"]').filter({ hasText: 'Run A is shown' }).waitFor({ timeout: 120000 });
    pageTimes.push(Date.now() - t0);
    tasks.push(await page.evaluate(() => window.__longest));
  }
  await context.close();
  const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
  console.log(`Simulator benchmark in Chromium (median of ${runs}; dist/sim-worker_bg.wasm)`);
  console.log(`  workload: log-normal 700 in / 150 out, Llama 3 8B on an A100, Poisson at 85% of ${probe.capacity.toFixed(2)} requests/s`);
  console.log(`  100,000 requests in the worker: ${s(median(runTimes))} (target 1 s: ${median(runTimes) < 1000 ? 'within' : 'MISSED'}); ${about.steps.toLocaleString('en')} steps, mean running batch ${about.batch.toFixed(0)}`);
  console.log(`  100,000 requests through the page (Run as A until the run is shown): ${s(median(pageTimes))}; longest main-thread task ${median(tasks).toFixed(0)} ms (target under 200 ms: ${median(tasks) < 200 ? 'within' : 'MISSED'})`);
  console.log(`  20-point sweep of 20,000 requests each: ${s(median(sweepTimes))} (target 3 s: ${median(sweepTimes) < 3000 ? 'within' : 'MISSED'})`);
} finally {
  await browser.close();
  await server.close();
}
void ROOT;
