//! scripts/minify-glue.mjs: minifies the JavaScript that wasm-bindgen
//! writes beside each wasm in a release folder (`NAME.js` beside
//! `NAME_bg.wasm`), with terser.
//!
//! That glue is written to be read: doc comments, long local names, one
//! statement per line. Every part loads its build's glue before it works,
//! so it counts in the bytes before interactive: the lesson's goes from
//! about 10.0 to 7.7 KB gzipped. What wasm-bindgen exports, and the global
//! `wasm_bindgen` of a worker's classic script, keep their names (terser
//! renames no top-level name of a classic script, and no export of a
//! module). The scripts written by hand (the loaders, the resizer an
//! instructor embeds, the service worker) stay as they are.
//!
//! Usage: node scripts/minify-glue.mjs DIR
//! Prints one line per file with its size before and after.

import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { minify } from 'terser';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node scripts/minify-glue.mjs DIR');
  process.exit(2);
}

const names = new Set(await readdir(dir));
const glue = [...names].filter((n) => n.endsWith('.js') && names.has(n.replace(/\.js$/, '_bg.wasm'))).sort();
if (glue.length === 0) {
  console.error(`${dir} holds no wasm-bindgen glue (NAME.js beside NAME_bg.wasm)`);
  process.exit(1);
}
for (const name of glue) {
  const path = join(dir, name);
  const source = await readFile(path, 'utf8');
  // `--target web` writes an ES module; `no-modules` (a worker's) a script.
  const module = /^(export|import)\s/m.test(source);
  const { code } = await minify(source, {
    module,
    ecma: 2020,
    compress: { passes: 2 },
    format: { comments: false },
  });
  if (!code) throw new Error(`${name}: terser returned nothing`);
  await writeFile(path, code);
  console.log(`  ${name}: ${source.length} -> ${code.length} bytes (${module ? 'module' : 'script'})`);
}
console.log(`minified ${glue.length} glue files in ${dir}`);
