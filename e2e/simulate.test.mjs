//! e2e/simulate.test.mjs: the serving simulator (`?part=simulate`) as a
//! learner uses it, by role and label: the lesson never fetches the
//! simulator's worker; the part loads it and says so; a run shows its
//! figures, its series chart with a data table and every request split;
//! its address reproduces it in a fresh page; run B beside A with their
//! differences; a setting the core refuses is named beside its field; the
//! request classes typed one per line, a refused line named by its number; a
//! sweep; an export that the import part reads back with the same split;
//! Cancel in the middle of a long run; the three guided experiments right
//! and wrong; a 404 on the part's glue, the part's wasm and the worker's
//! wasm, each with Retry. axe in every state,
//! screenshots at 360 and 1280 px.
//! Deliberately absent: timings (scripts/size-report --sim-bench has them).

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ROOT,
  assertNoProblems,
  axeCheck,
  chartTextProblems,
  cutOptions,
  launchBrowser,
  newPage,
  partUrl,
  screenshot,
  startServer,
  waitForApp,
  waitForText,
  traceReaderReady,
} from './support.mjs';

/** The part's own files, and its engine's, as the network log names them. */
const PART_FILES = /\/(part-loader\.js|simulate-part\.js|simulate-part_bg\.wasm|worker-loader\.js|sim-worker\.js|sim-worker_bg\.wasm)(\?|$)/;

let server;
let browser;
let dir;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  dir = await mkdtemp(join(tmpdir(), 'ttft-sim-'));
});

