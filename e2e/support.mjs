//! e2e/support.mjs: what every end-to-end test file shares. It serves the
//! release build in dist/ from a plain static server, drives Debian's
//! Chromium through playwright-core, records anything a learner would count
//! as broken (console errors, uncaught exceptions, failed or cross-origin
//! requests), runs the axe accessibility scan and takes screenshots.
//!
//! The test files find controls and read results the way assistive
//! technology does: by role and accessible name (a named `status`, a table
//! named by its caption, a section named by its heading), and wait on what
//! the page says (`waitForText`), never on a CSS class or a fixed sleep. A
//! result a test cannot name that way gets a name in its component: that is
//! an accessibility fix, not a test hook.
//!
//! Deliberately absent: any SPA fallback or rewrite in the server (a missing
//! file is a 404, exactly like the cheapest static host), any knowledge of
//! the app's labels or storage keys (those belong in the test files), and
//! any browser download (playwright's bundled browsers are not reachable).

import { createServer } from 'node:http';
import { createReadStream } from 'node:fs';
import { mkdir, readFile, stat } from 'node:fs/promises';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';

/** The repository root. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/**
 * The build the tests run against: `dist/` (scripts/release writes it), or
 * the folder named by TTFT_DIST, e.g. a quick debug build. Every test file
 * goes through `startServer`, so the variable holds for all of them.
 */
export const DIST = process.env.TTFT_DIST ? resolve(process.env.TTFT_DIST) : join(ROOT, 'dist');
/** Where screenshots go (git-ignored). */
export const SCREENSHOTS = join(ROOT, 'e2e', 'screenshots');
/**
 * The sub-path the app is served under. Not "/": an instructor may put
 * dist/ anywhere, so every test also proves the asset URLs are relative.
 */
export const MOUNT = '/ttft-lab/';
/** The two widths every screenshot is taken at: a small phone and a laptop. */
export const WIDTHS = [360, 1280];
/** The narrowest window every pictured page is also checked at, unpictured. */
export const SMALLEST = 320;
/** The accessibility rules the app must pass. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** Content types by file extension, as a static host sends them. */
export const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
  '.xml': 'application/xml',
};

/**
 * A small site on its own loopback port that serves only `pages`: a map of
 * path to `{ type, body }` (text) or `{ type, file }` (read on each
 * request, so a rebuilt file is served fresh). Anything else is a 404.
 * Course pages and "another site" in the embedding and security tests.
 * Resolves to `{ origin, close }`.
 */
export async function startPages(pages) {
  const server = createServer(async (req, res) => {
    const page = pages[new URL(req.url, 'http://x').pathname];
    try {
      if (!page) throw new Error('not found');
      const body = page.file ? await readFile(page.file) : page.body;
      res.writeHead(200, { 'content-type': page.type, 'cache-control': 'no-store' }).end(body);
    } catch {
      res.writeHead(404).end('not found\n');
    }
  });
  await new Promise((ok, no) => {
    server.once('error', no);
    server.listen(0, '127.0.0.1', ok);
  });
  return {
    origin: `http://127.0.0.1:${server.address().port}`,
    close: () => new Promise((ok) => { server.closeAllConnections?.(); server.close(() => ok()); }),
  };
}

/**
 * Start a plain static server for `root` under `mount` on 127.0.0.1 and a
 * free port. Resolves to `{ origin, url, close, serveFrom }`, where `url` is
 * the app's address (origin + mount) and `serveFrom(dir)` swaps the folder
 * served from then on, as a host does when a new build is published. A directory serves its index.html; anything
 * else that is not a file under `root` is a 404. A file's precompressed
 * copy is sent when there is one and the browser accepts it, trying
 * `encodings` in order (`'br'` for NAME.br, `'gzip'` for NAME.gz; `[]`
 * sends every file as it is).
 */
