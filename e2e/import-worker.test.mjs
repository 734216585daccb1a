//! e2e/import-worker.test.mjs: the import part's trace reader, a Web Worker
//! with its own wasm, as a learner meets it. The lesson never fetches it;
//! opening the import part says it is loading the reader, then shows the
//! file input; when the reader's files do not arrive (each of the loader,
//! the glue script and the wasm answered with a 404 through `page.route`)
//! the page says so plainly with a Retry button, reachable and usable by
//! keyboard, and Retry works once the files are back. Cancel stops a big
//! import at once and the next import still works. Screenshots of the
//! loading and failed states; axe on both.
//! Deliberately absent: timings (scripts/import-bench.mjs reports those).

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ROOT,
  assertNoProblems,
  axeCheck,
  launchBrowser,
  newPage,
  partUrl,
  screenshot,
  startServer,
  waitForApp,
  waitForText,
  traceReaderReady,
} from './support.mjs';

const EXAMPLE = join(ROOT, 'content', 'samples', 'course-trace.otlp.jsonl');
/** The reader's three files, as the network log names them. */
const WORKER_FILES = /\/(worker-loader\.js|import-worker\.js|import-worker_bg\.wasm)(\?|$)/;

let server;
let browser;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** Every URL the page requests, in order. */
function requestLog(page) {
  const urls = [];
  page.on('request', (r) => urls.push(r.url()));
  return urls;
}

const fileInput = (page) => page.getByLabel('Choose a trace file');
const loadingLine = (page) => page.getByRole('status').filter({ hasText: 'Loading the trace reader' });
const failure = (page) => page.getByRole('alert').filter({ hasText: 'The trace reader could not load' });

test('the lesson fetches no part of the trace reader; opening the import part does', async () => {
  const { page, context, problems } = await newPage(browser, server.origin);
  const urls = requestLog(page);
  await page.goto(partUrl(server, 'lesson'));
  await waitForApp(page);
  await page.waitForLoadState('networkidle');
  assert.deepEqual(urls.filter((u) => WORKER_FILES.test(u)), [], 'the lesson loads no worker file');
  await page.getByRole('navigation', { name: 'Course parts' }).getByRole('link', { name: 'Import a trace' }).click();
  await traceReaderReady(page);
  const fetched = urls.filter((u) => WORKER_FILES.test(u)).map((u) => new URL(u).pathname);
  assert.deepEqual(fetched, ['/ttft-lab/worker-loader.js', '/ttft-lab/import-worker.js', '/ttft-lab/import-worker_bg.wasm'], 'beside the page, under its sub-path');
  assertNoProblems(problems);
  await context.close();
});

