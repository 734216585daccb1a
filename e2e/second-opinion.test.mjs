//! e2e/second-opinion.test.mjs: the AI second opinion on the interview
//! answer, used the way a learner does (by role and label) against
//! e2e/mock-openai.mjs, an OpenAI-compatible streaming server on another
//! loopback origin, so CORS is real. A good grade arrives and is shown
//! beside the self-score, a score is adopted and saved with the AI's; each
//! failure (malformed JSON, a missing dimension, a score of 3, 401, 429, a
//! refused preflight, a stalled stream, Cancel) gives its plain message with
//! the answer and the self-score untouched; the key stays out of
//! localStorage unless "Remember on this device" is ticked, and out of an
//! exported history; nothing is sent before the learner confirms; axe is
//! clean on the settings and the result; no console errors beyond the ones
//! a refused request makes the browser print.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import {
  assertNoProblems,
  axeCheck,
  cutOptions,
  description,
  launchBrowser,
  newPage,
  openSecondOpinion,
  partUrl,
  screenshot,
  startServer,
  waitForApp,
  waitForText,
} from './support.mjs';
import { startMock } from './mock-openai.mjs';

const KEY = 'sk-test-abcdefghijklmnop7x9Q';
const ANSWER = 'I split TTFT into queue wait, prefill and emit from the trace before changing anything.';
const SCORES = [1, 2, 0, 1, 2];
const TITLES = [
  'Latency metrics from the trace',
  'Dominant delay of each request',
  'Changes to test, with their trade-offs',
  'Why the queue grows while the model is loaded',
  'When a hint cannot start in time',
];

let server;
let mock;
let browser;

before(async () => {
  server = await startServer();
  mock = await startMock();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await mock?.close();
  await server?.close();
});

/** Problems a test provokes on purpose: the mock is the one other origin. */
function allowMock(...extra) {
  const at = mock.origin.replace(/[.]/g, '\\.');
  return [new RegExp(`request to another origin: (POST|OPTIONS) ${at}/v1/chat/completions`), ...extra];
}

async function open({ clock = false } = {}) {
  const opened = await newPage(browser, server.origin);
  if (clock) await opened.page.clock.install();
  await opened.page.goto(partUrl(server, 'interview'));
  await waitForApp(opened.page);
  return opened;
}

async function score(page, values) {
  for (const [i, v] of values.entries()) {
    await page.getByRole('group', { name: TITLES[i] }).getByRole('radio', { name: new RegExp(`^${v} `) }).check();
  }
}

async function selfScores(page) {
  const out = [];
  for (const t of TITLES) {
    const group = page.getByRole('group', { name: t });
    let chosen = null;
    for (const v of [0, 1, 2]) {
      if (await group.getByRole('radio', { name: new RegExp(`^${v} `) }).isChecked()) chosen = v;
    }
    out.push(chosen);
  }
  return out;
}

/** Writes the answer, scores it, and fills the settings for the mock. */
async function prepare(page, { remember = false } = {}) {
  await page.getByLabel('Write your answer as you would say it').fill(ANSWER);
  await score(page, SCORES);
  await openSecondOpinion(page);
  await page.getByLabel('Provider').selectOption('custom');
  await page.getByLabel('Base URL').fill(mock.baseUrl);
  await page.getByLabel('Base URL').press('Tab');
  await page.getByLabel('Model', { exact: true }).fill('mock-grader-1');
  await page.getByLabel('Model', { exact: true }).press('Tab');
  if (remember) await page.getByLabel('Remember on this device').check();
  await page.getByLabel(/^API key/).fill(KEY);
  await page.getByLabel(/^API key/).press('Tab');
  await page.getByText('••••7x9Q').waitFor();
}

/** The request as it will be sent, shown once its summary is opened. */
const requestPreview = (page) => page.getByLabel('The request as it will be sent');
const openPreview = (page) => page.getByText('See exactly what will be sent', { exact: true }).click();

async function send(page) {
  if (!(await requestPreview(page).isVisible())) await openPreview(page);
  await requestPreview(page).waitFor();
  await page.getByRole('button', { name: 'Send for a second opinion' }).click();
}

