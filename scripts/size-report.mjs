//! scripts/size-report.mjs: the numbers behind scripts/size-report.
//!
//! 1. Files: every file in dist/ (not the .gz/.br copies the release step
//!    writes beside them) with its raw, gzip -9 and brotli size.
//! 2. Per part, as a learner meets it: the release build served from a
//!    static server that sends the precompressed copies (as Caddy's
//!    `precompressed` or nginx's `gzip_static` do; gzip, the unit of the
//!    budgets, with one brotli load of the lesson beside), one cold load per part
//!    in headless Chromium, and from the browser's own network log the
//!    bytes that had arrived (bodies as sent, plus headers)
//!    - before the part was readable: its main heading (`h1`) was on the
//!      page and had been painted (the first contentful paint, or the
//!      moment the heading appeared if that came later);
//!    - before it was interactive: the start-up line is gone, <html> has
//!      data-ready (the app sets it once its handlers are attached) and an
//!      enabled button or link exists;
//!    - in all, once the network is idle (what opening the part costs);
//!    - for the import part, also before its file input was there: its
//!      trace reader is a worker with its own wasm, loaded on opening.
//!    Budgets (issue #12): at most 60 KB before the lesson reads, at most
//!    250 KB (stretch 150 KB) before any part is interactive.
//! 3. The time from navigation to the first interactive control on
//!    localhost: the median of seven cold loads of the lesson.
//! 4. With --lighthouse: Lighthouse's mobile profile (simulated slow 4G, 4x
//!    slower CPU), the median of three runs per part by score, with its
//!    performance score, largest contentful paint, total blocking time,
//!    cumulative layout shift and first contentful paint. Slow (about a
//!    minute a part), so not part of ./scripts/test. Lighthouse 12.2.3 is
//!    installed into node_modules on first use (13.x needs Node 22).
//! 5. With --import-bench: scripts/import-bench.mjs (one run).
//!
//! It does not fail on a big or slow build; it only reports, and it exits
//! non-zero only when it cannot measure. It ends with the per-part table
//! in Markdown, ready for the README.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { DIST, ROOT, launchBrowser, startServer } from '../e2e/support.mjs';

const args = new Set(process.argv.slice(2));
const LOADS = 7;
const READY_TIMEOUT_MS = 30000;
const READABLE_BUDGET = 60 * 1024;
const INTERACTIVE_BUDGET = 250 * 1024;
const INTERACTIVE_STRETCH = 150 * 1024;
const LIGHTHOUSE_VERSION = '12.2.3';
const LIGHTHOUSE_RUNS = 3;

/** Each part a learner can open, and the address that opens it. */
const PARTS = [
  ['lesson', '?part=lesson'],
  ['timeline', '?part=timeline'],
  ['trace', '?part=trace'],
  ['choice', '?part=choice'],
  ['interview', '?part=interview'],
  ['import', '?part=import'],
  ['author', '?part=author'],
  ['trace, embedded', '?part=trace&embed=1'],
  ['lesson, embedded', '?part=lesson&embed=1'],
];

async function listFiles(dir) {
  const out = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(path)));
    else if (entry.isFile() && !/\.(gz|br)$/.test(entry.name)) out.push(path);
  }
  return out.sort();
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const pad = (s, n) => String(s).padStart(n);

async function reportFiles() {
  const rows = [];
  for (const path of await listFiles(DIST)) {
    const raw = await readFile(path);
    rows.push({
      name: relative(DIST, path),
      raw: raw.length,
      gz: gzipSync(raw, { level: 9 }).length,
      br: brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
    });
  }
  const width = Math.max(5, ...rows.map((r) => r.name.length));
  console.log('\nFiles in dist/ (the .gz and .br copies beside them not listed)');
  console.log(`  ${'file'.padEnd(width)}  ${pad('raw', 10)}  ${pad('gzip -9', 10)}  ${pad('brotli', 10)}`);
  for (const r of rows) console.log(`  ${r.name.padEnd(width)}  ${pad(r.raw, 10)}  ${pad(r.gz, 10)}  ${pad(r.br, 10)}`);
  const sum = (k) => rows.reduce((s, r) => s + r[k], 0);
  console.log(`  ${'total'.padEnd(width)}  ${pad(sum('raw'), 10)}  ${pad(sum('gz'), 10)}  ${pad(sum('br'), 10)}`);
  const missing = rows.filter((r) => !existsSync(join(DIST, r.name) + '.gz') && r.gz < r.raw * 0.95);
  if (missing.length) console.log(`  note: no precompressed copy beside ${missing.map((r) => r.name).join(', ')}: run ./scripts/release`);
}

