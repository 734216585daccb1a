//! scripts/minify-glue.mjs: makes the JavaScript that wasm-bindgen writes
//! beside each wasm in a release folder (`NAME.js` beside `NAME_bg.wasm`),
//! and the names the two share, small.
//!
//! First the functions each wasm imports from its glue get short names in
//! both files (scripts/wasm-imports.mjs: the lesson's 212 imports, 6.3 KB
//! gzipped over the two). Then terser minifies the glue.
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
//! Prints one line per file with its size before and after. A second run
//! finds no wasm-bindgen names left to shorten and only minifies again.

import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { minify } from 'terser';
import { shortenImports } from './wasm-imports.mjs';

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
  const wasmPath = join(dir, name.replace(/\.js$/, '_bg.wasm'));
  const original = await readFile(path, 'utf8');
  const shortened = shortenImports(await readFile(wasmPath), original);
  // The wasm must still compile before either file is replaced.
  await WebAssembly.compile(shortened.wasm);
  const source = shortened.js;
  // `--target web` writes an ES module; `no-modules` (a worker's) a script.
  const module = /^(export|import)\s/m.test(source);
  const { code } = await minify(source, {
    module,
    ecma: 2020,
    compress: { passes: 2 },
    format: { comments: false },
  });
  if (!code) throw new Error(`${name}: terser returned nothing`);
  await writeFile(wasmPath, shortened.wasm);
  await writeFile(path, code);
  console.log(`  ${name}: ${original.length} -> ${code.length} bytes (${module ? 'module' : 'script'}), ${shortened.renamed} imports renamed`);
}
console.log(`minified ${glue.length} glue files in ${dir}`);
