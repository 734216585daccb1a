//! e2e/offline.test.mjs: ttft-lab opens again with no network and installs
//! like an app, in headless Chromium against the release build. Checked:
//! dist/sw.js lists exactly the built files (no .gz/.br copy) under a
//! version made from them; the worker registers only once the first part
//! is interactive; offline (the browser set offline and the server gone),
//! every part reloads and works with the learner's saved work; an
//! on-demand file fetched online works offline, and one never fetched
//! makes the page say once that the part needs a connection; a new build
//! published over the old one is offered with Reload and never reloads a
//! page by itself, not even one where the learner is typing; Chromium
//! finds the page installable; embedded in another site, the page works as
//! before and registers nothing; the AI second opinion says it is offline
//! before the learner tries to send. axe is clean on every new notice.
//!
//! On-demand parts are simulated: the tests add two Web Worker scripts to a
//! copy of the build, large enough that the release would not precache
//! them, and write its service worker again (scripts/service-worker.mjs).

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DIST,
  ROOT,
  assertNoProblems,
  axeCheck,
  description,
  launchBrowser,
  launchProfile,
  newPage,
  openSecondOpinion,
  partUrl,
  screenshot,
  startPages,
  startServer,
  waitForApp,
  waitForText,
  traceReaderReady,
} from './support.mjs';
import { SMALL_FILE, planFor, writeServiceWorker } from '../scripts/service-worker.mjs';

const OPENED = 'parts/opened-1a2b3c4d5e6f7081.js';
const NEVER = 'parts/never-8f7e6d5c4b3a2910.js';
const ANSWER = 'Queue wait first: the trace shows the request waited for a free slot before prefill began.';
const EXAMPLE = join(ROOT, 'content', 'samples', 'course-trace.otlp.jsonl');

let browser;
let work;
/** A copy of the release with two on-demand parts, and a later build of it. */
let buildA;
let buildB;

/** A worker script past the precache size that says `name` when it runs. */
const workerScript = (name) => `self.postMessage(${JSON.stringify(`ready:${name}`)});\n//${'-'.repeat(SMALL_FILE + 1024)}\n`;

/**
 * Writes `dir`'s service worker again, and drops the .gz/.br copies of the
 * files that changed (the server then sends those as they are; compressing
 * the whole build again would only slow the test).
 */
async function finish(dir, changed) {
  await writeServiceWorker(dir);
  for (const file of ['index.html', 'sw.js', ...changed]) {
    for (const suffix of ['.gz', '.br']) await rm(join(dir, file + suffix), { force: true });
  }
}

before(async () => {
  browser = await launchBrowser();
  work = await mkdtemp(join(tmpdir(), 'ttft-offline-'));
  buildA = join(work, 'a');
  buildB = join(work, 'b');
  await cp(DIST, buildA, { recursive: true });
  await mkdir(join(buildA, 'parts'));
  await writeFile(join(buildA, OPENED), workerScript('opened'));
  await writeFile(join(buildA, NEVER), workerScript('never'));
  await finish(buildA, []);
  // The next build: one shipped file changed, so a new version.
  await cp(buildA, buildB, { recursive: true });
  await appendFile(join(buildB, 'ttft-lab-resizer.js'), '// build 2\n');
  await finish(buildB, ['ttft-lab-resizer.js']);
});

after(async () => {
  await browser?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

/** Opens `part`, then waits until the service worker controls the page. */
async function openControlled(server, part, options = {}) {
  const opened = await newPage(browser, server.origin, options);
  await opened.page.goto(partUrl(server, part));
  await waitForApp(opened.page);
  await opened.page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 20000 });
  return opened;
}

/** Starts a worker script on the page; resolves to what it said, or 'failed'. */
const startWorker = (page, path) =>
  page.evaluate(
    (p) =>
      new Promise((ok) => {
        const w = new Worker(p);
        w.onmessage = (e) => ok(e.data);
        w.onerror = (e) => {
          e.preventDefault();
          ok('failed');
        };
      }),
    path,
  );

const appStatus = (page) => page.getByRole('status', { name: 'App version and connection' });
const checklist = (page) => page.getByRole('list', { name: 'Completion checklist' }).getByRole('checkbox');
const partsNavLink = (page, name) => page.getByRole('navigation', { name: 'Course parts' }).getByRole('link', { name });
const liveChoice = (page) =>
  page.getByRole('region', { name: 'Live interview hints', exact: true }).getByRole('group', { name: 'Configuration for Live interview hints' });

