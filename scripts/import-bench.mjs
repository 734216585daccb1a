//! scripts/import-bench.mjs: how long the real page takes to import a
//! 100,000-request vLLM OTLP JSONL file in headless Chromium, through the
//! file picker, from the moment the file is chosen until the page says
//! "Imported" (every slice read, decoded, parsed and split, the summary,
//! charts and first table page rendered), and the longest task the page's
//! main thread ran meanwhile (a `PerformanceObserver` for `longtask`
//! entries, which Chromium reports for every task over 50 ms; target: none
//! over 200 ms, so the page answers and Cancel works throughout).
//!
//! Usage: node scripts/import-bench.mjs [FILE] [--runs N]
//! Without FILE it uses target/ttft-import-bench/bench.otlp.jsonl, the file
//! `cargo bench -p ttft-import` writes (so the native and browser figures
//! are for the same bytes), generating an equivalent file there if it is
//! missing. Needs dist/ (./scripts/release). A report, not a timed test:
//! it prints the figures and exits 0 whatever they are.

import { existsSync, statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ROOT, launchBrowser, newPage, partUrl, startServer, traceReaderReady, waitForApp } from '../e2e/support.mjs';

const args = process.argv.slice(2);
const runsAt = args.indexOf('--runs');
const runs = runsAt >= 0 ? Math.max(1, Number(args[runsAt + 1]) || 1) : 3;
const given = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--runs');
const file = given ?? join(ROOT, 'target', 'ttft-import-bench', 'bench.otlp.jsonl');

/** The same deterministic spans as crates/ttft-import/benches/throughput.rs. */
async function generate(path, n) {
  let state = 7n;
  const next = () => {
    state = (state * 6364136223846793005n + 1442695040888963407n) & 0xffffffffffffffffn;
    return Number(state >> 11n) / 2 ** 53;
  };
  const hex = (v, w) => v.toString(16).padStart(w, '0');
  const lines = [];
  for (let i = 0; i < n; i++) {
    const q = next() * 2;
    const p = 0.05 + next() * 1.5;
    const ttft = q + p + 0.002 + next() * 0.01;
    const out = 1 + Math.floor(next() * 500);
    const dec = out * 0.025;
    const start = 1_700_000_000_000_000_000n + BigInt(i) * 10_000_000n;
    const end = start + BigInt(Math.floor((ttft + dec) * 1e9));
    const pt = 100 + Math.floor(next() * 8000);
    const attr = (k, v) => `{"key":"${k}","value":${v}}`;
    const d = (x) => `{"doubleValue":${x}}`;
    lines.push(
      `{"resourceSpans":[{"resource":{"attributes":[${attr('service.name', '{"stringValue":"vllm"}')}]},"scopeSpans":[{"scope":{"name":"vllm.llm_engine"},"spans":[{"traceId":"${hex(i, 32)}","spanId":"${hex(i, 16)}","name":"llm_request","kind":2,"startTimeUnixNano":"${start}","endTimeUnixNano":"${end}","attributes":[` +
        [
          attr('gen_ai.response.model', '{"stringValue":"meta-llama/Llama-3.1-8B-Instruct"}'),
          attr('gen_ai.request.id', `{"stringValue":"cmpl-${hex(i, 8)}"}`),
          attr('gen_ai.request.temperature', d(0.7)),
          attr('gen_ai.request.top_p', d(0.95)),
          attr('gen_ai.request.max_tokens', '{"intValue":"1024"}'),
          attr('gen_ai.usage.prompt_tokens', `{"intValue":"${pt}"}`),
          attr('gen_ai.usage.completion_tokens', `{"intValue":"${out}"}`),
          attr('gen_ai.latency.time_in_queue', d(q)),
          attr('gen_ai.latency.time_to_first_token', d(ttft)),
          attr('gen_ai.latency.e2e', d(ttft + dec)),
          attr('gen_ai.latency.time_in_model_prefill', d(p)),
          attr('gen_ai.latency.time_in_model_decode', d(dec)),
          attr('gen_ai.latency.time_in_model_inference', d(p + dec)),
        ].join(',') +
        `],"status":{}}]}]}]}`,
    );
  }
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, lines.join('\n') + '\n');
}

if (!existsSync(file)) {
  console.log(`generating ${file} (100,000 requests)`);
  await generate(file, 100_000);
}
const bytes = statSync(file).size;
const server = await startServer();
const browser = await launchBrowser();
const times = [];
const longest = [];
try {
  for (let run = 0; run < runs; run++) {
    const { page, context, problems } = await newPage(browser, server.origin);
    await page.addInitScript(() => {
      window.__longTasks = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, ms: e.duration });
      }).observe({ type: 'longtask', buffered: true });
    });
    await page.goto(partUrl(server, 'import'));
    await waitForApp(page);
    // The file input shows at once, and is enabled once the trace reader
    // (a worker) has started; a file given to it before is not read.
    await traceReaderReady(page);
    await page.evaluate(() => {
      document.getElementById('import-file').addEventListener('change', () => { window.__importStart = performance.now(); }, { capture: true, once: true });
    });
    await page.getByLabel('Choose a trace file').setInputFiles(file);
    const handle = await page.waitForFunction(
      () => {
        const status = document.querySelector('.import-status [role="status"]');
        if (!status || !/Imported|could not|Cancelled/.test(status.textContent)) return false;
        return { ms: performance.now() - window.__importStart, text: status.textContent, rows: document.querySelectorAll('.requests-table tbody tr').length };
      },
      null,
      { polling: 'raf', timeout: 600_000 },
    );
    const result = await handle.jsonValue();
    // Two frames more, so a long task that just ended has been reported.
    const tasks = await page.evaluate(
      () =>
        new Promise((ok) =>
          requestAnimationFrame(() =>
            requestAnimationFrame(() => ok(window.__longTasks.filter((t) => t.start + t.ms >= window.__importStart))),
          ),
        ),
    );
    const worst = tasks.reduce((m, t) => Math.max(m, t.ms), 0);
    longest.push(worst);
    const caption = await page.locator('#import-table-caption').innerText().catch(() => '(no table)');
    times.push(result.ms);
    console.log(`run ${run + 1}: ${(result.ms / 1000).toFixed(2)} s (${result.text.trim()}; ${caption.trim()}; ${result.rows} rows drawn; longest main-thread task ${worst.toFixed(0)} ms, ${tasks.length} over 50 ms)${problems.length ? `; problems: ${problems.join('; ')}` : ''}`);
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)];
console.log(
  `import of ${(bytes / 1e6).toFixed(1)} MB (${file}) through the page: median ${(median / 1000).toFixed(2)} s over ${times.length} runs ` +
    `(${(bytes / 1e6 / (median / 1000)).toFixed(1)} MB/s; target under 1 s); ` +
    `longest main-thread task ${Math.max(...longest).toFixed(0)} ms (target: none over 200 ms)`,
);
