//! e2e/lesson.test.mjs: the lesson used the way a learner uses it, in
//! headless Chromium against the release build on a plain static server.
//! The worked timeline recomputes as the learner types (found by label), an
//! out-of-order time shows the core's error beside its field, the checklist
//! is remembered after a reload, a browser that refuses storage still works
//! and says so, the parts are reachable from the navigation and the back
//! button, the sections below the first are drawn only as they come near
//! without moving anything or cutting off a focus ring, the lesson passes
//! axe in both themes, and nothing logs an error.
//! Deliberately absent: checks of figures the core's own tests pin down; here
//! only what the page shows is checked.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  assertNoProblems,
  axeCheck,
  chartTextProblems,
  description,
  drawEverything,
  launchBrowser,
  newPage,
  partUrl,
  refuseStorage,
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

async function openLesson(options = {}) {
  const opened = await newPage(browser, server.origin, options);
  await opened.page.goto(partUrl(server, 'lesson'));
  await waitForApp(opened.page);
  return opened;
}

/** The worked timeline's results: a region named by its heading. */
const results = (page) => page.getByRole('region', { name: 'What the times give' });

/** The figure (a definition in the results) whose term starts with `term`. */
async function figure(page, term) {
  const terms = (await results(page).getByRole('term').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
  const i = terms.findIndex((t) => t.startsWith(term));
  assert.ok(i >= 0, `a figure named "${term}" among: ${terms.join(' | ')}`);
  return results(page).getByRole('definition').nth(i);
}

/** The completion checklist's boxes. */
const checklist = (page) => page.getByRole('list', { name: 'Completion checklist' }).getByRole('checkbox');
/** The checklist's running count ("2 of 5 done"). */
const checklistProgress = (page) => page.getByRole('status', { name: 'Checklist progress' });

test('the worked timeline recomputes as the learner types', async () => {
  const { page, context, problems } = await openLesson();
  await waitForText(await figure(page, 'Time to first token at the server'), '360 ms = 40 ms queue wait + 310 ms prefill + 10 ms emit');
  await waitForText(await figure(page, 'Dominant delay'), /^prefill, 86\.1% of TTFT$/);

  // A longer queue: admission at 900 ms needs prefill to end later too.
  await page.getByLabel('Prefill ends (server ms)').fill('1250');
  await page.getByLabel('First token written (server ms)').fill('1260');
  await page.getByLabel('Admitted by the scheduler (server ms)').fill('900');
  await waitForText(await figure(page, 'Time to first token at the server'), '1,260 ms = 900 ms queue wait + 350 ms prefill + 10 ms emit');
  await waitForText(await figure(page, 'Dominant delay'), /^queue wait, 71\.4% of TTFT$/);
  // The chart's labels, wide and narrow: none outside the drawing (the
  // note under the decode bar sat on its bottom edge), none over another.
  assert.deepEqual(await chartTextProblems(page, '.timeline-chart svg', [1280, 360]), []);
  await waitForText(await figure(page, 'Browser versus server'), /shorter|needs a browser time/);
  const browserBox = page.getByLabel('Browser: send to first visible text (ms)');
  assert.equal(await browserBox.getAttribute('aria-invalid'), 'true', 'a browser time under the TTFT is flagged');
  await browserBox.fill('1400');
  await waitForText(await figure(page, 'Browser versus server'), /140 ms the server trace cannot see/);
  assert.equal(await browserBox.getAttribute('aria-invalid'), 'false');

  const live = page.getByRole('status', { name: 'Worked timeline result' });
  await waitForText(live, /TTFT 1,260 ms: queue wait 900 ms, prefill 350 ms, emit 10 ms/);

  await page.getByRole('button', { name: "Reset to the lesson's values" }).click();
  await waitForText(live, /TTFT 360 ms: queue wait 40 ms/);
  assert.equal(await page.getByLabel('Admitted by the scheduler (server ms)').inputValue(), '40');
  await waitForText(await figure(page, 'Time to first token at the server'), '360 ms = 40 ms queue wait + 310 ms prefill + 10 ms emit');
  assertNoProblems(problems);
  await context.close();
});

test('an out-of-order or unreadable time shows its error beside the field and keeps the last figures', async () => {
  const { page, context, problems } = await openLesson({ width: 360 });
  const prefillEnd = page.getByLabel('Prefill ends (server ms)');
  await prefillEnd.fill('30');
  assert.equal(await prefillEnd.getAttribute('aria-invalid'), 'true');
  assert.match(await description(prefillEnd), /end of prefill at 30 ms comes before admission at 40 ms/);
  // Only the field at fault is marked.
  assert.equal(await page.getByLabel('Admitted by the scheduler (server ms)').getAttribute('aria-invalid'), 'false');
  // The figures keep the last valid values and say so.
  await waitForText(await figure(page, 'Time to first token at the server'), '360 ms = 40 ms queue wait + 310 ms prefill + 10 ms emit');
  await results(page).getByText(/last valid values/).waitFor();
  await screenshot(page, 'lesson-timeline-error');

  const admitted = page.getByLabel('Admitted by the scheduler (server ms)');
  await prefillEnd.fill('350');
  await admitted.fill('forty');
  assert.match(await description(admitted), /is not a number of milliseconds/);
  await admitted.fill('');
  assert.match(await description(admitted), /admission time is missing/);
  await admitted.fill('40');
  assert.equal(await admitted.getAttribute('aria-invalid'), 'false');
  assert.equal(await admitted.getAttribute('aria-describedby'), null);
  await results(page).getByText(/Fix the time marked above/).waitFor({ state: 'detached' });
  assertNoProblems(problems);
  await context.close();
});

test('the checklist is remembered after a reload', async () => {
  const { page, context, problems } = await openLesson();
  const boxes = checklist(page);
  const total = await boxes.count();
  assert.ok(total >= 3, `the checklist has ${total} items`);
  await boxes.nth(0).check();
  await boxes.nth(2).check();
  await waitForText(checklistProgress(page), `2 of ${total} done`);

  await page.reload();
  await waitForApp(page);
  const again = checklist(page);
  assert.equal(await again.nth(0).isChecked(), true);
  assert.equal(await again.nth(1).isChecked(), false);
  assert.equal(await again.nth(2).isChecked(), true);
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('ttft-lab/v1/checklist')));
  assert.equal(stored.version, 1);
  await again.nth(0).uncheck();
  await waitForText(checklistProgress(page), `1 of ${total} done`);
  assertNoProblems(problems);
  await context.close();
});

