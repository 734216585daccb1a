//! e2e/storage.test.mjs: nothing saved is lost, seen from the page and
//! from localStorage, in headless Chromium against the release build.
//! Trace answers stored by position (format 1) come back beside their
//! requests, and configuration-choice work stored by position beside its
//! workload; a damaged value is set aside and its copy is listed, deleted
//! with the keyboard and announced; another tab (a second page of the same
//! browser context, sharing its localStorage) that writes damaged data or a
//! newer version never has it written over. The set-aside panel passes axe.
//! Deliberately absent: the store's rules case by case (the component
//! tests in tests/storage.rs cover them, with full and refusing storage).

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertNoProblems, axeCheck, launchBrowser, newPage, partUrl, screenshot, startServer, waitForApp } from './support.mjs';

const CHECKLIST = 'ttft-lab/v1/checklist';
const TRACE = 'ttft-lab/v1/trace/hint-trace';
const CHOICE = 'ttft-lab/v1/choice/config-choice';

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

const savedWork = (page) => page.getByRole('status', { name: 'Saved work' });

/** Every localStorage entry under `prefix`. */
const entries = (page, prefix) =>
  page.evaluate((p) => Object.fromEntries(Object.entries(localStorage).filter(([k]) => k.startsWith(p))), prefix);

test('trace answers stored by position come back beside their own requests', async () => {
  const { page, context, problems } = await newPage(browser, server.origin);
  await page.goto(partUrl(server, 'lesson'));
  await waitForApp(page);
  const answer = (share) => ({ dominant: 'queue_wait', share_percent: share, investigate: null });
  const old = { version: 1, value: { answers: [{}, answer('96.9'), {}, answer('60.6')], checked: null, attempts: 0, revealed: false, changed_ms: 1 } };
  await page.evaluate(({ key, text }) => localStorage.setItem(key, text), { key: TRACE, text: JSON.stringify(old) });

  await page.goto(partUrl(server, 'trace'));
  await waitForApp(page);
  assert.equal(await page.getByLabel('H2: Its share of TTFT (%)').inputValue(), '96.9');
  assert.equal(await page.getByLabel('H4: Its share of TTFT (%)').inputValue(), '60.6');
  assert.equal(await page.getByLabel('H1: Its share of TTFT (%)').inputValue(), '');

  await page.getByLabel('H1: Its share of TTFT (%)').fill('70');
  await page.waitForFunction((key) => JSON.parse(localStorage.getItem(key) ?? '{}').version === 2, TRACE);
  const stored = JSON.parse((await entries(page, TRACE))[TRACE]);
  assert.deepEqual(Object.keys(stored.value.answers).sort(), ['H1', 'H2', 'H4']);
  assert.equal(stored.value.answers.H2.share_percent, '96.9');
  assert.equal((await savedWork(page).innerText()).trim(), '', 'an upgrade is nothing to report');
  assertNoProblems(problems);
  await context.close();
});

test('configuration-choice work stored by position comes back beside its own workload', async () => {
  const { page, context, problems } = await newPage(browser, server.origin);
  await page.goto(partUrl(server, 'lesson'));
  await waitForApp(page);
  const batch = { choice: 'B', total_tokens: '4,000,000' };
  const old = { version: 1, value: { inputs: [{}, batch], checked: [null, batch], attempts: [0, 1], revealed: [false, false], changed_ms: 1 } };
  await page.evaluate(({ key, text }) => localStorage.setItem(key, text), { key: CHOICE, text: JSON.stringify(old) });

  await page.goto(partUrl(server, 'choice'));
  await waitForApp(page);
  const total = page.getByLabel('Total output tokens in the batch');
  assert.equal(await total.inputValue(), '4,000,000');
  const overnight = page.getByRole('region', { name: 'Overnight draft explanations' });
  await overnight.getByRole('status').getByText(/^Check 1: /).waitFor();

  await total.fill('4000000');
  await page.waitForFunction((key) => JSON.parse(localStorage.getItem(key) ?? '{}').version === 2, CHOICE);
  const stored = JSON.parse((await entries(page, CHOICE))[CHOICE]);
  assert.deepEqual(Object.keys(stored.value.workloads), ['overnight-drafts']);
  assert.equal(stored.value.workloads['overnight-drafts'].attempts, 1);
  assert.equal(stored.value.workloads['overnight-drafts'].checked.total_tokens, '4,000,000');
  assert.equal((await savedWork(page).innerText()).trim(), '', 'an upgrade is nothing to report');
  assertNoProblems(problems);
  await context.close();
});

