//! e2e/embed.test.mjs: ttft-lab inside an instructor's course page, in
//! headless Chromium against the release build. The app is served on one
//! loopback port; course pages (e2e/host/) on other ports, so they are
//! other origins, exactly as on the web. Checked: the iframe grows and
//! shrinks with its content through ttft-lab's parent script, and through a
//! host that speaks only H5P's resizer messages; result statements reach
//! the allow-listed course page with the right scores and never reach a
//! page that is not on the allow-list (or any page, with no allow-list);
//! an authored exercise in the URL loads, checks answers and reports; every
//! part works embedded, without the site's navigation; the Embed panel
//! writes the snippet, checks the origin and copies; axe is clean; nothing
//! logs an error. Screenshots of an embedded part go to e2e/screenshots/.
//!
//! TTFT_DIST may name another build directory (for a quick debug build).

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  startPages,
  DIST,
  ROOT,
  assertNoProblems,
  axeCheck,
  description,
  launchBrowser,
  newPage,
  partUrl,
  screenshot,
  startServer,
  waitForApp,
  waitForText,
} from './support.mjs';

const dist = DIST;
let app;
let browser;
/** The allow-listed course page's server, and one that is not listed. */
let listed;
let other;

/**
 * A tiny static server for the course pages in e2e/host/ and the parent
 * script, as a course site would serve its own copy of it.
 */
function startHost() {
  const html = 'text/html; charset=utf-8';
  return startPages({
    '/own.html': { type: html, file: join(ROOT, 'e2e', 'host', 'own.html') },
    '/h5p.html': { type: html, file: join(ROOT, 'e2e', 'host', 'h5p.html') },
    '/ttft-lab-resizer.js': { type: 'text/javascript; charset=utf-8', file: join(dist, 'ttft-lab-resizer.js') },
  });
}

before(async () => {
  app = await startServer();
  listed = await startHost();
  other = await startHost();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await app?.close();
  await listed?.close();
  await other?.close();
});

/** The embedded app's address for `part` with extra query options. */
function embedUrl(part, extra = {}) {
  const q = new URLSearchParams({ part, embed: '1', ...extra });
  return `${app.url}?${q}`;
}

/** The course page's iframe, found by its title as a learner's tools name it. */
const labFrame = (page) => page.getByTitle('ttft-lab exercise');

/**
 * Opens `host`'s course page `file` around the app at `src`. Problems from
 * the course page and the iframe are recorded; requests may go to the host
 * and to the app, and nowhere else.
 */
async function openHost(host, file, src, options = {}) {
  const opened = await newPage(browser, host.origin, options);
  const { page, problems } = opened;
  // newPage flags requests to any origin but the host's; the app's origin is
  // expected here, so those entries are removed as they come.
  page.on('request', () => {
    for (let i = problems.length - 1; i >= 0; i--) {
      if (problems[i].startsWith('request to another origin:') && problems[i].includes(app.origin + '/')) problems.splice(i, 1);
    }
  });
  await page.goto(`${host.origin}/${file}?src=${encodeURIComponent(src)}`);
  const frame = labFrame(page).contentFrame();
  const inner = await (await labFrame(page).elementHandle()).contentFrame();
  await waitForApp(inner);
  return { ...opened, frame, inner };
}

/** The iframe's height in the course page. */
async function frameHeight(page) {
  return labFrame(page).evaluate((el) => el.getBoundingClientRect().height);
}

/** The embedded document's content height. */
async function contentHeight(inner) {
  return inner.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
}

/**
 * Waits until the iframe is as tall as its content (within a pixel): seen
 * from inside, its viewport is the iframe's box, so the frame watches its
 * own height against its content's on every animation frame.
 */
async function waitSized(page, inner, label) {
  await inner
    .waitForFunction(
      () => {
        const content = Math.ceil(document.documentElement.getBoundingClientRect().height);
        return window.innerHeight > 200 && Math.abs(window.innerHeight - content) <= 1;
      },
      null,
      { timeout: 10000 },
    )
    .catch(() => {});
  const [h, c] = [await frameHeight(page), await contentHeight(inner)];
  assert.ok(Math.abs(h - c) <= 1 && h > 200, `${label}: the iframe (${h} px) never took its content's height (${c} px)`);
  return h;
}

