//! e2e/authoring.test.mjs: the instructors' authoring page (?part=author)
//! used the way an instructor would, by role and label, in headless
//! Chromium against the release build. A pasted broken file shows every
//! problem with its path, in a list the editor names with
//! aria-describedby; a file whose stated answer disagrees with its timings
//! is refused with the reason; "Start from the built-in exercise" gives a
//! valid file that is previewed with the learners' own components (their
//! wasm fetched only then, and the preview following each change); the link
//! with the file inside loads it for a learner, and a hosted file's title
//! and introduction show before the app has started, in the places the app
//! then draws them; a chosen file is read; the
//! hosted-file link refuses a path to another site; the schema and example
//! links reach files shipped in dist/. axe is clean in every state, and
//! screenshots go to e2e/screenshots/.
//!
//! TTFT_DIST may name another build directory (for a quick debug build).

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  ROOT,
  assertNoProblems,
  axeCheck,
  description,
  launchBrowser,
  newPage,
  partUrl,
  screenshot,
  startServer,
  twoFrames,
  waitForApp,
  waitForText,
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

async function openAuthoring() {
  const opened = await newPage(browser, server.origin);
  await opened.page.goto(partUrl(server, 'author'));
  await waitForApp(opened.page);
  return opened;
}

const example = (name) => readFile(join(ROOT, 'content', 'schema', 'examples', name), 'utf8');

/** What the check of the file says, as a named status. */
const fileStatus = (page) => page.getByRole('status', { name: 'Check of the file' });
/** The problems found, one list item each. */
const problemList = (page) => page.getByRole('list', { name: 'Problems in the file' });
const previewRegion = (page) => page.getByRole('region', { name: 'Preview: as learners will see it', includeHidden: true });
const linksRegion = (page) => page.getByRole('region', { name: 'Links that load it', includeHidden: true });

/** The preview's own wasm, fetched when there is a file to preview. */
const PREVIEW_WASM = /\/author-preview-part_bg\.wasm$/;

test('a broken file: every problem with its path, named by the editor', async () => {
  const { page, problems } = await openAuthoring();
  const fetched = [];
  page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
  assert.equal(await page.getByRole('heading', { level: 1 }).innerText(), 'Author an exercise');
  await axeCheck(page, { label: 'authoring page, empty' });
  const editor = page.getByLabel('Exercise file (JSON)');
  await editor.fill(await example('broken.json'));
  const status = fileStatus(page);
  await waitForText(status, '8 problems found; each is listed below with where it is in the file.');
  assert.equal(await editor.getAttribute('aria-invalid'), 'true');
  const items = await problemList(page).getByRole('listitem').allInnerTexts();
  assert.equal(items.length, 8);
  assert.ok(items.includes('trace_exercise.target_ms: expected a whole number, found the text "1000"'), items.join('\n'));
  assert.ok(items.some((i) => i.startsWith('trace_exercise.requests[0].prefil_ms: "prefil_ms" is not a field here')));
  const described = await description(editor);
  assert.match(described, /8 problems found/);
  assert.match(described, /config_exercise\.configs: needs at least 1 entry/);
  assert.ok(await previewRegion(page).isHidden(), 'no preview of a broken file');
  assert.equal(await linksRegion(page).count(), 0, 'no link to a broken file');
  await axeCheck(page, { label: 'authoring page, broken file' });
  await screenshot(page, 'authoring-broken');

  // Not JSON at all: one problem at the file's level, with line and column.
  await editor.fill('{"schema": "ttft-lab/authored-exercise/v1",');
  await problemList(page).getByRole('listitem').first().getByText(/^\(file\)$/).waitFor();
  await waitForText(problemList(page), /the file ends too early/);
  await waitForText(status, /^1 problem found/);

  // A stated answer that disagrees with the timings is refused with the reason.
  const file = JSON.parse(await example('review-bot.json'));
  file.trace_exercise.requests[1].answer.share_percent = 50;
  await editor.fill(JSON.stringify(file, null, 2));
  await waitForText(problemList(page).getByRole('listitem'), /^trace_exercise\.requests\[1\]\.answer\.share_percent: /);
  await waitForText(status, /^1 problem found/);
  assert.ok(!fetched.some((p) => PREVIEW_WASM.test(p)), `the preview's code is not fetched for a broken file (${fetched.join(', ')})`);
  assertNoProblems(problems);
});