test('a set-aside copy is listed, deleted with the keyboard, and the deletion announced', async () => {
  const { page, context, problems } = await newPage(browser, server.origin, { width: 360 });
  await page.goto(partUrl(server, 'lesson'));
  await waitForApp(page);
  await page.evaluate((key) => localStorage.setItem(key, '{"version":1,"value":{"items":'), CHECKLIST);
  await page.reload();
  await waitForApp(page);

  const summary = page.getByText('1 set-aside copy of saved work', { exact: true });
  await summary.focus();
  await page.keyboard.press('Enter');
  const del = page.getByRole('button', { name: /^Delete the copy of your checklist, set aside / });
  await del.waitFor();
  assert.ok(await page.getByRole('button', { name: /^Download the copy of your checklist/ }).isVisible());
  await axeCheck(page, { label: 'set-aside panel open' });
  await screenshot(page, 'storage-set-aside-panel');

  await del.focus();
  await page.keyboard.press('Enter');
  await savedWork(page).getByText(/Deleted the copy of your checklist/).waitFor();
  assert.deepEqual(Object.keys(await entries(page, `${CHECKLIST}/set-aside/`)), [], 'the copy is gone from localStorage');
  assert.equal(await summary.count(), 0, 'no copies, no panel');
  // Focus moves in the frame after the list is gone (storage_status.rs).
  await page.waitForFunction(() => document.activeElement !== document.body, null, { timeout: 5000 });
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'main', 'focus lands on the page, not on nothing');
  assertNoProblems(problems);
  await context.close();
});

test('another tab never has its damaged or newer data written over', async () => {
  const { page, context, problems } = await newPage(browser, server.origin);
  await page.goto(partUrl(server, 'lesson'));
  await waitForApp(page);
  const other = await context.newPage();
  await other.goto(partUrl(server, 'lesson'));
  await waitForApp(other);
  const boxes = page.getByRole('list', { name: 'Completion checklist' }).getByRole('checkbox');
  await boxes.nth(0).check();

  // The other tab writes damaged data: this tab keeps a copy, then its own value.
  await other.evaluate((key) => localStorage.setItem(key, '{damaged by another tab'), CHECKLIST);
  await savedWork(page).getByText(/Another tab saved your checklist in a form this page cannot read/).waitFor();
  const afterDamage = await entries(page, CHECKLIST);
  const copies = Object.entries(afterDamage).filter(([k]) => k.startsWith(`${CHECKLIST}/set-aside/`));
  assert.equal(copies.length, 1, `${Object.keys(afterDamage)}`);
  assert.equal(copies[0][1], '{damaged by another tab');
  assert.equal(JSON.parse(afterDamage[CHECKLIST]).version, 1, 'this tab wrote its readable value in its place');

  // The other tab runs a newer version: this tab stops writing and says why.
  const newer = '{"version":99,"value":{"future":true}}';
  await other.evaluate(({ key, text }) => localStorage.setItem(key, text), { key: CHECKLIST, text: newer });
  await savedWork(page).getByText(/newer version of ttft-lab/).waitFor();
  await boxes.nth(1).check();
  assert.ok(await boxes.nth(1).isChecked(), 'the change stays on the page');
  assert.equal((await entries(page, CHECKLIST))[CHECKLIST], newer, 'the newer value is untouched');
  assert.match(await savedWork(page).innerText(), /reload/);
  assertNoProblems(problems);
  await context.close();
});