test("dist/sw.js lists exactly the built files, none of the .gz/.br copies, under a version made from them", async () => {
  const text = await readFile(join(DIST, 'sw.js'), 'utf8');
  const build = JSON.parse(/^const BUILD = (.*);$/m.exec(text)[1]);
  assert.deepEqual(build, await planFor(DIST), 'sw.js was written from the files as released');
  assert.match(build.version, /^[0-9a-f]{16}$/);
  const html = await readFile(join(DIST, 'index.html'), 'utf8');
  const precached = build.precache.map(([path]) => path);
  for (const path of ['index.html', 'manifest.webmanifest', 'icons/icon-192.png', 'icons/icon-512.png', 'icons/icon-maskable-512.png', 'ttft-lab-resizer.js']) {
    assert.ok(precached.includes(path), `${path} is precached`);
  }
  // An attribute (after a space) or a script's property (after a dot); not
  // a script's string that ends in "src=", as a query being built does.
  for (const m of html.matchAll(/[\s.](?:src|href)="\.?\/?([^"?#:]+)"/g)) {
    assert.ok(precached.includes(m[1]), `${m[1]}, named by the page, is precached`);
  }
  for (const [path] of [...build.precache, ...build.onDemand]) assert.doesNotMatch(path, /\.(gz|br)$|^sw\.js$/);
  assert.match(html, /<meta name="ttft-lab-service-worker" content="sw\.js">/);
  // The copy with two large worker scripts keeps them for when they are opened.
  const plan = await planFor(buildA);
  // The import part's worker wasm is over the precache size too: it is
  // kept once the import part has been opened. So are the builds of a few
  // parts that the page does not name (Trunk.toml's loader names only the
  // lesson's); their JS glue goes by its size, near the line.
  const builds = /^((trace|choice|authored-trace|authored-choice|author|interview|import)-part|simulate-host)\.js$/;
  assert.deepEqual(plan.onDemand.map(([p]) => p).filter((p) => !builds.test(p)).sort(), [
    NEVER, OPENED, 'import-worker_bg.wasm', 'sim-worker_bg.wasm', 'simulate-part_bg.wasm', 'second-opinion-part_bg.wasm', 'embed-panel-part_bg.wasm', 'author-preview-part_bg.wasm',
    'trace-part_bg.wasm', 'choice-part_bg.wasm', 'authored-trace-part_bg.wasm', 'authored-choice-part_bg.wasm', 'author-part_bg.wasm', 'interview-part_bg.wasm', 'import-part_bg.wasm',
    'simulate-host_bg.wasm',
  ].sort());
  assert.notEqual((await planFor(buildB)).version, plan.version, 'a changed file is a new version');
});

test('the service worker registers only once the first part is interactive', async () => {
  const server = await startServer({ root: buildA });
  const { page, context, problems } = await newPage(browser, server.origin);
  await page.addInitScript(() => {
    window.registrations = [];
    const register = ServiceWorkerContainer.prototype.register;
    ServiceWorkerContainer.prototype.register = function (...args) {
      window.registrations.push({
        script: String(args[0]),
        interactive: document.documentElement.hasAttribute('data-ready') && !document.getElementById('boot'),
        loaded: document.readyState === 'complete',
      });
      return register.apply(this, args);
    };
  });
  const workerRequests = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/sw.js')) workerRequests.push(r.url());
  });
  await page.goto(partUrl(server, 'lesson'));
  await waitForApp(page);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 20000 });
  assert.deepEqual(await page.evaluate(() => window.registrations), [{ script: 'sw.js', interactive: true, loaded: true }]);
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.getRegistration()).scope);
  assert.equal(scope, server.url, 'the scope is the folder the app is served from, nothing above it');
  assert.equal((await appStatus(page).innerText()).trim(), '', 'a first visit is nothing to announce');
  assertNoProblems(problems);
  await context.close();
  await server.close();
});

