//! e2e/scorm.test.mjs: the SCORM packages in a learning system, in headless
//! Chromium. The learning system is e2e/host/scorm.html with a real SCORM
//! run-time, scorm-again (npm), for SCORM 1.2 and for SCORM 2004; it opens
//! the entry page its manifest names from the unzipped package, served from
//! the same origin as the player, as learning systems serve content.
//! Checked: each zip holds a well-formed manifest with the elements its
//! standard requires, every file it lists and none of the precompressed
//! copies; a learner's checklist, trace answers, configuration choice and
//! saved self-score reach the learning system as a score, completion,
//! success, suspend data and interaction records; leaving ends the session;
//! relaunched with only what the learning system kept (a fresh browser,
//! as on another device), everything is back; a SCORM 1.2 suspend data
//! string at its 4,096-character limit is read; damaged suspend data is set
//! aside with a notice; a run-time that refuses calls, at the start or in
//! the middle, is named once and the page keeps working. axe is clean in
//! each state and nothing logs an error. Screenshots go to e2e/screenshots/.
//!
//! TTFT_DIST may name another build directory; the packages are read from
//! dist-scorm/ beside it.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, extname, join } from 'node:path';
import {
  MIME,
  ROOT,
  DIST,
  assertNoProblems,
  axeCheck,
  launchBrowser,
  newPage,
  screenshot,
  startPages,
  waitForText,
} from './support.mjs';
import { readZip } from '../scripts/zip.mjs';

const PACKAGES = join(dirname(DIST), 'dist-scorm');
const STANDARDS = ['12', '2004'];
/** How each standard is named in test titles. */
const LABEL = { 12: 'SCORM 1.2', 2004: 'SCORM 2004' };
/** What each standard calls things, as the test reads them back. */
const NAMES = {
  12: {
    raw: 'core.score.raw',
    status: (c) => c.core.lesson_status,
    statusPaths: (s) => ({ 'core.lesson_status': s }),
    response: 'student_response',
    wrong: 'wrong',
  },
  2004: {
    raw: 'score.raw',
    status: (c) => `${c.completion_status}/${c.success_status}`,
    statusPaths: (s) => ({ completion_status: s.split('/')[0], success_status: s.split('/')[1] }),
    response: 'learner_response',
    wrong: 'incorrect',
  },
};

let browser;
let site;
/** The entry page of each package, as its manifest names it. */
const entry = {};
/** Each package's files, by name. */
const zips = {};

before(async () => {
  const pages = {
    '/lms/player.html': { type: MIME['.html'], file: join(ROOT, 'e2e', 'host', 'scorm.html') },
    '/lms/scorm12.js': { type: MIME['.js'], file: join(ROOT, 'node_modules', 'scorm-again', 'dist', 'scorm12.min.js') },
    '/lms/scorm2004.js': { type: MIME['.js'], file: join(ROOT, 'node_modules', 'scorm-again', 'dist', 'scorm2004.min.js') },
  };
  for (const v of STANDARDS) {
    const path = join(PACKAGES, `ttft-lab-scorm${v}.zip`);
    const bytes = await readFile(path).catch(() => {
      throw new Error(`${path} is missing: run ./scripts/release first`);
    });
    zips[v] = readZip(bytes);
    for (const [name, data] of zips[v]) {
      pages[`/course${v}/${name}`] = { type: MIME[extname(name)] || 'application/octet-stream', body: data };
    }
  }
  site = await startPages(pages);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await site?.close();
});

// ------------------------------------------------------------ the packages

