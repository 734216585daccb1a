//! e2e/security.test.mjs: defence in depth, in headless Chromium against
//! the release build. Checked: the released page carries a
//! Content-Security-Policy whose hashes match its inline script and styles,
//! the browser enforces it, and every part (on the site and embedded) runs
//! under it with no violation and no console error; the AI call sends no
//! referrer and does not follow a redirect; a key entered for one address
//! is not sent to another, and is asked for again; a reply past 64 KiB and
//! an endless error body are stopped; an authored exercise says where it
//! comes from, and its links cannot leave the site by a backslash; the
//! parent resizer script sizes only iframes from its own site.
//!
//! The AI endpoints are e2e/mock-openai.mjs on other loopback ports; course
//! pages come from a small server here, on another port again.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  startPages,
  DIST,
  assertNoProblems,
  axeCheck,
  launchBrowser,
  newPage,
  openSecondOpinion,
  partUrl,
  screenshot,
  startServer,
  waitForApp,
  traceReaderReady,
} from './support.mjs';
import { startMock } from './mock-openai.mjs';

const KEY = 'sk-test-abcdefghijklmnop7x9Q';
const OTHER_KEY = 'sk-other-qrstuvwxyz012345Zz42';
const ANSWER = 'I split TTFT into queue wait, prefill and emit from the trace before changing anything.';
const PARTS = ['lesson', 'trace', 'choice', 'interview', 'import', 'timeline', 'author'];

let app;
let browser;
/** The AI endpoint the learner sets up, and a second one on another port. */
let mock;
let elsewhere;
/** Course pages on another loopback origin. */
let course;

/**
 * A course site on its own port: `/host.html` holds two iframes, the app
 * (`?app=`) and a page of another site (`?stranger=`), and loads the parent
 * script from `?resizer=`; `/stranger.html` is that other site's page, which
 * keeps asking its parent, in both of ttft-lab's dialects, to be made
 * 1,234 px tall.
 */
function startCourse() {
  const html = 'text/html; charset=utf-8';
  const pages = {
    '/host.html': { type: html, body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Course page</title>
<link rel="icon" href="data:,"></head><body><h1>Week 3</h1>
<iframe id="lab" title="ttft-lab exercise" height="150" style="border:0;width:100%;display:block"></iframe>
<iframe id="stranger" title="another site's page" height="150" style="border:0;width:100%;display:block"></iframe>
<script>
  var q = new URLSearchParams(location.search);
  document.getElementById("lab").src = q.get("app");
  document.getElementById("stranger").src = q.get("stranger");
  var s = document.createElement("script");
  s.src = q.get("resizer");
  document.body.appendChild(s);
</script></body></html>` },
    '/stranger.html': { type: html, body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Another site</title>
<link rel="icon" href="data:,"></head><body><p>Not ttft-lab.</p><script>
  setInterval(function () {
    parent.postMessage({ type: "ttft-lab:height", version: 1, height: 1234 }, "*");
    parent.postMessage({ context: "h5p", action: "hello" }, "*");
    parent.postMessage({ context: "h5p", action: "resize", scrollHeight: 1234 }, "*");
  }, 100);
</script></body></html>` },
  };
  return startPages(pages);
}

before(async () => {
  app = await startServer();
  mock = await startMock();
  elsewhere = await startMock();
  course = await startCourse();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await course?.close();
  await elsewhere?.close();
  await mock?.close();
  await app?.close();
});

/** Regexp-escaped text. */
const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Requests to the mocks are what these tests provoke on purpose, and so is
 * a call the page stops (a refused redirect or an over-long reply shows as
 * an aborted request).
 */
function allowMocks(...extra) {
  const mocks = `(${esc(mock.origin)}|${esc(elsewhere.origin)})/v1/chat/completions`;
  return [
    new RegExp(`request to another origin: (POST|OPTIONS) ${mocks}`),
    new RegExp(`request failed: ${mocks} \\(net::ERR_ABORTED\\)`),
    ...extra,
  ];
}

/**
 * Opens a page that records every Content-Security-Policy violation from
 * its very first script on, in window.cspViolations.
 */
async function openWatched(url, options = {}) {
  const opened = await newPage(browser, app.origin, options);
  await opened.page.addInitScript(() => {
    window.cspViolations = [];
    document.addEventListener(
      'securitypolicyviolation',
      (e) => window.cspViolations.push(`${e.effectiveDirective} refused ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber}`),
      true,
    );
  });
  await opened.page.goto(url);
  await waitForApp(opened.page);
  return opened;
}

