//! e2e/first-view.test.mjs: every part's static first view, which the
//! release step writes into the page from the app's own components
//! (src/first_view.rs), as a learner meets it. With scripting off the page
//! sends the browser to the lesson's plain page, which reads (headings,
//! paragraphs, landmarks, the skip link) with the app's styles; with scripting
//! on each part's view passes axe, shows before the wasm has arrived,
//! without the loading line, says the same words the app then shows
//! (neither has text the other lacks), and the app takes it over without
//! moving anything (no layout shift, focus kept, what was typed kept).
//! No part shows another's view. Embedded (embed=1), each part shows the
//! same view with its embed bar instead of the site's header and without
//! what only the full page has, and is taken over the same way; an unknown
//! part, a part that is not embedded and an instructor's exercise show the
//! loading line. Each part fetches its view, its own only,
//! from a file: one that cannot be fetched leaves the loading line (and the
//! app starts), one that arrives after the app is dropped.
//!
//! The wasm is held back with a route until the test lets it go, so "before
//! the app" is a state the test can look at, not a race. Deliberately
//! absent: what the lesson says (e2e/lesson.test.mjs).

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  DIST,
  assertNoProblems,
  axeCheck,
  drawEverything,
  launchBrowser,
  newPage,
  partUrl,
  screenshot,
  startServer,
  waitForApp,
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

/**
 * A page whose wasm waits until `release()` is called. Resolves to the
 * page, its problems, and `release`.
 */
async function heldPage(options = {}) {
  const opened = await newPage(browser, server.origin, options);
  let release;
  const gate = new Promise((ok) => {
    release = ok;
  });
  await opened.page.route('**/*.wasm', async (route) => {
    await gate;
    // The parts' on-demand code stays away, so what the app shows at
    // start is the part still loading it, as the first view does.
    if (/\/(import-worker|sim-worker|simulate-part)_bg\.wasm$/.test(route.request().url())) return;
    await route.continue();
  });
  // Every layout shift from the first paint on, as Lighthouse counts them.
  await opened.page.addInitScript(() => {
    window.__shifts = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__shifts.push({ value: e.value, recent: e.hadRecentInput });
    }).observe({ type: 'layout-shift', buffered: true });
  });
  return { ...opened, release };
}

/** What a learner reads in `selector`, its whitespace evened out. */
const textOf = (page, selector) =>
  page.locator(selector).first().evaluate((el) => el.innerText.replace(/\s+/g, ' ').trim());

/** Where each heading and landmark of the page is drawn. */
const layout = (page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('h1, h2, h3, header, main, footer, nav, .skip-link')]
      .filter((el) => el.getClientRects().length > 0)
      .map((el) => {
        const r = el.getBoundingClientRect();
        return `${el.tagName} ${el.textContent.trim().slice(0, 30)} @ ${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}x${Math.round(r.height)}`;
      }),
  );

const lessonHeading = (page) => page.getByRole('heading', { level: 1 });

/** What a first view shows, to compare with the app once it has taken over. */
async function firstViewState(page) {
  // Every word and place, the sections drawn only near the viewport too.
  await drawEverything(page);
  try {
    return { heading: await lessonHeading(page).innerText(), text: await textOf(page, '#first-view'), drawn: await layout(page) };
  } finally {
    await drawEverything(page, false);
  }
}

/**
 * The app has taken over from the first view: no view is left, the same
 * heading and words, every heading and landmark where it was, and no layout
 * shift (with `afterInput: false`, only those Lighthouse counts: not within
 * 500 ms of input).
 */