test('when the preview cannot load, the file and its links still work, and Retry brings it by keyboard', async () => {
  const { page, context, problems } = await newPage(browser, server.origin, { serviceWorkers: 'block' });
  let fail = true;
  await page.route('**/author-preview-part_bg.wasm', (route) => (fail ? route.fulfill({ status: 404, body: 'gone' }) : route.continue()));
  await page.goto(partUrl(server, 'author'));
  await waitForApp(page);
  await page.getByRole('button', { name: 'Start from the built-in exercise' }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'The preview could not load' });
  await alert.waitFor({ timeout: 30000 });
  await waitForText(alert, /its program did not arrive \(HTTP 404\)/);
  await waitForText(fileStatus(page), /^No problems: /);
  assert.ok(await page.getByLabel(/^Link to the trace exercise with the file inside/).count(), 'the links are there');
  await axeCheck(page, { label: 'authoring page, preview missing' });
  fail = false;
  await alert.getByRole('button', { name: 'Retry' }).focus();
  await page.keyboard.press('Enter');
  const preview = page.getByRole('region', { name: 'Preview: as learners will see it' });
  await preview.getByRole('button', { name: 'Check answers' }).waitFor({ timeout: 30000 });
  assert.equal(await page.getByRole('alert').filter({ hasText: 'The preview could not load' }).count(), 0, 'the alert is gone');
  assertNoProblems(problems, {
    allow: [/author-preview-part_bg\.wasm/, /console error: Failed to load resource: the server responded with a status of 404/],
  });
  await context.close();
});

test('a valid file is previewed as learners see it, and its link loads it', async () => {
  const { page, context, problems } = await openAuthoring();
  const fetched = [];
  page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
  assert.ok(!fetched.some((p) => PREVIEW_WASM.test(p)), "the page opens without the preview's code");
  await page.getByRole('button', { name: 'Start from the built-in exercise' }).click();
  await waitForText(fileStatus(page), 'No problems: a trace exercise with 4 requests and a configuration exercise with 2 workloads.');
  assert.equal(await page.getByLabel('Exercise file (JSON)').getAttribute('aria-invalid'), 'false');
  const preview = page.getByRole('region', { name: 'Preview: as learners will see it' });
  await preview.getByRole('button', { name: 'Check answers' }).waitFor();
  await preview.getByLabel('H1: Dominant delay').selectOption('prefill');
  await preview.getByRole('button', { name: 'Check answers' }).click();
  await preview.getByText(/^Check 1: /).waitFor();
  await preview.getByLabel('Configuration exercise').check();
  await preview.getByRole('button', { name: 'Check answers for Live interview hints' }).waitFor();
  assert.equal(fetched.filter((p) => PREVIEW_WASM.test(p)).length, 1, "the preview's code is fetched once there is a file");
  await axeCheck(page, { label: 'authoring page, valid file with preview' });
  await page.emulateMedia({ colorScheme: 'dark' });
  await axeCheck(page, { label: 'authoring page, valid file with preview, dark theme' });
  await page.emulateMedia({ colorScheme: 'light' });
  await screenshot(page, 'authoring-valid');

  // The preview follows the file: an edited title shows, a broken file
  // hides the preview, a fixed one brings it back.
  const editor = page.getByLabel('Exercise file (JSON)');
  const edited = JSON.parse(await editor.inputValue());
  edited.config_exercise.title = 'Which setup for the review bot?';
  await editor.fill(JSON.stringify(edited, null, 2));
  await waitForText(preview.getByRole('heading', { level: 1 }), 'Which setup for the review bot?');
  await editor.fill('{');
  await waitForText(fileStatus(page), /^1 problem found/);
  assert.ok(await previewRegion(page).isHidden(), 'no preview of a broken file');
  await editor.fill(JSON.stringify(edited, null, 2));
  await waitForText(preview.getByRole('heading', { level: 1 }), 'Which setup for the review bot?');
  assert.equal(fetched.filter((p) => PREVIEW_WASM.test(p)).length, 1, "the preview's code is fetched once only");

  const inline = page.getByLabel(/^Link to the trace exercise with the file inside \([\d,]+ characters\)$/);
  const url = await inline.inputValue();
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/ttft-lab\/\?part=trace&content=[A-Za-z0-9_-]+$/);
  const label = await page.getByText(/^Link to the trace exercise with the file inside/).innerText();
  const length = Number(label.match(/\(([\d,]+) characters\)/)[1].replace(/,/g, ''));
  assert.equal(length, url.length, 'the stated length is the link\'s');
  assert.ok(await page.getByLabel(/^Link to the configuration exercise with the file inside/).count());

  // The hosted-file form: a path on this site, and never another site.
  const path = page.getByLabel('Path of the file, relative to ttft-lab');
  await path.fill('week3/review.json');
  assert.match(await page.getByLabel('Link to the trace exercise from the hosted file').inputValue(), /\?part=trace&src=week3%2Freview\.json$/);
  await path.fill('https://elsewhere.example/x.json');
  await linksRegion(page).getByText(/must be a path on this site/).waitFor();
  assert.equal(await page.getByLabel('Link to the trace exercise from the hosted file').count(), 0, 'no link to another site');
  await axeCheck(page, { label: 'authoring page, refused path' });

  // A learner opens the link: the exercise is there, with its own answers.
  const learner = await newPage(browser, server.origin);
  await learner.page.goto(url);
  await waitForApp(learner.page);
  await learner.page.getByLabel('H2: Dominant delay').waitFor();
  assert.equal(await learner.page.getByLabel('H1: Dominant delay').inputValue(), '', 'the preview\'s answers stay with the preview');
  assertNoProblems(learner.problems);
  await learner.context.close();

  // The schema and the example are shipped beside the page.
  for (const name of ['published JSON Schema', 'a complete example']) {
    const href = await page.getByRole('link', { name }).getAttribute('href');
    const res = await page.request.get(new URL(href, page.url()).href);
    assert.equal(res.status(), 200, `${name}: ${href}`);
    JSON.parse(await res.text());
  }
  assert.equal(
    (await page.request.get(new URL('ttft-lab-resizer.js', page.url()).href)).status(),
    200,
    'the parent script ships in dist/',
  );
  assert.ok(context);
  assertNoProblems(problems);
});