const violations = (page) => page.evaluate(() => window.cspViolations);

/** The policy's directives in dist/index.html, by name. */
async function releasedPolicy() {
  const html = await readFile(join(DIST, 'index.html'), 'utf8');
  const m = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html);
  assert.ok(m, 'dist/index.html carries a Content-Security-Policy meta tag');
  const directives = Object.fromEntries(
    m[1].split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]),
  );
  return { html, at: m.index, directives };
}

test('the released page carries a policy with hashes of exactly its inline script and styles', async () => {
  const { html, at, directives } = await releasedPolicy();
  const hash = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
  // Comments first: one names a data block, which is not one.
  const code = html.replace(/<!--[\s\S]*?-->/g, '');
  const all = [...code.matchAll(/<script(\s[^>]*)?>([\s\S]*?)<\/script>/g)].filter((m) => !/\ssrc=/.test(m[1] ?? ''));
  // The parts' embed bars, the frames of the two parts that show an
  // instructor's exercise and the names of their first views' files sit
  // in data blocks, which never run: no hash.
  const blocks = all.filter((m) => /\stype="(text\/html|application\/json)"/.test(m[1] ?? ''));
  const scripts = all.filter((m) => !blocks.includes(m));
  const ids = blocks.map((m) => /\sid="([^"]+)"/.exec(m[1])?.[1]).sort();
  const parts = ['author', 'choice', 'import', 'interview', 'lesson', 'simulate', 'timeline', 'trace'];
  const embedded = ['choice', 'import', 'interview', 'lesson', 'simulate', 'timeline', 'trace'];
  assert.deepEqual(
    ids,
    [...embedded.map((p) => `first-view-embed-bar-${p}`), 'first-view-files', 'first-view-frame-choice', 'first-view-frame-trace'].sort(),
    "every embedded part has its bar in a data block, so has each frame for an instructor's exercise, and one block names the view files",
  );
  const files = JSON.parse(blocks.find((m) => /id="first-view-files"/.test(m[1]))[2]);
  assert.deepEqual(Object.keys(files).sort(), parts, 'every part has its first view in a file of its own');
  for (const [part, file] of Object.entries(files)) {
    assert.match(file, new RegExp(`^first-view-${part}-[0-9a-f]{16}\\.html$`), `${part}: a file named after its content`);
    const view = await readFile(join(DIST, file), 'utf8');
    assert.match(view, /<h1 id="page-title">/, `${part}: the file is its view`);
    assert.doesNotMatch(view, /<script/i, `${part}: a view runs nothing`);
  }
  for (const m of blocks) assert.ok(!directives['script-src'].includes(hash(m[2])), 'a data block is not allowed to run');
  const styles = [...html.matchAll(/<style(\s[^>]*)?>([\s\S]*?)<\/style>/g)];
  assert.ok(scripts.length >= 2, 'the start-up watch and the wasm loader are inline');
  for (const m of scripts) assert.ok(directives['script-src'].includes(hash(m[2])), `script hashed: ${m[2].slice(0, 60)}`);
  for (const m of styles) assert.ok(directives['style-src'].includes(hash(m[2])), `style hashed: ${m[2].slice(0, 60)}`);
  for (const m of [...scripts, ...styles]) assert.ok(m.index > at, 'the policy comes before every inline script and style');
  assert.deepEqual(directives['default-src'], ["'self'"]);
  assert.ok(directives['script-src'].includes("'wasm-unsafe-eval'"));
  assert.deepEqual(directives['object-src'], ["'none'"]);
  assert.deepEqual(directives['base-uri'], ["'none'"]);
  assert.deepEqual(directives['worker-src'], ["'self'"], 'the trace reader runs from beside the page');
  assert.deepEqual(directives['connect-src'], ["'self'", 'https:', 'http://localhost:*', 'http://127.0.0.1:*']);
  assert.deepEqual(directives['worker-src'], ["'self'"], 'the service worker and any worker only from the site');
  assert.deepEqual(directives['manifest-src'], ["'self'"]);
  assert.equal(directives['frame-ancestors'], undefined, 'ignored in a meta tag; instructors embed the page');
  assert.doesNotMatch(html, /'unsafe-inline'|'unsafe-eval'/);
});