after(async () => {
  await browser?.close();
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const status = (page) => page.locator('.sim-status [role="status"]');
const runButton = (page, slot) => page.getByRole('button', { name: `Run as ${slot}`, exact: true });

/** Opens the simulate part and waits for the simulator. */
async function openSimulator(page, query = '') {
  await page.goto(`${partUrl(server, 'simulate')}${query}`);
  await waitForApp(page);
  await runButton(page, 'A').waitFor({ timeout: 60000 });
}

/** Sets a setting's field (by its label) and leaves it, as a learner does. */
async function setField(page, label, value) {
  const field = page.getByLabel(label, { exact: true });
  await field.fill(value);
  await field.blur();
}

/** The class table's cell of run `slot` for `row` (class) and `column`. */
async function cell(page, slot, row, column) {
  const table = page.getByRole('table', { name: new RegExp(`^Run ${slot} by class`) });
  const headers = await table.locator('thead th').allInnerTexts();
  const k = headers.findIndex((h) => h.trim() === column);
  assert.ok(k > 0, `no column ${column} in ${headers}`);
  const r = table.locator('tbody tr').filter({ has: page.getByRole('rowheader', { name: row, exact: true }) });
  return (await r.locator('th, td').nth(k).innerText()).trim();
}

async function waitForRun(page, slot) {
  await waitForText(status(page), slot === 'A' ? /Run A is shown|Runs A and B/ : /Runs A and B/, { timeout: 60000 });
}

test('the lesson fetches no part of the simulator; the Simulate link loads it, and a run shows every view', async () => {
  const { page, context, problems } = await newPage(browser, server.origin);
  const urls = [];
  page.on('request', (r) => urls.push(r.url()));
  await page.goto(partUrl(server, 'lesson'));
  await waitForApp(page);
  await page.waitForLoadState('networkidle');
  assert.deepEqual(urls.filter((u) => PART_FILES.test(u)), [], 'the lesson loads no simulator file');
  await page.getByRole('navigation', { name: 'Course parts' }).getByRole('link', { name: 'Simulate' }).click();
  await page.getByRole('heading', { level: 1, name: 'Simulate a serving engine' }).waitFor();
  await runButton(page, 'A').waitFor({ timeout: 60000 });
  const fetched = urls.filter((u) => PART_FILES.test(u)).map((u) => new URL(u).pathname);
  assert.deepEqual(fetched, [
    '/ttft-lab/part-loader.js',
    '/ttft-lab/simulate-part.js',
    '/ttft-lab/simulate-part_bg.wasm',
    '/ttft-lab/worker-loader.js',
    '/ttft-lab/sim-worker.js',
    '/ttft-lab/sim-worker_bg.wasm',
  ], 'the part, then its engine, beside the page under its sub-path');
  await waitForText(status(page), /No run yet/);
  await axeCheck(page, { label: 'simulate, before a run' });
  // Every setting's select shows each of its choices whole, wide and narrow
  // (in the column of text, three groups abreast cut four of the five; at
  // 320 px the hardware presets were cut until a select could wrap).
  assert.deepEqual(await cutOptions(page, '.sim-form select', [1280, 1080, 1000, 760, 360, 320]), [], 'options cut short');

  await setField(page, 'Request count', '1500');
  await runButton(page, 'A').click();
  await waitForRun(page, 'A');
  assert.match(page.url(), /[?&]part=simulate&.*sim=1.*&n=1500/, 'the run is in the address');
  assert.match(await cell(page, 'A', 'all requests', 'Requests'), /^1,500$/);
  assert.match(await cell(page, 'A', 'hint', 'p95 TTFT'), /^[\d,.]+ ms$/);
  // At 1280 px the run's thirteen columns by class all show, none behind
  // a scroll (the region takes the window's width beyond the text).
  const byClass = page.getByRole('region', { name: /^Run A by class/ });
  const [shown, needed] = await byClass.evaluate((r) => [r.clientWidth, r.scrollWidth]);
  assert.ok(needed <= shown, `the class table needs ${needed} px and shows ${shown}`);
  // The reading, the series chart with its table, and every request split.
  await waitForText(page.locator('.sim-reading').first(), /p95 TTFT is .* over .* requests with a first token \(linear percentiles\)/);
  await page.getByText(/p50, p95 and p99 of each part, by class/).click();
  const parts = page.getByRole('table', { name: "Run A: each part's percentiles by class" });
  assert.equal(await parts.locator('tbody tr').count(), 12, 'three parts for each of three classes and for all requests');
  await page.getByRole('img', { name: /Run A over time/ }).waitFor();
  // The series chart, and the requests' charts, readable on a phone and
  // on a desktop (drawn 360 units wide on a narrow window).
  assert.deepEqual(await chartTextProblems(page, '.sim-chart svg, .import-chart svg', [1280, 700, 600, 360]), []);
  await page.getByText(/The chart's data \(\d+ buckets\)/).click();
  await page.getByRole('region', { name: 'Run A over time, as a table' }).waitFor();
  await page.getByRole('heading', { name: 'Every request of run A, split' }).waitFor();
  await axeCheck(page, { label: 'simulate, run A' });
  await screenshot(page, 'simulate-run');

  // Leaving the part and coming back mounts it again, fetching nothing more.
  const before = urls.length;
  const nav = page.getByRole('navigation', { name: 'Course parts' });
  await nav.getByRole('link', { name: 'Lesson' }).click();
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  assert.equal(await page.locator('#simulate-root').count(), 0);
  await nav.getByRole('link', { name: 'Simulate' }).click();
  await runButton(page, 'A').waitFor({ timeout: 60000 });
  await setField(page, 'Request count', '300');
  await runButton(page, 'A').click();
  await waitForRun(page, 'A');
  assert.match(await cell(page, 'A', 'all requests', 'Requests'), /^300$/);
  assert.deepEqual(urls.slice(before).filter((u) => /simulate-(loader|part)/.test(u)), [], 'the part was not fetched again');
  assertNoProblems(problems);
  await context.close();
});

test('a run is reproduced from its address alone, to the microsecond', async () => {
  const first = await newPage(browser, server.origin);
  await openSimulator(first.page);
  await setField(first.page, 'Request count', '800');
  await setField(first.page, 'Seed', '7');
  await runButton(first.page, 'A').click();
  await waitForRun(first.page, 'A');
  const address = first.page.url();
  const p95 = await cell(first.page, 'A', 'all requests', 'p95 TTFT');
  const queue = await cell(first.page, 'A', 'all requests', 'p95 queue wait');
  await first.context.close();

  const again = await newPage(browser, server.origin);
  await again.page.goto(address);
  await waitForApp(again.page);
  await waitForRun(again.page, 'A');
  assert.equal(await cell(again.page, 'A', 'all requests', 'p95 TTFT'), p95);
  assert.equal(await cell(again.page, 'A', 'all requests', 'p95 queue wait'), queue);
  assert.equal(await again.page.getByLabel('Seed', { exact: true }).inputValue(), '7', 'the form shows the run');
  assertNoProblems(again.problems);
  await again.context.close();
});

test('run B beside A, with the differences; a refused setting is named beside its field', async () => {
  const { page, context, problems } = await newPage(browser, server.origin);
  await openSimulator(page);
  await setField(page, 'Request count', '1000');
  await runButton(page, 'A').click();
  await waitForRun(page, 'A');

  const slots = page.getByLabel('Batch slots (max_num_seqs)', { exact: true });
  await setField(page, 'Batch slots (max_num_seqs)', '0');
  await runButton(page, 'B').click();
  await waitForText(page.getByRole('alert').filter({ hasText: 'Run B was not started' }), /batch slots \(max_num_seqs\) \(seqs\): 0 is out of range; use 1 to 65,536/);
  assert.equal(await slots.getAttribute('aria-invalid'), 'true');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'sim-seqs', 'focus is on the field named');
  await axeCheck(page, { label: 'simulate, a refused setting' });

  await setField(page, 'Batch slots (max_num_seqs)', '2');
  assert.equal(await slots.getAttribute('aria-invalid'), null, 'fixing the field clears its error');
  await runButton(page, 'B').click();
  await waitForRun(page, 'B');
  assert.match(page.url(), /&b\.sim=1&.*b\.seqs=2/);
  const table = page.getByRole('table', { name: 'Runs A and B, and how B differs' });
  const row = table.locator('tbody tr').filter({ has: page.getByRole('rowheader', { name: 'p95 queue wait, all requests', exact: true }) });
  const change = (await row.locator('td').nth(2).innerText()).trim();
  assert.match(change, /^\+[\d,.]+ ms \(\+\d+%\)$/, 'two slots make requests wait longer');
  // The requests of either run.
  await page.getByRole('radiogroup', { name: 'Whose requests to show' }).getByLabel('Run B').check();
  await page.getByRole('heading', { name: 'Every request of run B, split' }).waitFor();
  await axeCheck(page, { label: 'simulate, A and B' });
  await screenshot(page, 'simulate-compare');
  assertNoProblems(problems);
  await context.close();
});

test('request classes are typed one per line; a refused line is named by its number', async () => {
  const { page, context, problems } = await newPage(browser, server.origin);
  await openSimulator(page);
  const classes = page.getByLabel('Request classes', { exact: true });
  assert.equal(await classes.evaluate((e) => e.tagName), 'TEXTAREA');
  assert.equal(
    await classes.inputValue(),
    'hint:85:700:120:1000\nlong log:10:6000:250:3000\nfull history:5:18000:400:8000',
    'the default mix, one class per line',
  );

  await setField(page, 'Request count', '400');
  await setField(page, 'Request classes', 'chat:70:500:100:800\n\nlong doc:30:6000');
  await runButton(page, 'A').click();
  await waitForText(
    page.getByRole('alert').filter({ hasText: 'Run A was not started' }),
    /request classes \(cls\): class 2: write name:share:prompt tokens:output tokens:target ms/,
  );
  assert.equal(await classes.getAttribute('aria-invalid'), 'true');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'sim-cls', 'focus is on the field named');
  await axeCheck(page, { label: 'simulate, a refused class' });

  // A blank line and spaces are dropped; a comma still separates, as in an address.
  await setField(page, 'Request classes', ' chat:70:500:100:800 \n\nlong doc:30:6000:150:3000, rag:10:3000:200:1500\n');
  assert.equal(await classes.getAttribute('aria-invalid'), null, 'fixing the field clears its error');
  assert.equal(await classes.inputValue(), 'chat:70:500:100:800\nlong doc:30:6000:150:3000\nrag:10:3000:200:1500');
  await runButton(page, 'A').click();
  await waitForRun(page, 'A');
  assert.match(page.url(), /[?&]cls=chat:70:500:100:800,long%20doc:30:6000:150:3000,rag:10:3000:200:1500(&|$)/);
  for (const name of ['chat', 'long doc', 'rag']) {
    assert.match(await cell(page, 'A', name, 'p95 TTFT'), /^[\d,.]+ ms$/, `${name} has its own row`);
  }
  await screenshot(page, 'simulate-classes');
  assertNoProblems(problems);
  await context.close();
});

test('a sweep plots the p95 split against the load, with its table', async () => {
  const { page, context, problems } = await newPage(browser, server.origin);
  await openSimulator(page);
  // Side by side at 1280 px, the three fields' inputs line up, though the
  // first one's label takes two lines.
  const fields = ['From (% of capacity)', 'To (% of capacity)', 'Points'];
  const tops = [];
  for (const label of fields) tops.push((await page.getByLabel(label).boundingBox()).y);
  assert.ok(Math.max(...tops) - Math.min(...tops) < 1, `the sweep's inputs are at ${tops.join(', ')} px`);
  await setField(page, 'Request count', '1000');
  await page.getByLabel('From (% of capacity)').fill('20');
  await page.getByLabel('To (% of capacity)').fill('110');
  await page.getByLabel('Points').fill('4');
  await page.getByRole('button', { name: 'Run the sweep' }).click();
  const table = page.getByRole('table', { name: /Every point of the sweep/ });
  await table.waitFor({ timeout: 60000 });
  assert.deepEqual(await table.locator('tbody th').allInnerTexts(), ['20%', '50%', '80%', '110%']);
  await page.getByRole('img', { name: "The p95 request's TTFT split at each load" }).waitFor();
  await waitForText(page.locator('.sim-sweep-result > p').first(), /queue wait went from .* to /);
  assert.deepEqual(await chartTextProblems(page, '.sim-chart svg', [1280, 360]), []);
  await axeCheck(page, { label: 'simulate, a sweep' });
  await screenshot(page, 'simulate-sweep');
  // Twenty-three columns: a load is written under every column where the
  // labels fit, else under every second or third, never over another.
  await setField(page, 'Request count', '300');
  await page.getByLabel('Points', { exact: true }).fill('23');
  await page.getByLabel('From (% of capacity)', { exact: true }).fill('10');
  await page.getByLabel('To (% of capacity)', { exact: true }).fill('120');
  await page.getByRole('button', { name: 'Run the sweep' }).click();
  // The table keeps the rows of loads both sweeps have: wait on the table.
  await waitForText(table, /\b120%/, { timeout: 60000 });
  assert.equal(await table.locator('tbody tr').count(), 23);
  const chart = page.getByRole('img', { name: "The p95 request's TTFT split at each load" });
  assert.deepEqual(await chartTextProblems(page, '.sim-chart svg', [1280, 360]), []);
  const loads = await chart.locator('text.chart-axis').allTextContents();
  assert.ok(loads.includes('10%') && loads.some((t) => /^1[01]\d%$/.test(t)), `the loads drawn: ${loads.join(' ')}`);
  assertNoProblems(problems);
  await context.close();
});

test('a run exported as a trace file imports back with the same split for every request', async () => {
  const { page, context, problems } = await newPage(browser, server.origin);
  await openSimulator(page);
  await setField(page, 'Request count', '600');
  await runButton(page, 'A').click();
  await waitForRun(page, 'A');
  const simulated = await page.getByRole('table', { name: /^Requests in the file/ }).innerText();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download run A as a trace file (CSV)' }).click(),
  ]);
  const file = join(dir, download.suggestedFilename());
  await download.saveAs(file);
  assert.equal(download.suggestedFilename(), 'ttft-lab-simulated-run-a.csv');

  await page.getByRole('navigation', { name: 'Course parts' }).getByRole('link', { name: 'Import a trace' }).click();
  await (await traceReaderReady(page)).setInputFiles(file);
  await waitForText(page.getByRole('status').filter({ hasText: 'Imported' }), /Imported ttft-lab-simulated-run-a\.csv/, { timeout: 30000 });
  await waitForText(page.locator('.import-about'), /600 requests imported/);
  const imported = await page.getByRole('table', { name: /^Requests in the file/ }).innerText();
  assert.equal(imported, simulated, 'the import part shows the same requests, split the same way');
  assertNoProblems(problems);
  await context.close();
});

