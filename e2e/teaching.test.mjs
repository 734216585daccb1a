//! The teaching corrections as a learner meets them: chunked prefill chosen
//! first for H3 is refused with the reason, the worked example states its
//! conclusion and vLLM's boundaries, and the practice pages say their
//! figures are synthetic. Screenshots of each changed page go to
//! e2e/screenshots/ (teaching-*).
//! Deliberately absent: the figures and wording themselves, which the core's
//! content tests pin; this file only checks that the page shows them.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertNoProblems, launchBrowser, newPage, partUrl, screenshot, startServer, waitForApp } from './support.mjs';

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

async function open(part, hash = '') {
  const opened = await newPage(browser, server.origin);
  await opened.page.goto(partUrl(server, part, hash));
  await waitForApp(opened.page);
  return opened;
}

/** The text of the elements an element's aria-describedby names ('' if none). */
async function description(locator) {
  return locator.evaluate((el) =>
    (el.getAttribute('aria-describedby') || '')
      .split(/\s+/)
      .filter(Boolean)
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' ')
      .trim(),
  );
}

test('chunked prefill is not the first step for H3, and the feedback says why', async () => {
  const { page, context, problems } = await open('trace');
  assert.match(await page.locator('article.trace-exercise').innerText(), /synthetic/);
  await page.getByLabel('H3: Dominant delay').selectOption({ label: 'prefill' });
  await page.getByLabel('H3: Its share of TTFT (%)').fill('97.9');
  await page.getByLabel('H3: Investigate first').selectOption('chunked-prefill');
  await page.getByRole('button', { name: 'Check answers' }).click();
  const investigate = page.getByLabel('H3: Investigate first');
  assert.equal(await investigate.getAttribute('aria-invalid'), 'true');
  assert.match(await description(investigate), /other requests/);
  assert.match(await description(investigate), /does not make this prompt's own prefill any shorter/);
  await screenshot(page, 'teaching-trace-chunked-prefill');
  await page.setViewportSize({ width: 360, height: 900 });
  await investigate.locator('xpath=ancestor::fieldset[1]').screenshot({ path: 'e2e/screenshots/teaching-trace-h3-360.png' });
  assertNoProblems(problems);
  await context.close();
});

test('the lesson states the worked example\'s conclusion and vLLM\'s boundaries', async () => {
  const { page, context, problems } = await open('lesson', 'worked-timeline');
  const worked = page.locator('section#worked-timeline');
  const text = await worked.innerText();
  assert.match(text, /As logged, the dominant delay is prefill, 86\.1% of a 360 ms TTFT/);
  assert.match(text, /tokenizing the prompt/);
  await worked.screenshot({ path: 'e2e/screenshots/teaching-worked-timeline-1280.png' });
  const metrics = await page.locator('section#metrics').innerText();
  assert.match(metrics, /vLLM's clocks, and the time none of our parts holds/);
  const percentiles = await page.locator('section#percentiles').innerText();
  assert.match(percentiles, /under nearest-rank is the second-slowest/);
  await screenshot(page, 'teaching-lesson');
  assertNoProblems(problems);
  await context.close();
});

test('the choice and interview pages say their figures are synthetic; the self-score says its threshold is an estimate', async () => {
  for (const part of ['choice', 'interview']) {
    const { page, context, problems } = await open(part);
    assert.match(await page.locator('main').innerText(), /synthetic/, `${part} says its figures are synthetic`);
    if (part === 'interview') {
      assert.match(await page.locator('main').innerText(), /in your own words, before you open the reference answer/);
      const note = page.getByText(/editors' estimates of readiness/);
      await note.waitFor();
      await page.setViewportSize({ width: 360, height: 900 });
      await note.screenshot({ path: 'e2e/screenshots/teaching-self-score-360.png' });
    }
    await screenshot(page, `teaching-${part}`);
    assertNoProblems(problems);
    await context.close();
  }
});
