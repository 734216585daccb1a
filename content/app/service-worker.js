// ttft-lab's service worker: what lets the course open again with no
// network. scripts/service-worker.mjs writes it into dist/sw.js at release
// time, with `BUILD` above this line: this version's name and every file of
// the build with the sha-256 of its bytes, in two lists.
//
// - `BUILD.precache`: what every part needs (the page, the app's wasm, JS and
//   CSS, the manifest and icons, the small files for instructors). All of
//   it is downloaded when this version installs, each file checked against
//   its hash, into one cache named for the version; the page is served from
//   it first. A host caught between two versions fails the check and the
//   install, so a page never mixes two builds.
// - `BUILD.onDemand`: files a part loads only when it is opened (a Web
//   Worker's wasm, say). Each is kept the first time it is fetched, checked
//   against its hash, and served from the cache after that; an unchanged
//   file (same name, same hash) stays kept across versions.
// - Any other GET under the scope (an instructor's exercise file beside the
//   app, say) goes to the network first and falls back to the copy kept
//   from its last fetch.
//
// Offline with no copy, the page is told once per fetch (a
// `ttft-lab:needs-connection` message) and the request gets a plain 503.
// A new version waits until a page asks it to take over (the page offers
// Reload; it never reloads itself), then deletes the old version's cache.
// Caches are named for the scope, so two copies of ttft-lab on one origin
// never delete each other's.
//
// Deliberately absent: requests outside the scope or to another origin
// (left to the browser), anything but GET, and the `.gz`/`.br` copies the
// release writes for hosts: the browser asks for the file itself and the
// host picks the encoding, so those are never cached or served as files.

/* global BUILD */
'use strict';

const SCOPE = new URL(self.registration.scope);
const PREFIX = `ttft-lab ${SCOPE.pathname} `;
const APP_CACHE = `${PREFIX}app ${BUILD.version}`;
const PARTS_CACHE = `${PREFIX}parts`;
const OTHER_CACHE = `${PREFIX}other`;
const at = (path) => new URL(path, SCOPE).href;
const APP = new Map(BUILD.precache.map(([path, sha]) => [at(path), sha]));
const PARTS = new Map(BUILD.onDemand.map(([path, sha]) => [at(path), sha]));
const PAGE = at('index.html');
/** An on-demand file's key in its cache carries its hash, so versions can share it. */
const partKey = (url, sha) => `${url}?sha256=${sha}`;

const OFFLINE_TEXT =
  'ttft-lab: this file has not been opened online on this device, so no copy of it is kept here. ' +
  'Connect to the network and open it again; it will be kept for next time.\n';

/** The sha-256 of `bytes` in hex. */
async function sha256(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The file at `url` from the network as a fresh Response, once its bytes
 * match `sha`. The body is already decoded, so only its type is kept.
 * 'no-cache' asks the host whether the browser's own copy is current, so
 * files the page has just downloaded are not downloaded twice where the
 * host allows revalidation, and a stale copy is never taken on trust.
 */
async function download(url, sha) {
  const res = await fetch(url, { cache: 'no-cache', credentials: 'same-origin', redirect: 'error' });
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  const bytes = await res.arrayBuffer();
  if ((await sha256(bytes)) !== sha) throw new Error(`${url} is not the file this version of ttft-lab lists`);
  return new Response(bytes, { headers: { 'content-type': res.headers.get('content-type') || 'application/octet-stream' } });
}

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(APP_CACHE);
      await Promise.all(Array.from(APP, async ([url, sha]) => cache.put(url, await download(url, sha))));
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const keep = new Set([APP_CACHE, PARTS_CACHE, OTHER_CACHE]);
      for (const name of await caches.keys()) {
        if (name.startsWith(PREFIX) && !keep.has(name)) await caches.delete(name);
      }
      const parts = await caches.open(PARTS_CACHE);
      const listed = new Set(Array.from(PARTS, ([url, sha]) => partKey(url, sha)));
      for (const request of await parts.keys()) {
        if (!listed.has(request.url)) await parts.delete(request);
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('message', (event) => {
  if (event.data?.type === 'ttft-lab:activate') self.skipWaiting();
});

/** Tells the page that made `event`'s request (or, from a worker, every page) that it needs a connection. */
async function tellNeedsConnection(event, url) {
  const pages = await self.clients.matchAll({ type: 'window' });
  const own = pages.find((client) => client.id === event.clientId);
  for (const client of own ? [own] : pages) client.postMessage({ type: 'ttft-lab:needs-connection', url });
}

function offline(event, url) {
  event.waitUntil(tellNeedsConnection(event, url));
  return new Response(OFFLINE_TEXT, { status: 503, statusText: 'Offline', headers: { 'content-type': 'text/plain; charset=utf-8' } });
}

async function fromApp(event, url) {
  const kept = await (await caches.open(APP_CACHE)).match(url);
  if (kept) return kept;
  try {
    return await fetch(event.request);
  } catch {
    return offline(event, url);
  }
}

async function fromParts(event, url) {
  const sha = PARTS.get(url);
  const cache = await caches.open(PARTS_CACHE);
  const kept = await cache.match(partKey(url, sha));
  if (kept) return kept;
  try {
    const fresh = await download(url, sha);
    await cache.put(partKey(url, sha), fresh.clone());
    return fresh;
  } catch {
    // Offline, or the host is between two versions: the network's answer,
    // if there is one, uncached.
    try {
      return await fetch(event.request);
    } catch {
      return offline(event, url);
    }
  }
}

async function fromNetworkFirst(event) {
  const cache = await caches.open(OTHER_CACHE);
  try {
    const res = await fetch(event.request);
    if (res.ok && res.type === 'basic') await cache.put(event.request, res.clone());
    return res;
  } catch {
    return (await cache.match(event.request)) ?? offline(event, event.request.url);
  }
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== SCOPE.origin || !url.pathname.startsWith(SCOPE.pathname)) return;
  if (/\.(gz|br)$/.test(url.pathname)) return;
  const file = url.origin + url.pathname;
  if (request.mode === 'navigate' && (url.pathname === SCOPE.pathname || file === PAGE)) {
    // Every part is the one page with another ?part=.
    event.respondWith(fromApp(event, PAGE));
  } else if (url.search === '' && APP.has(file)) {
    event.respondWith(fromApp(event, file));
  } else if (url.search === '' && PARTS.has(file)) {
    event.respondWith(fromParts(event, file));
  } else {
    event.respondWith(fromNetworkFirst(event));
  }
});
