//! e2e/lesson-build.test.mjs: the builds of the app with only some parts
//! (src/bin/*-part.rs, src/bin/simulate-host.rs; Cargo.toml's features)
//! and their hand-over to the next build (src/hand_over.rs), as a learner
//! meets them in headless Chromium against the release build. Each build
//! holds its own parts' code and none of the others' (checked in the built
//! files). Opened on its own, each part loads only the smallest build that
//! shows it, on the site or embedded; a learning system's frame and an
//! address the page cannot read load the full app. Leaving a part hands
//! the page over in place to the build of the part the learner moves to
//! (the full app once that build has run in the page): no reload, focus on
//! the new part, the part works, and the lesson's ticks are still there,
//! even in a browser that keeps nothing; the next build failing to arrive
//! says what to try; Back or a link followed while it arrives shows the
//! part the address names.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  assertNoProblems,
  axeCheck,
  DIST,
  launchBrowser,
  newPage,
  partUrl,
  refuseStorage,
  screenshot,
  startServer,
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

const buildWasm = (name) => new RegExp(`/${name}_bg\\.wasm$`);
const LESSON_WASM = buildWasm('lesson-part');
const FULL_WASM = /\/ttft-lab-[0-9a-f]+_bg\.wasm$/;

/**
 * A page that records the wasm files it asks for, in order. Service workers
 * are blocked: once the offline copy has fetched the full app, the page's
 * request for it would be answered from that cache, past the routes the
 * tests below hold or fail it with.
 */
async function recordingPage(options = {}) {
  const opened = await newPage(browser, server.origin, { serviceWorkers: 'block', ...options });
  const wasm = [];
  opened.page.on('request', (req) => {
    const path = new URL(req.url()).pathname;
    if (path.endsWith('.wasm')) wasm.push(path);
  });
  return { ...opened, wasm };
}

/** Every build of the app but the lesson's: where a hand-over from it goes. */
const NEXT_WASM = /\/((trace|choice|authored-trace|authored-choice|author|interview|import)-part|simulate-host|ttft-lab-[0-9a-f]+)_bg\.wasm$/;

/** Holds every build but the lesson's back until the returned function is called. */
async function holdNextBuilds(page) {
  let release;
  const gate = new Promise((ok) => { release = ok; });
  await page.route(NEXT_WASM, async (route) => {
    await gate;
    await route.continue();
  });
  return release;
}

const partsNav = (page) => page.getByRole('navigation', { name: 'Course parts' });
const checklist = (page) => page.getByRole('list', { name: 'Completion checklist' }).getByRole('checkbox');

// Each build of a few parts, the groups of parts it adds to the shell
// (index.html's start-up script and Cargo.toml's features), and the parts
// it starts for (an instructor's exercise, which is an address rather
// than a part, is in 'which build starts' below).
const BUILDS = [
  ['lesson-part', ['lesson'], ['lesson', 'timeline']],
  ['trace-part', ['trace'], ['trace']],
  ['choice-part', ['choice'], ['choice']],
  ['authored-trace-part', ['trace'], []],
  ['authored-choice-part', ['choice'], []],
  ['author-part', ['authoring'], ['author']],
  ['interview-part', ['interview'], ['interview']],
  ['import-part', ['import'], ['import']],
  ['simulate-host', ['simulate'], ['simulate']],
];
// A label each group alone shows.
const LABELS = {
  lesson: 'Study time: about',
  trace: 'Your diagnosis',
  choice: 'Evidence you would still want before committing',
  authoring: 'Start from the built-in exercise',
  interview: 'Save score',
  import: 'Choose a trace file',
  simulate: 'Loading the simulator',
};

test('each build of a few parts holds its own parts and none of the others', async () => {
  const names = await readdir(DIST);
  const full = names.find((n) => /^ttft-lab-[0-9a-f]+_bg\.wasm$/.test(n));
  assert.ok(full, 'the full app is in dist/');
  const app = await readFile(join(DIST, full));
  for (const label of Object.values(LABELS)) {
    assert.ok(app.includes(label), `the full app shows "${label}"`);
  }
  for (const [name, groups] of BUILDS) {
    const build = await readFile(join(DIST, `${name}_bg.wasm`));
    for (const [group, label] of Object.entries(LABELS)) {
      assert.equal(
        build.includes(label),
        groups.includes(group),
        `${name} ${groups.includes(group) ? 'lacks' : 'has'} "${label}", which the ${group} group shows`,
      );
    }
    assert.ok(build.length < app.length * 0.7, `${name} (${build.length} bytes) is under 70% of the full app's (${app.length})`);
  }
  const lesson = await readFile(join(DIST, 'lesson-part_bg.wasm'));
  assert.ok(lesson.length < app.length / 2, `the lesson's build (${lesson.length} bytes) is under half the full app's (${app.length})`);
});

