//! scripts/precompress.mjs: writes `NAME.gz` (gzip level 9) and `NAME.br`
//! (brotli quality 11) beside every file in a release folder, so a static
//! host that serves precompressed files (Caddy's `precompressed`, nginx's
//! `gzip_static`/`brotli_static`) sends the smallest form without
//! compressing on each request, and one that compresses on the fly is no
//! worse off. The README's hosting section says how common hosts use them.
//!
//! Usage: node scripts/precompress.mjs DIR
//! It skips files that do not shrink by at least 5% (already compressed
//! data gains nothing and would only add bytes to the upload), and it
//! deletes stale `.gz`/`.br` files whose original is gone, so a second run
//! on the same folder leaves exactly one pair per file. It writes nothing
//! else and prints one line per file with the three sizes.

import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node scripts/precompress.mjs DIR');
  process.exit(2);
}

/** A compressed copy is kept only when it saves at least this share. */
const MIN_SAVING = 0.05;
const SUFFIXES = ['.gz', '.br'];

async function files(root) {
  const out = [];
  for (const entry of await readdir(root, { withFileTypes: true })) {
    const path = join(root, entry.name);
    if (entry.isDirectory()) out.push(...(await files(path)));
    else if (entry.isFile()) out.push(path);
  }
  return out.sort();
}

const all = await files(dir);
const originals = all.filter((p) => !SUFFIXES.some((s) => p.endsWith(s)));
const kept = new Set();
let rows = 0;
for (const path of originals) {
  const raw = await readFile(path);
  const gz = gzipSync(raw, { level: 9 });
  const br = brotliCompressSync(raw, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
      [constants.BROTLI_PARAM_MODE]: /\.(html|css|js|json|svg|txt|md)$/.test(path)
        ? constants.BROTLI_MODE_TEXT
        : constants.BROTLI_MODE_GENERIC,
    },
  });
  const note = [];
  for (const [suffix, bytes] of [['.gz', gz], ['.br', br]]) {
    if (bytes.length <= raw.length * (1 - MIN_SAVING)) {
      await writeFile(path + suffix, bytes);
      kept.add(path + suffix);
      note.push(`${suffix.slice(1)} ${bytes.length}`);
    }
  }
  console.log(`  ${relative(dir, path)}: ${raw.length} bytes${note.length ? `, ${note.join(', ')}` : ', kept as is (does not compress)'}`);
  rows += 1;
}
// A compressed copy whose original is gone (or no longer compresses) would
// be served for a file that is not there, or is out of date: remove it.
for (const path of all) {
  if (SUFFIXES.some((s) => path.endsWith(s)) && !kept.has(path)) await rm(path);
}
console.log(`precompressed ${rows} files in ${dir}`);