export async function startServer({ root = DIST, mount = MOUNT, encodings = ['br', 'gzip'] } = {}) {
  const present = (dir) =>
    stat(join(dir, 'index.html')).catch(() => {
      throw new Error(`${join(dir, 'index.html')} is missing: run ./scripts/release first`);
    });
  let base = resolve(root);
  await present(base);
  // Node refuses request lines over 16 KB by default; the core lets a
  // content= link run to 32 K characters (authoring::MAX_URL_CHARS), and the
  // built-in exercises, put in a link, come close to 17 K.
  const server = createServer({ maxHeaderSize: 64 * 1024 }, async (req, res) => {
    const notFound = () => {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('not found\n');
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405).end();
      return;
    }
    let path;
    try {
      path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    } catch {
      notFound();
      return;
    }
    if (!path.startsWith(mount)) {
      notFound();
      return;
    }
    let file = normalize(join(base, path.slice(mount.length)));
    if (file !== base && !file.startsWith(base + sep)) {
      notFound();
      return;
    }
    try {
      let info = await stat(file);
      if (info.isDirectory()) {
        file = join(file, 'index.html');
        info = await stat(file);
      }
      // Like a host that serves precompressed files (Caddy's `precompressed`,
      // nginx's gzip_static): the release step's NAME.br or NAME.gz when the
      // browser accepts it, so byte counts are what a learner downloads.
      const type = MIME[extname(file)] || 'application/octet-stream';
      const accepts = String(req.headers['accept-encoding'] || '');
      let encoding = null;
      for (const name of encodings) {
        const suffix = name === 'br' ? '.br' : '.gz';
        if (!new RegExp(`\\b${name}\\b`).test(accepts)) continue;
        const packed = await stat(file + suffix).catch(() => null);
        if (packed?.isFile()) {
          encoding = name;
          file += suffix;
          info = packed;
          break;
        }
      }
      res.writeHead(200, {
        'content-type': type,
        'content-length': info.size,
        'cache-control': 'no-store',
        vary: 'accept-encoding',
        ...(encoding ? { 'content-encoding': encoding } : {}),
      });
      if (req.method === 'HEAD') {
        res.end();
      } else {
        createReadStream(file).pipe(res);
      }
    } catch {
      notFound();
    }
  });
  await new Promise((ok, no) => {
    server.once('error', no);
    server.listen(0, '127.0.0.1', ok);
  });
  const { port } = server.address();
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    url: origin + mount,
    serveFrom: async (dir) => {
      await present(resolve(dir));
      base = resolve(dir);
    },
    close: () =>
      new Promise((ok) => {
        server.closeAllConnections?.();
        server.close(() => ok());
      }),
  };
}

/** Launch headless Chromium (Debian's, as root: no sandbox). */
export async function launchBrowser() {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

/**
 * Launch Chromium with an ordinary profile in `userDataDir`, as a learner's
 * browser is, rather than the incognito-like contexts `launchBrowser` gives:
 * for what Chromium does only outside incognito, such as offering to
 * install a page. Resolves to a browser context; close it when done.
 */
export async function launchProfile(userDataDir, { width = 1280, height = 900 } = {}) {
  return chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width, height },
  });
}

/**
 * Open a fresh, isolated page (its own context, so its own localStorage)
 * that records problems as they happen. Resolves to `{ page, context,
 * problems }`; `problems` is a list of strings, each one thing a learner
 * would see as broken. `origin` is the only origin the page may talk to.
 * Options other than `width` and `height` go to `browser.newContext`
 * (for example `javaScriptEnabled: false`).
 */
export async function newPage(browser, origin, { width = 1280, height = 900, ...contextOptions } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, ...contextOptions });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') {
      const where = msg.location()?.url ? ` (${msg.location().url})` : '';
      problems.push(`console error: ${msg.text()}${where}`);
    }
  });
  page.on('pageerror', (err) => problems.push(`uncaught exception: ${err.message}`));
  page.on('request', (req) => {
    const url = req.url();
    if (/^(data|blob|about):/.test(url)) return;
    if (new URL(url).origin !== origin) problems.push(`request to another origin: ${req.method()} ${url}`);
  });
  page.on('requestfailed', (req) => {
    if (/^(data|blob|about):/.test(req.url())) return;
    problems.push(`request failed: ${req.url()} (${req.failure()?.errorText ?? 'unknown'})`);
  });
  page.on('response', (res) => {
    if (res.status() >= 400) problems.push(`HTTP ${res.status()} for ${res.url()}`);
  });
  return { page, context, problems };
}

