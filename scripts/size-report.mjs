//! scripts/size-report.mjs: the numbers behind scripts/size-report.
//!
//! 1. Transfer size: every file in dist/ compressed with gzip level 9 (what
//!    `gzip -9` produces, minus the file-name header), the total, and the
//!    total against the 250 KB budget.
//! 2. Time to first interactive control: from navigation start (the
//!    page's performance time origin) to the first moment the app is
//!    usable, measured inside the page so the automation's own overhead is
//!    not counted. "Usable" means all of: the start-up line #boot is gone,
//!    <html> carries data-ready (the app sets it after mounting, when its
//!    event handlers are attached), and an enabled <button> or an <a href>
//!    exists in the body. Seven cold loads, each in a fresh browser context
//!    (empty cache and storage); the median is the figure.
//!
//! It does not fail on a big or slow build; it only reports. It exits
//! non-zero only when it cannot measure (no dist/, the app never became
//! ready).

import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { DIST, launchBrowser, startServer } from '../e2e/support.mjs';

const BUDGET_BYTES = 250 * 1024;
const LOADS = 7;
const READY_TIMEOUT_MS = 20000;

/** Every file under `dir`, recursively, as paths. */
async function listFiles(dir) {
  const out = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(path)));
    else if (entry.isFile()) out.push(path);
  }
  return out.sort();
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

async function reportSizes() {
  const rows = [];
  for (const path of await listFiles(DIST)) {
    const raw = await readFile(path);
    rows.push({ name: relative(DIST, path), raw: raw.length, gz: gzipSync(raw, { level: 9 }).length });
  }
  const width = Math.max(4, ...rows.map((r) => r.name.length));
  console.log('\nTransfer size of dist/ (gzip -9)');
  console.log(`  ${'file'.padEnd(width)}  ${'raw'.padStart(10)}  ${'gzip -9'.padStart(10)}`);
  for (const r of rows) {
    console.log(`  ${r.name.padEnd(width)}  ${String(r.raw).padStart(10)}  ${String(r.gz).padStart(10)}`);
  }
  const raw = rows.reduce((s, r) => s + r.raw, 0);
  const gz = rows.reduce((s, r) => s + r.gz, 0);
  console.log(`  ${'total'.padEnd(width)}  ${String(raw).padStart(10)}  ${String(gz).padStart(10)}`);
  const verdict = gz <= BUDGET_BYTES ? 'within' : 'OVER';
  console.log(
    `  => ${kb(gz)} gzip -9 of a ${kb(BUDGET_BYTES)} budget: ${verdict} budget (${((gz / BUDGET_BYTES) * 100).toFixed(0)}%)`,
  );
  return gz;
}

// Runs in the page before any of its own scripts: watch for the moment the
// app becomes usable and remember performance.now() at that moment.
function watchReadiness() {
  const usable = () =>
    !document.getElementById('boot') &&
    document.documentElement.hasAttribute('data-ready') &&
    !!document.querySelector('body button:not([disabled]), body a[href]');
  const mark = () => {
    if (window.__ttftReadyAt === undefined && usable()) {
      window.__ttftReadyAt = performance.now();
      observer.disconnect();
    }
  };
  const observer = new MutationObserver(mark);
  observer.observe(document, { subtree: true, childList: true, attributes: true });
}

async function reportStartTime() {
  const server = await startServer();
  const browser = await launchBrowser();
  const times = [];
  try {
    for (let i = 0; i < LOADS; i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      await page.addInitScript(watchReadiness);
      await page.goto(server.url, { waitUntil: 'commit' });
      await page.waitForFunction(() => window.__ttftReadyAt !== undefined, null, { timeout: READY_TIMEOUT_MS });
      times.push(await page.evaluate(() => window.__ttftReadyAt));
      await context.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  console.log('\nTime from navigation to the first interactive control (headless Chromium, localhost)');
  console.log(`  loads (ms): ${times.map((t) => t.toFixed(0)).join(', ')}`);
  console.log(`  => median of ${LOADS}: ${median.toFixed(0)} ms`);
  return median;
}

try {
  await reportSizes();
  await reportStartTime();
  console.log('');
} catch (err) {
  console.error(`size report could not measure: ${err.message}`);
  process.exit(1);
}