test('damaged saved data is set aside and the learner is told', async () => {
  const { page, context, problems } = await openLesson();
  await page.evaluate(() => localStorage.setItem('ttft-lab/v1/checklist', '{"version":1,"value":{"items":'));
  await page.reload();
  await waitForApp(page);
  const status = page.getByRole('status', { name: 'Saved work' });
  await waitForText(status, /could not be read/);
  const aside = await page.evaluate(() =>
    Object.keys(localStorage).filter((k) => k.startsWith('ttft-lab/v1/checklist/set-aside/')),
  );
  assert.equal(aside.length, 1);
  assert.equal(await checklist(page).nth(0).isChecked(), false);
  await status.getByRole('button', { name: 'Dismiss' }).click();
  await waitForText(status, '');
  assertNoProblems(problems);
  await context.close();
});

test('a browser that refuses storage still works and says nothing will be kept', async () => {
  const { page, context, problems } = await newPage(browser, server.origin, { width: 360 });
  await page.addInitScript(refuseStorage);
  await page.goto(partUrl(server, 'lesson'));
  await waitForApp(page);
  await waitForText(page.getByRole('status', { name: 'Saved work' }), /not letting the page save anything \(SecurityError/);
  const first = checklist(page).nth(0);
  await first.check();
  assert.equal(await first.isChecked(), true);
  await page.getByLabel('Admitted by the scheduler (server ms)').fill('100');
  await waitForText(await figure(page, 'Time to first token at the server'), /^360 ms = 100 ms queue wait/);
  await screenshot(page, 'lesson-no-storage');
  assertNoProblems(problems);
  await context.close();
});

test('the navigation moves between parts, sets titles and follows the back button', async () => {
  const { page, context, problems } = await openLesson();
  const nav = page.getByRole('navigation', { name: 'Course parts' });
  assert.equal(await page.title(), 'Lesson · ttft-lab');
  assert.equal(await nav.getByRole('link', { name: 'Lesson' }).getAttribute('aria-current'), 'page');

  await nav.getByRole('link', { name: 'Trace exercise' }).click();
  await page.waitForURL(/\?part=trace$/);
  assert.equal(await page.title(), 'Trace exercise · ttft-lab');
  assert.equal(await nav.getByRole('link', { name: 'Trace exercise' }).getAttribute('aria-current'), 'page');
  assert.equal(await nav.getByRole('link', { name: 'Lesson' }).getAttribute('aria-current'), null);
  assert.ok((await page.getByRole('table').count()) >= 1, 'the trace table shows');

  await page.goBack();
  await page.waitForURL(/\?part=lesson$/);
  assert.equal(await page.title(), 'Lesson · ttft-lab');
  // The lesson opened in its own build, which handed the page to the trace
  // exercise's on leaving; back on the lesson, the full app (the lesson's
  // build has run in this page) shows it once it runs.
  await page.getByLabel('Prefill ends (server ms)').waitFor().catch(async (e) => {
    // What the page was doing, to tell a slow start from a stuck one.
    const state = await page.evaluate(() => ({
      ready: document.documentElement.getAttribute('data-ready'),
      build: document.documentElement.getAttribute('data-app-build'),
      view: document.documentElement.getAttribute('data-first-view'),
      mains: document.querySelectorAll('main').length,
      wasm: performance.getEntriesByType('resource').map((r) => r.name.split('/').pop()).filter((n) => n.endsWith('.wasm')),
      text: document.body.innerText.slice(0, 300),
    }));
    throw new Error(`${e.message}\npage: ${JSON.stringify(state)}\nproblems: ${problems.join('; ')}`);
  });

  // A contents link is an ordinary #anchor and does not re-render the part.
  // The label shows first in the part's static first view; what is typed
  // there reaches the app a moment after it takes over (tested on its own),
  // so this waits for the app itself.
  await waitForApp(page);
  await page.getByLabel('Admitted by the scheduler (server ms)').fill('41');
  const contents = page.getByRole('navigation', { name: 'Contents' });
  await contents.getByRole('link').first().click();
  assert.equal(await page.getByLabel('Admitted by the scheduler (server ms)').inputValue(), '41');
  assertNoProblems(problems);
  await context.close();
});

test("a link in the lesson's text to another part moves there in the page, as the navigation does", async () => {
  const { page, context, problems } = await openLesson();
  // Set on this page's window: a full reload would lose it.
  await page.evaluate(() => { window.__samePage = true; });
  const link = page.getByRole('main').getByRole('link', { name: 'trace exercise', exact: true }).first();
  await link.click();
  await page.waitForURL(/\?part=trace$/);
  await page.getByRole('heading', { level: 1 }).filter({ hasText: /hint requests/i }).waitFor();
  assert.equal(await page.evaluate(() => window.__samePage), true, 'no reload');
  assert.equal(await page.title(), 'Trace exercise · ttft-lab');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'main', 'focus moves to the part, as from the navigation');
  await page.goBack();
  await page.waitForURL(/\?part=lesson$/);
  // A click with a modifier is the browser's (a new tab or window): the page stays.
  const again = page.getByRole('main').getByRole('link', { name: 'configuration choice', exact: true }).first();
  const popup = context.waitForEvent('page');
  await again.click({ modifiers: ['Shift'] });
  const other = await popup;
  assert.match(page.url(), /\?part=lesson$/, 'this page stayed on the lesson');
  await other.close();
  assertNoProblems(problems);
  await context.close();
});

