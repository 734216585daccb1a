//! scripts/scorm-package.mjs: zips a SCORM package, the release build's
//! files plus the manifest written for it.
//!
//! Usage: node scripts/scorm-package.mjs DIST MANIFEST OUT.zip
//! MANIFEST is the `imsmanifest.xml` that `cargo run -p ttft-core --example
//! scorm_manifest` wrote from the course and DIST's files; it goes in at the
//! archive's root, where both SCORM versions look for it. Every file under
//! DIST goes in too, but the precompressed copies (`NAME.gz`, `NAME.br`),
//! which a learning system would serve as they are. The script checks that
//! each file the manifest lists is in the archive, and fails naming the
//! first one that is not. It prints the archive's name, entry count and
//! size.

import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { writeZip } from './zip.mjs';

const [dist, manifestPath, out] = process.argv.slice(2);
if (!dist || !manifestPath || !out) {
  console.error('usage: node scripts/scorm-package.mjs DIST MANIFEST OUT.zip');
  process.exit(2);
}

async function files(root) {
  const found = [];
  for (const entry of await readdir(root, { withFileTypes: true })) {
    const path = join(root, entry.name);
    if (entry.isDirectory()) found.push(...(await files(path)));
    else if (entry.isFile()) found.push(path);
  }
  return found;
}

const names = (await files(dist))
  .map((p) => relative(dist, p).split(sep).join('/'))
  .filter((n) => !n.endsWith('.gz') && !n.endsWith('.br') && n !== 'imsmanifest.xml')
  .sort();
const manifest = await readFile(manifestPath);
const listed = [...manifest.toString('utf8').matchAll(/<file href="([^"]+)"/g)].map((m) =>
  m[1].replaceAll('&amp;', '&').replaceAll('&quot;', '"').replaceAll('&apos;', "'").replaceAll('&lt;', '<').replaceAll('&gt;', '>'),
);
const missing = listed.find((n) => !names.includes(n));
if (listed.length === 0 || missing) {
  console.error(`${manifestPath}: ${missing ? `lists ${missing}, which is not in ${dist}` : 'lists no files'}`);
  process.exit(1);
}
const entries = [{ name: 'imsmanifest.xml', data: manifest }];
for (const name of names) entries.push({ name, data: await readFile(join(dist, name)) });
const zip = writeZip(entries);
await mkdir(dirname(out), { recursive: true });
await writeFile(out, zip);
console.log(`${out}: ${entries.length} files, ${zip.length} bytes`);
