#!/usr/bin/env node
//! scripts/service-worker.mjs: writes the released app's service worker,
//! `dist/sw.js`, from `content/app/service-worker.js` and the files actually
//! built. scripts/release runs it once index.html is final (after the
//! Content-Security-Policy) and before the .gz/.br copies:
//!
//!   node scripts/service-worker.mjs dist
//!
//! It lists every file of the build with the sha-256 of its bytes, in two
//! lists the worker reads (`BUILD` at the top of sw.js):
//!
//! - precached, downloaded when a version installs: index.html, every file
//!   it names (the app's wasm, JS glue and CSS, the apple-touch-icon), the
//!   manifest and every icon it names, and any other file up to
//!   `SMALL_FILE` bytes (the resizer script, the schema and the example
//!   exercise for instructors): what every part needs on a first visit;
//! - on demand, kept the first time a part fetches it: every other file,
//!   which is what a part loads only when it is opened (an on-demand Web
//!   Worker's wasm, which index.html does not name). Such a file should
//!   carry its hash in its name, as Trunk's output does, so a new build
//!   never reuses an old name for new bytes.
//!
//! The version is a hash of both lists and of the worker's own source, so
//! any change to any file is a new version, and an unchanged build writes
//! the same sw.js. It also writes
//! `<meta name="ttft-lab-service-worker" content="sw.js">` into index.html
//! (before hashing it): the app registers the worker only where that tag
//! says there is one, so `trunk serve` and the component tests never do.
//! Running it again on the same folder gives the same result.
//!
//! Deliberately absent: the `.gz`/`.br` copies (the browser never asks for
//! them by name) and sw.js itself (the browser checks it on every visit).

import { createHash } from 'node:crypto';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TEMPLATE = join(ROOT, 'content', 'app', 'service-worker.js');
/** The worker's file name in dist/, beside index.html. */
export const WORKER_FILE = 'sw.js';
/** Files no bigger than this that index.html does not name are precached anyway. */
export const SMALL_FILE = 64 * 1024;
const MARKER = `<meta name="ttft-lab-service-worker" content="${WORKER_FILE}">`;

async function filesIn(root) {
  const out = [];
  for (const entry of await readdir(root, { withFileTypes: true })) {
    const path = join(root, entry.name);
    if (entry.isDirectory()) out.push(...(await filesIn(path)));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

/** Whether `text` names `path` as a URL: in quotes or parentheses, with or without "./". */
function names(text, path) {
  const escaped = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`["'(](\\./)?${escaped}["')?#]`).test(text);
}

/** `html` with the marker tag (re)written right before </head>. */
function withMarker(html) {
  const without = html.replace(/\s*<meta name="ttft-lab-service-worker"[^>]*>/, '');
  const at = without.search(/\s*<\/head>/i);
  if (at < 0) throw new Error('the page has no </head> to put the service worker tag in');
  return `${without.slice(0, at)}\n    ${MARKER}${without.slice(at)}`;
}

/** What `dir` holds, sorted into the two lists, and the version they make. */
export async function planFor(dir) {
  const base = resolve(dir);
  const all = (await filesIn(base))
    .map((p) => relative(base, p).split(sep).join('/'))
    .filter((p) => !/\.(gz|br)$/.test(p) && p !== WORKER_FILE)
    .sort();
  if (!all.includes('index.html')) throw new Error(`${join(base, 'index.html')} is missing`);
  const html = await readFile(join(base, 'index.html'), 'utf8');
  let manifest = '';
  if (all.includes('manifest.webmanifest')) manifest = await readFile(join(base, 'manifest.webmanifest'), 'utf8');
  const precache = [];
  const onDemand = [];
  for (const path of all) {
    const bytes = await readFile(join(base, path));
    const entry = [path, createHash('sha256').update(bytes).digest('hex')];
    const needed = path === 'index.html' || names(html, path) || names(manifest, path) || bytes.length <= SMALL_FILE;
    (needed ? precache : onDemand).push(entry);
  }
  // The worker's own code is part of the version too: new caching rules
  // are a new version even over the same files.
  const worker = createHash('sha256').update(await readFile(TEMPLATE)).digest('hex');
  const version = createHash('sha256')
    .update(JSON.stringify({ worker, precache, onDemand }))
    .digest('hex')
    .slice(0, 16);
  return { version, precache, onDemand };
}

/** Writes the marker into `dir`/index.html and `dir`/sw.js; resolves to the plan. */
export async function writeServiceWorker(dir) {
  const indexFile = join(dir, 'index.html');
  await stat(indexFile);
  const html = await readFile(indexFile, 'utf8');
  const marked = withMarker(html);
  if (marked !== html) await writeFile(indexFile, marked);
  const plan = await planFor(dir);
  const template = await readFile(TEMPLATE, 'utf8');
  const build = JSON.stringify(plan, null, 1).replace(/\n\s*/g, ' ');
  await writeFile(join(dir, WORKER_FILE), `// Written by scripts/service-worker.mjs; edit content/app/service-worker.js instead.\nconst BUILD = ${build};\n\n${template}`);
  return plan;
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const dir = process.argv[2];
  if (!dir) {
    console.error('usage: node scripts/service-worker.mjs DIST_DIR');
    process.exit(2);
  }
  writeServiceWorker(dir).then(
    (plan) => {
      const size = (list) => list.length;
      console.log(`  ${WORKER_FILE}: version ${plan.version}, ${size(plan.precache)} files precached, ${size(plan.onDemand)} kept when first opened`);
      for (const [path] of plan.onDemand) console.log(`    on demand: ${path}`);
    },
    (err) => {
      console.error(`scripts/service-worker.mjs: ${err.message}`);
      process.exit(1);
    },
  );
}
