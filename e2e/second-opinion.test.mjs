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
  launchBrowser,
  newPage,
  partUrl,
  screenshot,
  startServer,
  waitForApp,
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

async function send(page) {
  const preview = page.locator('details.so-preview');
  if ((await preview.getAttribute('open')) === null) await preview.locator('summary').click();
  await page.getByRole('button', { name: 'Send for a second opinion' }).click();
}

const failureText = (page) => page.locator('.so-failure').innerText({ timeout: 15000 });

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
  assert.equal(await page.locator('.so-result').count(), 0, 'no grade is shown');
}

test('a good grade: nothing is sent before Send, the grade sits beside the self-score, adopt, save, export without the key', async () => {
  mock.set('good');
  const before = { posts: mock.state.posts, preflights: mock.state.preflights };
  const { page, context, problems } = await open();
  await prepare(page);
  await axeCheck(page, { label: 'second opinion settings, key entered' });

  // The key is masked, kept for the session only, and not in localStorage.
  assert.equal(await page.locator('#so-key').count(), 0, 'the key field is gone once the key is in');
  let kept = await storages(page);
  assert.doesNotMatch(kept.local, /abcdefghijklmnop/);
  // Kept with the origin it was entered for (see e2e/security.test.mjs).
  assert.match(kept.session, /ttft-lab\/v1\/second-opinion\/key=\{"key":"sk-test-abcdefghijklmnop7x9Q","origin":"http:\/\/127\.0\.0\.1:\d+"/);

  // Nothing is sent yet; Send waits for the request to be opened.
  const sendButton = page.getByRole('button', { name: 'Send for a second opinion' });
  assert.equal(await sendButton.isDisabled(), true);
  assert.equal(await page.locator('#so-send-note').innerText(), 'Open the request above and read it first.');
  await page.locator('details.so-preview summary').click();
  const request = await page.locator('pre.so-request').innerText();
  assert.match(request, new RegExp(`^POST ${mock.baseUrl.replace(/[.]/g, '\\.')}/chat/completions`));
  assert.match(request, /Model: mock-grader-1/);
  assert.ok(request.includes(ANSWER), 'the answer is in the preview');
  assert.match(request, /latency-metrics \(Latency metrics from the trace\)/, 'the rubric is in the preview');
  assert.doesNotMatch(request, /abcdefghijklmnop/, 'the key is not');
  await page.waitForTimeout(300);
  assert.deepEqual({ posts: mock.state.posts, preflights: mock.state.preflights }, before, 'nothing sent yet');

  await sendButton.click();
  const result = page.locator('.so-result');
  await result.waitFor({ timeout: 15000 });
  assert.equal(mock.state.posts, before.posts + 1);
  assert.equal(mock.state.authorizations.at(-1), `Bearer ${KEY}`);
  assert.match(await page.locator('.so-status').innerText(), /The AI's grade is below/);

  // Beside the self-score: the mock scores 2, 1, 2, 1, 0 against the learner's 1, 2, 0, 1, 2.
  const rows = await result.locator('tbody tr').evaluateAll((trs) =>
    trs.map((tr) => [...tr.children].slice(0, 4).map((c) => c.textContent.trim())),
  );
  assert.deepEqual(rows, [
    [TITLES[0], '1', '2', '▲ AI higher'],
    [TITLES[1], '2', '1', '▼ AI lower'],
    [TITLES[2], '0', '2', '▲ AI higher'],
    [TITLES[3], '1', '1', '= same'],
    [TITLES[4], '2', '0', '▼ AI lower'],
  ]);
  assert.match(await result.innerText(), /I split TTFT into/, 'the evidence quote is shown');
  const timings = page.locator('.so-timings');
  assert.match(await timings.innerText(), /Time to first streamed text \(client-side TTFT\)\s+[\d,.]+ ms/);
  assert.match(await timings.innerText(), /Gap between chunks, p90\s+[\d,.]+ ms/);
  assert.match(await timings.innerText(), /no browser can split them/);
  assert.deepEqual(await selfScores(page), SCORES, 'nothing changes until the learner adopts');
  await axeCheck(page, { label: 'second opinion result' });
  await screenshot(page, 'second-opinion-result');

  // Adopt the AI's score for one dimension: the radio changes and it is announced.
  await page.getByRole('button', { name: `Adopt AI score 2 for ${TITLES[2]}` }).click();
  assert.deepEqual(await selfScores(page), [1, 2, 2, 1, 2]);
  assert.match(await result.locator('+ p[role="status"]').innerText(), /Adopted the AI's 2 for Changes to test/);
  assert.match(await result.locator('tbody tr').nth(2).innerText(), /Adopted/);

  await page.getByRole('button', { name: 'Save score' }).click();
  assert.match(await page.locator('.history-status').innerText(), /^Saved with the AI's second opinion:/);
  const history = page.locator('.history-table tbody tr').first();
  assert.match(await history.innerText(), /6 of 10 from mock-grader-1; you: 2 above the AI over 4 dimensions; 1 score adopted/);
  assert.match(
    await page.locator('.history-gap').innerText(),
    /^One saved score has an AI second opinion: you scored yourself 2 above the AI over 4 dimensions\.$/,
  );

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
  assert.match(await page.locator('.so-key-held').innerText(), /remembered on this device/);
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
    assert.match(await failureText(page), message);
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
  await page.locator('.so-progress').getByText(/^[1-9]\d* characters received$/).waitFor();
  await page.clock.fastForward(21_000);
  assert.match(await failureText(page), /nothing arrived for 20 s, so the call was stopped/);
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
  await page.locator('.so-progress').getByText(/^[1-9]\d* characters received$/).waitFor();
  assert.match(await page.locator('.so-status').innerText(), /^Grading…/);
  await page.getByRole('button', { name: 'Cancel' }).click();
  assert.match(await failureText(page), /You cancelled the grading call; nothing was scored\./);
  await assertNothingLost(page);
  for (let i = 0; i < 50 && mock.state.aborted === abortedBefore; i += 1) await page.waitForTimeout(100);
  assert.equal(mock.state.aborted, abortedBefore + 1, 'the server saw the client go away');
  assert.equal(await page.getByRole('button', { name: 'Cancel' }).count(), 0);
  assertNoProblems(problems, { allow: allowMock(/request failed: .*chat\/completions \(net::ERR_ABORTED\)/) });
  await context.close();
});