test('a chosen file is read and checked', async () => {
  const { page, problems } = await openAuthoring();
  await page.getByLabel('Choose a JSON file').setInputFiles({
    name: 'review-bot.json',
    mimeType: 'application/json',
    buffer: Buffer.from(await example('review-bot.json')),
  });
  await waitForText(fileStatus(page), /^No problems: a trace exercise with 3 requests/);
  assert.match(await page.getByLabel('Exercise file (JSON)').inputValue(), /review-bot-trace/);
  assertNoProblems(problems);
});

test("an instructor's file is asked for once, while the app downloads, and only a path the app reads", async () => {
  // index.html's start-up script starts the file's request beside the
  // app's wasm, and the app takes that response rather than asking again.
  const { page, context, problems } = await newPage(browser, server.origin);
  let asked = [];
  page.on('request', (r) => asked.push(new URL(r.url()).pathname));
  const fileAsked = () => asked.filter((p) => p.endsWith('/review-bot.json'));
  await page.goto(`${server.url}?part=trace&src=review-bot.json`);
  await waitForText(page.getByRole('heading', { level: 1 }), 'Why is the review bot slow to start?');
  assert.equal(fileAsked().length, 1, `the file is asked for once: ${asked.join(', ')}`);
  const wasm = asked.findIndex((p) => p.endsWith('/authored-trace-part_bg.wasm'));
  assert.ok(wasm > 0, "the instructor's trace exercise's build was fetched");
  assert.ok(asked.indexOf(fileAsked()[0]) < wasm, `the file is asked for before the app's wasm: ${asked.join(', ')}`);

  // Paths the app refuses, and a part that reads no file: nothing is asked for.
  // (Embedded, the page lists the refused option, which shows it was read.)
  for (const query of ['?part=trace&embed=1&src=./review-bot.json', '?part=trace&embed=1&src=%2Freview-bot.json', '?part=lesson&src=review-bot.json']) {
    asked = [];
    await page.goto(`${server.url}${query}`);
    await waitForApp(page);
    if (query.includes('trace')) await page.getByText(/must be a path on this site ending in \.json/).first().waitFor();
    assert.deepEqual(fileAsked(), [], `${query}: the file is not asked for`);
  }
  assertNoProblems(problems);
  await context.close();
});

