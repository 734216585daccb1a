//! scripts/start-profile.mjs: where a part's start holds the main thread,
//! on the release build in dist/ served with gzip, in headless Chromium
//! with the CPU slowed 4x (as Lighthouse's mobile profile assumes).
//!
//!   node scripts/start-profile.mjs [--runs N] [PART ...]
//!
//! PART is a query as the page takes it (`lesson`, `interview`,
//! `trace&embed=1`; default: every part in the navigation). For each cold
//! load it records every main-thread task of 50 ms or more (the browser's
//! own `longtask` entries) from navigation until the page has been quiet
//! for 2 s, and prints their lengths, their blocking time (the part of
//! each over 50 ms, summed: what Lighthouse calls total blocking time,
//! here measured rather than simulated) and when the app was usable
//! (`data-ready` on <html>). Lighthouse's figure is noisier (it simulates
//! the network and multiplies an unthrottled trace); this one is for
//! comparing two builds on one machine: run both, alternated.
//!
//! A report, not a test: it never fails on a slow start.

import { DIST, launchBrowser, startServer } from '../e2e/support.mjs';

const argv = process.argv.slice(2);
let runs = 3;
const parts = [];
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--runs') runs = Math.max(1, Number(argv[++i]) || 1);
  else parts.push(argv[i]);
}
if (!parts.length) parts.push('lesson', 'trace', 'choice', 'interview', 'import', 'simulate');

const QUIET_MS = 2000;
const CPU_SLOWDOWN = 4;

async function profileOnce(browser, url) {
  const context = await browser.newContext({ viewport: { width: 360, height: 780 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  await page.addInitScript(() => {
    window.__tasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__tasks.push([e.startTime, e.duration]);
    }).observe({ type: 'longtask', buffered: true });
    new MutationObserver(() => {
      if (window.__readyAt === undefined && document.documentElement.hasAttribute('data-ready')) {
        window.__readyAt = performance.now();
      }
    }).observe(document, { attributes: true, subtree: true, childList: true });
  });
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForFunction(() => window.__readyAt !== undefined, null, { timeout: 60000 });
  // Quiet: no new long task for QUIET_MS.
  let seen = -1;
  for (;;) {
    const n = await page.evaluate(() => window.__tasks.length);
    if (n === seen) break;
    seen = n;
    await page.waitForTimeout(QUIET_MS);
  }
  const m = await page.evaluate(() => ({
    tasks: window.__tasks,
    ready: window.__readyAt,
    fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0,
  }));
  await context.close();
  const after = m.tasks.filter(([start]) => start >= m.fcp);
  return {
    ...m,
    tbt: after.reduce((s, [, d]) => s + Math.max(0, d - 50), 0),
  };
}

const server = await startServer({ encodings: ['gzip'] });
const browser = await launchBrowser();
console.log(`Start profile: ${DIST}, served with gzip; CPU slowed ${CPU_SLOWDOWN}x; ${runs} cold load(s) a part`);
try {
  for (const part of parts) {
    const url = `${server.url}?part=${part}`;
    const all = [];
    for (let i = 0; i < runs; i++) all.push(await profileOnce(browser, url));
    for (const r of all) {
      const tasks = r.tasks.map(([s, d]) => `${d.toFixed(0)}@${s.toFixed(0)}`).join(' ');
      console.log(
        `  ${part.padEnd(16)} blocking ${r.tbt.toFixed(0).padStart(5)} ms after FCP ${r.fcp.toFixed(0)} ms;` +
          ` usable at ${r.ready.toFixed(0)} ms; long tasks (ms@start): ${tasks || 'none'}`,
      );
    }
    const sorted = all.map((r) => r.tbt).sort((a, b) => a - b);
    console.log(`  ${part.padEnd(16)} => median blocking ${sorted[Math.floor(sorted.length / 2)].toFixed(0)} ms`);
  }
} finally {
  await browser.close();
  await server.close();
}
