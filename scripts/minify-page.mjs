//! scripts/minify-page.mjs: makes the released page's own inline scripts,
//! comments and stylesheets small.
//!
//! index.html's start-up scripts and the stylesheets are written to be
//! read: each explains what it does and why, in comments often longer than
//! the code. Every visit downloads the page and its stylesheets before
//! anything else, so those comments counted in every part's bytes before it
//! reads and works (about 3.4 KB gzipped of the page's 21.7 KB, and 2.8 KB
//! of the stylesheets' 11.1 KB). This
//!
//! - minifies each inline script of `index.html` with terser and drops the
//!   page's HTML comments;
//! - drops each linked stylesheet's comments and the whitespace CSS does
//!   not need (`minifyCss`: nothing inside a string, nothing around an
//!   operator), and writes its new `integrity` hash into every page in the
//!   folder that links it (index.html and the plain lesson page). A
//!   stylesheet keeps its name: Trunk named it after its source, and the
//!   same source always minifies to the same bytes.
//!
//! The repository's files keep their comments. What it leaves alone: data
//! blocks (`type="application/json"`, a part's embed bar as
//! `type="text/html"`), scripts with a `src`, the text of the page
//! (whitespace inside the first view is the app's own markup), and the
//! scripts shipped as files. It runs before scripts/csp.mjs, which hashes
//! the inline scripts exactly as they end up.
//!
//! Usage: node scripts/minify-page.mjs DIR (the release folder, dist/)
//! Prints each file's size before and after.

import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { minify } from 'terser';
import { runsInline } from './csp.mjs';

/** `html` with each inline script minified and every comment outside scripts dropped. */
export async function minifyPage(html) {
  // One pass from the start, so that markup inside a comment (the page's
  // comments name elements such as <script type="application/json">) is
  // never taken for an element, nor a comment inside a script for markup.
  const token = /<!--[\s\S]*?-->[ \t]*(\r?\n)?|<script(\s[^>]*)?>([\s\S]*?)<\/script>/gi;
  const pieces = [];
  let last = 0;
  for (const m of html.matchAll(token)) {
    const text = html.slice(last, m.index);
    last = m.index + m[0].length;
    if (m[0].startsWith('<!--')) {
      // The indentation before a comment on a line of its own goes with it.
      pieces.push(/\n[ \t]*$/.test(text) ? text.replace(/[ \t]*$/, '') : text);
      continue;
    }
    pieces.push(text);
    const attributes = m[2] ?? '';
    if (!runsInline(attributes) || m[3].trim() === '') {
      pieces.push(m[0]);
      continue;
    }
    const module = /\stype\s*=\s*"module"/i.test(attributes);
    const out = await minify(m[3], { module, compress: { passes: 2 }, mangle: true, format: { comments: false } });
    if (typeof out.code !== 'string') throw new Error(`terser returned nothing for a script starting ${m[3].trim().slice(0, 60)}`);
    pieces.push(`<script${attributes}>${out.code}</script>`);
  }
  pieces.push(html.slice(last));
  return pieces.join('');
}

/**
 * `css` without comments and without the whitespace CSS does not need: a
 * run of whitespace becomes one space, or none next to `{`, `}`, `;` and
 * `,` or at either end, and the `;` before a `}` goes. Strings are copied
 * as they are. Spaces elsewhere stay, since they can carry meaning (a
 * descendant combinator before `:hover`, the spaces `calc()` needs around
 * `+` and `-`).
 */
export function minifyCss(css) {
  let out = '';
  let space = false;
  const tight = '{};,';
  const emit = (text) => {
    if (space && out !== '' && !tight.includes(out.at(-1)) && !tight.includes(text[0])) out += ' ';
    space = false;
    out += text;
  };
  for (let i = 0; i < css.length; ) {
    const c = css[i];
    if (c === '/' && css[i + 1] === '*') {
      const end = css.indexOf('*/', i + 2);
      if (end < 0) throw new Error('a stylesheet has a comment that never ends');
      i = end + 2;
      space = true;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < css.length && css[j] !== c) j += css[j] === '\\' ? 2 : 1;
      if (j >= css.length) throw new Error('a stylesheet has a string that never ends');
      emit(css.slice(i, j + 1));
      i = j + 1;
    } else if (/\s/.test(c)) {
      space = true;
      i += 1;
    } else {
      if (c === '}' && out.at(-1) === ';') out = out.slice(0, -1);
      emit(c);
      i += 1;
    }
  }
  return out;
}

/** The sha384 integrity value of `bytes`, as Trunk writes it. */
const integrity = (bytes) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;

async function main(dir) {
  const pagePath = join(dir, 'index.html');
  const page = await readFile(pagePath, 'utf8');
  const pages = (await readdir(dir)).filter((n) => n.endsWith('.html') && !n.startsWith('first-view-'));
  const texts = Object.fromEntries(await Promise.all(pages.map(async (n) => [n, await readFile(join(dir, n), 'utf8')])));
  const links = [...page.matchAll(/<link rel="stylesheet" href="\.\/([^"]+\.css)" integrity="([^"]+)"\/?>/g)];
  if (links.length === 0) throw new Error(`${pagePath} links no stylesheet`);
  for (const [, name, was] of links) {
    const source = await readFile(join(dir, name), 'utf8');
    const small = minifyCss(source);
    await writeFile(join(dir, name), small);
    const now = integrity(Buffer.from(small, 'utf8'));
    for (const n of pages) texts[n] = texts[n].split(`integrity="${was}"`).join(`integrity="${now}"`);
    console.log(`minify-page: ${name}: ${source.length} -> ${small.length} characters`);
  }
  texts['index.html'] = await minifyPage(texts['index.html']);
  for (const n of pages) await writeFile(join(dir, n), texts[n]);
  console.log(`minify-page: index.html: ${page.length} -> ${texts['index.html'].length} characters`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv[2];
  if (!dir) {
    console.error('usage: node scripts/minify-page.mjs DIR');
    process.exit(2);
  }
  await main(dir);
}