// Runs in the page before its own scripts: note when the part's heading is
// first on the page and when the app becomes usable.
function watchPage() {
  const readable = () => {
    const h1 = document.querySelector('h1');
    return !!h1 && h1.textContent.trim().length > 0 && h1.getClientRects().length > 0;
  };
  const usable = () =>
    !document.getElementById('boot') &&
    document.documentElement.hasAttribute('data-ready') &&
    !!document.querySelector('body button:not([disabled]), body a[href]');
  const wantsInput = /[?&]part=import(&|$)/.test(location.search);
  const mark = () => {
    if (window.__ttftHeadingAt === undefined && readable()) window.__ttftHeadingAt = performance.now();
    if (window.__ttftReadyAt === undefined && usable()) window.__ttftReadyAt = performance.now();
    if (wantsInput && window.__ttftInputAt === undefined && document.getElementById('import-file')) window.__ttftInputAt = performance.now();
    const input = !wantsInput || window.__ttftInputAt !== undefined;
    if (window.__ttftHeadingAt !== undefined && window.__ttftReadyAt !== undefined && input) observer.disconnect();
  };
  const observer = new MutationObserver(mark);
  observer.observe(document, { subtree: true, childList: true, attributes: true });
  document.addEventListener('DOMContentLoaded', mark);
}

/** One cold load of `url`: when it read, when it worked, and what arrived when. */
async function loadOnce(browser, url) {
  const context = await browser.newContext({ viewport: { width: 360, height: 780 } });
  const page = await context.newPage();
  const arrivals = [];
  page.on('requestfinished', async (request) => {
    try {
      const sizes = await request.sizes();
      const t = request.timing();
      arrivals.push({ url: request.url(), end: t.startTime + t.responseEnd, bytes: sizes.responseBodySize + sizes.responseHeadersSize });
    } catch {
      // A request whose sizes are gone with its page: nothing to count.
    }
  });
  await page.addInitScript(watchPage);
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForFunction(
    () =>
      window.__ttftReadyAt !== undefined &&
      window.__ttftHeadingAt !== undefined &&
      (!/[?&]part=import(&|$)/.test(location.search) || window.__ttftInputAt !== undefined),
    null,
    {
    timeout: READY_TIMEOUT_MS,
  });
  await page.waitForLoadState('networkidle');
  const m = await page.evaluate(() => ({
    origin: performance.timeOrigin,
    heading: window.__ttftHeadingAt,
    ready: window.__ttftReadyAt,
    fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0,
    input: window.__ttftInputAt,
  }));
  await context.close();
  const readable = Math.max(m.heading, m.fcp);
  const before = (t) => arrivals.filter((a) => a.end <= m.origin + t).reduce((s, a) => s + a.bytes, 0);
  return {
    readableMs: readable,
    readyMs: m.ready,
    readableBytes: before(readable),
    readyBytes: before(m.ready),
    allBytes: arrivals.reduce((s, a) => s + a.bytes, 0),
    inputMs: m.input,
    inputBytes: m.input === undefined ? undefined : before(m.input),
    files: arrivals.length,
  };
}

async function reportParts(server, browser) {
  console.log('\nPer part: bytes that arrived (network log, as sent) before it read, before it worked, and in all');
  const results = [];
  for (const [name, query] of PARTS) {
    const r = await loadOnce(browser, server.url + query);
    results.push({ name, ...r });
    console.log(
      `  ${name.padEnd(18)} readable ${pad(kb(r.readableBytes), 9)} at ${pad(r.readableMs.toFixed(0), 5)} ms;` +
        ` interactive ${pad(kb(r.readyBytes), 9)} at ${pad(r.readyMs.toFixed(0), 5)} ms; in all ${kb(r.allBytes)} in ${r.files} files`,
    );
    if (r.inputMs !== undefined) {
      console.log(`  ${''.padEnd(18)} file input (trace reader started) ${pad(kb(r.inputBytes), 9)} at ${pad(r.inputMs.toFixed(0), 5)} ms`);
    }
  }
  const lesson = results.find((r) => r.name === 'lesson');
  const worst = results.reduce((a, b) => (b.readyBytes > a.readyBytes ? b : a));
  console.log(
    `  => lesson readable after ${kb(lesson.readableBytes)} (budget ${kb(READABLE_BUDGET)}: ${lesson.readableBytes <= READABLE_BUDGET ? 'within' : 'MISSED'})`,
  );
  const verdict = worst.readyBytes <= INTERACTIVE_STRETCH ? 'within the stretch' : worst.readyBytes <= INTERACTIVE_BUDGET ? 'within' : 'MISSED';
  console.log(
    `  => heaviest part before interactive: ${worst.name}, ${kb(worst.readyBytes)} (budget ${kb(INTERACTIVE_BUDGET)}, stretch ${kb(INTERACTIVE_STRETCH)}: ${verdict})`,
  );
  return results;
}

async function reportStartTime(server, browser) {
  const times = [];
  for (let i = 0; i < LOADS; i++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.addInitScript(watchPage);
    await page.goto(server.url, { waitUntil: 'commit' });
    await page.waitForFunction(() => window.__ttftReadyAt !== undefined, null, { timeout: READY_TIMEOUT_MS });
    times.push(await page.evaluate(() => window.__ttftReadyAt));
    await context.close();
  }
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  console.log('\nTime from navigation to the first interactive control (headless Chromium, localhost, lesson)');
  console.log(`  loads (ms): ${times.map((t) => t.toFixed(0)).join(', ')}`);
  console.log(`  => median of ${LOADS}: ${median.toFixed(0)} ms (target under 300 ms: ${median < 300 ? 'within' : 'MISSED'})`);
}