test('each package holds a manifest its standard accepts and every file it lists', async () => {
  const { page, context, problems } = await newPage(browser, site.origin);
  await page.goto(`${site.origin}/lms/player.html?v=12`);
  for (const v of STANDARDS) {
    const files = zips[v];
    assert.ok(files.has('imsmanifest.xml'), 'the manifest is at the root');
    assert.deepEqual([...files.keys()].filter((n) => /\.(gz|br)$/.test(n)), [], 'no precompressed copies');
    const xml = files.get('imsmanifest.xml').toString('utf8');
    // The browser's own XML parser: a malformed manifest is a parsererror.
    const read = await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'application/xml');
      if (doc.getElementsByTagName('parsererror').length) return { error: doc.documentElement.textContent };
      const all = (name) => [...doc.getElementsByTagNameNS('*', name)];
      const one = (name) => all(name)[0];
      const attr = (el, local) => [...(el?.attributes ?? [])].find((a) => a.localName === local)?.value ?? null;
      const item = one('item');
      const resource = all('resource').find((r) => r.getAttribute('identifier') === item?.getAttribute('identifierref'));
      return {
        root: doc.documentElement.localName,
        namespace: doc.documentElement.namespaceURI,
        identifier: doc.documentElement.getAttribute('identifier'),
        schema: one('schema')?.textContent,
        schemaversion: one('schemaversion')?.textContent,
        defaultOrganization: one('organizations')?.getAttribute('default'),
        organizations: all('organization').map((o) => o.getAttribute('identifier')),
        title: one('organization')?.getElementsByTagNameNS('*', 'title')[0]?.textContent,
        scormType: attr(resource, 'scormtype') ?? attr(resource, 'scormType'),
        href: resource?.getAttribute('href'),
        parameters: item?.getAttribute('parameters') ?? '',
        files: all('file').map((f) => f.getAttribute('href')),
        mastery: one('masteryscore')?.textContent ?? one('minNormalizedMeasure')?.textContent,
      };
    }, xml);
    assert.equal(read.error, undefined, `${LABEL[v]}: the manifest is well-formed`);
    assert.equal(read.root, 'manifest');
    assert.equal(
      read.namespace,
      v === '12' ? 'http://www.imsproject.org/xsd/imscp_rootv1p1p2' : 'http://www.imsglobal.org/xsd/imscp_v1p1',
    );
    assert.ok(read.identifier);
    assert.equal(read.schema, 'ADL SCORM');
    assert.equal(read.schemaversion, v === '12' ? '1.2' : '2004 4th Edition');
    assert.ok(read.organizations.includes(read.defaultOrganization), 'the default organization exists');
    assert.match(read.title, /first token/i);
    assert.equal(read.scormType, 'sco');
    assert.equal(read.mastery, v === '12' ? '80' : '0.8', 'the passing threshold is stated');
    assert.ok(read.files.length > 3);
    for (const name of [...read.files, read.href]) assert.ok(files.has(name), `${LABEL[v]}: ${name} is in the zip`);
    assert.deepEqual(
      [...files.keys()].filter((n) => n !== 'imsmanifest.xml').sort(),
      [...read.files].sort(),
      'the manifest lists exactly the files in the zip',
    );
    // Only the full app runs in a learning system: the builds of a few
    // parts stay out, and the package's own offline copy neither
    // precaches nor expects them.
    const partBuilds = (await readFile(join(ROOT, 'index.html'), 'utf8'))
      .split('\n')
      .filter((line) => line.includes('data-cargo-no-default-features'))
      .map((line) => line.match(/data-bin="([^"]+)"/)[1]);
    assert.ok(partBuilds.includes('lesson-part'), `index.html names the builds of a few parts (${partBuilds})`);
    for (const bin of partBuilds) {
      assert.ok(!files.has(`${bin}.js`) && !files.has(`${bin}_bg.wasm`), `${LABEL[v]}: ${bin} is left out`);
    }
    const worker = files.get('sw.js').toString('utf8');
    const build = JSON.parse(worker.match(/^const BUILD = (.*);$/m)[1]);
    for (const [name] of [...build.precache, ...build.onDemand]) {
      assert.ok(files.has(name), `${LABEL[v]}: sw.js lists ${name}, which is in the zip`);
    }
    entry[v] = `/course${v}/${read.href}${read.parameters}`;
    // Another reader than ours, where the machine has one.
    if (existsSync('/usr/bin/unzip')) {
      execFileSync('/usr/bin/unzip', ['-tq', join(PACKAGES, `ttft-lab-scorm${v}.zip`)]);
    }
  }
  assertNoProblems(problems);
  await context.close();
});

// ------------------------------------------------------------ in the player

/** A fresh browser (its own storage, as another device) with the player. */
async function player(v, stored = null, options = {}) {
  const opened = await newPage(browser, site.origin, options.viewport ?? {});
  await opened.page.goto(`${site.origin}/lms/player.html?v=${v}&sco=${encodeURIComponent(entry[v] ?? `/course${v}/index.html`)}`);
  await opened.page.evaluate(([s, o]) => window.launch(s, o), [stored, options]);
  await opened.page.waitForFunction(() => {
    const d = document.getElementById('sco')?.contentDocument;
    return Boolean(d?.documentElement?.hasAttribute('data-ready') && !d.getElementById('boot'));
  });
  const frame = opened.page.getByTitle('ttft-lab course').contentFrame();
  return { ...opened, frame };
}

const record = (page) => page.evaluate(() => window.record());

/**
 * Waits until the learning system holds what `want` says, then returns
 * everything it holds. `want` maps a path in the run-time's data
 * (`core.score.raw`) to the exact text expected there, or to a RegExp its
 * text must match. The check runs in the player each time its frame
 * changes, so the wait ends as soon as the course has reported.
 */
