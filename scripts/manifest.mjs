#!/usr/bin/env node
//! scripts/manifest.mjs: makes the released page installable. scripts/release
//! runs it on dist/ right after trunk build:
//!
//!   node scripts/manifest.mjs dist
//!
//! It renders every icon `content/app/manifest.webmanifest` lists, plus an
//! apple-touch-icon, from the one drawing `content/app/icon.svg`, with the
//! Chromium the tests use (through playwright-core): "any" icons as the
//! drawing is, with its rounded tile on a transparent ground; maskable ones
//! (and the apple-touch-icon, which iOS rounds itself) with the drawing at
//! 80% on a full-bleed ground of the tile's colour, so a launcher's circle
//! or squircle cuts nothing of it. It writes `dist/manifest.webmanifest`
//! (the source with the page's own `<meta name="description">`, so the two
//! never disagree) and links it from `dist/index.html` with the theme
//! colour and the apple-touch-icon. Every URL is relative to the manifest,
//! so the installed app works under any sub-path. Running it again
//! replaces what it wrote.
//!
//! If Chromium cannot render the icons the release stops here with what to
//! do: a page that claims to be installable with missing icons is worse
//! than one that does not claim it.
//!
//! Deliberately absent: a favicon link (the page keeps its empty `data:`
//! icon, so opening it costs no extra request) and any icon drawn by hand
//! in a second file.

import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE_MANIFEST = join(ROOT, 'content', 'app', 'manifest.webmanifest');
const SOURCE_ICON = join(ROOT, 'content', 'app', 'icon.svg');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
/** iOS reads this instead of the manifest's icons; 180 px is its size. */
const APPLE_TOUCH_ICON = { src: 'icons/apple-touch-icon.png', size: 180 };
/** Share of a maskable icon the drawing takes: its safe zone is the middle 80%. */
const MASKABLE_SCALE = 0.8;

/** The tile colour of the drawing: the fill of its `id="tile"` shape. */
function tileColour(svg) {
  const m = /<[^>]*\bid="tile"[^>]*\bfill="(#[0-9a-fA-F]{3,8})"/.exec(svg);
  if (!m) throw new Error(`${SOURCE_ICON} needs a shape with id="tile" and a fill="#rrggbb": the maskable icons use its colour as their ground`);
  return m[1];
}

/** A square side from a manifest `sizes` value such as "192x192". */
function side(sizes) {
  const m = /^(\d+)x(\1)$/.exec(sizes ?? '');
  if (!m) throw new Error(`${SOURCE_MANIFEST}: icon sizes ${JSON.stringify(sizes)} is not a square like "192x192"`);
  return Number(m[1]);
}

/** PNG bytes of `svg` at `size` px, full-bleed on `ground` when it is given. */
async function render(page, svg, size, ground) {
  const drawn = ground ? Math.round(size * MASKABLE_SCALE) : size;
  const src = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
  await page.setViewportSize({ width: size, height: size });
  await page.setContent(
    `<!doctype html><html><body style="margin:0;width:${size}px;height:${size}px;display:grid;place-items:center;background:${ground ?? 'transparent'}">` +
      `<img alt="" src="${src}" width="${drawn}" height="${drawn}"></body></html>`,
  );
  await page.locator('img').evaluate((img) => img.decode());
  return page.screenshot({ type: 'png', omitBackground: !ground, clip: { x: 0, y: 0, width: size, height: size } });
}

/** Every icon file to write: `{ src, size, maskable }`. */
function iconsOf(manifest) {
  const list = (manifest.icons ?? []).map((icon) => {
    if (icon.type !== 'image/png') throw new Error(`${SOURCE_MANIFEST}: icon ${icon.src} must be image/png (it is rendered from ${SOURCE_ICON})`);
    return { src: icon.src, size: side(icon.sizes), maskable: /\bmaskable\b/.test(icon.purpose ?? '') };
  });
  if (!list.some((i) => i.size >= 512) || !list.some((i) => i.size === 192)) {
    throw new Error(`${SOURCE_MANIFEST} must list a 192x192 and a 512x512 icon: browsers ask for both to install the app`);
  }
  return [...list, { src: APPLE_TOUCH_ICON.src, size: APPLE_TOUCH_ICON.size, maskable: true }];
}

/** The page's own description, from its `<meta name="description">`. */
function descriptionOf(html) {
  const m = /<meta name="description" content="([^"]*)">/.exec(html);
  if (!m) throw new Error('the page has no <meta name="description"> for the manifest to repeat');
  return m[1].replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
}

/** `html` with the manifest link, theme colour and apple-touch-icon (re)written before </head>. */
export function withInstallTags(html, manifest) {
  const without = html.replace(/\s*<!-- installable app: scripts\/manifest\.mjs -->[\s\S]*?<!-- \/installable app -->/, '');
  const tags = [
    '<!-- installable app: scripts/manifest.mjs -->',
    '<link rel="manifest" href="manifest.webmanifest">',
    `<meta name="theme-color" content="${manifest.theme_color}">`,
    `<link rel="apple-touch-icon" href="${APPLE_TOUCH_ICON.src}">`,
    '<!-- /installable app -->',
  ].join('\n    ');
  const at = without.search(/\s*<\/head>/i);
  if (at < 0) throw new Error('the page has no </head> to put the manifest link in');
  return `${without.slice(0, at)}\n    ${tags}${without.slice(at)}`;
}

async function main(dir) {
  const indexFile = join(dir, 'index.html');
  const [html, manifestText, svg] = await Promise.all([
    readFile(indexFile, 'utf8'),
    readFile(SOURCE_MANIFEST, 'utf8'),
    readFile(SOURCE_ICON, 'utf8'),
  ]);
  const source = JSON.parse(manifestText);
  const ground = tileColour(svg);
  const icons = iconsOf(source);

  let chromium;
  try {
    ({ chromium } = await import('playwright-core'));
  } catch (err) {
    throw new Error(`playwright-core is missing (${err.message}); scripts/setup.sh's ensure_node_packages installs it`);
  }
  let browser;
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
    const page = await browser.newPage({ deviceScaleFactor: 1 });
    for (const icon of icons) {
      const png = await render(page, svg, icon.size, icon.maskable ? ground : null);
      await mkdir(dirname(join(dir, icon.src)), { recursive: true });
      await writeFile(join(dir, icon.src), png);
      console.log(`  ${icon.src}: ${icon.size} px${icon.maskable ? ', full-bleed' : ''}, ${png.length} bytes`);
    }
  } catch (err) {
    throw new Error(
      `could not render the app's icons from content/app/icon.svg with Chromium at ${CHROMIUM}: ${err.message.split('\n')[0]}\n` +
        '  The release needs Chromium to make them: install it (apt-get install chromium) or name another one in CHROMIUM_PATH.',
    );
  } finally {
    await browser?.close();
  }

  const manifest = { ...source, description: descriptionOf(html) };
  await writeFile(join(dir, 'manifest.webmanifest'), `${JSON.stringify(manifest, null, 2)}\n`);
  await writeFile(indexFile, withInstallTags(html, manifest));
  console.log(`  manifest.webmanifest, linked from ${indexFile}`);
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const dir = process.argv[2];
  if (!dir) {
    console.error('usage: node scripts/manifest.mjs DIST_DIR');
    process.exit(2);
  }
  main(dir).catch((err) => {
    console.error(`scripts/manifest.mjs: ${err.message}`);
    process.exit(1);
  });
}
