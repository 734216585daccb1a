//! e2e/page-scripts.test.mjs: the release step's page rewriters, on small
//! inputs, without a browser. scripts/minify-page.mjs must make the page
//! and its stylesheets smaller without changing what they mean (a string
//! or a space that carries meaning is kept, a data block is left as it
//! is, markup named inside a comment is not taken for an element), and
//! scripts/csp.mjs must hash exactly the inline scripts that run. The
//! end-to-end tests check the released page itself in Chromium.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { minifyCss, minifyPage } from '../scripts/minify-page.mjs';
import { policyFor, runsInline } from '../scripts/csp.mjs';

test('minifyCss drops comments and spare whitespace and keeps what carries meaning', () => {
  const css = `/* the page */
a:hover  ,  b > c {
  color: red;   /* a note */
  width: calc(100% - 2rem);
  content: "a  /* not a comment */  b";
}
nav :focus-visible { outline: 2px solid; }
`;
  assert.equal(
    minifyCss(css),
    'a:hover,b > c{color: red;width: calc(100% - 2rem);content: "a  /* not a comment */  b"}' +
      'nav :focus-visible{outline: 2px solid}',
  );
  assert.equal(minifyCss("q::before { content: '\\'' }"), "q::before{content: '\\''}");
  assert.throws(() => minifyCss('a { /* open'), /never ends/);
  assert.throws(() => minifyCss('a { content: "open }'), /never ends/);
});

test('runsInline tells a script that runs from a data block or a file', () => {
  assert.equal(runsInline(''), true);
  assert.equal(runsInline(' type="module"'), true);
  assert.equal(runsInline(' type="text/javascript"'), true);
  assert.equal(runsInline(' type="application/json" id="first-view-files"'), false);
  assert.equal(runsInline(' type="text/html" id="first-view-embed-bar-trace"'), false);
  assert.equal(runsInline(' src="./app.js"'), false);
});

test('minifyPage minifies the scripts that run and leaves data blocks and text alone', async () => {
  const page = `<head>
    <!-- names <script type="application/json"> in passing -->
    <script>
      // says why
      var answer = 40 + 2;
      document.title = String(answer);
    </script>
    <script type="application/json" id="first-view-files">{"lesson": "a.html"}</script>
  </head>
  <body><p>Two  spaces stay.</p><script type="text/html" id="bar"><!-- kept --></script></body>`;
  const out = await minifyPage(page);
  assert.ok(!out.includes('says why') && !out.includes('names <script'), out);
  assert.ok(out.includes('<script type="application/json" id="first-view-files">{"lesson": "a.html"}</script>'), out);
  assert.ok(out.includes('<script type="text/html" id="bar"><!-- kept --></script>'), out);
  assert.ok(out.includes('<p>Two  spaces stay.</p>'), out);
  const script = /<script>([\s\S]*?)<\/script>/.exec(out)[1];
  const original = /<script>([\s\S]*?)<\/script>/.exec(page)[1];
  assert.ok(script.length < original.length / 2 && !script.includes('\n'), script);
  // What the minified script does is what the original did.
  const document = {};
  new Function('document', script)(document);
  assert.equal(document.title, '42');
});

test('the policy hashes the scripts that run and no data block', () => {
  const policy = policyFor(
    '<script>run()</script><script type="application/json">{}</script>' +
      '<script type="text/html"><p></p></script><script src="./a.js"></script>',
  );
  const scriptSrc = policy.split('; ').find((d) => d.startsWith('script-src'));
  assert.equal(scriptSrc.match(/'sha256-/g).length, 1, scriptSrc);
});
