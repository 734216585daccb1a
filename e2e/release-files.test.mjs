//! e2e/release-files.test.mjs: the release's own rewriting of its files,
//! checked on dist/ as it is (no browser needed).
//!
//! - Each wasm imports from its wasm-bindgen glue only under the short
//!   names scripts/wasm-imports.mjs gave, and the glue names each of them
//!   (a name the glue lacks would fail at start with a LinkError).
//! - Every `.gz` and `.br` copy decompresses to exactly its file, since a
//!   host serves the copy in the file's place.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { DIST } from './support.mjs';

async function files(dir) {
  const out = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await files(path)));
    else out.push(path);
  }
  return out.sort();
}

test('every wasm imports from its glue by short names the glue holds', async () => {
  const names = await readdir(DIST);
  const wasms = names.filter((n) => n.endsWith('_bg.wasm') && names.includes(n.replace(/_bg\.wasm$/, '.js')));
  assert.ok(wasms.length >= 10, `the builds' wasm and glue pairs in dist/: ${wasms.join(', ')}`);
  for (const name of wasms) {
    const module = new WebAssembly.Module(await readFile(join(DIST, name)));
    const glue = await readFile(join(DIST, name.replace(/_bg\.wasm$/, '.js')), 'utf8');
    const functions = WebAssembly.Module.imports(module).filter((i) => i.kind === 'function');
    assert.ok(functions.length > 0, `${name} imports functions`);
    for (const { name: imported } of functions) {
      assert.doesNotMatch(imported, /^__wb(g|indgen)/, `${name}: ${imported} kept wasm-bindgen's long name`);
      assert.ok(imported.length <= 3, `${name}: ${imported} is not a short name`);
      const token = new RegExp(`(^|[^A-Za-z0-9_$])${imported.replace(/\$/g, '\\$')}\\s*:`);
      assert.match(glue, token, `${name}: the glue gives no ${imported}`);
    }
  }
});

test('every precompressed copy decompresses to its file', async () => {
  const all = await files(DIST);
  const copies = all.filter((p) => p.endsWith('.gz') || p.endsWith('.br'));
  assert.ok(copies.some((p) => p.endsWith('.wasm.gz')) && copies.some((p) => p.endsWith('.wasm.br')), 'dist/ has compressed wasm');
  for (const copy of copies) {
    const original = copy.slice(0, -3);
    const data = await readFile(copy);
    const unpacked = copy.endsWith('.gz') ? gunzipSync(data) : brotliDecompressSync(data);
    assert.ok(unpacked.equals(await readFile(original)), `${relative(DIST, copy)} is not ${relative(DIST, original)}`);
  }
});
