//! e2e/app.test.mjs: the app as a whole, in Chromium, the way a learner and
//! an embedding instructor meet it. Every part has its own address that
//! survives a reload and sets the page title; lesson sections are deep
//! links; the page talks to no other origin; it copes with storage that is
//! refused or holds damaged data; it says what to try when it cannot start
//! or has no JavaScript; every part passes axe (WCAG 2.2 AA) in light and
//! dark, reflows at 360 px, and logs no errors.
//!
//! It finds things by role and accessible name, as a learner would. What it
//! deliberately does not test: what the lesson and the exercises say or
//! compute (e2e/lesson.test.mjs, e2e/practice.test.mjs and the Rust tests
//! do), or looks (screenshots are written for people to look at, not
//! compared).

import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  assertNoProblems,
  axeCheck,
  launchBrowser,
  newPage,
  partUrl,
  screenshot,
  startServer,
  waitForApp,
  waitForText,
} from './support.mjs';

/** The parts the URL scheme promises: `?part=<id>`, the lesson by default. */
const REQUIRED_PARTS = ['lesson', 'trace', 'choice', 'interview'];
/** Every key the app writes starts with this. */
const PREFIX = 'ttft-lab/v1/';

const server = await startServer();
const browser = await launchBrowser();

after(async () => {
  await browser.close();
  await server.close();
});

/**
 * The parts as the navigation lists them, `{ id, label }` in order, read
 * from the page so that a part added later gets every check below too.
 */
async function readParts() {
  const { page, context } = await newPage(browser, server.origin);
  try {
    await page.goto(server.url);
    await waitForApp(page);
    return await page
      .getByRole('navigation', { name: 'Course parts' })
      .getByRole('link')
      .evaluateAll((links) =>
        links.map((a) => ({
          id: new URL(a.getAttribute('href') ?? '', location.href).searchParams.get('part'),
          label: a.textContent.trim(),
        })),
      );
  } finally {
    await context.close();
  }
}

// If the app cannot even show its navigation, stop here with that error
// rather than leave Chromium running and the test runner waiting on it.
const PARTS = await readParts().catch(async (err) => {
  await browser.close();
  await server.close();
  throw err;
});
/** The title while a part shows. */
const titleOf = (part) => `${part.label} \u00b7 ttft-lab`;

test('the navigation links every part the URL scheme promises, lesson first', () => {
  const ids = PARTS.map((p) => p.id);
  for (const id of REQUIRED_PARTS) assert.ok(ids.includes(id), `?part=${id} is in the navigation: ${ids}`);
  assert.equal(ids[0], 'lesson');
  assert.equal(new Set(ids).size, ids.length, `each part is linked once: ${ids}`);
});

/**
 * Run `body` with a fresh page (its own storage), then check that nothing
 * went wrong on it unless `allow`ed, and close it.
 */
async function check(body, { allow = [], contextOptions = {}, init } = {}) {
  const { page, context, problems } = await newPage(browser, server.origin, contextOptions);
  try {
    if (init) await page.addInitScript(init);
    await body(page);
    assertNoProblems(problems, { allow });
  } finally {
    await context.close();
  }
}

async function open(page, part, hash) {
  await page.goto(partUrl(server, part, hash));
  await waitForApp(page);
}

const partsNav = (page) => page.getByRole('navigation', { name: 'Course parts' });
const savedWork = (page) => page.getByRole('status', { name: 'Saved work' });
const checklistCount = (page) => page.getByRole('status', { name: 'Checklist progress' });

/** The part the navigation marks as current (aria-current="page"): its label. */
async function currentPartLabel(page) {
  const current = await partsNav(page)
    .getByRole('link')
    .evaluateAll((links) => links.filter((a) => a.getAttribute('aria-current') === 'page').map((a) => a.innerText.trim()));
  assert.equal(current.length, 1, `exactly one navigation link is marked as the current page: ${current}`);
  return current[0];
}

/** Whether keyboard focus is inside the page's main content. */
const focusInMain = (page) => page.getByRole('main').evaluate((main) => main.contains(document.activeElement));

/** What a learner would see as "this part": title, one h1, the nav. */
async function assertShowing(page, part) {
  assert.equal(await page.title(), titleOf(part));
  assert.equal(new URL(page.url()).searchParams.get('part') ?? 'lesson', part.id);
  const h1 = page.getByRole('heading', { level: 1 });
  assert.equal(await h1.count(), 1, 'one top-level heading');
  assert.ok(await h1.isVisible(), 'the heading is visible');
  assert.equal(await currentPartLabel(page), part.label);
}