describe('which build starts', () => {
  const ALL_BUILDS = [...BUILDS.map(([name]) => buildWasm(name)), FULL_WASM];
  const loadsOnly = (wasm, expected) => {
    assert.ok(wasm.some((p) => expected.test(p)), `${expected} (${wasm.join(', ')})`);
    for (const other of ALL_BUILDS.filter((b) => b.source !== expected.source)) {
      assert.ok(!wasm.some((p) => other.test(p)), `not ${other} (${wasm.join(', ')})`);
    }
  };
  for (const [name, , parts] of BUILDS) {
    for (const part of parts) {
      test(`?part=${part} on its own loads ${name} and no other build of the app`, async () => {
        const { page, context, problems, wasm } = await recordingPage();
        await page.goto(partUrl(server, part));
        await waitForApp(page);
        // The service worker's background download comes later and does not
        // count here; none is registered by then in a fresh context anyway.
        loadsOnly(wasm, buildWasm(name));
        assertNoProblems(problems);
        await context.close();
      });
    }
  }

  const elsewhere = [
    ['the lesson embedded in a course page', (s) => `${partUrl(s, 'lesson')}&embed=1`, LESSON_WASM],
    ['the trace exercise embedded', (s) => `${partUrl(s, 'trace')}&embed=1`, buildWasm('trace-part')],
    ['the configuration choice embedded', (s) => `${partUrl(s, 'choice')}&embed=1`, buildWasm('choice-part')],
    ['an instructor\'s trace exercise', (s) => `${s.url}?part=trace&src=review-bot.json`, buildWasm('authored-trace-part')],
    ['an instructor\'s configuration exercise, embedded', (s) => `${s.url}?part=choice&embed=1&content=e30`, buildWasm('authored-choice-part')],
    ['the lesson with a file named, which only the exercises read', (s) => `${partUrl(s, 'lesson')}&src=review-bot.json`, LESSON_WASM],
    ['a part the page does not know', (s) => `${s.url}?part=nowhere`, FULL_WASM],
  ];
  for (const [name, url, build] of elsewhere) {
    test(`${name} loads ${build === FULL_WASM ? 'the full app' : build}`, async () => {
      const { page, context, problems, wasm } = await recordingPage();
      await page.goto(url(server));
      await waitForApp(page);
      loadsOnly(wasm, build);
      assertNoProblems(problems);
      await context.close();
    });
  }

  // index.html's start-up script and the app read an address by the same
  // rule (an instructor's exercise needs a build with the file reader); should they
  // ever differ, the build that started hands the page to the full app
  // (src/hand_over.rs, serves_address) instead of showing the course's own
  // exercise in place of the instructor's.
  test("an instructor's exercise that starts the trace exercise's build anyway is handed to the full app", async () => {
    // The page's choice of build rerouted, as an older page or a wrong
    // guess might make it: "authored-trace" becomes "trace", both where the
    // start-up script sets it and where the loader asks again at a
    // hand-over (ttftBuildFor).
    const { page, context, problems, wasm } = await recordingPage();
    await page.addInitScript(() => {
      const set = Element.prototype.setAttribute;
      Element.prototype.setAttribute = function (name, value) {
        if (name === 'data-app-build' && value === 'authored-trace') {
          window.__rerouted = true;
          value = 'trace';
        }
        return set.call(this, name, value);
      };
      let buildFor;
      Object.defineProperty(window, 'ttftBuildFor', {
        configurable: true,
        get: () => buildFor && ((search) => (buildFor(search) === 'authored-trace' ? 'trace' : buildFor(search))),
        set: (f) => { buildFor = f; },
      });
    });
    await page.goto(`${server.url}?part=trace&src=review-bot.json`);
    assert.equal(await page.evaluate(() => window.__rerouted), true, "the page chose the instructor's exercise's build, rerouted");
    await waitForApp(page);
    await waitForText(page.getByRole('heading', { level: 1 }), 'Why is the review bot slow to start?');
    assert.ok(wasm.some((p) => buildWasm('trace-part').test(p)), `the trace exercise's build started (${wasm.join(', ')})`);
    assert.ok(wasm.some((p) => FULL_WASM.test(p)), `the full app took over (${wasm.join(', ')})`);
    assert.ok(!wasm.some((p) => buildWasm('authored-trace-part').test(p)), `not the instructor's exercise's build (${wasm.join(', ')})`);
    assertNoProblems(problems);
    await context.close();
  });

  // The lesson in a frame of a page of the same site: a course page, or a
  // learning system's player holding its SCORM API (only the full app
  // reports to one).
  for (const [name, api, build] of [
    ['a course page', '', LESSON_WASM],
    ['a learning system (SCORM 2004)', 'window.API_1484_11 = { Initialize: () => "true" };', FULL_WASM],
    ['a learning system (SCORM 1.2)', 'window.API = { LMSInitialize: () => "true" };', FULL_WASM],
  ]) {
    test(`the lesson inside ${name} loads ${build === FULL_WASM ? 'the full app' : "the lesson's build"}`, async () => {
      const { page, context, problems, wasm } = await recordingPage();
      const host = `${server.url}frame-host.html`;
      await page.route(host, (route) =>
        route.fulfill({
          contentType: 'text/html',
          body: `<!doctype html><title>Course</title><script>${api}</script><iframe title="ttft-lab" src="./?part=lesson" width="800" height="600"></iframe>`,
        }),
      );
      await page.goto(host);
      await page.frameLocator('iframe[title="ttft-lab"]').getByRole('heading', { level: 1 }).first().waitFor();
      await page.waitForFunction(() => document.querySelector('iframe')?.contentDocument?.documentElement.hasAttribute('data-ready'));
      const other = build === FULL_WASM ? LESSON_WASM : FULL_WASM;
      assert.ok(wasm.some((p) => build.test(p)), `${build} (${wasm.join(', ')})`);
      assert.ok(!wasm.some((p) => other.test(p)), `not ${other} (${wasm.join(', ')})`);
      // The stand-in API answers nothing but Initialize; the full app says
      // so in the console, which is all that is expected of it here.
      assertNoProblems(problems, { allow: [/console error/] });
      await context.close();
    });
  }
});

