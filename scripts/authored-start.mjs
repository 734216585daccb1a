//! scripts/authored-start.mjs: how soon an instructor's exercise file
//! (`?part=trace&src=...`) is on screen under a phone's conditions, with
//! the file's request started by index.html's start-up script and without.
//!
//!   node scripts/authored-start.mjs [--rounds N]
//!
//! The release build in dist/ served with gzip, headless Chromium with the
//! CPU slowed 4x and the network throttled as Lighthouse's mobile profile
//! assumes (150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up), each load
//! cold. "Early" is `src=review-bot.json`; "late" names the same file as
//! `src=review%2Dbot.json`, which the app reads as the same path but the
//! start-up script leaves to the app (it fetches only paths with no
//! escapes), so the request starts once the app has started. Rounds
//! alternate the two; it prints each load's time from navigation to the
//! exercise's heading on screen, and the median difference.
//!
//! A report, not a test: it never fails on a slow start.

import { launchBrowser, startServer } from '../e2e/support.mjs';

const argv = process.argv.slice(2);
const at = argv.indexOf('--rounds');
const rounds = at >= 0 ? Math.max(1, Number(argv[at + 1]) || 1) : 7;
const HEADING = 'Why is the review bot slow to start?';

async function loadOnce(browser, url) {
  const context = await browser.newContext({ viewport: { width: 360, height: 780 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 150,
    downloadThroughput: (1.6 * 1024 * 1024) / 8,
    uploadThroughput: (750 * 1024) / 8,
  });
  await page.addInitScript((heading) => {
    new MutationObserver(() => {
      if (window.__shownAt !== undefined) return;
      const h1 = document.querySelector('.authored-part:not([hidden]) h1');
      if (h1 && h1.textContent.includes(heading)) window.__shownAt = performance.now();
    }).observe(document, { attributes: true, subtree: true, childList: true });
  }, HEADING);
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForFunction(() => window.__shownAt !== undefined, null, { timeout: 120000 });
  const shown = await page.evaluate(() => window.__shownAt);
  await context.close();
  return shown;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const server = await startServer();
const browser = await launchBrowser();
const early = [];
const late = [];
try {
  for (let i = 0; i < rounds; i++) {
    // Alternate which goes first, so a drift in the machine's speed falls on both.
    const order = i % 2 ? ['late', 'early'] : ['early', 'late'];
    for (const which of order) {
      const src = which === 'early' ? 'review-bot.json' : 'review%2Dbot.json';
      (which === 'early' ? early : late).push(await loadOnce(browser, `${server.url}?part=trace&src=${src}`));
    }
  }
} finally {
  await browser.close();
  await server.close();
}
const ms = (xs) => xs.map((x) => Math.round(x)).join(', ');
console.log(`exercise on screen, early request (ms): ${ms(early)}; median ${Math.round(median(early))}`);
console.log(`exercise on screen, late request (ms):  ${ms(late)}; median ${Math.round(median(late))}`);
const diffs = early.map((e, i) => late[i] - e);
console.log(`late minus early, per round (ms): ${ms(diffs)}; median ${Math.round(median(diffs))}`);