async function assertTakenOver(page, state, { afterInput = true } = {}) {
  assert.equal(await page.locator('#first-view').count(), 0, 'the first view is gone');
  // The other parts' views (data blocks) go too, except in a build with
  // only some parts (every part opened on its own but in a learning
  // system), which shows the next part's view from them when it hands the
  // page to the full app.
  const fewParts = await page.evaluate(() =>
    performance.getEntriesByType('resource').some((r) => /\/((lesson|trace|choice|authored-trace|authored-choice|author|interview|import)-part|simulate-host)_bg\.wasm$/.test(new URL(r.name).pathname)));
  const blocks = await page.locator('script[type="text/html"][id^="first-view-"]').count();
  if (fewParts) assert.ok(blocks > 0, 'the data blocks stay for the hand-over');
  else assert.equal(blocks, 0, 'the data blocks are gone');
  assert.equal(await lessonHeading(page).innerText(), state.heading, 'the same heading');
  await drawEverything(page);
  try {
    assert.equal(await textOf(page, 'body'), state.text, 'the app shows exactly the words of the first view');
    assert.deepEqual(await layout(page), state.drawn, 'every heading and landmark is where it was');
  } finally {
    await drawEverything(page, false);
  }
  const shifts = await page.evaluate(() => window.__shifts);
  const total = shifts.filter((e) => afterInput || !e.recent).reduce((sum, e) => sum + e.value, 0);
  assert.ok(total <= 0.001, `no layout shift (${JSON.stringify(shifts)})`);
}
const loadingLine = (page) => page.getByRole('status').filter({ hasText: /Loading/ });

describe('with scripting off', () => {
  test('the lesson reads, as a plain page: landmarks, skip link, headings and paragraphs', async () => {
    const { page, context, problems } = await newPage(browser, server.origin, { width: 360, height: 780, javaScriptEnabled: false });
    try {
      // Any address goes to the lesson's plain page (no view can be fetched).
      await page.goto(partUrl(server, 'trace'));
      await page.waitForURL(/\/lesson\.html$/);
      await page.waitForLoadState('load');
      assert.ok(await lessonHeading(page).isVisible(), 'the lesson has a visible h1');
      assert.ok((await lessonHeading(page).innerText()).trim().length > 0);
      assert.ok(await page.getByRole('link', { name: 'Skip to content' }).count(), 'the skip link is there');
      assert.ok(await page.getByRole('main').isVisible(), 'the main landmark is there');
      assert.ok(await page.getByRole('navigation', { name: 'Course parts' }).isVisible());
      assert.ok(await page.getByRole('navigation', { name: 'Contents' }).isVisible());
      const sections = await page.getByRole('main').getByRole('heading', { level: 2 }).count();
      assert.ok(sections >= 4, `the lesson's sections have headings (${sections})`);
      await drawEverything(page);
      const paragraphs = await page.getByRole('main').locator('p').evaluateAll((ps) => ps.filter((p) => p.innerText.trim().length > 40).length);
      assert.ok(paragraphs >= 10, `the lesson's paragraphs are there (${paragraphs})`);
      assert.ok(await page.getByText(/needs JavaScript/).isVisible(), 'the page says what needs JavaScript');
      assert.equal(await loadingLine(page).count(), 0, 'no endless "Loading" line');
      // Styled as the app is: the page's own stylesheet, loaded.
      const sheets = await page.evaluate(() => [...document.styleSheets].map((s) => { try { return s.cssRules.length; } catch { return -1; } }));
      assert.ok(sheets.length >= 1 && sheets.every((n) => n > 0), `the stylesheets load (${sheets})`);
      const [stylesBefore, stylesPlain] = await Promise.all([
        readFile(join(DIST, 'index.html'), 'utf8'),
        readFile(join(DIST, 'lesson.html'), 'utf8'),
      ]).then((pages) => pages.map((p) => [...p.matchAll(/<link rel="stylesheet"[^>]*>/g)].map((m) => m[0])));
      assert.deepEqual(stylesPlain, stylesBefore, "the app's stylesheets, all of them");
      assert.equal(await page.locator('script').count(), 0, 'nothing to run');
      // axe runs as a script, so it cannot run here; the same markup is
      // scanned below, shown before the app with scripting on.
      await screenshot(page, 'first-view-no-script');
      // Chromium still sees the module preload and refuses it ("csp").
      assertNoProblems(problems, { allow: [/^request failed: .*\.js \(csp\)$/] });
    } finally {
      await context.close();
    }
  });
});