test("an instructor's exercise arrives without moving what is in view", async () => {
  // A phone's screen: the page below the exercise (the embed panel, the
  // footer) would be in view while the file is read, and pushed down by it.
  const { page, context, problems } = await newPage(browser, server.origin, { width: 360, height: 780 });
  let release;
  const gate = new Promise((ok) => { release = ok; });
  await page.route('**/review-bot.json', async (route) => {
    await gate;
    await route.continue();
  });
  await page.addInitScript(() => {
    window.__shifts = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__shifts.push(e.value);
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto(`${server.url}?part=trace&src=review-bot.json`);
  await waitForApp(page);
  const loading = page.getByRole('status').filter({ hasText: 'Loading the exercise…' });
  await loading.waitFor();
  const held = await loading.evaluate((el) => el.getBoundingClientRect().bottom);
  assert.ok(held >= 780, `the loading line holds the exercise's place to the fold (ends at ${held} px)`);
  const panelTop = await page.locator('details.embed-panel').evaluate((el) => el.getBoundingClientRect().top);
  assert.ok(panelTop >= 780, `the embed panel waits below the fold (at ${panelTop} px)`);
  await page.evaluate(() => { window.__shifts = []; });
  release();
  await waitForText(page.getByRole('heading', { level: 1 }), 'Why is the review bot slow to start?');
  // Two frames, so a shift the arrival causes has been reported.
  await twoFrames(page);
  const shifts = await page.evaluate(() => window.__shifts);
  assert.deepEqual(shifts, [], 'nothing in view moved when the exercise arrived');
  assertNoProblems(problems);
  await context.close();
});

/**
 * Opens `address` with the app's wasm held back until the returned
 * `release` is called, recording layout shifts from the start and whether
 * the app's own loading line for the file ever shows.
 */
async function openWithAppHeld(address, size) {
  const opened = await newPage(browser, server.origin, size);
  let release;
  const gate = new Promise((ok) => { release = ok; });
  await opened.page.route('**/*_bg.wasm', async (route) => {
    await gate;
    await route.continue();
  });
  await opened.page.addInitScript(() => {
    window.__shifts = [];
    window.__loadingSeen = false;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__shifts.push(e.value);
    }).observe({ type: 'layout-shift', buffered: true });
    new MutationObserver(() => {
      if (document.querySelector('.authored-loading')) window.__loadingSeen = true;
    }).observe(document, { childList: true, subtree: true });
  });
  await opened.page.goto(`${server.url}${address}`);
  return { ...opened, release };
}

/** Where the notice, the title and the introduction are, and their words. */
const leadBoxes = (page) =>
  page.evaluate(() =>
    ['.authored-source', '#main h1', '#main article > p'].map((selector) => {
      const el = document.querySelector(selector);
      const box = el.getBoundingClientRect();
      return { selector, text: el.textContent, x: box.x, y: box.y, width: box.width, height: box.height };
    }),
  );

/** review-bot.json as a content= value: base64url of its compact JSON. */
const inlineReviewBot = async () => Buffer.from(JSON.stringify(JSON.parse(await example('review-bot.json')))).toString('base64url');

for (const [width, height, from] of [[360, 780, 'src'], [1280, 900, 'src'], [360, 780, 'content']]) {
  test(`an instructor's exercise's title and introduction show before the app, which takes over without moving them (${from}=, ${width} px)`, async () => {
    const address = from === 'src' ? '?part=trace&src=review-bot.json' : `?part=trace&content=${await inlineReviewBot()}`;
    const { page, context, problems, release } = await openWithAppHeld(address, { width, height });
    // The app cannot have started: its wasm is held back.
    const early = page.locator('#first-view[data-authored]');
    await early.getByRole('heading', { level: 1, name: 'Why is the review bot slow to start?' }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.hasAttribute('data-ready')), false);
    await early.getByText(/^A code-review assistant streams its first comment/).waitFor();
    const notice = early.getByRole('complementary', { name: "An instructor's exercise, not part of ttft-lab's course" });
    await notice.getByText(from === 'src' ? /loaded from the file http:.*review-bot\.json/ : /travels inside the link you followed/).waitFor();
    assert.equal(await page.getByText('Loading ttft-lab…').isVisible(), false, 'the loading line gives way to the view');
    assert.equal(await early.locator('[data-link], [data-file]').count(), 0, "the frame's two origin sentences are gone once one is in the notice");
    // One screenshot call draws both widths; the resizing it does is not
    // the app's, so its shifts are let through before counting starts.
    if (width === 360 && from === 'src') await screenshot(page, 'authored-first-view');
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 100)))));
    const before = await leadBoxes(page);
    await page.evaluate(() => { window.__shifts = []; });
    release();
    await waitForApp(page);
    await page.getByRole('table').first().waitFor();
    await twoFrames(page);
    assert.equal(await page.locator('#first-view').count(), 0, 'the app replaced the view');
    assert.deepEqual(await leadBoxes(page), before, 'the app shows the same words in the same places');
    assert.deepEqual(await page.evaluate(() => window.__shifts), [], 'nothing in view moved when the app took over');
    assert.equal(await page.evaluate(() => window.__loadingSeen), false, "the app's loading line for the file never showed");
    assertNoProblems(problems);
    await context.close();
  });
}