/**
 * Every lesson section that is drawn only near the viewport, drawn once by
 * scrolling the page through (its height is remembered after), then where
 * each element in the lesson sits: its top from the page's top and its
 * height. (Not the sections' own boxes: a contained section holds its
 * heading's margin, which an uncontained one lets through.)
 */
async function drawnLayout(page) {
  // The page's height changes as sections are drawn: down to its end as
  // it is then.
  for (let y = 0; y <= (await page.evaluate(() => document.documentElement.scrollHeight)); y += 600) {
    await page.evaluate((top) => scrollTo(0, top), y);
    await twoFrames(page);
  }
  return page.evaluate(() =>
    [...document.querySelectorAll('#main .lesson-section > *, #main .lesson-section > * > *, .site-footer')].map((e) => {
      const box = e.getBoundingClientRect();
      return `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''} ${Math.round(box.top + scrollY)} ${Math.round(box.height)}`;
    }),
  );
}

test('the sections below the first are drawn only as they come near, and sit exactly where they would if drawn at once', async () => {
  const { page, context, problems } = await openLesson();
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 780 });
    await page.evaluate(() => scrollTo(0, 0));
    await twoFrames(page);
    // A section's box is always there (at its estimated height); what it
    // holds is drawn or skipped.
    const drawnNow = await page.evaluate(() =>
      [...document.querySelectorAll('#main .lesson-section > h2')].map((h) => h.checkVisibility({ contentVisibilityAuto: true })),
    );
    assert.equal(drawnNow[0], true, `${width} px: the first section is drawn`);
    assert.equal(drawnNow.at(-1), false, `${width} px: the last section waits until it comes near`);

    const onDemand = await drawnLayout(page);
    // The same page with every section drawn from the start: no
    // containment, so margins meet across the sections' edges as they
    // would in a plain page.
    assert.ok((await drawEverything(page)) > 0, `${width} px: some sections wait to be drawn`);
    const atOnce = await drawnLayout(page);
    await drawEverything(page, false);
    assert.ok(onDemand.length > 100, `${width} px: the lesson's elements were found (${onDemand.length})`);
    assert.deepEqual(onDemand, atOnce, `${width} px: nothing moves when every section is drawn at once`);
    assert.equal(
      await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth),
      true,
      `${width} px: the sections' room for focus rings makes no sideways scroll`,
    );

    // A section clips what it paints to its edges: every control in one
    // has room around it for its focus ring (3px wide, 2px out).
    const cramped = await page.evaluate(() => {
      const ring = 5;
      const out = [];
      for (const section of document.querySelectorAll('#main .lesson-section')) {
        if (getComputedStyle(section).contentVisibility !== 'auto') continue;
        const edge = section.getBoundingClientRect();
        for (const control of section.querySelectorAll('a[href], button, input, select, textarea, summary, [tabindex]')) {
          const box = control.getBoundingClientRect();
          if (box.width === 0 && box.height === 0) continue;
          if (box.left - ring < edge.left || box.right + ring > edge.right || box.top - ring < edge.top || box.bottom + ring > edge.bottom) {
            out.push(`${section.id}: ${control.outerHTML.slice(0, 80)}`);
          }
        }
      }
      return out;
    });
    assert.deepEqual(cramped, [], `${width} px: a focus ring would be cut off`);
  }
  assertNoProblems(problems);
  await context.close();
});

test('the lesson is accessible in light and dark themes', async () => {
  const { page, context, problems } = await openLesson();
  await axeCheck(page, { label: 'lesson (light)' });
  await page.emulateMedia({ colorScheme: 'dark' });
  await axeCheck(page, { label: 'lesson (dark)' });
  await page.getByLabel('Prefill ends (server ms)').fill('30');
  await axeCheck(page, { label: 'lesson with a field error (dark)' });
  await page.emulateMedia({ colorScheme: 'light' });
  await screenshot(page, 'lesson');
  assertNoProblems(problems);
  await context.close();
});