/**
 * Fail with a readable list if anything went wrong on the page. `allow`
 * lists patterns for problems a test provokes on purpose.
 */
export function assertNoProblems(problems, { allow = [] } = {}) {
  const left = problems.filter((p) => !allow.some((re) => re.test(p)));
  assert.deepEqual(left, [], `the page had problems:\n  ${left.join('\n  ')}`);
}

/**
 * Draws what the page draws only near the viewport (content-visibility:
 * auto, the lesson's sections below the first), as a learner's scrolling
 * would, without moving the page; with `draw` false, puts back what the
 * last call not yet put back drew. What is not drawn has no innerText and
 * no colours for axe (nor a place in a full-page screenshot), so a test
 * that reads, scans or pictures the whole page draws it first. Resolves to
 * how many were drawn or put back.
 */
export async function drawEverything(page, draw = true) {
  return page.evaluate((draw) => {
    // One entry per call, so a draw inside another (a screenshot while a
    // test has the page drawn) puts back only what it drew.
    const stack = (window.__ttftDrawnForTest ||= []);
    if (!draw) {
      const held = stack.pop() || [];
      for (const e of held) if (e.isConnected) e.style.removeProperty('content-visibility');
      return held.length;
    }
    const held = [...document.querySelectorAll('*')].filter((e) => getComputedStyle(e).contentVisibility === 'auto');
    for (const e of held) e.style.contentVisibility = 'visible';
    stack.push(held);
    return held.length;
  }, draw);
}

/**
 * Resolves once the page has drawn two more frames: whatever the last
 * change made the browser lay out, paint or report (a layout shift, a
 * section drawn near the viewport) has happened by then.
 */
export function twoFrames(page) {
  return page.evaluate(() => new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(drawn))));
}

/**
 * Run axe with the WCAG 2.2 AA tags over the page as it is now, and fail
 * with one line per violation and node. What the page draws only near the
 * viewport (content-visibility: auto, the lesson's sections) is drawn for
 * the scan and left as it was after: axe cannot tell the contrast of text
 * that is not drawn, and 115 of the lesson's 280 checks of it came back
 * unanswered.
 */
export async function axeCheck(page, { label = page.url() } = {}) {
  await drawEverything(page);
  let result;
  try {
    result = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze();
  } finally {
    await drawEverything(page, false);
  }
  if (result.violations.length === 0) return;
  const lines = [];
  for (const v of result.violations) {
    lines.push(`${v.id} (${v.impact ?? 'n/a'}): ${v.help}  [${v.helpUrl}]`);
    for (const node of v.nodes.slice(0, 5)) {
      lines.push(`    at ${node.target.join(' ')}: ${node.failureSummary?.split('\n').join(' ') ?? ''}`);
    }
    if (v.nodes.length > 5) lines.push(`    ... and ${v.nodes.length - 5} more`);
  }
  assert.fail(`accessibility violations on ${label}:\n${lines.join('\n')}`);
}

/**
 * The options of the selects matching `selector` that the closed select
 * would cut short, at each window width of `widths` (the page's own when
 * none is given), as "WIDTH px, label: option": the option's text wider
 * than the select's room for it, less the 24 px its arrow takes. A select
 * the page draws itself (`appearance: base-select`) wraps its chosen
 * option instead, and counts as cutting an option only if the option is
 * wider than the whole select yet, chosen for a moment (the value only,
 * no event reaches the app), leaves the select one line high. The window
 * is put back after.
 */