for (const from of ['src', 'content']) test(`embedded, the first view of an instructor's exercise opens that exercise, as the app's bar does (${from}=)`, async () => {
  const source = from === 'src' ? 'src=review-bot.json' : `content=${await inlineReviewBot()}`;
  const { page, context, problems, release } = await openWithAppHeld(`?part=choice&embed=1&${source}`, { width: 360, height: 780 });
  const early = page.locator('#first-view[data-authored]');
  await early.getByRole('heading', { level: 1 }).waitFor();
  const open = page.getByRole('link', { name: /Open in ttft-lab/ });
  const earlyHref = await open.getAttribute('href');
  assert.equal(earlyHref, `?part=choice&${source}`);
  assert.equal(await page.locator('.site-header').count(), 0, "embedded, the view has the bar, not the site's header");
  const before = await leadBoxes(page);
  release();
  await waitForApp(page);
  assert.equal(await open.getAttribute('href'), earlyHref);
  assert.deepEqual(await leadBoxes(page), before);
  assertNoProblems(problems);
  await context.close();
});

test("a file whose title or introduction has markup waits for the app: the view shows only what the app will", async () => {
  const text = JSON.parse(await example('review-bot.json'));
  text.trace_exercise.intro = `The **review bot** is slow. ${text.trace_exercise.intro}`;
  const opened = await newPage(browser, server.origin, { width: 360, height: 780 });
  await opened.page.route('**/marked-up.json', (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(text) }),
  );
  let release;
  const gate = new Promise((ok) => { release = ok; });
  await opened.page.route('**/*_bg.wasm', async (route) => {
    await gate;
    await route.continue();
  });
  const { page, context, problems } = opened;
  await page.goto(`${server.url}?part=trace&src=marked-up.json`);
  await page.getByText('Loading ttft-lab…').waitFor();
  // Long enough for the file and the part's view to have arrived.
  await page.waitForFunction(() => performance.getEntriesByType('resource').some((e) => e.name.endsWith('marked-up.json')));
  await page.evaluate(() => new Promise((done) => setTimeout(done, 300)));
  assert.equal(await page.locator('#first-view').count(), 0, 'no first view of a file the page would have to mark up');
  release();
  await waitForApp(page);
  await page.locator('#main article > p strong', { hasText: 'review bot' }).waitFor();
  assertNoProblems(problems);
  await context.close();
});

test("an instructor's exercise is drawn out of sight and shown whole", async () => {
  // The file's exercise is drawn in short tasks (components::later's
  // draw_in_steps) behind the loading line: the learner sees the loading
  // line, then the whole exercise, never one half drawn, and never neither.
  // The file is held until the loading line shows (it usually arrives
  // before the app starts, and then the app draws the exercise whole
  // before it goes into the page).
  const { page, context, problems } = await newPage(browser, server.origin, { width: 360, height: 780 });
  let release;
  const gate = new Promise((ok) => { release = ok; });
  await page.route('**/review-bot.json', async (route) => {
    await gate;
    await route.continue();
  });
  await page.addInitScript(() => {
    window.__seen = [];
    const look = () => {
      const part = document.querySelector('.authored-part');
      const shown = !!part && !part.hidden && !!part.querySelector('.authored-source');
      const loading = !!document.querySelector('.authored-loading');
      const whole = !!part
        && !!part.querySelector('#trace-table-caption')
        && part.querySelectorAll('fieldset.tx-request').length > 0
        && !!part.querySelector('ol.reveal-list li');
      const state = shown ? (whole ? 'whole' : 'half drawn') : loading ? 'loading' : 'nothing';
      if (window.__seen[window.__seen.length - 1] !== state) window.__seen.push(state);
    };
    new MutationObserver(look).observe(document, { attributes: true, childList: true, subtree: true });
  });
  await page.goto(`${server.url}?part=trace&src=review-bot.json`);
  await page.locator('.authored-loading').waitFor();
  release();
  await waitForText(page.getByRole('heading', { level: 1 }), 'Why is the review bot slow to start?');
  await expectShown(page);
  const seen = await page.evaluate(() => window.__seen);
  const fromLoading = seen.slice(seen.indexOf('loading'));
  assert.deepEqual(fromLoading, ['loading', 'whole'], `from the loading line straight to the whole exercise: ${seen}`);
  assert.equal(await page.locator('.authored-loading').count(), 0, 'the loading line is gone');
  assert.ok(await page.getByRole('table').first().isVisible(), 'the trace table is in view');
  assert.ok(await page.getByRole('button', { name: 'Check answers' }).isVisible(), 'and the answers can be checked');
  assertNoProblems(problems);
  await context.close();
});

/** Waits until the authored exercise's wrapper is no longer hidden. */
async function expectShown(page) {
  await page.waitForFunction(() => {
    const part = document.querySelector('.authored-part');
    return part && !part.hidden;
  });
}