/** Where the call stands: waiting, grading, graded or not. */
const callStatus = (page) => page.getByRole('status', { name: 'Second opinion status' });
/** Why the call gave no grade (there only when it failed). */
const failure = (page) => page.getByRole('group', { name: 'Why it was not graded' });
/** The AI's grade beside the learner's: a region named by its heading. */
const resultRegion = (page) => page.getByRole('region', { name: "The AI's grade beside yours" });
/** The comparison's rows, one a dimension. */
const comparisonRows = (page) =>
  page
    .getByRole('table', { name: "Your self-score and the AI's, dimension by dimension" })
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader') });
/** A row's header and data cells, in order. */
async function cellsOf(row) {
  return (await row.getByRole('rowheader').or(row.getByRole('cell')).allInnerTexts()).map((t) => t.trim());
}
/** How far the reply has come ("42 characters received"). */
const progress = (page) => page.getByText(/^[1-9]\d* characters received$/);

async function storages(page) {
  return page.evaluate(() => ({
    local: Object.entries(localStorage).map(([k, v]) => `${k}=${v}`).join('\n'),
    session: Object.entries(sessionStorage).map(([k, v]) => `${k}=${v}`).join('\n'),
  }));
}

/** The answer and the self-score are exactly what the learner left. */
async function assertNothingLost(page) {
  assert.equal(await page.getByLabel('Write your answer as you would say it').inputValue(), ANSWER);
  assert.deepEqual(await selfScores(page), SCORES);
  assert.equal(await resultRegion(page).count(), 0, 'no grade is shown');
}

