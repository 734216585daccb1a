//! e2e/import.test.mjs: the "Import a trace" part used the way an engineer
//! uses it, in headless Chromium against the release build. A real AIPerf
//! file goes in through the file picker (from the repository's
//! tests/fixtures/real-traces/, see its PROVENANCE.md); the table's counts and a hand-checked
//! TTFT are read back; switching the percentile convention changes the
//! figures; the target drives the standing column; the CSV download has the
//! documented header and one row a request. The example button shows a
//! server-side split; an unknown file lists what is supported; a file with
//! a bad line reports it and imports the rest; rate-limited requests are
//! errors, never fast. The page with results passes axe and logs nothing.
//! Deliberately absent: figures the importer's own tests pin down beyond
//! one hand-checked value per file.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  ROOT,
  assertNoProblems,
  axeCheck,
  chartTextProblems,
  launchBrowser,
  newPage,
  partUrl,
  screenshot,
  startServer,
  waitForApp,
  waitForText,
  traceReaderReady,
} from './support.mjs';

/** The real-trace fixtures kept in the repository. */
const FIXTURES = join(ROOT, 'tests', 'fixtures', 'real-traces');
const EXAMPLE = join(ROOT, 'content', 'samples', 'course-trace.otlp.jsonl');

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

async function openImport(options = {}) {
  const opened = await newPage(browser, server.origin, options);
  await opened.page.goto(partUrl(server, 'import'));
  await waitForApp(opened.page);
  await traceReaderReady(opened.page);
  return opened;
}

/** Hands `file` (a path, or { name, mimeType, buffer }) to the picker and waits for the result. */
async function pick(page, file, { done = /Imported|could not be imported/ } = {}) {
  await page.getByLabel('Choose a trace file').setInputFiles(file);
  await page.getByRole('status').filter({ hasText: done }).waitFor({ timeout: 20000 });
}

/** What the page says about the file: a region named by its heading. */
const about = (page) => page.getByRole('region', { name: 'What this file can say' });
/** The figures over the whole trace: a region named by its heading. */
const wholeTrace = (page) => page.getByRole('region', { name: 'The whole trace' });
/** The table of requests, named by its caption ("Requests in the file (rows 1–50 of 100)"). */
const requestsTable = (page) => page.getByRole('table', { name: /^Requests in the file/ });
/** The percentile table, named by its caption ("Percentiles (nearest-rank convention)"). */
const percentileTable = (page) => page.getByRole('table', { name: /^Percentiles/ });

/** The rows of a table that have a row header (the heading row left out). */
const bodyRows = (page, table) => table.getByRole('row').filter({ has: page.getByRole('rowheader') });

/** A row's header and data cells, in order. */
async function cellsOf(row) {
  return (await row.getByRole('rowheader').or(row.getByRole('cell')).allInnerTexts()).map((t) => t.trim());
}

/** The text of each cell in the row whose header cell is `id`. */
async function rowCells(page, id) {
  return cellsOf(requestsTable(page).getByRole('row').filter({ has: page.getByRole('rowheader', { name: id, exact: true }) }));
}

/** The header texts of the requests table, sort marks removed. */
async function headers(page) {
  // The table may come a moment after the file's summary: wait for it.
  await requestsTable(page).getByRole('columnheader').first().waitFor();
  return (await requestsTable(page).getByRole('columnheader').allInnerTexts()).map((t) => t.replace(/[\u25b2\u25bc]/g, '').trim());
}

/** The TTFT row of the percentile table: [p50, p90, p95, p99, count]. */
async function ttftPercentiles(page) {
  const row = percentileTable(page).getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'TTFT', exact: true }) });
  return (await row.getByRole('cell').allInnerTexts()).map((t) => t.trim());
}