/** Waits until the iframe (seen from inside: its viewport) is taller, or shorter, than `than` px. */
const frameGrows = (inner, than) => inner.waitForFunction((h) => window.innerHeight > h, than);
const frameShrinks = (inner, than) => inner.waitForFunction((h) => window.innerHeight < h, than);

/**
 * The statements the course page has received, once every message the app
 * posted before now has arrived: the test posts a marker from inside the
 * frame, and messages from one window to another arrive in the order sent.
 */
async function receivedSoFar({ page, inner }) {
  await page.evaluate(() => {
    window.markerSeen = false;
    addEventListener('message', (e) => {
      if (e.data === 'e2e:marker') window.markerSeen = true;
    });
  });
  await inner.evaluate(() => parent.postMessage('e2e:marker', '*'));
  await page.waitForFunction(() => window.markerSeen === true, null, { timeout: 5000 });
  return page.evaluate(() => window.received);
}

const TITLES = [
  'Latency metrics from the trace',
  'Dominant delay of each request',
  'Changes to test, with their trade-offs',
  'Why the queue grows while the model is loaded',
  'When a hint cannot start in time',
];

const RIGHT = {
  H1: ['prefill', '70', 'no-action'],
  H2: ['queue_wait', '96.9', 'admission-limits'],
  H3: ['prefill', '97.9', 'trim-history'],
  H4: ['queue_wait', '60.6', 'add-capacity'],
};

async function answerTrace(frame, answers) {
  for (const [id, [dominant, share, action]] of Object.entries(answers)) {
    await frame.getByLabel(`${id}: Dominant delay`).selectOption(dominant);
    await frame.getByLabel(`${id}: Its share of TTFT (%)`).fill(share);
    await frame.getByLabel(`${id}: Investigate first`).selectOption(action);
  }
}

/** Waits for `count` statements at the course page, and returns them. */
async function statements(page, count) {
  await page.waitForFunction((n) => window.received.length >= n, count, { timeout: 5000 });
  return page.evaluate(() => window.received);
}

test('the iframe grows and shrinks with its content (ttft-lab parent script)', async () => {
  const { page, inner, frame, problems } = await openHost(listed, 'own.html', embedUrl('trace'));
  const closed = await waitSized(page, inner, 'first load');
  assert.equal(await frame.getByRole('navigation', { name: 'Course parts' }).count(), 0, 'no site navigation');
  await frame.getByRole('button', { name: 'Reveal answers' }).click();
  await frameGrows(inner, closed + 200);
  const open = await waitSized(page, inner, 'reveal opened');
  assert.ok(open > closed + 200, `revealed (${open}) should be taller than closed (${closed})`);
  await frame.getByRole('button', { name: 'Hide answers' }).click();
  await frameShrinks(inner, open - 200);
  const again = await waitSized(page, inner, 'reveal closed');
  assert.ok(Math.abs(again - closed) <= 2, `closed again (${again}) should match the first height (${closed})`);
  // No inner scrollbar: the frame shows all of its content.
  assert.ok(await inner.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight + 1));
  await screenshot(page, 'embed-host-trace');
  assertNoProblems(problems);
});

test('a host that speaks only H5P resizer messages sizes the iframe', async () => {
  const { page, inner, frame, problems } = await openHost(other, 'h5p.html', embedUrl('timeline'));
  const first = await waitSized(page, inner, 'H5P host, first load');
  const seen = await page.evaluate(() => window.h5pSeen);
  assert.ok(seen.includes('hello'), `the page said hello: ${seen}`);
  assert.ok(seen.includes('prepareResize') && seen.includes('resize'), `the resize exchange ran: ${seen}`);
  // Content that grows: an error message beside a box.
  const box = frame.getByLabel('Prefill ends (server ms)');
  await box.fill('not a time');
  await frameGrows(inner, first);
  await waitSized(page, inner, 'H5P host, after an error appeared');
  // The window narrows: the text rewraps, the page is taller, and is resized.
  await page.setViewportSize({ width: 420, height: 900 });
  await waitSized(page, inner, 'H5P host, narrow window');
  assertNoProblems(problems);
});

