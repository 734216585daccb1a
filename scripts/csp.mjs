#!/usr/bin/env node
// scripts/csp.mjs: writes the Content-Security-Policy into the released
// page. scripts/release runs it on dist/index.html right after trunk build:
//
//   node scripts/csp.mjs dist/index.html
//
// The policy is a <meta http-equiv> tag, because a static host may not let
// an instructor set headers. It goes right after <meta charset>, before
// anything it governs. Inline scripts and styles are allowed by their sha256 hashes,
// computed here from the built file (Trunk writes the wasm loader inline),
// so nothing else inline can run, even if text ever reached the page as
// HTML. Running it again replaces the tag with a fresh one.
//
// What each directive is for:
// - default-src 'self': the page's own files only (fonts, frames,
//   manifests and anything not named below).
// - script-src 'self' 'wasm-unsafe-eval' + hashes: the app's own JS glue,
//   its WebAssembly (compiling wasm needs 'wasm-unsafe-eval', not
//   'unsafe-eval'), and exactly the inline scripts in the built page.
// - style-src 'self' + hashes: the stylesheets and the inline start-up
//   styles. Styles set from code through the CSSOM are not inline styles.
// - img-src 'self' data:: the empty data: icon that stops a favicon fetch.
// - connect-src 'self' https: http://localhost:* http://127.0.0.1:*: the
//   page's own files (the wasm, an authored exercise by src=) and the AI
//   second opinion. Its endpoint is chosen by the learner at run time, and a
//   meta policy cannot change after load, so this allows exactly what
//   ttft-core's provider::parse_base_url accepts: https anywhere, plain
//   http only on this machine. (CSP cannot name [::1], so parse_base_url
//   refuses http://[::1] and says to use localhost or 127.0.0.1.)
// - worker-src 'self': the service worker (sw.js, which lets the page open
//   offline) and the Web Workers parts start from the site's own files
//   (the import part's trace reader, from worker-loader.js beside the
//   page). A worker's own scripts and its WebAssembly fall under the
//   worker's policy (its response headers), not this page's meta tag.
// - manifest-src 'self': the web app manifest beside the page, which lets
//   a browser install it.
// - object-src 'none', base-uri 'none', form-action 'none': no plugins, no
//   <base> that could re-point relative URLs, no form posts anywhere (every
//   form in the app is handled in the page).
//
// Deliberately absent: frame-ancestors (ignored in a meta tag, and
// instructors embed the page in their course pages) and report-uri (there
// is no server to report to).

import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';

/** The directives that do not depend on the built file. */
export const CONNECT_SRC = "'self' https: http://localhost:* http://127.0.0.1:*";

/** sha256 source expression of an inline element's exact text. */
function hash(text) {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/**
 * Whether a `<script>` with these attributes is JavaScript run from its
 * own text: not one with a `src`, nor a data block (a part's embed bar,
 * the names of the first views' files: any type but JavaScript's), which
 * never runs and so needs no hash. scripts/minify-page.mjs minifies by
 * the same rule.
 */
export function runsInline(attributes) {
  if (/\ssrc\s*=/i.test(attributes)) return false;
  const type = /\stype\s*=\s*"([^"]*)"/i.exec(attributes)?.[1]?.toLowerCase() ?? '';
  return type === '' || type === 'module' || type === 'text/javascript';
}

/** The text of every inline element `tag` (scripts: those that run) in `html`. */
function inline(html, tag) {
  const re = new RegExp(`<${tag}(\\s[^>]*)?>([\\s\\S]*?)</${tag}>`, 'gi');
  const out = [];
  for (const m of html.matchAll(re)) {
    if (tag === 'script' && !runsInline(m[1] ?? '')) continue;
    out.push(m[2]);
  }
  return out;
}

/** The policy for a built page. */
export function policyFor(html) {
  const unique = (list) => [...new Set(list)];
  const scripts = unique(inline(html, 'script').map(hash));
  const styles = unique(inline(html, 'style').map(hash));
  return [
    "default-src 'self'",
    ["script-src 'self' 'wasm-unsafe-eval'", ...scripts].join(' '),
    ["style-src 'self'", ...styles].join(' '),
    "img-src 'self' data:",
    `connect-src ${CONNECT_SRC}`,
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/** `html` with its policy tag written (or rewritten) first in <head>. */
export function withPolicy(html) {
  const without = html.replace(/\s*<meta http-equiv="Content-Security-Policy"[^>]*>/i, '');
  const tag = `<meta http-equiv="Content-Security-Policy" content="${policyFor(without)}">`;
  // Right after <meta charset> (which must stay in the first 1024 bytes),
  // else first in <head>: before any script or style it governs.
  const anchor = /<meta charset=[^>]*>/i.exec(without) ?? /<head(\s[^>]*)?>/i.exec(without);
  if (!anchor) throw new Error('the page has no <head> to put the policy in');
  const at = anchor.index + anchor[0].length;
  return `${without.slice(0, at)}\n    ${tag}${without.slice(at)}`;
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: node scripts/csp.mjs dist/index.html');
    process.exit(2);
  }
  const html = readFileSync(file, 'utf8');
  const out = withPolicy(html);
  writeFileSync(file, out);
  console.log(`Content-Security-Policy written into ${file}:\n  ${policyFor(out.replace(/\s*<meta http-equiv="Content-Security-Policy"[^>]*>/i, '')).split('; ').join(';\n  ')}`);
}