function ensureLighthouse() {
  const cli = join(ROOT, 'node_modules', 'lighthouse', 'cli', 'index.js');
  if (!existsSync(cli)) {
    console.log(`  installing lighthouse@${LIGHTHOUSE_VERSION} into node_modules (once)`);
    const r = spawnSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', `lighthouse@${LIGHTHOUSE_VERSION}`], {
      cwd: ROOT,
      stdio: 'inherit',
    });
    if (r.status !== 0) throw new Error('npm could not install lighthouse');
  }
  return cli;
}

function lighthouseOnce(cli, url) {
  const r = spawnSync(
    process.execPath,
    [
      cli,
      url,
      '--only-categories=performance',
      '--output=json',
      '--output-path=stdout',
      '--quiet',
      '--chrome-flags=--headless=new --no-sandbox --disable-gpu',
    ],
    { env: { ...process.env, CHROME_PATH: process.env.CHROMIUM_PATH || '/usr/bin/chromium' }, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`lighthouse failed on ${url}: ${(r.stderr || '').slice(-400)}`);
  const lhr = JSON.parse(r.stdout);
  const a = (id) => lhr.audits[id]?.numericValue ?? NaN;
  return {
    score: Math.round((lhr.categories.performance.score ?? 0) * 100),
    lcp: a('largest-contentful-paint'),
    tbt: a('total-blocking-time'),
    cls: a('cumulative-layout-shift'),
    fcp: a('first-contentful-paint'),
  };
}

async function reportLighthouse(server) {
  console.log(`\nLighthouse ${LIGHTHOUSE_VERSION}, mobile profile, median of ${LIGHTHOUSE_RUNS} runs by score`);
  const cli = ensureLighthouse();
  const out = [];
  for (const [name, query] of PARTS) {
    const runs = [];
    for (let i = 0; i < LIGHTHOUSE_RUNS; i++) runs.push(lighthouseOnce(cli, server.url + query));
    runs.sort((x, y) => x.score - y.score);
    const m = runs[Math.floor(runs.length / 2)];
    out.push({ name, ...m });
    console.log(
      `  ${name.padEnd(18)} score ${pad(m.score, 3)}; LCP ${(m.lcp / 1000).toFixed(2)} s; TBT ${m.tbt.toFixed(0)} ms;` +
        ` CLS ${m.cls.toFixed(3)}; FCP ${(m.fcp / 1000).toFixed(2)} s (runs: ${runs.map((r) => r.score).join(', ')})`,
    );
  }
  return out;
}

function markdown(parts, lighthouse) {
  const lh = new Map((lighthouse || []).map((r) => [r.name, r]));
  const head = ['part', 'bytes before readable', 'bytes before interactive', 'bytes in all'];
  if (lighthouse) head.push('Lighthouse', 'LCP', 'TBT', 'CLS');
  const lines = [`| ${head.join(' | ')} |`, `|${head.map((_, i) => (i ? '---:' : '---')).join('|')}|`];
  for (const p of parts) {
    const cells = [p.name, kb(p.readableBytes), kb(p.readyBytes), kb(p.allBytes)];
    const l = lh.get(p.name);
    if (lighthouse) cells.push(l ? String(l.score) : '', l ? `${(l.lcp / 1000).toFixed(1)} s` : '', l ? `${l.tbt.toFixed(0)} ms` : '', l ? l.cls.toFixed(3) : '');
    lines.push(`| ${cells.join(' | ')} |`);
  }
  console.log('\nThe per-part table in Markdown (for the README):\n');
  console.log(lines.join('\n'));
}

// The budgets are in gzip bytes, so the parts are loaded from a host that
// sends the .gz copies; the lesson is loaded once more with brotli too.
const server = await startServer({ encodings: ['gzip'] });
const brotli = await startServer({ encodings: ['br', 'gzip'] });
const browser = await launchBrowser();
try {
  await reportFiles();
  const parts = await reportParts(server, browser);
  const br = await loadOnce(browser, brotli.url + '?part=lesson');
  console.log(`  (the lesson served with brotli: readable after ${kb(br.readableBytes)}, interactive after ${kb(br.readyBytes)})`);
  await reportStartTime(server, browser);
  const lighthouse = args.has('--lighthouse') ? await reportLighthouse(server) : null;
  markdown(parts, lighthouse);
  if (args.has('--import-bench')) {
    console.log('\nImport benchmark (scripts/import-bench.mjs, one run)');
    const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'import-bench.mjs'), '--runs', '1'], { stdio: 'inherit' });
    if (r.status !== 0) console.log('  the import benchmark could not run; see its output above');
  }
  console.log('');
} catch (err) {
  console.error(`size report could not measure: ${err.message}`);
  process.exitCode = 1;
} finally {
  await browser.close();
  await server.close();
  await brotli.close();
}