test('a replay runs a real trace with its arrivals and lengths', async () => {
  const { page, context, problems } = await newPage(browser, server.origin);
  await openSimulator(page);
  await page.getByLabel('Arrivals', { exact: true }).selectOption('replay');
  await page.getByLabel('Lengths', { exact: true }).selectOption('replay');
  await runButton(page, 'A').click();
  await waitForText(page.getByRole('alert').filter({ hasText: 'The settings cannot be used' }), /replays an imported trace; import one first/);
  await page.getByLabel('Trace file to replay').setInputFiles(join(ROOT, 'tests', 'fixtures', 'real-traces', 'aiperf', 'profile_export.jsonl'));
  const ready = await waitForText(status(page), /profile_export\.jsonl is ready to replay: [\d,]+ requests?( \([\d,]+ left out, without both lengths\))?, with their arrival times\./);
  const n = /replay: ([\d,]+) request/.exec(ready)[1];
  await runButton(page, 'A').click();
  await waitForRun(page, 'A');
  await page.getByText('Replays profile_export.jsonl.').waitFor();
  assert.equal(await cell(page, 'A', 'trace', 'Requests'), n, 'every replayed request is simulated');
  await axeCheck(page, { label: 'simulate, a replay' });
  assertNoProblems(problems);
  await context.close();
});