test('statements reach the allow-listed course page with the right scores, and no other page', async () => {
  const { page, frame, problems } = await openHost(listed, 'own.html', embedUrl('trace', { origin: listed.origin }));
  await answerTrace(frame, { ...RIGHT, H2: ['queue_wait', '2325', 'admission-limits'] });
  await frame.getByRole('button', { name: 'Check answers' }).click();
  let got = await statements(page, 1);
  assert.equal(got[0].origin, app.origin);
  assert.equal(got[0].version, 1);
  const s = got[0].statement;
  assert.equal(s.verb.id, 'http://adlnet.gov/expapi/verbs/answered');
  assert.match(s.object.id, /^http:\/\/127\.0\.0\.1:\d+\/ttft-lab\/hint-trace$/);
  assert.deepEqual(s.result.score, { raw: 11, min: 0, max: 12, scaled: 0.917 });
  assert.equal(s.result.success, false);
  assert.equal(s.result.completion, true);
  assert.match(s.result.response, /^H1: prefill; 70; no-action\[,\]H2: queue wait; 2325; admission-limits/);
  assert.match(s.result.duration, /^PT(\d+M)?\d+(\.\d+)?S$/);
  assert.equal(s.actor, undefined, 'the host fills in the actor');

  await frame.getByLabel('H2: Its share of TTFT (%)').fill('96.9');
  await frame.getByRole('button', { name: 'Check answers' }).click();
  got = await statements(page, 2);
  assert.deepEqual(got[1].statement.result.score, { raw: 12, min: 0, max: 12, scaled: 1 });
  assert.equal(got[1].statement.result.success, true);
  assertNoProblems(problems);

  // The same embed, allow-listing only the first page, inside another page:
  // the learner's checks are made, and nothing arrives there.
  const elsewhere = await openHost(other, 'own.html', embedUrl('trace', { origin: listed.origin }));
  await answerTrace(elsewhere.frame, RIGHT);
  await elsewhere.frame.getByRole('button', { name: 'Check answers' }).click();
  await waitForText(elsewhere.frame.getByRole('status', { name: 'Result of your check' }), 'Check 1: All 4 requests fully right.');
  assert.deepEqual(await receivedSoFar(elsewhere), [], 'an unlisted page receives nothing');
  assertNoProblems(elsewhere.problems);

  // Embedded with no allow-list at all: nothing is posted to anyone.
  const unlisted = await openHost(listed, 'own.html', embedUrl('trace'));
  await answerTrace(unlisted.frame, RIGHT);
  await unlisted.frame.getByRole('button', { name: 'Check answers' }).click();
  await waitForText(unlisted.frame.getByRole('status', { name: 'Result of your check' }), 'Check 1: All 4 requests fully right.');
  assert.deepEqual(await receivedSoFar(unlisted), [], 'no allow-list, no statements');
  assertNoProblems(unlisted.problems);
});

