//! scripts/wasm-imports.mjs: gives the functions a wasm imports from its
//! wasm-bindgen glue short names, in the wasm and in the glue alike.
//!
//! wasm-bindgen names each import after the JavaScript it calls plus a hash
//! (`__wbg_querySelector_72201b7c62dc196b`). The lesson's build imports 212
//! of them: 7 KB of names in the wasm and the same names again as keys in
//! the glue, which gzip cannot shrink much (the hashes are random), about
//! 3 KB gzipped in each file. Emscripten shortens its imports the same way.
//!
//! `shortenImports(wasm, js)` returns both rewritten, or throws when the
//! glue does not name an import exactly as the wasm does (then nothing is
//! changed on disk by its caller). Only the import section changes: every
//! index in the wasm stays as it was.

/** Reads an unsigned LEB128 number at `at`: [value, next offset]. */
function uleb(bytes, at) {
  let value = 0;
  let shift = 0;
  for (;;) {
    const byte = bytes[at++];
    if (byte === undefined) throw new Error('the wasm ends inside a number');
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if (byte < 0x80) return [value, at];
  }
}

function writeUleb(value) {
  const out = [];
  do {
    let byte = value % 128;
    value = Math.floor(value / 128);
    if (value > 0) byte |= 0x80;
    out.push(byte);
  } while (value > 0);
  return Buffer.from(out);
}

/** Skips one import's description (after its kind byte) from `at`. */
function skipDescription(bytes, kind, at) {
  switch (kind) {
    case 0: // function: a type index
      return uleb(bytes, at)[1];
    case 1: // table: a one-byte reference type, then limits
      if (bytes[at] === 0x63 || bytes[at] === 0x64) throw new Error('typed reference tables are not handled');
      return skipLimits(bytes, at + 1);
    case 2: // memory: limits
      return skipLimits(bytes, at);
    case 3: // global: a value type and whether it is mutable
      if (bytes[at] === 0x63 || bytes[at] === 0x64) throw new Error('typed reference globals are not handled');
      return at + 2;
    case 4: // tag: an attribute byte and a type index
      return uleb(bytes, at + 1)[1];
    default:
      throw new Error(`unknown import kind ${kind}`);
  }
}

function skipLimits(bytes, at) {
  const flags = bytes[at];
  let next = uleb(bytes, at + 1)[1];
  if (flags & 1) next = uleb(bytes, next)[1];
  return next;
}

const IDENT = /[A-Za-z0-9_$]/;

/** Every place `name` stands as a whole token in `js`. */
function tokenCount(js, name) {
  let count = 0;
  for (let at = js.indexOf(name); at !== -1; at = js.indexOf(name, at + name.length)) {
    const before = js[at - 1];
    const after = js[at + name.length];
    if (!(before && IDENT.test(before)) && !(after && IDENT.test(after))) count += 1;
  }
  return count;
}

function replaceTokens(js, from, to) {
  let out = '';
  let last = 0;
  for (let at = js.indexOf(from); at !== -1; at = js.indexOf(from, at + from.length)) {
    const before = js[at - 1];
    const after = js[at + from.length];
    if (!(before && IDENT.test(before)) && !(after && IDENT.test(after))) {
      out += js.slice(last, at) + to;
      last = at + from.length;
    }
  }
  return out + js.slice(last);
}

/** The `n`th short name: `a`..`z`, `A`..`Z`, then two letters and on. */
function shortName(n) {
  const letters = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
  let name = '';
  do {
    name = letters[n % letters.length] + name;
    n = Math.floor(n / letters.length) - 1;
  } while (n >= 0);
  return name;
}

export function shortenImports(wasm, js) {
  const bytes = Buffer.from(wasm);
  if (bytes.readUInt32LE(0) !== 0x6d736100) throw new Error('not a wasm module');
  let at = 8;
  while (at < bytes.length) {
    const id = bytes[at];
    const [size, payload] = uleb(bytes, at + 1);
    const end = payload + size;
    if (id !== 2) {
      at = end;
      continue;
    }
    // The import section: rewrite each function import's name.
    const [count, first] = uleb(bytes, payload);
    const parts = [writeUleb(count)];
    const renames = new Map();
    let pos = first;
    let taken = 0;
    const fresh = () => {
      // A short name the glue does not already use as a token.
      for (;;) {
        const name = shortName(taken++);
        if (!['do', 'if', 'in'].includes(name) && tokenCount(js, name) === 0) return name;
      }
    };
    for (let i = 0; i < count; i++) {
      const start = pos;
      const [moduleLength, moduleAt] = uleb(bytes, pos);
      const nameLengthAt = moduleAt + moduleLength;
      const [nameLength, nameAt] = uleb(bytes, nameLengthAt);
      const name = bytes.subarray(nameAt, nameAt + nameLength).toString('utf8');
      const kindAt = nameAt + nameLength;
      const kind = bytes[kindAt];
      pos = skipDescription(bytes, kind, kindAt + 1);
      // Only wasm-bindgen's own names: anything else (or a name already
      // shortened by an earlier run) stays as it is.
      if (kind !== 0 || !/^__wb(g|indgen)/.test(name)) {
        parts.push(bytes.subarray(start, pos));
        continue;
      }
      if (tokenCount(js, name) !== 1) {
        throw new Error(`the glue names the import ${name} ${tokenCount(js, name)} times, not once`);
      }
      const short = renames.get(name) ?? fresh();
      renames.set(name, short);
      const shortBytes = Buffer.from(short, 'utf8');
      parts.push(bytes.subarray(start, nameLengthAt), writeUleb(shortBytes.length), shortBytes, bytes.subarray(kindAt, pos));
    }
    if (pos !== end) throw new Error('the import section does not end where its size says');
    const section = Buffer.concat(parts);
    let out = js;
    for (const [from, to] of renames) out = replaceTokens(out, from, to);
    const rewritten = Buffer.concat([bytes.subarray(0, at), Buffer.from([2]), writeUleb(section.length), section, bytes.subarray(end)]);
    return { wasm: rewritten, js: out, renamed: renames.size };
  }
  return { wasm: bytes, js, renamed: 0 };
}