async function recorded(page, want) {
  const checks = Object.entries(want).map(([path, w]) =>
    w instanceof RegExp ? [path, 're', w.source] : [path, 'eq', String(w)],
  );
  const holds = (cmi, [path, kind, value]) => {
    const got = path.split('.').reduce((o, k) => o?.[k], cmi);
    return kind === 'eq' ? got === value : typeof got === 'string' && new RegExp(value).test(got);
  };
  await page
    .waitForFunction(
      (checks) => {
        const cmi = window.record();
        return checks.every(([path, kind, value]) => {
          const got = path.split('.').reduce((o, k) => o?.[k], cmi);
          return kind === 'eq' ? got === value : typeof got === 'string' && new RegExp(value).test(got);
        });
      },
      checks,
      { timeout: 15000, polling: 'raf' },
    )
    .catch(async () => {
      const cmi = await record(page);
      const failing = checks.filter((c) => !holds(cmi, c)).map(([p, , v]) => `${p} = ${v}`);
      assert.fail(`the learning system never held ${failing.join(', ')}: ${JSON.stringify(cmi).slice(0, 800)}`);
    });
  return record(page);
}

/** Screenshots of the player with the course scrolled to its top, where the saved-work notices are. */
async function shoot(page, frame, name) {
  await frame.locator('html').evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

const nav = (frame, name) => frame.getByRole('navigation', { name: 'Course parts' }).getByRole('link', { name }).click();
const checklist = (frame) => frame.getByRole('list', { name: 'Completion checklist' }).getByRole('checkbox');
const savedWork = (frame) => frame.getByRole('status', { name: 'Saved work' });

const RIGHT = {
  H1: ['prefill', '70', 'no-action'],
  H2: ['queue wait', '96.9', 'admission-limits'],
  H3: ['prefill', '97.9', 'trim-history'],
  H4: ['queue wait', '60.6', 'add-capacity'],
};

async function tickAll(frame) {
  const boxes = checklist(frame);
  for (let i = 0; i < (await boxes.count()); i++) await boxes.nth(i).check();
}

async function answerTrace(frame) {
  await nav(frame, 'Trace exercise');
  for (const [id, [dominant, share, action]] of Object.entries(RIGHT)) {
    await frame.getByLabel(`${id}: Dominant delay`).selectOption({ label: dominant });
    await frame.getByLabel(`${id}: Its share of TTFT (%)`).fill(share);
    await frame.getByLabel(`${id}: Investigate first`).selectOption(action);
  }
  await frame.getByRole('button', { name: 'Check answers' }).click();
  await waitForText(frame.getByRole('status', { name: 'Result of your check' }), /^Check 1: All 4 requests fully right\./);
}

async function answerChoice(frame) {
  await nav(frame, 'Configuration choice');
  const live = frame.getByRole('region', { name: 'Live interview hints', exact: true });
  await live.getByRole('group', { name: 'Configuration for Live interview hints' }).getByLabel('Config B').check();
  await live.getByRole('group', { name: /Does Config A meet/ }).getByLabel('No').check();
  await live.getByRole('group', { name: /Does Config B meet/ }).getByLabel('Yes').check();
  await live.getByLabel('Config A: share of first tokens later than 1 s (%)').fill('21');
  await live.getByLabel('Config B: share of first tokens later than 1 s (%)').fill('3');
  for (const label of [
    'TTFT measured on hint traffic alone, not on the mixed workload',
    'The tail beyond p95: p99 and the maximum',
    'Failure and rejection behaviour at peak load',
  ]) {
    await live.getByLabel(label).check();
  }
  await frame.getByRole('button', { name: 'Check answers for Live interview hints' }).click();
  await waitForText(live.getByRole('status'), /^Check 1: Everything is right/);
  const batch = frame.getByRole('region', { name: 'Overnight draft explanations', exact: true });
  await batch.getByLabel('Config B', { exact: true }).check();
  await batch.getByLabel('Total output tokens in the batch').fill('4,000,000');
  await batch.getByLabel('Time to finish at Config A (seconds)').fill('1667');
  await batch.getByLabel('Time to finish at Config B (seconds)').fill('2500');
  await batch.getByRole('group', { name: /Does Config A fit/ }).getByLabel('Yes').check();
  await batch.getByRole('group', { name: /Does Config B fit/ }).getByLabel('Yes').check();
  await batch.getByLabel("Quality checks of the 8-bit weights on the platform's tasks").check();
  await batch.getByLabel('Cost per run and per token').check();
  await frame.getByRole('button', { name: 'Check answers for Overnight draft explanations' }).click();
  await waitForText(batch.getByRole('status'), /^Check 1: Everything is right/);
}

async function selfScore(frame) {
  await nav(frame, 'Interview question');
  await frame.getByLabel('Write your answer as you would say it').fill('Queue wait dominates H2: admission control first.');
  const titles = [
    'Latency metrics from the trace',
    'Dominant delay of each request',
    'Changes to test, with their trade-offs',
    'Why the queue grows while the model is loaded',
    'When a hint cannot start in time',
  ];
  for (const t of titles) await frame.getByRole('group', { name: t }).getByRole('radio', { name: /^2 / }).check();
  await frame.getByRole('button', { name: 'Save score' }).click();
  await waitForText(frame.getByRole('status', { name: 'Saved scores status' }), /^Saved: 10 of 10/);
}

for (const v of STANDARDS) {
  test(`${LABEL[v]}: progress reaches the learning system and follows the learner to another browser`, async (t) => {
    const names = NAMES[v];
    const { page, context, frame, problems } = await player(v);
    await axeCheck(page, { label: `${LABEL[v]}, launched` });
    await tickAll(frame);
    await answerTrace(frame);
    if (v === '2004') await answerChoice(frame);
    await selfScore(frame);
    // 1.2: trace, interview and readiness full, no choice: 75, below 80.
    // 2004: everything right: 100, passed.
    const want = v === '12' ? { raw: '75', status: 'failed' } : { raw: '100', status: 'completed/passed' };
    let cmi = await recorded(page, { [names.raw]: want.raw, ...names.statusPaths(want.status) });
    if (v === '2004') assert.equal(cmi.score.scaled, '1');
    const interactions = Object.values(cmi.interactions);
    const ids = interactions.map((i) => i.id);
    assert.ok(ids.includes('hint-trace'), `the trace check is recorded: ${ids}`);
    assert.ok(ids.includes('slow-first-token'), `the saved self-score is recorded: ${ids}`);
    const trace = interactions.find((i) => i.id === 'hint-trace');
    assert.equal(trace.result, 'correct');
    assert.match(trace[names.response], /^H1: prefill; 70; no-action\[,\]H2: queue wait; 96\.9; admission-limits/);
    assert.match(trace.latency, v === '12' ? /^\d{2,4}:\d\d:\d\d(\.\d\d?)?$/ : /^PT/);
    const interview = interactions.find((i) => i.id === 'slow-first-token');
    assert.equal(interview[names.response], '10');
    if (v === '2004') {
      // One record per check: the first workload's, then the second's,
      // which completes the exercise.
      const choice = interactions.filter((i) => i.id === 'config-choice');
      assert.deepEqual(choice.map((i) => i.result), ['incorrect', 'correct']);
    }
    assert.match(cmi.suspend_data, /^ttft1\{/);
    assert.ok(cmi.suspend_data.length <= (v === '12' ? 4096 : 64000));
    t.diagnostic(`suspend data after the graded work: ${cmi.suspend_data.length} characters`);
    assert.equal(v === '12' ? cmi.core.exit : cmi.exit, 'suspend', 'the learner is coming back');
    await axeCheck(page, { label: `${LABEL[v]}, after the graded work` });
    await shoot(page, frame, `scorm${v}-reported`);

    // Leaving ends the session cleanly: committed, then terminated.
    await page.evaluate(() => window.leave());
    await page.waitForFunction(() => window.lms.finished);
    cmi = await record(page);
    assert.ok(await page.evaluate(() => window.lms.commits) >= 1);
    const kept = cmi.suspend_data;
    assertNoProblems(problems);
    await context.close();

    // Another browser, with only what the learning system kept.
    const stored = v === '12' ? { suspend_data: kept, core: { entry: 'resume' } } : { suspend_data: kept, entry: 'resume' };
    const again = await player(v, stored);
    await waitForText(again.frame.getByRole('status', { name: 'Checklist progress' }), /(\d+) of \1/);
    const boxes = checklist(again.frame);
    for (let i = 0; i < (await boxes.count()); i++) assert.equal(await boxes.nth(i).isChecked(), true);
    await nav(again.frame, 'Trace exercise');
    assert.equal(await again.frame.getByLabel('H2: Its share of TTFT (%)').inputValue(), '96.9');
    await waitForText(again.frame.getByRole('status', { name: 'Result of your check' }), /^Check 1: All 4 requests fully right\./);
    await nav(again.frame, 'Interview question');
    assert.match(await again.frame.getByLabel('Write your answer as you would say it').inputValue(), /^Queue wait dominates H2/);
    await again.frame.getByRole('table').filter({ hasText: '10 of 10' }).first().waitFor();
    // Reported again from the restored work alone: the same score.
    cmi = await recorded(again.page, { [names.raw]: want.raw, suspend_data: /^ttft1\{/ });
    assert.equal(names.status(cmi), want.status);
    assert.equal(await savedWork(again.frame).innerText(), '', 'nothing to warn about');
    await axeCheck(again.page, { label: `${LABEL[v]}, relaunched` });
    await shoot(again.page, again.frame, `scorm${v}-restored`);
    assertNoProblems(again.problems);
    await again.context.close();
  });
}

test('SCORM 1.2: suspend data at its 4,096-character limit is read, and what is written back stays within it', async () => {
  // What the page writes: its format mark and compact JSON; an interview
  // answer padded so that the whole string is exactly 4,096 characters.
  const shell = (answer) => `ttft1{"i":{"a":"${answer}","m":1764600000000}}`;
  const answer = 'w'.repeat(4096 - shell('').length);
  const full = shell(answer);
  assert.equal(full.length, 4096);
  const { page, context, frame, problems } = await player('12', { suspend_data: full, core: { entry: 'resume' } });
  await nav(frame, 'Interview question');
  // The box takes at most 5,000 characters; this answer is within that.
  assert.equal(await frame.getByLabel('Write your answer as you would say it').inputValue(), answer);
  const cmi = await recorded(page, { suspend_data: /^ttft1\{/, 'core.score.raw': '0' });
  assert.ok(cmi.suspend_data.length <= 4096, `${cmi.suspend_data.length} characters`);
  assert.ok(cmi.suspend_data.includes(answer), 'the answer is kept whole');
  assertNoProblems(problems);
  await context.close();
});

test('damaged suspend data is set aside in the browser, named, and the page carries on', async () => {
  const { page, context, frame, problems } = await player('2004', { suspend_data: 'viewed=1,2,3|slide=3' });
  await waitForText(savedWork(frame), /The progress the learning system saved for you could not be read: it was not saved by this version of ttft-lab/);
  await frame.getByText('1 set-aside copy of saved work', { exact: true }).click();
  await frame.getByRole('button', { name: /^Download the copy of your learning system progress, set aside / }).waitFor();
  await checklist(frame).first().check();
  const cmi = await recorded(page, { suspend_data: /^ttft1\{"k"/ });
  assert.equal(cmi.completion_status, 'incomplete');
  await axeCheck(page, { label: 'damaged suspend data' });
  await shoot(page, frame, 'scorm-damaged');
  assertNoProblems(problems);
  await context.close();
});

for (const v of STANDARDS) {
  test(`${LABEL[v]}: a run-time that refuses the session is named once, and the page keeps working`, async () => {
    const { page, context, frame, problems } = await player(v, null, { startedByPlayer: true });
    const status = savedWork(frame);
    await waitForText(status, /The learning system stopped taking this course's reports \(\w*Initialize failed with error 10[13]: [^)]+\)/);
    await tickAll(frame);
    const progress = frame.getByRole('status', { name: 'Checklist progress' });
    await waitForText(progress, /(\d+) of \1/);
    assert.equal(await status.getByText(/stopped taking/).count(), 1, 'said once');
    const cmi = await record(page);
    assert.equal(cmi.suspend_data, '', 'nothing was written after the refusal');
    await axeCheck(page, { label: `${LABEL[v]}, refused` });
    await shoot(page, frame, `scorm${v}-refused`);
    assertNoProblems(problems);
    await context.close();
  });
}

test('SCORM 2004: a session the learning system ends mid-way is named once; work goes on in the browser', async () => {
  const { page, context, frame, problems } = await player('2004');
  await checklist(frame).first().check();
  await recorded(page, { suspend_data: /"k"/ });
  await page.evaluate(() => window.end());
  await checklist(frame).nth(1).check();
  const status = savedWork(frame);
  await waitForText(status, /stopped taking this course's reports \(SetValue failed with error 13\d: /);
  await checklist(frame).nth(2).check();
  assert.equal(await status.getByText(/stopped taking/).count(), 1, 'said once');
  assert.equal(await checklist(frame).nth(2).isChecked(), true);
  assert.ok(
    await frame.locator('html').evaluate(() => Object.keys(localStorage).includes('ttft-lab/v1/checklist')),
    'the ticks are kept in the browser',
  );
  assertNoProblems(problems);
  await context.close();
});