describe('with scripting on', () => {
  for (const [width, height] of [[360, 780], [1280, 900]]) {
    test(`at ${width} px the lesson reads before the app, which takes it over without a jump or a word changed`, async () => {
      const { page, context, problems, release } = await heldPage({ width, height });
      try {
        await page.goto(partUrl(server, 'lesson'), { waitUntil: 'domcontentloaded' });
        await lessonHeading(page).waitFor();
        assert.equal(await page.evaluate(() => document.documentElement.hasAttribute('data-ready')), false, 'the app has not started yet');
        assert.equal(await loadingLine(page).count(), 0, 'no "Loading" line over the lesson');
        const state = await firstViewState(page);
        if (width === 360) {
          await axeCheck(page, { label: 'the lesson before the app' });
        }
        release();
        await waitForApp(page);
        await assertTakenOver(page, state);
        if (width === 360) await screenshot(page, 'first-view-after-app');
        assertNoProblems(problems);
      } finally {
        await context.close();
      }
    });
  }

  test('focus on a link in the first view moves to the same link in the app', async () => {
    const { page, context, problems, release } = await heldPage({ width: 360, height: 780 });
    try {
      await page.goto(partUrl(server, 'lesson'), { waitUntil: 'domcontentloaded' });
      await lessonHeading(page).waitFor();
      await page.getByRole('navigation', { name: 'Course parts' }).getByRole('link', { name: 'Trace exercise' }).focus();
      release();
      await waitForApp(page);
      const focused = await page.evaluate(() => ({ text: document.activeElement?.textContent?.trim(), live: document.activeElement?.isConnected }));
      assert.deepEqual(focused, { text: 'Trace exercise', live: true }, 'focus moved to the same link in the app');
      assertNoProblems(problems);
    } finally {
      await context.close();
    }
  });

  // Every part but the lesson (above), as a learner opening its address.
  for (const part of ['trace', 'choice', 'interview', 'import', 'simulate', 'timeline', 'author']) {
    test(`?part=${part} reads its own first view before the app, which takes it over without a jump or a word changed`, async () => {
      const { page, context, problems, release } = await heldPage({ width: 360, height: 780 });
      try {
        await page.goto(partUrl(server, part), { waitUntil: 'domcontentloaded' });
        await lessonHeading(page).waitFor();
        assert.equal(await page.evaluate(() => document.documentElement.hasAttribute('data-ready')), false, 'the app has not started yet');
        assert.equal(await page.locator('#first-view').getAttribute('data-part'), part, "the part's own view");
        assert.equal(await page.locator('#first-view').count(), 1, 'one view only');
        assert.equal(await loadingLine(page).filter({ hasText: 'Loading ttft-lab' }).count(), 0, 'no "Loading ttft-lab" line over it');
        const state = await firstViewState(page);
        await axeCheck(page, { label: `${part} before the app` });
        await screenshot(page, `first-view-${part}`);
        // Only what the take-over moves counts (the scan and the full-page
        // screenshot above resize the page themselves).
        await page.evaluate(() => { window.__shifts = []; });
        release();
        await waitForApp(page);
        await assertTakenOver(page, state, { afterInput: false });
        assertNoProblems(problems, { allow: [/_bg\.wasm/] });
      } finally {
        await context.close();
      }
    });
  }

  test('each part downloads its own first view and no other part\'s', async () => {
    for (const part of ['lesson', 'trace', 'interview']) {
      const { page, context, problems } = await newPage(browser, server.origin, { width: 360, height: 780 });
      try {
        const views = [];
        page.on('request', (r) => {
          const name = new URL(r.url()).pathname.split('/').pop();
          if (name.startsWith('first-view-')) views.push(name);
        });
        await page.goto(partUrl(server, part));
        await waitForApp(page);
        assert.deepEqual(views.map((v) => v.replace(/-[0-9a-f]{16}\.html$/, '')), [`first-view-${part}`], `${part}: its own view only`);
        assertNoProblems(problems);
      } finally {
        await context.close();
      }
    }
  });

  test('a first view that cannot be fetched leaves the loading line, and the app starts all the same', async () => {
    const { page, context, problems, release } = await heldPage({ width: 360, height: 780 });
    try {
      await page.route('**/first-view-*.html', (route) => route.abort());
      await page.goto(partUrl(server, 'trace'), { waitUntil: 'domcontentloaded' });
      await loadingLine(page).filter({ hasText: 'Loading ttft-lab' }).waitFor();
      assert.equal(await lessonHeading(page).count(), 0, 'no view, and not the lesson\'s');
      release();
      await waitForApp(page);
      assert.match(await lessonHeading(page).innerText(), /hint requests/i, 'the trace exercise');
      assert.equal(await page.getByRole('alert').count(), 0, 'no failure is reported');
      assertNoProblems(problems, { allow: [/first-view-trace-[0-9a-f]{16}\.html/] });
    } finally {
      await context.close();
    }
  });

  test('with no report of the view\'s paint, the program is fetched only once a frame has been drawn', async () => {
    // A browser that reports no largest paint for the view, and draws no
    // frame for a while (a stalled first paint, as Lighthouse once met at
    // 1.27 s): after 1 s the loader waits for frames, and fetches nothing
    // until one is drawn. The page's frames are held until the test lets
    // them go.
    const { page, context, problems } = await newPage(browser, server.origin, { width: 360, height: 780 });
    try {
      await page.addInitScript(() => {
        const observe = PerformanceObserver.prototype.observe;
        PerformanceObserver.prototype.observe = function (options) {
          if (options && options.type === 'largest-contentful-paint') return undefined;
          return observe.call(this, options);
        };
        const frame = window.requestAnimationFrame.bind(window);
        const held = [];
        window.__framesHeld = true;
        window.requestAnimationFrame = (callback) => {
          if (!window.__framesHeld) return frame(callback);
          held.push(callback);
          return held.length;
        };
        window.__letFramesGo = () => {
          window.__framesHeld = false;
          window.__framesLetGoAt = performance.now();
          for (const callback of held.splice(0)) frame(callback);
        };
      });
      const programs = [];
      page.on('request', (r) => {
        if (r.url().endsWith('_bg.wasm')) programs.push(r.url());
      });
      await page.goto(partUrl(server, 'lesson'), { waitUntil: 'domcontentloaded' });
      await lessonHeading(page).waitFor();
      // Past the loader's 1 s wait for the report, well within its 3 s.
      // (Polled by the clock: Playwright's default polling waits for frames.)
      await page.waitForFunction(() => window.ttftFirstViewAt !== undefined && performance.now() - window.ttftFirstViewAt > 1500, null, { polling: 50 });
      assert.deepEqual(programs, [], 'nothing fetched while no frame has been drawn');
      await page.evaluate(() => window.__letFramesGo());
      await waitForApp(page);
      const fetchedAt = await page.evaluate(() =>
        performance.getEntriesByType('resource').filter((r) => r.name.endsWith('_bg.wasm')).map((r) => r.startTime - window.__framesLetGoAt));
      assert.equal(fetchedAt.length, 1, 'one program');
      assert.ok(fetchedAt[0] >= 0, `fetched after the frames went on (${fetchedAt[0].toFixed(0)} ms)`);
      assertNoProblems(problems);
    } finally {
      await context.close();
    }
  });

  test('a first view that arrives after the app has started is dropped', async () => {
    const { page, context, problems, release } = await heldPage({ width: 360, height: 780 });
    try {
      let letViewGo;
      const viewGate = new Promise((ok) => { letViewGo = ok; });
      await page.route('**/first-view-*.html', async (route) => {
        await viewGate;
        await route.continue();
      });
      await page.goto(partUrl(server, 'choice'), { waitUntil: 'domcontentloaded' });
      // The loader waits up to 3 s for the view before it starts the app.
      release();
      await waitForApp(page);
      const arrived = page.waitForResponse(/first-view-choice-[0-9a-f]{16}\.html/);
      letViewGo();
      await arrived;
      await page.waitForTimeout(200);
      assert.equal(await page.locator('#first-view').count(), 0, 'no view over the app');
      assert.equal(await page.locator('main').count(), 1, 'one <main>');
      assert.equal(await lessonHeading(page).count(), 1, 'one heading');
      assertNoProblems(problems);
    } finally {
      await context.close();
    }
  });

  test('an answer typed before the app has started is the app\'s, and is saved', async () => {
    const { page, context, problems, release } = await heldPage({ width: 1280, height: 900 });
    try {
      await page.goto(partUrl(server, 'interview'), { waitUntil: 'domcontentloaded' });
      const answer = page.getByLabel('Write your answer as you would say it');
      await answer.fill('Queue wait, then prefill.');
      await answer.focus();
      release();
      await waitForApp(page);
      const inApp = page.getByLabel('Write your answer as you would say it');
      assert.equal(await inApp.inputValue(), 'Queue wait, then prefill.');
      assert.equal(await inApp.evaluate((el) => el === document.activeElement), true, 'focus is still in the answer');
      await page.getByText('25 / ').first().waitFor();
      // Saved as typed: still there after a reload.
      await page.waitForTimeout(600);
      await page.reload();
      await waitForApp(page);
      assert.equal(await page.getByLabel('Write your answer as you would say it').inputValue(), 'Queue wait, then prefill.');
      assertNoProblems(problems);
    } finally {
      await context.close();
    }
  });

  test('a button pressed before the app has started is pressed in the app, after what was typed', async () => {
    const { page, context, problems, release } = await heldPage({ width: 1280, height: 900 });
    try {
      await page.goto(partUrl(server, 'trace'), { waitUntil: 'domcontentloaded' });
      await page.locator('#first-view').waitFor();
      await page.getByLabel('H1: Its share of TTFT (%)').fill('12.5');
      await page.getByRole('button', { name: 'Check answers' }).click();
      assert.equal(await page.evaluate(() => document.documentElement.hasAttribute('data-ready')), false, 'pressed in the first view');
      release();
      await waitForApp(page);
      await page.getByText('Checked once.').first().waitFor();
      assert.match(await page.getByRole('status', { name: 'Result of your check' }).innerText(), /^Check 1: /);
      assert.equal(await page.getByLabel('H1: Its share of TTFT (%)').inputValue(), '12.5', 'checked with the share typed');
      assert.equal(await page.evaluate(() => window.ttftPressedEarly), undefined, 'pressed once');
      assertNoProblems(problems);
    } finally {
      await context.close();
    }
  });

  test('what a learner saved before is never overwritten by what the first view (which cannot know it) was given', async () => {
    // No service worker: it would answer the second load's wasm itself,
    // past the route that holds it back.
    const { page, context, problems, release } = await heldPage({ width: 1280, height: 900, serviceWorkers: 'block' });
    release();
    try {
      await page.goto(partUrl(server, 'interview'));
      await waitForApp(page);
      await page.getByLabel('Write your answer as you would say it').fill('My saved answer.');
      await page.waitForTimeout(600);
      // The same page opened again, the wasm held back this time: the first
      // view shows an empty box, and the learner types into it.
      const held = await context.newPage();
      let let_go;
      const gate = new Promise((ok) => { let_go = ok; });
      await held.route('**/*.wasm', async (route) => { await gate; await route.continue(); });
      await held.goto(partUrl(server, 'interview'), { waitUntil: 'domcontentloaded' });
      const box = held.getByLabel('Write your answer as you would say it');
      assert.equal(await box.inputValue(), '', 'the first view knows nothing saved');
      await box.fill('Typed early.');
      let_go();
      await waitForApp(held);
      assert.equal(await held.getByLabel('Write your answer as you would say it').inputValue(), 'My saved answer.', 'the saved answer stays');
      await held.close();
      assertNoProblems(problems);
    } finally {
      await context.close();
    }
  });

  // Every part that can be embedded, as an instructor's page shows it.
  for (const part of ['lesson', 'timeline', 'trace', 'choice', 'interview', 'import', 'simulate']) {
    test(`?part=${part}&embed=1 reads its embedded first view before the app, which takes it over without a jump or a word changed`, async () => {
      const { page, context, problems, release } = await heldPage({ width: 360, height: 780 });
      try {
        await page.goto(`${server.url}?part=${part}&embed=1`, { waitUntil: 'domcontentloaded' });
        await lessonHeading(page).waitFor();
        assert.equal(await page.evaluate(() => document.documentElement.hasAttribute('data-ready')), false, 'the app has not started yet');
        assert.equal(await page.locator('#first-view').getAttribute('data-part'), part, "the part's own view");
        assert.equal(await page.locator('#first-view').count(), 1, 'one view only');
        assert.equal(await loadingLine(page).filter({ hasText: 'Loading ttft-lab' }).count(), 0, 'no "Loading ttft-lab" line over it');
        assert.equal(await page.getByRole('navigation', { name: 'Course parts' }).count(), 0, 'no site navigation');
        assert.equal(await page.getByText('Embed this part', { exact: true }).count(), 0, 'no embed panel');
        assert.equal(await page.getByText('For instructors').count(), 0, 'no note for instructors');
        const open = page.getByRole('link', { name: 'Open in ttft-lab (opens in a new tab)' });
        assert.equal(await open.getAttribute('href'), `?part=${part}`, 'the bar opens this part as a full page');
        const state = await firstViewState(page);
        if (part === 'lesson' || part === 'trace') {
          await axeCheck(page, { label: `${part} embedded, before the app` });
          await screenshot(page, `first-view-embedded-${part}`);
        }
        await page.evaluate(() => { window.__shifts = []; });
        release();
        await waitForApp(page);
        await assertTakenOver(page, state, { afterInput: false });
        assert.equal(await page.locator('[data-not-embedded]').count(), 0, 'the app shows nothing of the full page either');
        assertNoProblems(problems, { allow: [/_bg\.wasm/] });
      } finally {
        await context.close();
      }
    });
  }

  for (const query of ['part=trace&embed=yes', 'part=author&embed=1', 'part=nonsense', 'part=trace&content=x', 'part=trace&embed=1&content=x']) {
    test(`?${query} shows the loading line, and no part's first view`, async () => {
      const { page, context, problems, release } = await heldPage();
      try {
        await page.goto(`${server.url}?${query}`, { waitUntil: 'domcontentloaded' });
        await loadingLine(page).waitFor();
        assert.equal(await lessonHeading(page).count(), 0, 'no heading shows while the app loads');
        assert.equal(await page.locator('#first-view').count(), 0);
        release();
        await waitForApp(page);
        assert.equal(await lessonHeading(page).count(), 1, 'the part has its own heading');
        assertNoProblems(problems);
      } finally {
        await context.close();
      }
    });
  }
});

describe('when the program fails', () => {
  test('when the program cannot load, the lesson stays readable under the message', async () => {
    const { page, context, problems } = await newPage(browser, server.origin);
    try {
      await page.route('**/*.wasm', (route) => route.abort());
      await page.goto(partUrl(server, 'lesson'));
      const alert = page.getByRole('alert');
      await alert.waitFor({ timeout: 10000 });
      assert.match(await alert.innerText(), /could not load its program files/);
      const alertTop = await alert.evaluate((el) => el.getBoundingClientRect().top);
      const headingTop = await lessonHeading(page).evaluate((el) => el.getBoundingClientRect().top);
      assert.ok(alertTop < headingTop, 'the message is above the lesson');
      assert.ok(await lessonHeading(page).isVisible(), 'the lesson still reads');
      await axeCheck(page, { label: 'the lesson under the start-up failure message' });
      assertNoProblems(problems, { allow: [/\.wasm/, /^uncaught exception/, /^console error/] });
    } finally {
      await context.close();
    }
  });
});