test('the browser enforces the policy: an injected inline script does not run and is reported', async () => {
  const { page, context, problems } = await openWatched(partUrl(app, 'lesson'));
  const ran = await page.evaluate(() => {
    const s = document.createElement('script');
    s.textContent = 'window.injected = true;';
    document.head.appendChild(s);
    return window.injected === true;
  });
  assert.equal(ran, false, 'the inline script was refused');
  await page.waitForFunction(() => window.cspViolations.length > 0);
  assert.match((await violations(page)).join('\n'), /script-src-elem refused inline/);
  assertNoProblems(problems, { allow: [/console error: .*Content Security Policy/] });
  await context.close();
});

for (const embed of [false, true]) {
  for (const part of PARTS) {
    if (embed && part === 'author') continue; // the authoring page is not embedded
    test(`?part=${part}${embed ? '&embed=1' : ''} runs under the policy with no violation`, async () => {
      const url = embed ? `${app.url}?part=${part}&embed=1` : partUrl(app, part);
      const { page, context, problems } = await openWatched(url);
      await page.locator('h1').first().waitFor();
      // Something that changes the page after start, where the part has it.
      if (part === 'trace') await page.getByRole('button', { name: 'Reveal answers' }).click();
      if (part === 'timeline') await page.getByLabel('Prefill ends (server ms)').fill('not a time');
      // The trace reader (a worker with its own wasm) has started under the policy.
      if (part === 'import') await traceReaderReady(page);
      await page.waitForTimeout(200); // let any late violation event arrive
      assert.deepEqual(await violations(page), [], 'no Content-Security-Policy violation');
      assertNoProblems(problems);
      await context.close();
    });
  }
}

/** Writes the answer and sets up the custom endpoint `base` with `key`. */
async function prepare(page, base, key = KEY) {
  await page.getByLabel('Write your answer as you would say it').fill(ANSWER);
  await openSecondOpinion(page);
  await page.getByLabel('Provider').selectOption('custom');
  await setBase(page, base);
  await page.getByLabel('Model', { exact: true }).fill('mock-grader-1');
  await page.getByLabel('Model', { exact: true }).press('Tab');
  await page.getByLabel(/^API key/).fill(key);
  await page.getByLabel(/^API key/).press('Tab');
  await page.getByText(`••••${key.slice(-4)}`).waitFor();
}

async function setBase(page, base) {
  await page.getByLabel('Base URL').fill(base);
  await page.getByLabel('Base URL').press('Tab');
}

async function send(page) {
  const preview = page.locator('details.so-preview');
  if ((await preview.getAttribute('open')) === null) await preview.locator('summary').click();
  await page.getByRole('button', { name: 'Send for a second opinion' }).click();
}

const failureText = (page) => page.getByRole('group', { name: 'Why it was not graded' }).innerText({ timeout: 15000 });

test('the AI call sends no referrer and does not follow a redirect to another address', async () => {
  const { page, context, problems } = await openWatched(partUrl(app, 'interview'));
  await prepare(page, mock.baseUrl);
  mock.set('good');
  await send(page);
  await page.getByRole('region', { name: "The AI's grade beside yours" }).waitFor({ timeout: 15000 });
  assert.equal(mock.state.authorizations.at(-1), `Bearer ${KEY}`);
  assert.equal(mock.state.referers.at(-1), null, 'no Referer header');

  mock.set('redirect');
  mock.state.redirectTo = `${elsewhere.baseUrl}/chat/completions`;
  const before = elsewhere.state.posts + elsewhere.state.preflights;
  await send(page);
  const text = await failureText(page);
  assert.match(text, /answered with a redirect to another address/);
  assert.match(text, /the redirect was not followed/);
  assert.equal(elsewhere.state.posts + elsewhere.state.preflights, before, 'nothing reached the redirect target');
  assert.deepEqual(await violations(page), []);
  assertNoProblems(problems, { allow: allowMocks() });
  mock.set('good');
  await context.close();
});