export async function cutOptions(page, selector, widths = []) {
  return atWidths(page, widths, () =>
    page.evaluate((selector) => {
        const ctx = document.createElement('canvas').getContext('2d');
        return [...document.querySelectorAll(selector)].flatMap((select) => {
          const style = getComputedStyle(select);
          ctx.font = style.font;
          const px = (name) => parseFloat(style[name]) || 0;
          const inside = select.clientWidth - px('paddingLeft') - px('paddingRight');
          const width = (o) => ctx.measureText(o.text).width;
          const chosen = select.value;
          let cut;
          if (style.appearance === 'base-select') {
            const line = px('lineHeight') || 1.2 * px('fontSize');
            const oneLine = line + px('paddingTop') + px('paddingBottom') + px('borderTopWidth') + px('borderBottomWidth');
            cut = [...select.options].filter((o) => {
              if (width(o) <= inside) return false;
              select.value = o.value;
              return select.getBoundingClientRect().height < oneLine + line / 2;
            });
          } else {
            cut = [...select.options].filter((o) => width(o) > inside - 24);
          }
          select.value = chosen;
          return cut.map((o) => `${select.labels[0].innerText.replace(/\s+/g, " ")}: ${o.text}`);
        });
      }, selector),
  );
}

/**
 * What `look()` finds at each window width of `widths` (the page's own
 * when none is given), each finding as "WIDTH px, finding"; the window is
 * put back after. Waits two frames at each width, for what is drawn again
 * when the window crosses a breakpoint (the charts).
 */
async function atWidths(page, widths, look) {
  const before = page.viewportSize();
  const found = [];
  try {
    for (const width of widths.length ? widths : [before.width]) {
      await page.setViewportSize({ width, height: before.height });
      await twoFrames(page);
      found.push(...(await look()).map((f) => `${width} px, ${f}`));
    }
  } finally {
    await page.setViewportSize(before);
  }
  return found;
}

/**
 * The labels of the SVG charts matching `selector` that a learner could not
 * read, at each of `widths` (default: the current one), then the viewport
 * put back: text drawn under `minPx` pixels high (font size times the
 * chart's scale), text outside its chart, and two labels of one chart that
 * overlap. Each is reported as "W px, chart title: problem".
 */
export async function chartTextProblems(page, selector, widths = [], minPx = 10) {
  return atWidths(page, widths, () =>
    page.evaluate(({ selector, minPx }) => {
        const out = [];
        for (const svg of document.querySelectorAll(selector)) {
          const name = svg.querySelector('title')?.textContent ?? 'a chart';
          const box = svg.getBoundingClientRect();
          const texts = [...svg.querySelectorAll('text')].map((t) => ({
            text: t.textContent,
            r: t.getBoundingClientRect(),
            px: parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a,
          }));
          for (const t of texts) {
            if (t.px < minPx) out.push(`${name}: "${t.text}" is ${t.px.toFixed(1)} px high`);
            if (t.r.left < box.left - 1 || t.r.right > box.right + 1 || t.r.top < box.top - 1 || t.r.bottom > box.bottom + 1) {
              out.push(`${name}: "${t.text}" is outside the chart`);
            }
          }
          for (let i = 0; i < texts.length; i++) {
            for (let j = i + 1; j < texts.length; j++) {
              const [a, b] = [texts[i].r, texts[j].r];
              const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
              const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
              if (w > 1 && h > 1) out.push(`${name}: "${texts[i].text}" overlaps "${texts[j].text}"`);
            }
          }
        }
        return out;
      }, { selector, minPx }),
  );
}

/**
 * The column headings of the page's tables aligned otherwise than their
 * column: a column whose every cell is right-aligned (figures) needs a
 * right-aligned heading, so it stands over the last digits, and a column
 * of text a left-aligned one. Rows that span columns are left out. Each is
 * reported as "table: heading".
 */
export async function misalignedHeadings(page) {
  return page.evaluate(() => {
    const out = [];
    const right = (e) => getComputedStyle(e).textAlign === 'right' || getComputedStyle(e).textAlign === 'end';
    for (const table of document.querySelectorAll('table')) {
      const head = table.tHead?.rows[table.tHead.rows.length - 1];
      if (!head || [...head.cells].some((c) => c.colSpan > 1)) continue;
      const rows = [...table.tBodies].flatMap((b) => [...b.rows]).filter((r) => r.cells.length === head.cells.length && [...r.cells].every((c) => c.colSpan === 1));
      if (!rows.length) continue;
      [...head.cells].forEach((th, k) => {
        const figures = rows.every((r) => right(r.cells[k]));
        // A sortable heading's button carries the alignment.
        const button = th.querySelector('button');
        if (figures !== (right(th) || (button !== null && right(button)))) {
          const name = table.caption?.textContent.trim() || table.closest('[aria-label]')?.getAttribute('aria-label') || 'a table';
          out.push(`${name}: "${th.textContent.trim()}"`);
        }
      });
    }
    return out;
  });
}