test('a configuration check and a saved self-score are reported too', async () => {
  const { page, frame, problems } = await openHost(listed, 'own.html', embedUrl('choice', { origin: listed.origin }));
  const live = frame.getByRole('region', { name: 'Live interview hints', exact: true });
  await live.getByRole('group', { name: 'Configuration for Live interview hints' }).getByLabel('Config A').check();
  await frame.getByRole('button', { name: 'Check answers for Live interview hints' }).click();
  const [c] = await statements(page, 1);
  assert.equal(c.statement.verb.display['en-US'], 'answered');
  assert.match(c.statement.object.id, /\/ttft-lab\/[a-z0-9-]+$/);
  assert.equal(c.statement.result.success, false);
  assert.ok(c.statement.result.score.max > c.statement.result.score.raw);
  assert.match(c.statement.result.response, /: A\[,\]/);
  assertNoProblems(problems);

  const interview = await openHost(listed, 'own.html', embedUrl('interview', { origin: listed.origin }));
  for (const title of TITLES) {
    await interview.frame.getByRole('group', { name: title }).getByRole('radio', { name: /^2 / }).check();
  }
  await interview.frame.getByRole('button', { name: 'Save score' }).click();
  const [saved] = await statements(interview.page, 1);
  assert.equal(saved.statement.verb.id, 'http://adlnet.gov/expapi/verbs/completed');
  assert.deepEqual(saved.statement.result.score, { raw: 10, min: 0, max: 10, scaled: 1 });
  assert.equal(saved.statement.result.success, true);
  assert.equal(saved.statement.result.completion, true);
  assertNoProblems(interview.problems);
});

test('an authored exercise in the URL loads, checks answers and reports', async () => {
  const text = await readFile(join(ROOT, 'content', 'schema', 'examples', 'review-bot.json'), 'utf8');
  const file = JSON.parse(text);
  const content = Buffer.from(JSON.stringify(file)).toString('base64url');
  const { page, frame, inner, problems } = await openHost(listed, 'own.html', embedUrl('trace', { origin: listed.origin, content }));
  const x = file.trace_exercise;
  await frame.getByRole('heading', { level: 1, name: x.title }).waitFor();
  for (const r of x.requests) {
    const action = x.actions.find((a) => a.class === r.answer.investigate).id;
    await frame.getByLabel(`${r.id}: Dominant delay`).selectOption(r.answer.dominant);
    await frame.getByLabel(`${r.id}: Its share of TTFT (%)`).fill(String(r.answer.share_percent));
    await frame.getByLabel(`${r.id}: Investigate first`).selectOption(action);
  }
  await frame.getByRole('button', { name: 'Check answers' }).click();
  await waitForText(frame.getByRole('status', { name: 'Result of your check' }), `Check 1: All ${x.requests.length} requests fully right.`);
  const [s] = await statements(page, 1);
  const n = 3 * x.requests.length;
  assert.deepEqual(s.statement.result.score, { raw: n, min: 0, max: n, scaled: 1 });
  assert.match(s.statement.object.id, /\/authored-review-bot-trace-[0-9a-f]{8}$/, 'the activity names the authored exercise');
  assert.equal(s.statement.object.definition.name['en-US'], x.title);
  // The built-in exercise's answers are untouched: its own key is empty.
  const keys = await inner.evaluate(() => Object.keys(localStorage));
  assert.ok(keys.some((k) => /authored-review-bot-trace-[0-9a-f]{8}/.test(k)), `${keys}`);
  assert.ok(!keys.some((k) => /trace\/hint-trace/.test(k)), `${keys}`);
  assertNoProblems(problems);
});

test('an invalid authored file shows every problem with its path, and offers the built-in exercise', async () => {
  const text = await readFile(join(ROOT, 'content', 'schema', 'examples', 'broken.json'), 'utf8');
  const content = Buffer.from(text).toString('base64url');
  const { page, problems } = await newPage(browser, app.origin);
  await page.goto(`${app.url}?part=trace&content=${content}`);
  await waitForApp(page);
  await page.getByRole('heading', { level: 1, name: 'This trace exercise could not be used' }).waitFor();
  const items = await page.getByRole('list', { name: 'Problems in the file' }).getByRole('listitem').allInnerTexts();
  for (const p of ['trace_exercise.id', 'trace_exercise.target_ms', 'trace_exercise.requests[0].prefil_ms', 'config_exercise.configs']) {
    assert.ok(items.some((i) => i.startsWith(`${p}: `)), `${p} in ${items.join('\n')}`);
  }
  assert.match(await page.getByRole('alert').innerText(), /8 problems were found/);
  await axeCheck(page, { label: 'refused authored file' });
  await page.getByRole('button', { name: 'Open the built-in trace exercise' }).click();
  await page.getByRole('button', { name: 'Check answers' }).waitFor();
  assertNoProblems(problems);

  // src= loads a file beside the app, and a missing one is said plainly.
  const hosted = await newPage(browser, app.origin);
  await hosted.page.goto(`${app.url}?part=trace&src=review-bot.json`);
  await waitForApp(hosted.page);
  await hosted.page.getByRole('heading', { level: 1, name: 'Why is the review bot slow to start?' }).waitFor();
  await hosted.page.goto(`${app.url}?part=choice&src=missing/nothing.json`);
  await waitForApp(hosted.page);
  await hosted.page.getByText(/missing\/nothing\.json could not be loaded: the site answered HTTP 404/).waitFor();
  assertNoProblems(hosted.problems, { allow: [/HTTP 404 for .*missing\/nothing\.json/, /404 \(Not Found\)/] });
});