test("offline, every part reloads and works with the learner's saved work; an opened on-demand part works, a never-opened one needs a connection", async () => {
  const server = await startServer({ root: buildA });
  const { page, context, problems } = await openControlled(server, 'lesson');
  // Work saved online, one piece in each part that keeps any.
  await checklist(page).nth(0).check();
  await page.goto(partUrl(server, 'trace'));
  await waitForApp(page);
  await page.getByLabel('H2: Its share of TTFT (%)').fill('96.9');
  await page.goto(partUrl(server, 'choice'));
  await waitForApp(page);
  await liveChoice(page).getByLabel('Config A').check();
  await page.goto(partUrl(server, 'interview'));
  await waitForApp(page);
  await page.getByLabel('Write your answer as you would say it').fill(ANSWER);
  // The authoring page and an instructor's trace exercise opened online:
  // their builds are kept from then on.
  await page.goto(partUrl(server, 'author'));
  await waitForApp(page);
  await page.goto(`${partUrl(server, 'trace')}&src=review-bot.json`);
  await waitForApp(page);
  await page.locator('aside.authored-source').waitFor();
  // The import part opened online: its trace reader (an on-demand worker)
  // is fetched now, and so kept for offline use.
  await page.goto(partUrl(server, 'import'));
  await waitForApp(page);
  await traceReaderReady(page);
  // An on-demand part opened online.
  assert.equal(await startWorker(page, OPENED), 'ready:opened');

  // No network: the browser says so, and the server is gone too.
  await context.setOffline(true);
  await server.close();

  await page.goto(partUrl(server, 'lesson'));
  await waitForApp(page);
  assert.ok(await checklist(page).nth(0).isChecked(), 'lesson: the ticked box is still ticked');
  await page.goto(partUrl(server, 'trace'));
  await waitForApp(page);
  assert.equal(await page.getByLabel('H2: Its share of TTFT (%)').inputValue(), '96.9', 'trace: the answer is there');
  await page.getByRole('button', { name: 'Check answers' }).click();
  await page.getByText('Checked once.').first().waitFor();
  await page.goto(partUrl(server, 'choice'));
  await waitForApp(page);
  assert.ok(await liveChoice(page).getByLabel('Config A').isChecked(), 'choice: Config A is still chosen');
  await page.goto(partUrl(server, 'interview'));
  await waitForApp(page);
  assert.equal(await page.getByLabel('Write your answer as you would say it').inputValue(), ANSWER, 'interview: the answer is there');
  await page.goto(partUrl(server, 'timeline'));
  await waitForApp(page);
  await page.getByLabel('Prefill ends (server ms)').fill('1250');
  await page.goto(`${partUrl(server, 'trace')}&src=review-bot.json`);
  await waitForApp(page);
  await page.locator('aside.authored-source').waitFor();
  await page.goto(partUrl(server, 'author'));
  await waitForApp(page);
  assert.equal(await page.getByRole('heading', { level: 1 }).innerText(), 'Author an exercise');
  await page.goto(partUrl(server, 'import'));
  await waitForApp(page);
  await (await traceReaderReady(page)).setInputFiles(EXAMPLE);
  await page.getByRole('status').filter({ hasText: /Imported/ }).waitFor({ timeout: 20000 });
  assert.equal((await appStatus(page).innerText()).trim(), '', 'nothing needed the network so far');

  // The on-demand part opened online still works; the other one says it needs a connection, once.
  assert.equal(await startWorker(page, OPENED), 'ready:opened');
  assert.equal(await startWorker(page, NEVER), 'failed');
  const text = await waitForText(appStatus(page), /needs a connection/);
  assert.match(text, /^Import a trace needs a connection the first time: it loads files that have not been opened online on this device/);
  assert.equal(await startWorker(page, NEVER), 'failed');
  assert.equal(await appStatus(page).getByText(/needs a connection/).count(), 1, 'said once');
  await axeCheck(page, { label: 'offline, a part that needs a connection' });
  await screenshot(page, 'offline-needs-connection');
  await appStatus(page).getByRole('button', { name: 'Dismiss' }).click();
  assert.equal((await appStatus(page).innerText()).trim(), '');

  // Only the never-opened file failed, and only as provoked.
  assertNoProblems(problems, {
    allow: [
      new RegExp(`request failed: .*${NEVER} \\(net::ERR_FAILED\\)`),
      new RegExp(`HTTP 503 for .*${NEVER}`),
      /console error: Failed to load resource: .*503/,
    ],
  });
  await context.close();
});