/**
 * Every page pictured is checked for sideways scrolling at the window's
 * `width`: what is wider than the window scrolls in its own region, never
 * the page.
 */
async function assertNoSidewaysScroll(page, name, width) {
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(wide <= width, `${name} at ${width} px: the page scrolls sideways to ${wide} px`);
}

/**
 * Save full-page screenshots of the page at each width in WIDTHS, as
 * e2e/screenshots/<name>-<width>.png, each also checked for sideways
 * scrolling and its tables' headings, then the same scrolling check at
 * SMALLEST without a picture, then put the viewport back.
 */
export async function screenshot(page, name) {
  await mkdir(SCREENSHOTS, { recursive: true });
  const before = page.viewportSize();
  // A full-page picture takes in what the page draws only near the
  // viewport (the lesson's sections), which would otherwise come out blank.
  await drawEverything(page);
  try {
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: before?.height ?? 900 });
      await page.screenshot({ path: join(SCREENSHOTS, `${name}-${width}.png`), fullPage: true });
      await assertNoSidewaysScroll(page, name, width);
      // And every column of figures has its heading over its figures.
      assert.deepEqual(await misalignedHeadings(page), [], `${name} at ${width} px`);
    }
    // The smallest phones in use are 320 px wide: no picture, but the same
    // check that nothing makes the page scroll sideways.
    await page.setViewportSize({ width: SMALLEST, height: before?.height ?? 900 });
    await assertNoSidewaysScroll(page, name, SMALLEST);
  } finally {
    await drawEverything(page, false);
  }
  if (before) await page.setViewportSize(before);
}

/**
 * An init script (`page.addInitScript(refuseStorage)`) that makes every use
 * of `localStorage` throw, as a sandboxed frame or a browser with site data
 * disabled does.
 */
export function refuseStorage() {
  Object.defineProperty(window, 'localStorage', {
    get() {
      throw new DOMException('The document is sandboxed', 'SecurityError');
    },
  });
}

/**
 * An init script (`page.addInitScript(markUsable)`) that records in
 * `window.__ttftReadyAt` the moment the page first became usable: the
 * start-up line gone, <html> with data-ready, and an enabled button or a
 * link on the page. What scripts/size-report and scripts/compare-builds
 * time as "the first usable control".
 */
export function markUsable() {
  const usable = () =>
    !document.getElementById('boot') &&
    document.documentElement.hasAttribute('data-ready') &&
    !!document.querySelector('body button:not([disabled]), body a[href]');
  const observer = new MutationObserver(() => {
    if (window.__ttftReadyAt !== undefined || !usable()) return;
    window.__ttftReadyAt = performance.now();
    observer.disconnect();
  });
  observer.observe(document, { subtree: true, childList: true, attributes: true });
}

/**
 * Wait until the app has mounted: the start-up line (#boot) is gone and
 * <html> carries data-ready, which the app sets once its controls are wired.
 */
export async function waitForApp(page, { timeout = 20000 } = {}) {
  await page.waitForFunction(
    () => !document.getElementById('boot') && document.documentElement.hasAttribute('data-ready'),
    null,
    { timeout },
  );
}

/**
 * Opens the interview's AI second opinion, which fetches the step's own
 * wasm, and waits for its first field.
 */
export async function openSecondOpinion(page, { timeout = 30000 } = {}) {
  await page.getByRole('button', { name: 'Open the second opinion' }).click();
  await page.getByLabel('Provider').waitFor({ timeout });
}

/**
 * The import part's trace picker once its reader has arrived: the picker
 * shows at once but stays disabled until then.
 */