test('every part works embedded, alone, with a link to the full page', async () => {
  for (const part of ['lesson', 'timeline', 'trace', 'choice', 'interview', 'import']) {
    const { page, problems } = await newPage(browser, app.origin);
    await page.goto(embedUrl(part));
    await waitForApp(page);
    assert.equal(await page.getByRole('navigation', { name: 'Course parts' }).count(), 0, `${part}: no navigation`);
    assert.equal(await page.getByText('Embed this part').count(), 0, `${part}: no embed panel inside an embed`);
    const open = page.getByRole('link', { name: /Open in ttft-lab/ });
    assert.equal(await open.getAttribute('target'), '_blank');
    assert.equal(await open.getAttribute('href'), `?part=${part}`);
    assert.equal(await page.getByRole('heading', { level: 1 }).count(), 1, `${part}: one page heading`);
    assert.equal(await page.getByRole('status', { name: 'Saved work' }).count(), 1, `${part}: the storage status area`);
    await axeCheck(page, { label: `embedded ${part}` });
    if (part === 'timeline' || part === 'trace') await screenshot(page, `embed-${part}`);
    assertNoProblems(problems);
    await page.context().close();
  }
  // A refused option is said in the bar, and left out.
  const { page, problems } = await newPage(browser, app.origin);
  await page.goto(embedUrl('trace', { origin: 'http://evil.example' }));
  await waitForApp(page);
  await waitForText(page.getByRole('list', { name: 'Problems with this embed address' }), /http:\/\/evil\.example.*plain http/);
  assertNoProblems(problems);
});

/** The files of the embed panel's own wasm, which no part fetches before it opens. */
const PANEL_FILES = /\/(part-loader\.js|embed-panel-part\.js|embed-panel-part_bg\.wasm)(\?|$)/;

test('the Embed panel writes the snippet, checks the origin live and copies', async () => {
  const { page, context, problems } = await newPage(browser, app.origin);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.origin });
  await page.goto(partUrl(app, 'trace'));
  await waitForApp(page);
  await page.getByText('Embed this part').click();
  const snippet = page.getByLabel('Code to paste');
  await snippet.waitFor({ timeout: 30000 });
  let code = await snippet.inputValue();
  assert.match(code, /^<iframe src="http:\/\/127\.0\.0\.1:\d+\/ttft-lab\/\?part=trace&amp;embed=1" title="[^"]+" /);
  assert.match(code, /loading="lazy"/);
  assert.doesNotMatch(code, /sandbox/);
  await axeCheck(page, { label: 'embed panel open' });

  const origin = page.getByLabel("Your course page's origin (optional)");
  await origin.fill('http://lms.example.edu');
  assert.equal(await origin.getAttribute('aria-invalid'), 'true');
  assert.match(await description(origin), /plain http/);
  assert.doesNotMatch(await snippet.inputValue(), /origin=/, 'a refused origin is left out');
  await axeCheck(page, { label: 'embed panel, refused origin' });
  await page.emulateMedia({ colorScheme: 'dark' });
  await axeCheck(page, { label: 'embed panel, refused origin, dark theme' });
  await page.emulateMedia({ colorScheme: 'light' });
  await origin.fill('https://lms.example.edu');
  assert.equal(await origin.getAttribute('aria-invalid'), 'false');
  code = await snippet.inputValue();
  assert.match(code, /&amp;origin=https%3A%2F%2Flms\.example\.edu"/);
  await page.getByRole('button', { name: 'Copy', exact: true }).click();
  await waitForText(page.getByRole('status', { name: 'Copy result' }), 'Copied.');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), code);
  await page.getByText(/kept by their browser/).waitFor();
  await screenshot(page, 'embed-panel');
  assertNoProblems(problems);
});