test('Cancel stops a long run at once, and the next run works', async () => {
  const { page, context, problems } = await newPage(browser, server.origin);
  await openSimulator(page);
  await setField(page, 'Request count', '1000000');
  await setField(page, 'Arrival rate (requests a second)', '3');
  await runButton(page, 'A').click();
  await waitForText(status(page), 'Running A…', { timeout: 30000 });
  await waitForText(page.locator('.sim-counts'), /^[\d,]+ requests arrived, [\d,]+ done, [\d,.]+ ms simulated\.$/);
  await page.locator('progress[aria-label="Simulation progress"]').waitFor();
  await axeCheck(page, { label: 'simulate, running' });
  await page.getByRole('button', { name: 'Cancel' }).click();
  await waitForText(status(page), /Cancelled: the simulator was stopped/);
  await setField(page, 'Request count', '500');
  await runButton(page, 'A').click();
  await waitForRun(page, 'A');
  assert.match(await cell(page, 'A', 'all requests', 'Requests'), /^500$/);
  assertNoProblems(problems);
  await context.close();
});

test('the three guided experiments, wrong then right', async () => {
  const { page, context, problems } = await newPage(browser, server.origin);
  await openSimulator(page);
  const verdict = (n) => page.locator('.sim-experiment').nth(n - 1).locator('.sim-verdict');

  // 1. A rate within the target, then one past capacity with the right part.
  await page.getByLabel('The rate where p95 misses (requests a second)').fill('4');
  await page.getByRole('radiogroup', { name: 'The part that grew' }).getByLabel('prefill').check();
  await page.getByRole('button', { name: 'Check experiment 1' }).click();
  const low = await waitForText(verdict(1), /Not yet\.[\s\S]*within the 1,000 ms target/, { timeout: 60000 });
  const capacity = Number(/estimated capacity of ([\d.]+)/.exec(low)[1]);
  assert.ok(capacity > 4, `capacity ${capacity}`);
  await page.getByLabel('The rate where p95 misses (requests a second)').fill((capacity * 1.05).toFixed(2));
  await page.getByRole('button', { name: 'Check experiment 1' }).click();
  await waitForText(verdict(1), /Not yet\.[\s\S]*Not prefill: the part that grew most is queue wait/, { timeout: 60000 });
  await page.getByRole('radiogroup', { name: 'The part that grew' }).getByLabel('queue wait').check();
  await page.getByRole('button', { name: 'Check experiment 1' }).click();
  await waitForText(verdict(1), /Right: the run bears it out\.[\s\S]*Right: queue wait grew most/, { timeout: 60000 });

  // 2. The defaults do not help the hints; a cap on the chunk does, and the long prompts pay.
  await page.getByRole('button', { name: "Load experiment 2's settings and run them" }).click();
  await waitForRun(page, 'A');
  const said = page.getByRole('radiogroup', { name: "With your settings, the full histories' p95 TTFT" });
  await said.getByLabel('it stayed about the same').check();
  await page.getByRole('button', { name: "Check experiment 2 with the form's engine settings" }).click();
  await waitForText(verdict(2), /Not yet\.[\s\S]*still over the 1,000 ms target/, { timeout: 60000 });
  await setField(page, 'Longest prompt chunk per request (long_prefill_token_threshold)', '256');
  await said.getByLabel('it rose').check();
  await page.getByRole('button', { name: "Check experiment 2 with the form's engine settings" }).click();
  await waitForText(verdict(2), /Right: the run bears it out\.[\s\S]*within the 1,000 ms target/, { timeout: 60000 });

  // 3. The evidence, then prefix caching.
  await page.getByRole('button', { name: "Load experiment 3's settings and run them" }).click();
  await waitForRun(page, 'A');
  const evidence = page.getByRole('group', { name: 'What the starting run shows' });
  await evidence.getByLabel('emit is a large part of TTFT').check();
  await page.getByRole('button', { name: "Check experiment 3 with the form's engine settings" }).click();
  await waitForText(verdict(3), /Not yet\.[\s\S]*Emit is a large part of TTFT: not in this run/, { timeout: 60000 });
  await evidence.getByLabel('emit is a large part of TTFT').uncheck();
  for (const e of ['KV-cache use reaches its capacity', 'requests are preempted', 'requests wait while most batch slots are empty']) {
    await evidence.getByLabel(e).check();
  }
  await page.getByLabel('Prefix caching', { exact: true }).check();
  await page.getByRole('button', { name: "Check experiment 3 with the form's engine settings" }).click();
  await waitForText(verdict(3), /Right: the run bears it out\.[\s\S]*within the 4,000 ms target/, { timeout: 60000 });
  await axeCheck(page, { label: 'simulate, experiments checked' });
  await screenshot(page, 'simulate-experiments');
  assertNoProblems(problems);
  await context.close();
});