export async function traceReaderReady(page, { timeout = 20000 } = {}) {
  const picker = page.getByLabel('Choose a trace file');
  await page.locator('#import-file:enabled').waitFor({ timeout });
  return picker;
}

/** The app's address for a part (`?part=<id>`) and an optional `#anchor`. */
export function partUrl(server, part, hash = '') {
  const query = part ? `?part=${encodeURIComponent(part)}` : '';
  return `${server.url}${query}${hash ? `#${hash}` : ''}`;
}

/**
 * Wait until `locator` (one element) reads `expected`, then return what it
 * reads. A string must equal the element's whole text (trimmed); a RegExp
 * must match it. The text is the element's `innerText`, as a learner sees
 * it (hidden children left out, table cells apart), checked each time the
 * document changes: no fixed sleep, and no in-page timer, so it also works
 * while a test has stopped the page's clock. If the element is replaced
 * (a part re-renders), the locator is resolved again. Fails after
 * `timeout` ms with the text last seen, so a broken behaviour still fails.
 */
export async function waitForText(locator, expected, { timeout = 15000 } = {}) {
  const want = typeof expected === 'string' ? { exact: expected } : { source: expected.source, flags: expected.flags };
  const deadline = Date.now() + timeout;
  let last = '(the element never appeared)';
  while (Date.now() < deadline) {
    const left = deadline - Date.now();
    let timer;
    const gaveUp = new Promise((ok) => {
      timer = setTimeout(() => ok({ state: 'timeout' }), left);
    });
    const seen = locator
      .evaluate(
        (el, want) =>
          new Promise((ok) => {
            const test = (t) => ('exact' in want ? t.trim() === want.exact : new RegExp(want.source, want.flags).test(t));
            let text = '';
            // Content drawn only near the viewport (the lesson's sections)
            // has no innerText until drawn: it is drawn for the reading and
            // put back, and those two changes are not news.
            const drawnForReading = new Set();
            const read = () => {
              const held = [];
              for (let a = el; a; a = a.parentElement) {
                if (getComputedStyle(a).contentVisibility === 'auto') held.push(a);
              }
              for (const a of held) {
                drawnForReading.add(a);
                a.style.contentVisibility = 'visible';
              }
              try {
                return el.innerText;
              } finally {
                for (const a of held) a.style.removeProperty('content-visibility');
              }
            };
            const look = () => {
              if (!el.isConnected) return { state: 'replaced', text };
              text = read();
              return test(text) ? { state: 'matched', text } : null;
            };
            const now = look();
            if (now) {
              ok(now);
              return;
            }
            const watch = new MutationObserver((records) => {
              if (records.every((r) => r.type === 'attributes' && r.attributeName === 'style' && drawnForReading.has(r.target))) return;
              const then = look();
              if (then) {
                watch.disconnect();
                ok(then);
              }
            });
            watch.observe(el.ownerDocument, { subtree: true, childList: true, characterData: true, attributes: true });
          }),
        want,
        { timeout: left },
      )
      .catch((err) => ({ state: 'error', err }));
    const result = await Promise.race([seen, gaveUp]);
    clearTimeout(timer);
    if (result.state === 'matched') return result.text;
    if (result.state === 'error' && !/Timeout|detached|destroyed|navigat/i.test(result.err.message)) throw result.err;
    if (result.text !== undefined) last = result.text;
    if (result.state === 'timeout') break;
  }
  last = await locator.innerText({ timeout: 1000 }).catch(() => last);
  assert.fail(`${locator} should read ${expected instanceof RegExp ? expected : JSON.stringify(expected)} within ${timeout} ms; it reads ${JSON.stringify(last)}`);
}

/**
 * The accessible description of the element `locator` finds: the text of
 * the elements its aria-describedby names, joined by spaces ('' if none).
 */
export async function description(locator) {
  return locator.evaluate((el) =>
    (el.getAttribute('aria-describedby') || '')
      .split(/\s+/)
      .filter(Boolean)
      .map((id) => el.ownerDocument.getElementById(id)?.textContent ?? '')
      .join(' ')
      .trim(),
  );
}