describe('leaving the lesson', () => {
  test("hands the page to the part's own build in place: no reload, focus on the part, the part works, the ticks stay", async () => {
    const { page, context, problems, wasm } = await recordingPage({ width: 360, height: 780 });
    await page.goto(partUrl(server, 'lesson'));
    await waitForApp(page);
    await checklist(page).first().check();
    await page.evaluate(() => { window.__samePage = true; });

    await partsNav(page).getByRole('link', { name: 'Trace exercise' }).click();
    await page.waitForURL(/\?part=trace$/);
    assert.equal(await page.title(), 'Trace exercise · ttft-lab', 'the title changes at once');
    // The part reads at once, from its first view, while its build arrives.
    await page.getByRole('heading', { level: 1, name: /hint requests/i }).waitFor();
    await waitForApp(page);
    assert.equal(await page.evaluate(() => window.__samePage), true, 'no reload');
    assert.ok(wasm.some((p) => buildWasm('trace-part').test(p)), `the trace exercise's build came (${wasm.join(', ')})`);
    assert.ok(!wasm.some((p) => FULL_WASM.test(p)), 'not the full app');
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'main', 'focus is on the part');
    assert.equal(await page.locator('main').count(), 1, "one <main>: the lesson's build left nothing behind");

    await page.getByRole('button', { name: 'Check answers' }).click();
    await waitForText(page.getByRole('status', { name: 'Result of your check' }), /^Check 1:/);
    await axeCheck(page, { label: 'the trace exercise after the hand-over' });
    await screenshot(page, 'lesson-build-handed-over');

    // Back to the lesson, whose build has run in this page already: the
    // full app comes, and the tick is there.
    await partsNav(page).getByRole('link', { name: 'Lesson' }).click();
    await page.waitForURL(/\?part=lesson$/);
    await waitForApp(page);
    assert.ok(wasm.some((p) => FULL_WASM.test(p)), `the full app came (${wasm.join(', ')})`);
    assert.equal(await checklist(page).first().isChecked(), true, 'the tick made in the lesson build');
    assert.equal(await page.evaluate(() => window.__samePage), true, 'still no reload');
    assertNoProblems(problems);
    await context.close();
  });

  test("from the trace exercise's build too: each part's build comes once, then the full app", async () => {
    const { page, context, problems, wasm } = await recordingPage();
    await page.goto(partUrl(server, 'trace'));
    await waitForApp(page);
    assert.ok(wasm.some((p) => buildWasm('trace-part').test(p)), `the trace exercise's build (${wasm.join(', ')})`);
    await page.getByRole('button', { name: 'Check answers' }).click();
    await waitForText(page.getByRole('status', { name: 'Result of your check' }), /^Check 1:/);
    await page.evaluate(() => { window.__samePage = true; });

    // The choice exercise is not in the trace exercise's build: its own build takes over, in place.
    await partsNav(page).getByRole('link', { name: 'Configuration choice' }).click();
    await page.waitForURL(/\?part=choice$/);
    await page.getByRole('button', { name: 'Check answers for Live' }).waitFor();
    await waitForApp(page);
    assert.ok(wasm.some((p) => buildWasm('choice-part').test(p)), `the choice's build came (${wasm.join(', ')})`);
    assert.ok(!wasm.some((p) => FULL_WASM.test(p)), 'not the full app');
    assert.equal(await page.evaluate(() => window.__samePage), true, 'no reload');
    assert.equal(await page.locator('main').count(), 1, "one <main>: the trace exercise's build left nothing behind");
    await page.getByRole('button', { name: 'Check answers for Live' }).click();

    // Back to the trace exercise, whose build has run here already: the
    // full app takes over, and the check made in the trace's own build is there.
    await partsNav(page).getByRole('link', { name: 'Trace exercise' }).click();
    await page.waitForURL(/\?part=trace$/);
    await waitForApp(page);
    assert.ok(wasm.some((p) => FULL_WASM.test(p)), `the full app came (${wasm.join(', ')})`);
    await waitForText(page.getByRole('status', { name: 'Result of your check' }), /^Check 1:/);
    assert.equal(await page.locator('main').count(), 1, 'one <main> after two hand-overs');

    // From then on every part is in the page: no other build of the app
    // (the trace reader's own worker wasm may come).
    const apps = () => wasm.filter((p) => !/worker/.test(p)).length;
    const before = apps();
    await partsNav(page).getByRole('link', { name: 'Import a trace' }).click();
    await page.waitForURL(/\?part=import$/);
    await page.getByLabel('Choose a trace file').waitFor({ state: 'attached' });
    await partsNav(page).getByRole('link', { name: 'Configuration choice' }).click();
    await page.getByRole('button', { name: 'Check answers for Live' }).waitFor();
    assert.equal(apps(), before, `no other build (${wasm.join(', ')})`);
    assert.equal(await page.evaluate(() => window.__samePage), true, 'still no reload');
    assertNoProblems(problems);
    await context.close();
  });

  test("the lesson is not in the other parts' builds: from the interview's, it reads at once and the lesson's build takes it over", async () => {
    const { page, context, problems, wasm } = await recordingPage({ width: 360, height: 780 });
    await page.goto(partUrl(server, 'interview'));
    await waitForApp(page);
    assert.ok(wasm.some((p) => buildWasm('interview-part').test(p)), `the interview's build (${wasm.join(', ')})`);
    assert.ok(!wasm.some((p) => FULL_WASM.test(p)), 'not the full app yet');
    await page.evaluate(() => { window.__samePage = true; });

    await partsNav(page).getByRole('link', { name: 'Lesson' }).click();
    await page.waitForURL(/\?part=lesson$/);
    // The lesson's words are in the page at once: its first view.
    await page.getByRole('heading', { level: 2, name: 'Contents' }).waitFor();
    await waitForApp(page);
    assert.ok(wasm.some((p) => LESSON_WASM.test(p)), `the lesson's build came (${wasm.join(', ')})`);
    assert.ok(!wasm.some((p) => FULL_WASM.test(p)), 'not the full app');
    assert.equal(await page.evaluate(() => window.__samePage), true, 'no reload');
    assert.equal(await page.locator('main').count(), 1, "one <main>: the interview's build left nothing behind");
    await checklist(page).first().check();
    assert.equal(await checklist(page).first().isChecked(), true, 'the checklist works');
    assertNoProblems(problems);
    await context.close();
  });

  test("leaving the simulate part's own build ends the simulator's engine, which would otherwise run on unseen", async () => {
    const { page, context, problems, wasm } = await recordingPage();
    const engine = new Promise((found) => page.on('worker', (w) => { if (/worker-loader\.js/.test(w.url())) found(w); }));
    await page.goto(partUrl(server, 'simulate'));
    await waitForApp(page);
    await page.getByRole('button', { name: 'Run as A', exact: true }).waitFor({ timeout: 60000 });
    assert.ok(wasm.some((p) => buildWasm('simulate-host').test(p)), `the simulate part's build (${wasm.join(', ')})`);
    const worker = await engine;
    const ended = new Promise((done) => worker.on('close', () => done(true)));
    await partsNav(page).getByRole('link', { name: 'Trace exercise' }).click();
    await page.waitForURL(/\?part=trace$/);
    await waitForApp(page);
    assert.equal(await Promise.race([ended, new Promise((r) => setTimeout(() => r(false), 5000))]), true, 'the engine ended');
    await page.getByRole('button', { name: 'Check answers' }).click();
    await waitForText(page.getByRole('status', { name: 'Result of your check' }), /^Check 1:/);
    assertNoProblems(problems);
    await context.close();
  });

  test('in a browser that keeps nothing, the ticks made in the lesson come along', async () => {
    const { page, context, problems } = await recordingPage({ width: 360, height: 780 });
    await page.addInitScript(refuseStorage);
    await page.goto(partUrl(server, 'lesson'));
    await waitForApp(page);
    await checklist(page).nth(1).check();
    await partsNav(page).getByRole('link', { name: 'Interview question' }).click();
    await page.waitForURL(/\?part=interview$/);
    await waitForApp(page);
    await waitForText(page.getByRole('status', { name: 'Saved work' }), /not letting the page save anything/);
    await partsNav(page).getByRole('link', { name: 'Lesson' }).click();
    await page.waitForURL(/\?part=lesson$/);
    // The lesson's first view shows at once, unticked (it cannot know);
    // the lesson's build then shows what the page kept.
    await waitForApp(page);
    assert.equal(await checklist(page).nth(1).isChecked(), true, 'kept in memory across the hand-over');
    assertNoProblems(problems);
    await context.close();
  });

  test('when the next build cannot load (nor the full app, its stand-in), the page says so and what to try, and Reload brings it', async () => {
    const { page, context, problems } = await recordingPage({ width: 360, height: 780 });
    await page.route(NEXT_WASM, (route) => route.fulfill({ status: 404, contentType: 'text/plain', body: 'not found' }));
    await page.goto(partUrl(server, 'lesson'));
    await waitForApp(page);
    await partsNav(page).getByRole('link', { name: 'Trace exercise' }).click();
    const alert = page.getByRole('alert').filter({ hasText: /could not load its program files/ });
    await alert.waitFor();
    assert.match(await alert.innerText(), /Try reloading the page/);
    // The part still reads, from its first view.
    await page.getByRole('heading', { level: 1, name: /hint requests/i }).waitFor();
    await screenshot(page, 'lesson-build-full-app-failed');
    // Once the file is there again, the alert's button opens the part.
    await page.unroute(NEXT_WASM);
    await alert.getByRole('button', { name: 'Reload the page' }).click();
    await waitForApp(page);
    assert.match(page.url(), /\?part=trace$/);
    await page.getByRole('button', { name: 'Check answers' }).waitFor();
    // The loader's error is what the start-up watch turns into the alert.
    assertNoProblems(problems, {
      allow: [/HTTP 404 for .*_bg\.wasm/, /Failed to load resource: .*404.*_bg\.wasm/, /uncaught exception: ttft-lab could not load its program file \(HTTP 404\)/],
    });
    await context.close();
  });

  test('a link followed while the next build arrives moves in place, keeping what the page holds', async () => {
    const { page, context, problems, wasm } = await recordingPage({ width: 360, height: 780 });
    await page.addInitScript(refuseStorage);
    const release = await holdNextBuilds(page);
    await page.goto(partUrl(server, 'lesson'));
    await waitForApp(page);
    await checklist(page).first().check();
    await page.evaluate(() => { window.__samePage = true; });
    await partsNav(page).getByRole('link', { name: 'Trace exercise' }).click();
    await page.waitForURL(/\?part=trace$/);
    // Still the trace part's first view: its links are plain links.
    await partsNav(page).getByRole('link', { name: 'Interview question' }).click();
    await page.waitForURL(/\?part=interview$/);
    assert.equal(await page.title(), 'Interview question · ttft-lab');
    assert.equal(await page.locator('#first-view').getAttribute('data-part'), 'interview');
    release();
    // The trace exercise's build arrives, finds the address names the
    // interview, and hands the page on to the interview's build.
    await waitForApp(page);
    assert.equal(await page.evaluate(() => window.__samePage), true, 'no reload');
    await page.getByLabel('Write your answer as you would say it').waitFor();
    assert.ok(wasm.some((p) => buildWasm('interview-part').test(p)), `the interview's build came (${wasm.join(', ')})`);
    await partsNav(page).getByRole('link', { name: 'Lesson' }).click();
    await page.waitForURL(/\?part=lesson$/);
    await waitForApp(page);
    assert.equal(await checklist(page).first().isChecked(), true, 'the tick kept in memory came along, through three builds');
    assertNoProblems(problems);
    await context.close();
  });

  /**
   * The lesson in its own build, a move to `link`'s part (whose build is
   * held back), then Back: the page shows the lesson's first view again
   * until the builds are released.
   */
  async function backWhileHandingOver(link, part) {
    const opened = await recordingPage({ width: 360, height: 780 });
    const { page } = opened;
    const release = await holdNextBuilds(page);
    await page.goto(partUrl(server, 'lesson'));
    await waitForApp(page);
    await partsNav(page).getByRole('link', { name: link }).click();
    await page.waitForURL(new RegExp(`\\?part=${part}$`));
    await page.goBack();
    await page.waitForURL(/\?part=lesson$/);
    return { ...opened, release };
  }

  test('Back while the next build arrives shows the part the address names', async () => {
    const { page, context, problems, release } = await backWhileHandingOver('Configuration choice', 'choice');
    assert.equal(await page.title(), 'Lesson · ttft-lab');
    // The lesson's own first view, fetched again, until its build arrives.
    await page.locator('#first-view[data-part="lesson"]').waitFor();
    assert.equal(await page.locator('#first-view').count(), 1, "not the configuration choice's view too");
    release();
    await waitForApp(page);
    await page.getByLabel('Prefill ends (server ms)').waitFor();
    assert.equal(new URL(page.url()).searchParams.get('part'), 'lesson');
    assertNoProblems(problems);
    await context.close();
  });

  test('after Back, a #section link in the first view keeps the view and what was typed in it', async () => {
    const { page, context, problems, release } = await backWhileHandingOver('Trace exercise', 'trace');
    await page.locator('#first-view[data-part="lesson"]').waitFor();
    const admitted = page.getByLabel('Admitted by the scheduler (server ms)');
    await admitted.fill('41');
    await page.evaluate(() => { document.getElementById('first-view').dataset.marked = 'yes'; });
    // A contents link is an ordinary #anchor, which fires popstate too.
    await page.getByRole('navigation', { name: 'Contents' }).getByRole('link').first().click();
    await page.waitForURL(/#/);
    assert.equal(await page.locator('#first-view').getAttribute('data-marked'), 'yes', 'the same view, not a fresh copy');
    assert.equal(await admitted.inputValue(), '41');
    release();
    await waitForApp(page);
    assert.equal(await page.locator('#first-view').count(), 0, 'the app has taken over');
    // The app is given it in the task after it takes over.
    await page.waitForFunction(() => document.getElementById('wt-admitted')?.value === '41', null, { timeout: 5000 }).catch(() => {});
    assert.equal(await admitted.inputValue(), '41', 'the app was given what was typed');
    assertNoProblems(problems);
    await context.close();
  });
});