test('the Embed panel is fetched only when opened, by keyboard too, and once in a visit', async () => {
  const { page, context, problems } = await newPage(browser, app.origin, { serviceWorkers: 'block' });
  const urls = [];
  page.on('request', (r) => urls.push(r.url()));
  await page.goto(partUrl(app, 'lesson'));
  await waitForApp(page);
  await page.waitForLoadState('networkidle');
  assert.deepEqual(urls.filter((u) => PANEL_FILES.test(u)), [], 'nothing of the panel before it is opened');
  const summary = page.locator('summary', { hasText: 'Embed this part' });
  await summary.focus();
  await page.keyboard.press('Enter');
  const snippet = page.getByLabel('Code to paste');
  await snippet.waitFor({ timeout: 30000 });
  assert.match(await snippet.inputValue(), /\?part=lesson&amp;embed=1"/);
  assert.deepEqual(
    urls.filter((u) => PANEL_FILES.test(u)).map((u) => new URL(u).pathname.split('/').pop()),
    ['part-loader.js', 'embed-panel-part.js', 'embed-panel-part_bg.wasm'],
  );
  assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'SUMMARY', 'focus stays on the disclosure');
  // Closed and opened again, it keeps what was typed and fetches nothing.
  await page.getByLabel("Your course page's origin (optional)").fill('https://lms.example.edu');
  const fetched = urls.filter((u) => PANEL_FILES.test(u)).length;
  await summary.focus();
  await page.keyboard.press('Enter');
  assert.equal(await page.locator('details.embed-panel').evaluate((d) => d.open), false, 'closed');
  await page.keyboard.press('Enter');
  assert.equal(await page.getByLabel("Your course page's origin (optional)").inputValue(), 'https://lms.example.edu');
  assert.equal(urls.filter((u) => PANEL_FILES.test(u)).length, fetched, 'reopening fetches nothing');
  await axeCheck(page, { label: 'embed panel under the lesson' });
  await screenshot(page, 'embed-panel-lesson');
  assertNoProblems(problems);
  await context.close();
});

test('when the Embed panel cannot load, it says so, and Retry works by keyboard', async () => {
  const { page, context, problems } = await newPage(browser, app.origin, { serviceWorkers: 'block' });
  let fail = true;
  await page.route('**/embed-panel-part_bg.wasm', (route) => (fail ? route.fulfill({ status: 404, body: 'gone' }) : route.continue()));
  await page.goto(partUrl(app, 'interview'));
  await waitForApp(page);
  await page.getByText('Embed this part').click();
  const alert = page.getByRole('alert').filter({ hasText: 'The embed code could not load.' });
  await alert.waitFor({ timeout: 30000 });
  await waitForText(alert, /its program did not arrive \(HTTP 404\)/);
  await axeCheck(page, { label: 'embed panel, code missing' });
  fail = false;
  await alert.getByRole('button', { name: 'Retry' }).focus();
  await page.keyboard.press('Enter');
  await page.getByLabel('Code to paste').waitFor({ timeout: 30000 });
  assert.match(await page.getByLabel('Code to paste').inputValue(), /\?part=interview&amp;embed=1"/);
  assertNoProblems(problems, {
    allow: [/embed-panel-part_bg\.wasm/, /console error: Failed to load resource: the server responded with a status of 404/],
  });
  await context.close();
});
