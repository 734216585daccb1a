//! e2e/import-honesty.test.mjs: the import page counts only what happened
//! (issues 11 and 14), one file of each kind, each written here from the
//! format as the tools document it. A vLLM bench file with an empty reply
//! and the tool's own summary: the empty reply is counted apart with the
//! sentence saying why, and the tool's figures stand beside the page's with
//! a reason each. A GenAI-Perf file with one response a request: the page
//! says the run was not streamed and labels the figures end-to-end. A CSV
//! with one unclosed quote before 300 good rows: the rows are imported and
//! "everything else was imported" is true. A JSON document cut short: the
//! page says reading stopped. Results are read by role and accessible name,
//! waiting on what the page says; no fixed sleeps, no CSS classes.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  assertNoProblems,
  axeCheck,
  launchBrowser,
  newPage,
  partUrl,
  screenshot,
  startServer,
  waitForApp,
  traceReaderReady,
} from './support.mjs';

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

async function openImport() {
  const opened = await newPage(browser, server.origin);
  await opened.page.goto(partUrl(server, 'import'));
  await waitForApp(opened.page);
  await traceReaderReady(opened.page);
  return opened;
}

/** Hands the page a file made of `text` and waits until the status says it was read. */
async function pick(page, name, text) {
  await page.getByLabel('Choose a trace file').setInputFiles({ name, mimeType: 'application/octet-stream', buffer: Buffer.from(text) });
  await page.getByRole('status').filter({ hasText: `Imported ${name}.` }).waitFor({ timeout: 20000 });
}

/** The cells of the row whose header cell is `name`, in the table named `table`. */
async function rowOf(page, table, name) {
  const row = page.getByRole('table', { name: table }).getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });
  return (await row.getByRole('cell').allInnerTexts()).map((t) => t.trim());
}

// Five requests, TTFT 100..400 ms, and one empty reply (0 output tokens, TTFT 0,
// empty error string). The tool's mean and median count the empty reply's zero.
const VLLM = JSON.stringify({
  backend: 'vllm',
  model_id: 'example/model',
  completed: 5,
  mean_ttft_ms: 200.0,
  median_ttft_ms: 200.0,
  p99_ttft_ms: 396.0,
  input_lens: [120, 80, 200, 150, 90],
  output_lens: [40, 0, 55, 30, 61],
  ttfts: [0.1, 0.0, 0.2, 0.3, 0.4],
  itls: [[0.02, 0.02], [], [0.03, 0.03], [0.02], [0.02, 0.02, 0.02]],
  generated_texts: ['a', '', 'b', 'c', 'd'],
  errors: ['', '', '', '', ''],
});

test('an empty reply is counted apart, and the tool\'s own figures stand beside the page\'s', async () => {
  const { page, context, problems } = await openImport();
  await pick(page, 'vllm-bench.json', VLLM);
  await page.getByText('empty reply (no first token, no error recorded): 1').waitFor();
  await page.getByText('is counted as an empty reply: it had no first token, so it enters neither the TTFT percentiles nor the target counts').waitFor();
  await page.getByText('The empty reply is not judged.').waitFor();
  // Four requests with a first token enter the percentiles, not five.
  const ttft = await rowOf(page, /Percentiles/, 'TTFT');
  assert.equal(ttft.at(-1), '4');
  const figures = "The tool's figures beside this page's";
  // Nearest rank over the four first tokens gives 200 ms, as the tool's median does.
  assert.deepEqual(await rowOf(page, figures, 'median_ttft_ms'), ['200 ms', '200 ms', 'The same figure, to the microsecond.']);
  const mean = await rowOf(page, figures, 'mean_ttft_ms');
  assert.deepEqual(mean.slice(0, 2), ['200 ms', '250 ms']);
  assert.match(mean[2], /^The tool counts the 1 empty reply at the TTFT of 0 the file records/);
  const p99 = await rowOf(page, figures, 'p99_ttft_ms');
  assert.deepEqual(p99.slice(0, 2), ['396 ms', '400 ms']);
  assert.match(p99[2], /^Two reasons/);
  await axeCheck(page, { label: 'import with an empty reply and the tool figures' });
  await screenshot(page, 'import-honesty-vllm');
  assertNoProblems(problems);
  await context.close();
});

// Three requests, each with a single response timestamp (nanoseconds).
const GENAI = JSON.stringify({
  service_kind: 'openai',
  endpoint: 'v1/chat/completions',
  experiments: [{
    experiment: { mode: 'concurrency', value: 1 },
    requests: [
      { timestamp: 1000000000, response_timestamps: [1900000000] },
      { timestamp: 3000000000, response_timestamps: [4200000000] },
      { timestamp: 5000000000, response_timestamps: [5800000000] },
    ],
  }],
});

test('a run with one response a request is called end-to-end, not TTFT', async () => {
  const { page, context, problems } = await openImport();
  await pick(page, 'genai-perf.json', GENAI);
  await page.getByRole('region', { name: 'What this file can say' }).getByText('This run was not streamed, as far as the file shows').waitFor();
  await page.getByText('The target is a time-to-first-token target, but this run has no separate first token').waitFor();
  const row = await rowOf(page, /Percentiles/, "End-to-end (the file's TTFT)");
  assert.equal(row.at(-1), '3');
  // The charts and the table say the same: no chart, axis or column calls
  // a whole answer's time a first token's.
  await page.getByRole('img', { name: 'End-to-end time per request, by piece' }).waitFor();
  await page.getByRole('img', { name: 'Distribution of end-to-end time' }).waitFor();
  assert.equal(await page.getByRole('img', { name: /time to first token/i }).count(), 0);
  await page.getByRole('columnheader', { name: "End-to-end (the file's TTFT; not streamed)" }).waitFor();
  assert.equal(await page.getByRole('columnheader', { name: /^TTFT/ }).count(), 0);
  await screenshot(page, 'import-honesty-unstreamed');
  assertNoProblems(problems);
  await context.close();
});

test('one unclosed CSV quote costs one row, and the page says so truthfully', async () => {
  const { page, context, problems } = await openImport();
  const good = Array.from({ length: 300 }, (_, i) => `r${i},10,20,5`).join('\n');
  await pick(page, 'quote.csv', `id,queue_ms,prefill_ms,emit_ms\n"bad,1,2,3\n${good}\n`);
  const about = page.getByRole('region', { name: 'What this file can say' });
  await about.getByText('300 requests imported.').waitFor();
  await about.getByText('1 line or record could not be read and was skipped; everything else was imported.').waitFor();
  await about.getByText('quoted field is not closed within 200 lines').waitFor({ state: 'attached' });
  assertNoProblems(problems);
  await context.close();
});

test('a document cut short says reading stopped, never that everything else was imported', async () => {
  const { page, context, problems } = await openImport();
  await pick(page, 'cut.json', '[{"ttft_s": 0.2, "end_to_end_latency_s": 1.0, "number_input_tokens": 5}, {"ttft_s": 0.');
  await page.getByText('reading stopped early: the file may hold requests that were not imported.').waitFor();
  assert.equal(await page.getByText('everything else was imported').count(), 0);
  assertNoProblems(problems);
  await context.close();
});