test('a real AIPerf file through the picker: table, percentiles, target and CSV', async () => {
  const { page, context, problems } = await openImport();
  await pick(page, join(FIXTURES, 'aiperf', 'profile_export.jsonl'));
  await about(page).getByText('Format: AIPerf per-request records (profile_export.jsonl)').waitFor();
  await waitForText(about(page), /100 requests imported/);
  await waitForText(about(page), /includes the network|network/);
  await page.getByRole('table', { name: /^Requests in the file \(rows 1\u201350 of 100\)$/ }).waitFor();
  assert.equal(await bodyRows(page, requestsTable(page)).count(), 50);

  // A client's file cannot split: no queue wait or prefill columns.
  const cols = await headers(page);
  assert.ok(!cols.some((h) => /Queue wait|Prefill/.test(h)), cols.join(' | '));
  const ttftCol = cols.findIndex((h) => h.startsWith('TTFT'));
  assert.ok(ttftCol > 0);

  // Sort by TTFT, slowest first, then find the hand-checked record.
  const sortTtft = page.getByRole('button', { name: /^TTFT/ });
  const ttftHeader = requestsTable(page).getByRole('columnheader').nth(ttftCol);
  await sortTtft.click();
  assert.equal(await ttftHeader.getAttribute('aria-sort'), 'ascending');
  await sortTtft.click();
  assert.equal(await ttftHeader.getAttribute('aria-sort'), 'descending');
  const id = '1ed40a0d-e708-434d-bb8e-fb1b44cb8717';
  let cells = await rowCells(page, id);
  if (cells.length === 0) {
    await page.getByRole('button', { name: 'Next 50' }).click();
    cells = await rowCells(page, id);
  }
  assert.equal(cells[ttftCol], '1,680.544 ms', cells.join(' | '));
  assert.equal(cells[1], '550');
  assert.equal(cells[2], '193');
  assert.match(cells.at(-1), /over 1,000 ms/);

  // Cancelled requests are counted, with no first token.
  await waitForText(wholeTrace(page), /cancelled: 11 \(11 of them with no first token\)/);

  // The convention switch changes the figures.
  await page.getByRole('table', { name: /^Percentiles \(nearest-rank/ }).waitFor();
  const nearest = await ttftPercentiles(page);
  await page.getByLabel('Linear interpolation (numpy\'s default)').check();
  await page.getByRole('table', { name: /^Percentiles \(linear/ }).waitFor();
  const linear = await ttftPercentiles(page);
  assert.equal(nearest.at(-1), '89', 'every request with a first token');
  assert.equal(linear.at(-1), '89');
  assert.notDeepEqual(linear.slice(0, 4), nearest.slice(0, 4), 'linear and nearest-rank differ on this file');

  // The target drives the standing column and the counts.
  await page.getByLabel('TTFT target (ms)').fill('2000');
  await page.getByText(/Against the 2,000 ms target: \d+ within/).waitFor();
  assert.match((await rowCells(page, id)).at(-1), /^within$/);

  // The CSV export.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download the split as CSV' }).click(),
  ]);
  assert.equal(download.suggestedFilename(), 'ttft-lab-split.csv');
  const csv = await readFile(await download.path(), 'utf8');
  const lines = csv.trimEnd().split('\n');
  assert.equal(
    lines[0],
    'id,outcome,error,clock,start_unix_ms,prompt_tokens,output_tokens,queue_ms,prefill_ms,prefill_convention,emit_ms,' +
      'unattributed_ms,ttft_ms,decode_ms,e2e_ms,output_tokens_per_s,largest,queue_share_pct,prefill_share_pct',
  );
  assert.equal(lines.length, 101, 'a header and one row a request');
  assert.ok(lines.some((l) => l.startsWith(`${id},completed,,client,`) && l.includes(',1680.544,')), 'hand-checked row');

  // A client's file: TTFT not split, ids as the tool writes them.
  assert.deepEqual(await chartTextProblems(page, '.import-chart svg', [1280, 360]), []);
  await axeCheck(page, { label: 'import with an AIPerf file' });
  await screenshot(page, 'import-aiperf');
  assertNoProblems(problems);
  await context.close();
});

test("the course's example shows a server-side split", async () => {
  const { page, context, problems } = await openImport();
  await page.getByRole('button', { name: "Load the course's example trace" }).click();
  await about(page).getByText('Format: vLLM OpenTelemetry spans (OTLP JSON)').waitFor();
  const cols = await headers(page);
  assert.ok(cols.includes('Queue wait'), cols.join(' | '));
  assert.ok(cols.includes("Prefill (vLLM's: includes emit)"), cols.join(' | '));
  const h2 = await rowCells(page, 'H2');
  assert.equal(h2[cols.indexOf('Queue wait')], '2,325 ms');
  assert.equal(h2[cols.indexOf('TTFT (server clock)')], '2,400 ms');
  assert.equal(h2[cols.indexOf('Largest delay and its share')], 'queue wait, 96.9%');
  const reading = wholeTrace(page).getByRole('group', { name: 'Reading' });
  await waitForText(reading, /queue wait/);
  // The box's title sits near its top edge, not a heading's page-wide gap
  // below it.
  const [box, title] = await reading.evaluate((g) => [g, g.querySelector('h3')].map((e) => e.getBoundingClientRect().top));
  assert.ok(title - box < 24, `the reading's title is ${title - box} px below the top of its box`);
  for (const name of ['Time to first token per request, by piece', 'Time to first token against prompt tokens', 'Distribution of time to first token']) {
    assert.equal(await page.getByRole('img', { name }).count(), 1, name);
  }
  // Every label of the three charts readable on a phone and on a desktop:
  // drawn 360 units wide on a narrow window, none outside its chart and
  // none over another.
  assert.deepEqual(await chartTextProblems(page, '.import-chart svg', [1280, 700, 600, 360]), []);
  await axeCheck(page, { label: 'import with the example' });
  await screenshot(page, 'import-example');
  assertNoProblems(problems);
  await context.close();
});

test('an unknown file lists what is supported; a bad line is reported and the rest imported', async () => {
  const { page, context, problems } = await openImport();
  await pick(page, { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('just some notes\nnothing else\n') });
  const alert = page.getByRole('alert').filter({ hasText: 'could not be imported' });
  await alert.waitFor();
  assert.match(await alert.innerText(), /Supported: .*vLLM OpenTelemetry spans \(OTLP JSON\).*CSV, one row a request/s);

  const lines = (await readFile(EXAMPLE, 'utf8')).trimEnd().split('\n');
  const broken = [lines[0], '{"resourceSpans": [ this is not json', ...lines.slice(1)].join('\n') + '\n';
  await pick(page, { name: 'broken.jsonl', mimeType: 'application/json', buffer: Buffer.from(broken) });
  const said = about(page);
  await said.getByText('5 requests imported').waitFor();
  await waitForText(said, /1 line or record could not be read and was skipped; everything else was imported\./);
  const where = said.getByText(/line 2/);
  assert.equal(await where.isVisible(), false, 'where the bad line is waits behind its summary');
  await said.getByText(/The first 1 of them/).click();
  await where.waitFor();
  assertNoProblems(problems);
  await context.close();
});

test('rate-limited requests are errors with no first token, never fast ones', async () => {
  const { page, context, problems } = await openImport();
  await pick(page, join(FIXTURES, 'llmperf', 'lepton_7b_individual_responses.json'));
  const summary = await waitForText(wholeTrace(page), /150 requests/);
  assert.match(summary, /150 requests/);
  assert.match(summary, /130 of 150 requests \(86\.7%\) had no first token/);
  assert.equal((await ttftPercentiles(page)).at(-1), '20', 'only requests with a real first token enter the percentiles');
  assertNoProblems(problems);
  await context.close();
});