test('a key entered for one address is not sent to another; the page asks for that address\'s key', async () => {
  const { page, context, problems } = await openWatched(partUrl(app, 'interview'));
  await prepare(page, mock.baseUrl);
  const note = page.locator('#so-key-origin');
  assert.equal(await note.innerText(), '', 'the key fits the address it was entered for');
  await page.getByText(new RegExp(`^API key: \\S+ \\(for ${esc(mock.origin)}, kept for this browser session\\)`)).waitFor();

  // Another port on the same machine is another origin: the key stays behind.
  await setBase(page, elsewhere.baseUrl);
  assert.equal(await note.getAttribute('role'), 'status');
  assert.equal(
    await note.innerText(),
    `Your key ••••7x9Q was entered for ${mock.origin}, so it is not sent to ${elsewhere.origin}. Paste the key for ` +
      `${elsewhere.origin} below if it needs one; switching back to ${mock.origin} uses the kept key again.`,
  );
  assert.match(await page.locator('#so-key-note').innerText(), new RegExp(`kept for ${esc(elsewhere.origin)} only`));
  await axeCheck(page, { label: 'second opinion, key asked for again' });
  await screenshot(page, 'security-key-asked-again');
  elsewhere.set('good');
  await send(page);
  await page.getByRole('region', { name: "The AI's grade beside yours" }).waitFor({ timeout: 15000 });
  assert.equal(elsewhere.state.authorizations.at(-1), null, 'the key was not sent to the other address');

  // A hosted provider needs its own key; the kept one is not offered to it.
  await page.getByLabel('Provider').selectOption('openai');
  assert.match(await note.innerText(), /so it is not sent to https:\/\/api\.openai\.com\./);
  assert.equal(await page.locator('#so-send-note').innerText(), 'Complete the settings first: OpenAI needs an API key.');

  // Back to the address it was entered for: the kept key is used again.
  await page.getByLabel('Provider').selectOption('custom');
  await setBase(page, `${mock.baseUrl}/`);
  await page.getByLabel('Model', { exact: true }).fill('mock-grader-1');
  await page.getByLabel('Model', { exact: true }).press('Tab');
  assert.equal(await note.innerText(), '');
  await page.getByText('••••7x9Q').waitFor();

  // A key entered for the other address replaces it, and is kept with that address.
  await setBase(page, elsewhere.baseUrl);
  await page.getByLabel(/^API key/).fill(OTHER_KEY);
  await page.getByLabel(/^API key/).press('Tab');
  await page.getByText('••••Zz42').waitFor();
  await send(page);
  await page.getByRole('region', { name: "The AI's grade beside yours" }).waitFor({ timeout: 15000 });
  assert.equal(elsewhere.state.authorizations.at(-1), `Bearer ${OTHER_KEY}`);
  const stored = await page.evaluate(() => sessionStorage.getItem('ttft-lab/v1/second-opinion/key'));
  assert.deepEqual(JSON.parse(stored), { key: OTHER_KEY, origin: elsewhere.origin, version: 1 });
  await page.reload();
  await waitForApp(page);
  await openSecondOpinion(page);
  await page.getByText(new RegExp(`^API key: ••••Zz42 \\(for ${esc(elsewhere.origin)},`)).waitFor();

  // A bare key saved before keys were tied to an address is not used: it is asked for again.
  await page.evaluate((k) => sessionStorage.setItem('ttft-lab/v1/second-opinion/key', k), KEY);
  await page.reload();
  await waitForApp(page);
  await openSecondOpinion(page);
  assert.equal(await page.getByRole('button', { name: 'Replace key' }).count(), 0, 'no key is held');
  await page.getByLabel(/^API key/).waitFor();
  assert.equal(await page.evaluate(() => sessionStorage.getItem('ttft-lab/v1/second-opinion/key')), null);
  assert.deepEqual(await violations(page), []);
  assertNoProblems(problems, { allow: allowMocks() });
  await context.close();
});