test("offline, a part whose own build was never opened online opens in the full app, which the offline copy always keeps", async () => {
  const server = await startServer({ root: buildA });
  const { page, context, problems } = await openControlled(server, 'lesson');
  await checklist(page).nth(0).check();
  await context.setOffline(true);
  await server.close();

  await page.goto(partUrl(server, 'choice'));
  await waitForApp(page);
  await liveChoice(page).getByLabel('Config A').check();
  const wasm = await page.evaluate(() =>
    performance.getEntriesByType('resource').map((r) => new URL(r.name).pathname).filter((p) => p.endsWith('.wasm')));
  assert.ok(wasm.some((p) => /\/ttft-lab-[0-9a-f]+_bg\.wasm$/.test(p)), `the full app started (${wasm.join(', ')})`);
  await partsNavLink(page, 'Lesson').click();
  assert.ok(await checklist(page).nth(0).isChecked(), 'the tick made online is there');
  // The choice exercise's own build was asked for and could not come; nothing else failed.
  assertNoProblems(problems, {
    allow: [
      /request failed: .*\/choice-part(_bg\.wasm|\.js) \(net::ERR_(FAILED|ABORTED)\)/,
      /HTTP 503 for .*choice-part/,
      /console error: Failed to load resource: .*503/,
    ],
  });
  await context.close();
});

test('a new build published over the old one is offered with Reload, and no page reloads by itself', async () => {
  const server = await startServer({ root: buildA });
  const { page, context, problems } = await openControlled(server, 'interview');
  const box = page.getByLabel('Write your answer as you would say it');
  await box.click();
  await page.keyboard.type('Queue wait ');
  await page.evaluate(() => {
    window.sameDocument = true;
  });

  // The host publishes the next build; the learner opens the course in another tab.
  await server.serveFrom(buildB);
  const other = await context.newPage();
  await other.goto(partUrl(server, 'lesson'));
  await waitForApp(other);
  await other.evaluate(() => {
    window.sameDocument = true;
  });

  const offer = /^A new version of ttft-lab is ready\. Reload to use it; your saved work stays in this browser\./;
  await waitForText(appStatus(page), offer, { timeout: 20000 });
  await page.keyboard.type('dominates.');
  assert.equal(await box.inputValue(), 'Queue wait dominates.', 'typing went on undisturbed');
  assert.ok(await page.evaluate(() => window.sameDocument === true), 'the page did not reload');
  assert.ok(await box.evaluate((el) => el === document.activeElement), 'focus stayed in the answer');
  // Another check for updates finds the same version: nothing more to say.
  await page.evaluate(async () => (await navigator.serviceWorker.getRegistration()).update());
  assert.equal(await appStatus(page).getByRole('button', { name: 'Reload now' }).count(), 1, 'offered once');
  await axeCheck(page, { label: 'a new version offered' });
  await screenshot(page, 'offline-update-offered');

  await page.getByRole('button', { name: 'Reload now' }).click();
  await page.waitForFunction(() => window.sameDocument !== true, null, { timeout: 20000 });
  await waitForApp(page);
  assert.equal(await box.inputValue(), 'Queue wait dominates.', 'the answer was saved and is back');
  assert.equal((await appStatus(page).innerText()).trim(), '', 'the new version says nothing more');
  assert.match(await page.evaluate(() => fetch('ttft-lab-resizer.js').then((r) => r.text())), /\/\/ build 2\n$/);
  const caches = await page.evaluate(() => caches.keys());
  assert.equal(caches.filter((name) => / app /.test(name)).length, 1, `one version's cache is left: ${caches.join(', ')}`);

  // The other tab was not reloaded either: it offers the reload too.
  await waitForText(appStatus(other), offer);
  assert.ok(await other.evaluate(() => window.sameDocument === true), 'the other tab did not reload');
  // Not now: the offer goes for this visit, and keyboard focus goes on from the page.
  await appStatus(other).getByRole('button', { name: 'Not now' }).click();
  assert.equal((await appStatus(other).innerText()).trim(), '');
  assert.equal(await other.evaluate(() => document.activeElement?.id), 'main');
  assertNoProblems(problems);
  await context.close();
  await server.close();
});