for (const [file, says] of [
  // The part's glue is an ES module, imported: Retry imports it again
  // (under a new query, for browsers that remember a failed import).
  ['simulate-part.js', 'The simulator could not load'],
  ['simulate-part_bg.wasm', 'The simulator could not load'],
  ['sim-worker_bg.wasm', "The simulator's engine could not load"],
]) {
  test(`when ${file} does not arrive the page says so, and Retry works by keyboard`, async () => {
    // The service worker would fetch the engine's files itself, past the
    // page's routes, once it controls the page: these tests are about the
    // network failing, which offline.test.mjs covers with it in place.
    const { page, context, problems } = await newPage(browser, server.origin, { serviceWorkers: 'block' });
    let fail = true;
    await page.route(`**/${file}`, (route) => (fail ? route.fulfill({ status: 404, body: 'gone' }) : route.continue()));
    await page.goto(partUrl(server, 'simulate'));
    await waitForApp(page);
    await page.getByRole('heading', { level: 1, name: 'Simulate a serving engine' }).waitFor();
    const failure = page.getByRole('alert').filter({ hasText: says });
    await failure.waitFor({ timeout: 30000 });
    await axeCheck(page, { label: `simulate, ${file} missing` });
    if (file.startsWith('simulate-part')) await screenshot(page, 'simulate-failed');
    fail = false;
    await failure.getByRole('button', { name: 'Retry' }).focus();
    await page.keyboard.press('Enter');
    await runButton(page, 'A').waitFor({ timeout: 60000 });
    await setField(page, 'Request count', '200');
    await runButton(page, 'A').click();
    await waitForRun(page, 'A');
    const escaped = file.replace('.', '\\.');
    assertNoProblems(problems, {
      allow: [
        new RegExp(`HTTP 404 for .*${escaped}`),
        // Chromium aborts a module whose answer is an error.
        new RegExp(`request failed: .*${escaped} \\(net::ERR_ABORTED\\)`),
        /console error: .*(404|wasm|fetch|WebAssembly|magic)/i,
      ],
    });
    await context.close();
  });
}