test('a good grade: nothing is sent before Send, the grade sits beside the self-score, adopt, save, export without the key', async () => {
  mock.set('good');
  const before = { posts: mock.state.posts, preflights: mock.state.preflights };
  const { page, context, problems } = await open();
  await prepare(page);
  await axeCheck(page, { label: 'second opinion settings, key entered' });
  // Every provider's name shows whole in the closed select, on a phone too.
  assert.deepEqual(await cutOptions(page, '#so-preset', [1280, 360]), [], 'options cut short');

  // The key is masked, kept for the session only, and not in localStorage.
  assert.equal(await page.getByLabel(/^API key/).count(), 0, 'the key field is gone once the key is in');
  let kept = await storages(page);
  assert.doesNotMatch(kept.local, /abcdefghijklmnop/);
  // Kept with the origin it was entered for (see e2e/security.test.mjs).
  assert.match(kept.session, /ttft-lab\/v1\/second-opinion\/key=\{"key":"sk-test-abcdefghijklmnop7x9Q","origin":"http:\/\/127\.0\.0\.1:\d+"/);

  // Nothing is sent yet; Send waits for the request to be opened.
  const sendButton = page.getByRole('button', { name: 'Send for a second opinion' });
  assert.equal(await sendButton.isDisabled(), true);
  assert.equal(await description(sendButton), 'Open the request above and read it first.');
  assert.equal(await requestPreview(page).isVisible(), false, 'the request starts folded');
  await openPreview(page);
  const request = await waitForText(requestPreview(page), /^POST /);
  assert.match(request, new RegExp(`^POST ${mock.baseUrl.replace(/[.]/g, '\\.')}/chat/completions`));
  assert.match(request, /Model: mock-grader-1/);
  assert.ok(request.includes(ANSWER), 'the answer is in the preview');
  assert.match(request, /latency-metrics \(Latency metrics from the trace\)/, 'the rubric is in the preview');
  assert.doesNotMatch(request, /abcdefghijklmnop/, 'the key is not');
  assert.deepEqual({ posts: mock.state.posts, preflights: mock.state.preflights }, before, 'nothing sent yet');

  await sendButton.click();
  const result = resultRegion(page);
  await result.waitFor({ timeout: 15000 });
  // Exactly one call: opening the request sent nothing of its own.
  assert.equal(mock.state.posts, before.posts + 1);
  assert.equal(mock.state.authorizations.at(-1), `Bearer ${KEY}`);
  await waitForText(callStatus(page), /The AI's grade is below/);

  // Beside the self-score: the mock scores 2, 1, 2, 1, 0 against the learner's 1, 2, 0, 1, 2.
  const rows = [];
  for (const row of await comparisonRows(page).all()) rows.push((await cellsOf(row)).slice(0, 4));
  assert.deepEqual(rows, [
    [TITLES[0], '1', '2', '▲ AI higher'],
    [TITLES[1], '2', '1', '▼ AI lower'],
    [TITLES[2], '0', '2', '▲ AI higher'],
    [TITLES[3], '1', '1', '= same'],
    [TITLES[4], '2', '0', '▼ AI lower'],
  ]);
  assert.match(await result.innerText(), /I split TTFT into/, 'the evidence quote is shown');
  const timings = page.getByRole('region', { name: 'This grading call, measured in your browser' });
  await waitForText(timings, /Time to first streamed text \(client-side TTFT\)\s+[\d,.]+ ms/);
  await waitForText(timings, /Gap between chunks, p90\s+[\d,.]+ ms/);
  await waitForText(timings, /no browser can split them/);
  assert.deepEqual(await selfScores(page), SCORES, 'nothing changes until the learner adopts');
  await axeCheck(page, { label: 'second opinion result' });
  await screenshot(page, 'second-opinion-result');

  // Adopt the AI's score for one dimension: the radio changes and it is announced.
  await page.getByRole('button', { name: `Adopt AI score 2 for ${TITLES[2]}` }).click();
  assert.deepEqual(await selfScores(page), [1, 2, 2, 1, 2]);
  await waitForText(page.getByRole('status', { name: 'Adopted scores' }), /Adopted the AI's 2 for Changes to test/);
  await waitForText(comparisonRows(page).nth(2), /Adopted/);

  await page.getByRole('button', { name: 'Save score' }).click();
  await waitForText(page.getByRole('status', { name: 'Saved scores status' }), /^Saved with the AI's second opinion:/);
  const history = page
    .getByRole('table', { name: 'Saved scores, newest first' })
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader') })
    .first();
  await waitForText(history, /6 of 10 from mock-grader-1; you: 2 above the AI over 4 dimensions; 1 score adopted/);
  await page.getByText(/^One saved score has an AI second opinion: you scored yourself 2 above the AI over 4 dimensions\.$/).waitFor();

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export scores (JSON)' }).click(),
  ]);
  const exported = await readFile(await download.path(), 'utf8');
  assert.doesNotMatch(exported, /abcdefghijklmnop|sk-test/, 'the export never holds the key');
  const parsed = JSON.parse(exported);
  assert.equal(parsed.schema_version, 3);
  assert.deepEqual(parsed.entries[0].second_opinion.adopted, ['changes-and-tradeoffs']);
  assert.equal(parsed.entries[0].second_opinion.model, 'mock-grader-1');
  kept = await storages(page);
  assert.doesNotMatch(kept.local, /abcdefghijklmnop/, 'still not in localStorage after saving');

  // Forget everything: the key leaves both storages and the settings are cleared.
  await page.getByRole('button', { name: 'Forget everything' }).click();
  kept = await storages(page);
  assert.doesNotMatch(kept.local + kept.session, /abcdefghijklmnop/);
  assert.equal(await page.getByLabel('Base URL').inputValue(), '');
  assertNoProblems(problems, { allow: allowMock() });
  await context.close();
});

test('"Remember on this device" keeps the key in localStorage, and only then', async () => {
  const { page, context, problems } = await open();
  await prepare(page, { remember: true });
  let kept = await storages(page);
  assert.match(kept.local, /second-opinion\/key=\{"key":"sk-test-abcdefghijklmnop7x9Q"/);
  assert.doesNotMatch(kept.session, /abcdefghijklmnop/);
  await page.getByText(/^API key: \S+ \(for http:\/\/127\.0\.0\.1:\d+, remembered on this device\)/).waitFor();
  await page.getByLabel('Remember on this device').uncheck();
  kept = await storages(page);
  assert.doesNotMatch(kept.local, /abcdefghijklmnop/, 'unticking moves it back to the session');
  assert.match(kept.session, /abcdefghijklmnop/);
  await page.getByRole('button', { name: 'Replace key' }).click();
  assert.equal(await page.getByLabel(/^API key/).inputValue(), '', 'the key is never shown again');
  assertNoProblems(problems);
  await context.close();
});

const FAILURES = [
  ['malformed', /not a usable grade[\s\S]*the reply is not JSON/],
  ['missing', /not a usable grade[\s\S]*the reply gives no score for deadline-behaviour/],
  ['score3', /not a usable grade[\s\S]*the reply scores latency-metrics 3; a dimension scores 0, 1 or 2/],
  ['unauthorized', /The provider refused the key[\s\S]*Incorrect API key provided/],
  ['rate-limited', /Rate limited[\s\S]*wait 7 seconds/],
  ['cors-refused', /No reply from http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions\. Is the local server running\? If it is, it must allow requests from this page's origin \(CORS\)/],
];

for (const [behaviour, message] of FAILURES) {
  test(`${behaviour}: a plain message, nothing lost`, async () => {
    mock.set(behaviour);
    const { page, context, problems } = await open();
    await prepare(page);
    await send(page);
    await waitForText(failure(page), message);
    await assertNothingLost(page);
    if (behaviour === 'unauthorized') await axeCheck(page, { label: 'second opinion, refused key' });
    if (behaviour === 'score3') await screenshot(page, 'second-opinion-bad-reply');
    assertNoProblems(problems, {
      allow: allowMock(
        /HTTP (401|429) for http:\/\/127\.0\.0\.1/,
        /console error: Failed to load resource: the server responded with a status of (401|429)/,
        /console error: Access to fetch at .* has been blocked by CORS policy/,
        /console error: Failed to load resource: net::ERR_FAILED/,
        /request failed: http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions \(net::ERR_FAILED\)/,
      ),
    });
    await context.close();
  });
}

test('a stalled stream is stopped with a message, nothing lost', async () => {
  mock.set('stall');
  const { page, context, problems } = await open({ clock: true });
  await prepare(page);
  await send(page);
  await progress(page).waitFor();
  await page.clock.fastForward(21_000);
  await waitForText(failure(page), /nothing arrived for 20 s, so the call was stopped/);
  await assertNothingLost(page);
  assertNoProblems(problems, { allow: allowMock(/request failed: .*chat\/completions \(net::ERR_ABORTED\)/) });
  await context.close();
});

test('Cancel aborts the request itself, nothing lost', async () => {
  mock.set('slow');
  const abortedBefore = mock.state.aborted;
  const { page, context, problems } = await open();
  await prepare(page);
  await send(page);
  await progress(page).waitFor();
  await waitForText(callStatus(page), /^Grading…/);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await waitForText(failure(page), /You cancelled the grading call; nothing was scored\./);
  await assertNothingLost(page);
  await mock.until((s) => s.aborted > abortedBefore).catch(() => {});
  assert.equal(mock.state.aborted, abortedBefore + 1, 'the server saw the client go away');
  assert.equal(await page.getByRole('button', { name: 'Cancel' }).count(), 0);
  assertNoProblems(problems, { allow: allowMock(/request failed: .*chat\/completions \(net::ERR_ABORTED\)/) });
  await context.close();
});

/** The step's own files, which only opening it fetches. */
const PART_FILES = /\/(part-loader\.js|second-opinion-part\.js|second-opinion-part_bg\.wasm)(\?|$)/;

test('the step is fetched only when opened; then focus is on its first field, and the answer typed since reaches it', async () => {
  const { page, context, problems } = await open();
  const urls = [];
  page.on('request', (r) => urls.push(r.url()));
  await page.getByLabel('Write your answer as you would say it').fill(ANSWER);
  await page.waitForLoadState('networkidle');
  assert.deepEqual(urls.filter((u) => PART_FILES.test(u)), [], 'nothing of the step before it is opened');
  const opener = page.getByRole('button', { name: 'Open the second opinion' });
  await opener.focus();
  await page.keyboard.press('Enter');
  await page.getByLabel('Provider').waitFor({ timeout: 30000 });
  assert.deepEqual(
    urls.filter((u) => PART_FILES.test(u)).map((u) => new URL(u).pathname.split('/').pop()),
    ['part-loader.js', 'second-opinion-part.js', 'second-opinion-part_bg.wasm'],
  );
  assert.equal(await page.evaluate(() => document.activeElement?.id || document.activeElement?.tagName), await page.getByLabel('Provider').evaluate((e) => e.id || e.tagName), 'focus moved into the step');
  await axeCheck(page, { label: 'second opinion, opened' });
  await screenshot(page, 'second-opinion-opened');

  // The page sends the part its work as it changes: the preview holds the
  // answer as it now stands, and an empty answer blocks Send.
  await page.getByLabel('Provider').selectOption('custom');
  await page.getByLabel('Base URL').fill(mock.baseUrl);
  await page.getByLabel('Base URL').press('Tab');
  await page.getByLabel('Model', { exact: true }).fill('mock-grader-1');
  await page.getByLabel('Model', { exact: true }).press('Tab');
  await page.getByLabel(/^API key/).fill(KEY);
  await page.getByLabel(/^API key/).press('Tab');
  await openPreview(page);
  await waitForText(requestPreview(page), new RegExp(ANSWER.slice(0, 30)));
  await page.getByLabel('Write your answer as you would say it').fill('A different answer, written after opening.');
  await waitForText(requestPreview(page), /A different answer, written after opening\./);
  await page.getByLabel('Write your answer as you would say it').fill('');
  const sendButton = page.getByRole('button', { name: 'Send for a second opinion' });
  await waitForText(page.locator('#so-send-note'), /^Write your answer first/);
  assert.equal(await sendButton.isDisabled(), true);

  // Leaving the interview and coming back: opening again fetches nothing.
  const fetched = urls.length;
  // Each move hands the page to another build: wait until it runs, since
  // the part's first view shows before it and answers nothing.
  await page.getByRole('navigation', { name: 'Course parts' }).getByRole('link', { name: 'Lesson' }).click();
  await page.waitForURL(/\?part=lesson$/);
  await waitForApp(page);
  await page.getByRole('navigation', { name: 'Course parts' }).getByRole('link', { name: 'Interview question' }).click();
  await page.waitForURL(/\?part=interview$/);
  await waitForApp(page);
  await page.getByRole('button', { name: 'Open the second opinion' }).click();
  await page.getByLabel('Provider').waitFor({ timeout: 30000 });
  assert.deepEqual(urls.slice(fetched).filter((u) => PART_FILES.test(u)), [], 'opened again without fetching');
  assert.equal(await page.getByLabel('Base URL').inputValue(), mock.baseUrl, 'its settings were kept');
  assertNoProblems(problems);
  await context.close();
});

test('when the step cannot load, the page says so, nothing is lost, and Retry works by keyboard', async () => {
  const { page, context, problems } = await newPage(browser, server.origin, { serviceWorkers: 'block' });
  let fail = true;
  await page.route('**/second-opinion-part_bg.wasm', (route) => (fail ? route.fulfill({ status: 404, body: 'gone' }) : route.continue()));
  await page.goto(partUrl(server, 'interview'));
  await waitForApp(page);
  await page.getByLabel('Write your answer as you would say it').fill(ANSWER);
  await score(page, SCORES);
  await page.getByRole('button', { name: 'Open the second opinion' }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'The second opinion could not load.' });
  await alert.waitFor({ timeout: 30000 });
  await waitForText(alert, /its program did not arrive \(HTTP 404\)/);
  await axeCheck(page, { label: 'second opinion, part missing' });
  assert.equal(await page.getByLabel('Write your answer as you would say it').inputValue(), ANSWER);
  assert.deepEqual(await selfScores(page), SCORES);
  fail = false;
  await alert.getByRole('button', { name: 'Retry' }).focus();
  await page.keyboard.press('Enter');
  await page.getByLabel('Provider').waitFor({ timeout: 30000 });
  assertNoProblems(problems, {
    allow: [/second-opinion-part_bg\.wasm/, /console error: Failed to load resource: the server responded with a status of 404/],
  });
  await context.close();
});