test('a reply past 64 KiB and an endless error body are stopped, each with a plain message', async () => {
  const { page, context, problems } = await openWatched(partUrl(app, 'interview'));
  await prepare(page, mock.baseUrl);
  mock.set('huge');
  const aborted = mock.state.aborted;
  await send(page);
  assert.match(await failureText(page), /The reply grew past 64 KiB of text, far more than a grade needs/);
  for (let i = 0; i < 50 && mock.state.aborted === aborted; i++) await page.waitForTimeout(100);
  assert.equal(mock.state.aborted, aborted + 1, 'the download was stopped');

  // 500 with an HTML page that trickles on for 20 s: only the start is read.
  mock.set('huge-error');
  const started = Date.now();
  await send(page);
  await page.getByRole('group', { name: 'Why it was not graded' }).getByText('The provider failed with its own error (500)').waitFor({ timeout: 5000 });
  assert.ok(Date.now() - started < 5000, 'the message did not wait for the whole body');
  for (let i = 0; i < 50 && mock.state.aborted === aborted + 1; i++) await page.waitForTimeout(100);
  assert.equal(mock.state.aborted, aborted + 2, 'the rest of the error body was not downloaded');
  assertNoProblems(problems, { allow: allowMocks(/HTTP 500 for /, /console error: Failed to load resource: .*500/) });
  mock.set('good');
  await context.close();
});

/** The example exercise shipped in dist/, with a trace intro holding `links`. */
async function exampleWith(links) {
  const file = JSON.parse(await readFile(join(DIST, 'review-bot.json'), 'utf8'));
  file.trace_exercise.intro = `${file.trace_exercise.intro} ${links}`;
  return Buffer.from(JSON.stringify(file)).toString('base64url');
}

test('an authored exercise says where it comes from, and a backslash link cannot leave the site', async () => {
  const content = await exampleWith('Read [the notes](/\\evil.example/notes) and [the lesson](?part=lesson).');
  const { page, context, problems } = await openWatched(`${app.url}?part=trace&content=${content}`);
  const notice = page.locator('aside.authored-source');
  await notice.waitFor();
  assert.equal(
    await notice.getByRole('paragraph').first().innerText(),
    "An instructor's exercise, not part of ttft-lab's course",
  );
  assert.match(await notice.innerText(), /It travels inside the link you followed, written by whoever made that link\./);
  assert.equal(await page.getByRole('complementary', { name: "An instructor's exercise, not part of ttft-lab's course" }).count(), 1);
  // The backslash link is its words only; the relative link on this site stays a link.
  const intro = page.locator('article p').filter({ hasText: 'Read the notes' });
  assert.equal(await intro.getByRole('link', { name: 'the notes' }).count(), 0);
  assert.equal(await page.locator('a[href*="evil"]').count(), 0);
  assert.equal(await intro.getByRole('link', { name: 'the lesson' }).getAttribute('href'), '?part=lesson');
  await axeCheck(page, { label: 'authored exercise with its source notice' });
  await screenshot(page, 'security-authored-source-link');

  // From a file on this site: the notice names the file's full address.
  await page.goto(`${app.url}?part=trace&src=review-bot.json`);
  await waitForApp(page);
  await notice.waitFor();
  assert.match(
    await notice.innerText(),
    new RegExp(`It was loaded from the file ${esc(app.url)}review-bot\\.json, written by whoever put that file there\\.`),
  );
  await screenshot(page, 'security-authored-source-file');
  assert.deepEqual(await violations(page), []);
  assertNoProblems(problems);
  await context.close();
});

test('the parent script sizes the iframe from its own site and not another site\'s iframe', async () => {
  const opened = await newPage(browser, course.origin);
  const { page, context, problems } = opened;
  const appUrl = `${app.url}?part=trace&embed=1`;
  const q = new URLSearchParams({
    app: appUrl,
    stranger: `${course.origin}/stranger.html`,
    resizer: `${app.url}ttft-lab-resizer.js`,
  });
  await page.goto(`${course.origin}/host.html?${q}`);
  const inner = await (await page.locator('#lab').elementHandle()).contentFrame();
  await inner.waitForFunction(() => document.documentElement.hasAttribute('data-ready'), null, { timeout: 20000 });
  const height = (id) => page.locator(`#${id}`).evaluate((el) => el.getBoundingClientRect().height);
  // The app's iframe takes its content's height (the stranger has asked for 1,234 px ten times a second all along).
  await page.waitForFunction(() => document.getElementById('lab').getBoundingClientRect().height > 400, null, { timeout: 10000 });
  const content = await inner.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
  assert.ok(Math.abs((await height('lab')) - content) <= 1, 'the app iframe is as tall as its content');
  assert.equal(await height('stranger'), 150, "another site's iframe keeps its own height");
  const fromApp = problems.filter((p) => !(p.startsWith('request to another origin:') && p.includes(`${app.origin}/`)));
  assertNoProblems(fromApp);
  await context.close();
});