/** All localStorage entries under the app's prefix. */
const storedEntries = (page) =>
  page.evaluate((prefix) => {
    const out = {};
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key?.startsWith(prefix)) out[key] = localStorage.getItem(key);
    }
    return out;
  }, PREFIX);

/** Parse "3 of 5 done" into [3, 5]. */
async function readCount(page) {
  const text = (await waitForText(checklistCount(page), /^\d+ of \d+ done$/)).trim();
  const m = /^(\d+) of (\d+) done$/.exec(text);
  return [Number(m[1]), Number(m[2])];
}

/** Waits until the checklist's count reads `done` of `total`. */
async function assertCount(page, [done, total], message) {
  await waitForText(checklistCount(page), `${done} of ${total} done`).catch((err) => {
    throw new Error(`${message ?? 'checklist count'}: ${err.message}`);
  });
}

describe('every part has its own address', () => {
  for (const part of PARTS) {
    test(`${part.id}: address, title, reload, accessibility, reflow`, () =>
      check(async (page) => {
        await open(page, part.id);
        await assertShowing(page, part);
        await axeCheck(page, { label: `?part=${part.id} (light)` });

        await page.reload();
        await waitForApp(page);
        await assertShowing(page, part);

        await page.emulateMedia({ colorScheme: 'dark' });
        await axeCheck(page, { label: `?part=${part.id} (dark)` });
        await page.emulateMedia({ colorScheme: 'light' });

        // WCAG 1.4.10: at 320 CSS px nothing may need sideways scrolling of
        // the whole page; 360 px is the narrowest common phone.
        await page.setViewportSize({ width: 360, height: 800 });
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        assert.ok(overflow <= 1, `the page scrolls sideways by ${overflow} px at 360 px wide`);
        await screenshot(page, `part-${part.id}`);
      }));
  }

  test('no part named, or an unknown one, shows the lesson', () =>
    check(async (page) => {
      await open(page, null);
      await assertShowing(page, PARTS[0]);
      await page.goto(`${server.url}?part=no-such-part`);
      await waitForApp(page);
      assert.equal(await page.title(), titleOf(PARTS[0]));
      assert.equal(await currentPartLabel(page), PARTS[0].label);
    }));
});

test('the navigation moves between parts, and Back returns', () =>
  check(async (page) => {
    await open(page, 'lesson');
    for (const part of PARTS.slice(1)) {
      await partsNav(page).getByRole('link', { name: part.label, exact: true }).click();
      await page.waitForFunction((t) => document.title === t, titleOf(part));
      // Each part's own build takes the page over from the one before
      // (src/hand_over.rs): its part reads at once, and works once that
      // build runs.
      await waitForApp(page);
      await assertShowing(page, part);
      // Keyboard and screen-reader users start at the new content.
      assert.ok(await focusInMain(page), 'focus moves into <main> after following a part link');
    }
    const [beforeLast, last] = PARTS.slice(-2);
    await page.goBack();
    await page.waitForFunction((t) => document.title === t, titleOf(beforeLast));
    await assertShowing(page, beforeLast);
    await page.goForward();
    await page.waitForFunction((t) => document.title === t, titleOf(last));
    await assertShowing(page, last);
  }, {
    // Leaving a part while its worker or its own wasm is still arriving
    // ends that load on purpose (the part is gone); the browser logs the
    // cancelled request, and nothing is wrong on the page.
    allow: [/request failed: .*\/(worker-loader\.js|[a-z-]+-worker(_bg)?\.(js|wasm)|simulate-(loader|part)(_bg)?\.(js|wasm)).* \(net::ERR_ABORTED\)/],
  }));