test('while the reader loads the page says so, then offers the file input', async () => {
  const { page, context, problems } = await newPage(browser, server.origin);
  // Hold the wasm back until the loading line has been seen and checked.
  let release;
  const held = new Promise((ok) => { release = ok; });
  await page.route('**/import-worker_bg.wasm', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(partUrl(server, 'import'));
  await waitForApp(page);
  await loadingLine(page).waitFor();
  // Everything is in place but disabled, so nothing moves when it is ready.
  assert.equal(await fileInput(page).isDisabled(), true, 'the file input waits for the reader');
  assert.equal(await page.getByRole('button', { name: "Load the course's example trace" }).isDisabled(), true);
  assert.equal(await page.getByLabel('Or paste a file\'s text').isDisabled(), true);
  await axeCheck(page, { label: 'import, reader loading' });
  await screenshot(page, 'import-reader-loading');
  const embedTop = () => page.locator('.embed-panel').evaluate((el) => el.getBoundingClientRect().top);
  const topBefore = await embedTop();
  release();
  await traceReaderReady(page);
  assert.equal(await loadingLine(page).count(), 0);
  assert.equal(await embedTop(), topBefore, 'the embed panel below has not moved');
  await page.getByRole('button', { name: "Load the course's example trace" }).click();
  await page.getByRole('status').filter({ hasText: "Imported the course's example trace." }).waitFor();
  assertNoProblems(problems);
  await context.close();
});

for (const file of ['worker-loader.js', 'import-worker.js', 'import-worker_bg.wasm']) {
  test(`when ${file} does not arrive, the page says so and Retry works once it is back`, async () => {
    const { page, context, problems } = await newPage(browser, server.origin);
    let missing = true;
    await page.route(`**/${file}*`, (route) => (missing ? route.fulfill({ status: 404, body: 'not found' }) : route.continue()));
    await page.goto(partUrl(server, 'import'));
    await waitForApp(page);
    await failure(page).waitFor();
    assert.match(await failure(page).innerText(), /Check that you are online, then try again\./);
    assert.equal(await fileInput(page).count(), 0);
    if (file === 'import-worker_bg.wasm') {
      await axeCheck(page, { label: 'import, reader failed to load' });
      await screenshot(page, 'import-reader-failed');
    }
    missing = false;
    const retry = page.getByRole('button', { name: 'Retry' });
    await retry.focus();
    await page.keyboard.press('Enter');
    await traceReaderReady(page);
    await page.getByRole('button', { name: "Load the course's example trace" }).click();
    await page.getByRole('status').filter({ hasText: "Imported the course's example trace." }).waitFor();
    // The 404 we provoked, as the browser logs it (a worker script that does
    // not arrive also counts as a failed request); nothing else.
    const name = file.replace('.', '\\.');
    assertNoProblems(problems, {
      allow: [
        new RegExp(`HTTP 404 for .*${name}`),
        new RegExp(`request failed: .*${name}.*ERR_FAILED`),
        /console error: .*(404|Failed to load|NetworkError|WebAssembly|magic word|importScripts)/i,
      ],
    });
    await context.close();
  });
}

test('Cancel stops a big import at once, and the next import works', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ttft-cancel-'));
  try {
    // About 240 MB of the example's spans: far more than the reader takes
    // in the moment between the progress first moving and the key press.
    // (The reader reads about 200 MB/s here; at 60 MB the whole file was
    // once read before Cancel landed, on a machine running other work.)
    const lines = (await readFile(EXAMPLE, 'utf8')).trimEnd().split('\n');
    const block = Buffer.from(lines.join('\n') + '\n');
    const big = join(dir, 'big.otlp.jsonl');
    await writeFile(big, Buffer.concat(Array(Math.ceil(240e6 / block.length)).fill(block)));
    const { page, context, problems } = await newPage(browser, server.origin);
    await page.goto(partUrl(server, 'import'));
    await waitForApp(page);
    await (await traceReaderReady(page)).setInputFiles(big);
    const status = page.getByRole('status').filter({ hasText: /Reading big\.otlp\.jsonl/ });
    // A keyboard user on Cancel stays on it while the progress moves on:
    // the button is not drawn anew with each progress note.
    await status.getByRole('button', { name: 'Cancel' }).focus();
    const kept = await page.evaluate(() => new Promise((done) => {
      const region = document.querySelector('.import-status [role="status"]');
      const button = document.activeElement;
      const first = region.querySelector('progress')?.value;
      const observer = new MutationObserver(() => {
        const now = region.querySelector('progress')?.value;
        if (now === undefined || now !== first) {
          observer.disconnect();
          done({ moved: now !== undefined, connected: button.isConnected, focused: document.activeElement === button });
        }
      });
      observer.observe(region, { subtree: true, childList: true, attributes: true, characterData: true });
      // An import that ended before this ran never moves again: fail, not hang.
      setTimeout(() => {
        observer.disconnect();
        done({ moved: false, connected: button.isConnected, focused: document.activeElement === button });
      }, 10000);
    }));
    assert.deepEqual(kept, { moved: true, connected: true, focused: true }, 'Cancel keeps focus as the progress moves');
    await page.keyboard.press('Enter');
    await waitForText(page.locator('.import-status [role="status"]'), /^Cancelled: the import of big\.otlp\.jsonl was stopped/, { timeout: 2000 });
    assert.equal(await page.getByRole('region', { name: 'What this file can say' }).count(), 0, 'nothing of the cancelled file is shown');
    await page.getByRole('button', { name: "Load the course's example trace" }).click();
    await page.getByRole('status').filter({ hasText: "Imported the course's example trace." }).waitFor();
    await waitForText(page.getByRole('region', { name: 'What this file can say' }), /5 requests imported/);
    assertNoProblems(problems);
    await context.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