test('Chromium finds the page installable: a complete manifest with every icon it names', async () => {
  const server = await startServer();
  // Chromium never offers to install from incognito, which is what every
  // other test's context is: this one has an ordinary profile.
  const profile = join(work, 'profile');
  const context = await launchProfile(profile);
  const page = context.pages()[0] ?? (await context.newPage());
  const problems = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(`console error: ${m.text()}`));
  page.on('response', (r) => r.status() >= 400 && problems.push(`HTTP ${r.status()} for ${r.url()}`));
  await page.goto(partUrl(server, 'lesson'));
  await waitForApp(page);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 20000 });
  const cdp = await context.newCDPSession(page);
  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
  assert.deepEqual(installabilityErrors, []);
  const { errors, url } = await cdp.send('Page.getAppManifest');
  assert.deepEqual(errors, []);
  assert.equal(url, `${server.url}manifest.webmanifest`);
  const manifest = JSON.parse(await readFile(join(DIST, 'manifest.webmanifest'), 'utf8'));
  assert.equal(manifest.short_name, 'ttft-lab');
  assert.match(manifest.description, /time to first token/);
  for (const field of ['start_url', 'scope', 'id']) assert.equal(manifest[field], './', `${field} is relative`);
  assert.equal(manifest.display, 'standalone');
  const sizes = [];
  for (const icon of manifest.icons) {
    const png = await readFile(join(DIST, icon.src));
    const [w, h] = [png.readUInt32BE(16), png.readUInt32BE(20)];
    assert.equal(`${w}x${h}`, icon.sizes, `${icon.src} is as big as the manifest says`);
    sizes.push(`${icon.sizes} ${icon.purpose}`);
  }
  assert.deepEqual(sizes, ['192x192 any', '512x512 any', '512x512 maskable']);
  assertNoProblems(problems);
  await context.close();
  await server.close();
});

test('embedded in another site, the page works as before and registers no service worker', async () => {
  const server = await startServer({ root: buildA });
  // The learner has used the course itself before, so its own worker exists.
  const { page, context, problems } = await openControlled(server, 'lesson');
  // Another site: "localhost" is not the site "127.0.0.1", so the browser
  // keeps the iframe's storage and workers apart from the course's own.
  const pages = await startPages({
    '/course.html': {
      type: 'text/html; charset=utf-8',
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Course page</title><link rel="icon" href="data:,"></head>
<body><h1>Week 3</h1><iframe title="ttft-lab exercise" src="${server.url}?part=trace&amp;embed=1" style="border:0;width:100%;height:900px"></iframe></body></html>`,
    },
  });
  const workerScripts = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/sw.js')) workerScripts.push(r.url());
  });
  const host = pages.origin.replace('127.0.0.1', 'localhost');
  await page.goto(`${host}/course.html`);
  const frame = await (await page.getByTitle('ttft-lab exercise').elementHandle()).contentFrame();
  await waitForApp(frame);
  await frame.getByLabel('H2: Its share of TTFT (%)').fill('96.9');
  await frame.getByRole('button', { name: 'Check answers' }).click();
  await frame.getByText('Checked once.').first().waitFor();
  assert.equal(await frame.evaluate(() => navigator.serviceWorker.controller), null, 'the embed is not run by a worker');
  // Inside another site the browser keeps none, or (here, blocking
  // third-party storage) refuses workers outright.
  const registered = await frame.evaluate(async () => {
    try {
      return (await navigator.serviceWorker.getRegistrations()).length;
    } catch (err) {
      return `refused (${err.name})`;
    }
  });
  assert.ok(registered === 0 || /^refused/.test(registered), `nor registers one: ${registered}`);
  assert.equal(await page.evaluate(() => navigator.serviceWorker.controller), null, 'the host page is untouched');
  assert.equal(await frame.getByRole('status', { name: 'App version and connection' }).count(), 0);
  assert.deepEqual(workerScripts, []);
  // The page was opened for the app's origin; the course site's own page is expected too.
  assertNoProblems(problems.filter((p) => !(p.startsWith('request to another origin:') && p.includes(`${host}/`))));
  await context.close();
  await pages.close();
  await server.close();
});

test('the AI second opinion says it is offline before the learner tries to send', async () => {
  const server = await startServer({ root: buildA });
  const { page, context, problems } = await openControlled(server, 'interview', { width: 360 });
  await page.getByLabel('Write your answer as you would say it').fill(ANSWER);
  await openSecondOpinion(page);
  const connection = page.getByRole('status', { name: 'Connection', exact: true });
  assert.equal((await connection.innerText()).trim(), '');
  await context.setOffline(true);
  await waitForText(connection, /^You are offline\. The second opinion sends your answer to your AI provider, so it needs a connection/);
  const send = page.getByRole('button', { name: 'Send for a second opinion' });
  assert.ok(await send.isDisabled(), 'Send waits');
  assert.equal(await description(send), 'You are offline: connect to the network to send.');
  await axeCheck(page, { label: 'second opinion, offline' });
  await screenshot(page, 'offline-second-opinion');
  await context.setOffline(false);
  await waitForText(connection, '');
  assert.notEqual(await description(send), 'You are offline: connect to the network to send.');
  assertNoProblems(problems);
  await context.close();
  await server.close();
});