test('a lesson section is a deep link that survives a reload', () =>
  check(async (page) => {
    await open(page, 'lesson');
    const contents = page.getByRole('navigation', { name: 'Contents' }).getByRole('link');
    const hrefs = await contents.evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    assert.ok(hrefs.length >= 2, 'the lesson lists its sections');
    assert.ok(hrefs.every((h) => /^#[A-Za-z][\w-]*$/.test(h)), `section links are #anchors: ${hrefs}`);

    // A section far enough down that being scrolled to it is visible.
    const target = hrefs[hrefs.length - 2].slice(1);
    // Scrolling may be smooth (it is unless the learner asks for reduced
    // motion), so wait for it to arrive rather than look once.
    const inView = () =>
      page
        .waitForFunction(
          (id) => {
            const el = document.getElementById(id);
            if (!el) return false;
            const top = el.getBoundingClientRect().top;
            return top >= -2 && top < window.innerHeight / 2;
          },
          target,
          { timeout: 5000 },
        )
        .then(
          () => true,
          () => false,
        );

    await open(page, 'lesson', target);
    assert.ok(await inView(), `#${target} is scrolled into view on arrival`);
    await page.reload();
    await waitForApp(page);
    assert.equal(new URL(page.url()).hash, `#${target}`);
    assert.ok(await inView(), `#${target} is scrolled into view after a reload`);
    await assertShowing(page, PARTS[0]);

    // Following a contents link keeps the learner in the lesson.
    await open(page, 'lesson');
    await contents.first().click();
    assert.equal(new URL(page.url()).hash, hrefs[0]);
    await assertShowing(page, PARTS[0]);
  }));

test('the page asks nothing of any other origin', () =>
  check(async (page) => {
    const seen = [];
    page.on('request', (req) => seen.push(req.url()));
    // Each part loads all it loads (a worker, a part's own wasm) before the
    // next opens, so none of its requests is cut off and every one is seen.
    for (const part of PARTS) {
      await open(page, part.id);
      await page.waitForLoadState('networkidle');
    }
    const wasm = seen.filter((u) => u.endsWith('.wasm'));
    assert.ok(wasm.length >= 1, 'the app itself was loaded (this test saw its requests)');
    const foreign = seen.filter((u) => !/^(data|blob|about):/.test(u) && new URL(u).origin !== server.origin);
    assert.deepEqual(foreign, [], 'requests to another origin');
  }));

test('the skip link is the first stop for the keyboard and leads to the content', () =>
  check(async (page) => {
    await open(page, 'trace');
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    assert.ok(await skip.evaluate((el) => el === document.activeElement), 'first Tab reaches the skip link');
    await page.keyboard.press('Enter');
    assert.ok(await focusInMain(page), 'the skip link moves focus into <main>');
  }));

describe('saved work', () => {
  test('storage that is refused: the app says nothing will be kept, and still works', () =>
    check(
      async (page) => {
        await open(page, 'lesson');
        const status = savedWork(page);
        const text = await waitForText(status, /not letting the page save anything/);
        assert.match(text, /gone when you close or reload/);

        const [done, total] = await readCount(page);
        assert.equal(done, 0);
        assert.ok(total > 0);
        await page.getByRole('checkbox').first().check();
        await assertCount(page, [1, total]);

        // Moving around keeps the tick for as long as the page lives.
        await partsNav(page).getByRole('link', { name: PARTS[1].label, exact: true }).click();
        await page.waitForFunction((t) => document.title === t, titleOf(PARTS[1]));
        await partsNav(page).getByRole('link', { name: PARTS[0].label, exact: true }).click();
        await page.waitForFunction((t) => document.title === t, titleOf(PARTS[0]));
        await assertCount(page, [1, total]);

        // The notice can be dismissed.
        await status.getByRole('button', { name: 'Dismiss' }).first().click();
        await status.getByText(/not letting the page save anything/).waitFor({ state: 'detached' });
      },
      {
        // Before any of the page's scripts: reading localStorage throws, as
        // it does with cookies blocked or in some sandboxed iframes.
        init: () => {
          Object.defineProperty(window, 'localStorage', {
            configurable: true,
            get() {
              throw new DOMException('Access is denied for this document.', 'SecurityError');
            },
          });
        },
      },
    ));

  test('a tick is kept across a reload', () =>
    check(async (page) => {
      await open(page, 'lesson');
      const [, total] = await readCount(page);
      await page.getByRole('checkbox').first().check();
      await page.reload();
      await waitForApp(page);
      await assertCount(page, [1, total]);
      assert.ok(await page.getByRole('checkbox').first().isChecked());
      const keys = Object.keys(await storedEntries(page));
      assert.ok(keys.length >= 1 && keys.every((k) => k.startsWith(PREFIX)), `stored keys: ${keys}`);
    }));

  for (const [what, garbage] of [
    ['damaged data', '{"version":1,"value": this is not JSON'],
    ['data from an unknown version', '{"version":99,"value":{"future":true}}'],
  ]) {
    test(`${what} is set aside with a message, and the app starts clean`, () =>
      check(async (page) => {
        // Use the app so that it has stored something, then damage every
        // value it stored, as an old bug or a hand edit might.
        await open(page, 'lesson');
        const [, total] = await readCount(page);
        await page.getByRole('checkbox').first().check();
        const written = Object.keys(await storedEntries(page));
        assert.ok(written.length >= 1, 'ticking a box stored something');
        await page.evaluate(
          ({ keys, value }) => keys.forEach((k) => localStorage.setItem(k, value)),
          { keys: written, value: garbage },
        );

        await page.reload();
        await waitForApp(page);
        await waitForText(savedWork(page), /could not be read/);
        await assertCount(page, [0, total], 'the checklist starts clean');

        const after = await storedEntries(page);
        for (const key of written) {
          const copies = Object.entries(after).filter(([k]) => k.startsWith(`${key}/set-aside/`));
          assert.equal(copies.length, 1, `one set-aside copy of ${key}: ${Object.keys(after)}`);
          assert.equal(copies[0][1], garbage, `the copy of ${key} holds the old data unchanged`);
          assert.notEqual(after[key], garbage, `${key} no longer holds the damaged data`);
        }

        // The clean start is usable and kept; the warning does not return.
        await page.getByRole('checkbox').first().check();
        await assertCount(page, [1, total]);
        await page.reload();
        await waitForApp(page);
        await assertCount(page, [1, total]);
        assert.doesNotMatch(await savedWork(page).innerText(), /could not be read/);
      }));
  }
});

describe('when the app cannot run', () => {
  test('a program file the host does not have (HTTP 404) gives the same message', () =>
    check(
      async (page) => {
        await page.route('**/*.wasm', (route) => route.fulfill({ status: 404, contentType: 'text/plain', body: 'not found' }));
        await page.goto(server.url);
        const alert = page.getByRole('alert');
        await alert.waitFor({ timeout: 10000 });
        const text = await alert.innerText();
        assert.match(text, /could not load its program files/);
        assert.equal(await page.evaluate(() => document.documentElement.hasAttribute('data-ready')), false);
      },
      { allow: [/\.wasm/, /^uncaught exception/, /^console error/] },
    ));
  test('a program file that fails to load gives a message saying what to try', () =>
    check(
      async (page) => {
        await page.route('**/*.wasm', (route) => route.abort());
        await page.goto(server.url);
        const alert = page.getByRole('alert');
        await alert.waitFor({ timeout: 10000 });
        const text = await alert.innerText();
        assert.match(text, /could not load its program files/);
        assert.match(text, /Try reloading/);
        assert.equal(await page.evaluate(() => document.documentElement.hasAttribute('data-ready')), false);
        await axeCheck(page, { label: 'start-up failure message' });
      },
      { allow: [/\.wasm/, /^uncaught exception/, /^console error/] },
    ));

  test('a start that takes far too long gives the same advice', () =>
    check(
      async (page) => {
        // The wasm never arrives; the page's clock is moved on past the
        // 20 s the start-up watch allows, instead of waiting for real.
        // An instructor's exercise (content=), which has no first view and
        // so shows the loading line (e2e/first-view.test.mjs).
        await page.clock.install();
        await page.route('**/*.wasm', () => {});
        await page.goto(`${partUrl(server, 'trace')}&embed=1&content=x`);
        assert.match(await page.getByRole('status').first().innerText(), /Loading/);
        assert.equal(await page.getByRole('alert').count(), 0, 'no alarm before the time is up');
        await page.clock.fastForward('00:21');
        const alert = page.getByRole('alert');
        await alert.waitFor({ timeout: 5000 });
        const text = await alert.innerText();
        assert.match(text, /much longer than usual/);
        assert.match(text, /Try reloading/);
      },
      { allow: [/\.wasm/] },
    ));

  test('without JavaScript the page goes to the plain lesson, which says what needs it', () =>
    check(
      async (page) => {
        await page.goto(server.url);
        await page.waitForURL(/\/lesson\.html$/);
        await page.waitForLoadState('load');
        assert.ok(await page.getByText(/needs JavaScript/).isVisible(), 'the page says what needs JavaScript');
        const loading = page.getByRole('status').filter({ hasText: /Loading/ });
        assert.equal(await loading.count(), 0, 'no endless "Loading" line');
      },
      // With scripting off Chromium still sees the module preload and
      // refuses it (reported as "csp"); that is the point of this test.
      { contextOptions: { javaScriptEnabled: false }, allow: [/^request failed: .*\.js \(csp\)$/] },
    ));
});
