//! e2e/mock-openai.mjs: a small OpenAI-compatible chat-completions server
//! for the second-opinion tests. It listens on 127.0.0.1 and a free port
//! (another origin than the app, so the browser applies CORS for real),
//! answers `POST /v1/chat/completions` with `stream: true` as hosted
//! providers do (server-sent events of `chat.completion.chunk` objects, a
//! last chunk with `finish_reason`, then `data: [DONE]`), and answers CORS
//! preflights. One switchable behaviour decides each reply, so a test can
//! provoke every failure the page must explain.
//!
//! The good grade is built from the request itself: the dimension ids
//! named in the system message and a quote taken from the learner's answer
//! between its marker lines. The server counts preflights and posts, keeps
//! the Authorization and Referer headers it saw, and notes when a client
//! went away mid-reply (an aborted fetch). What it deliberately does not do: check a
//! key, or send anything to anyone.

import { createServer } from 'node:http';

/** Every behaviour a test can switch to. */
export const BEHAVIOURS = [
  'good', // a valid grade, streamed in small chunks
  'malformed', // JSON that breaks off inside its first entry
  'missing', // one dimension left out
  'score3', // the first dimension scored 3
  'unauthorized', // 401 with OpenAI's error body
  'rate-limited', // 429 with Retry-After
  'cors-refused', // the preflight is refused without CORS headers
  'stall', // headers and one chunk, then silence
  'slow', // a chunk every 300 ms for a minute, for Cancel
  'redirect', // 307 to state.redirectTo (another mock), CORS headers and all
  'huge', // a reply that streams 400 KiB of text, far past any grade
  'huge-error', // 500 with an HTML body that trickles on for 20 s
];

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers': 'authorization, content-type, accept',
  'access-control-expose-headers': 'retry-after',
  'access-control-max-age': '0',
};

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

/** The dimension ids the system message asks for, in its order. */
function dimensionsOf(system) {
  const m = /these dimension ids, once each: ([^.]+)\./.exec(system);
  return m ? m[1].split(',').map((s) => s.trim()) : [];
}

/** A short quote from the answer between the marker lines. */
function quoteFrom(user) {
  const m = /----- BEGIN [^\n]* -----\n([\s\S]*?)\n----- END /.exec(user);
  const words = (m ? m[1] : '').trim().split(/\s+/).slice(0, 4);
  return words.join(' ');
}

/** The grade text a behaviour asks for. */
export function gradeText(behaviour, dims, quote, scores = [2, 1, 2, 1, 0]) {
  const entries = dims.map((d, i) => ({
    dimension: d,
    score: behaviour === 'score3' && i === 0 ? 3 : scores[i % scores.length],
    evidence: quote,
    feedback: `Say more about ${d.replace(/_/g, ' ')} to raise this.`,
  }));
  if (behaviour === 'missing') entries.pop();
  const text = JSON.stringify({ scores: entries });
  // Malformed: the object breaks off inside its first entry.
  return behaviour === 'malformed' ? text.slice(0, 40) : text;
}

function chunk(model, delta, finish = null) {
  return `data: ${JSON.stringify({
    id: 'chatcmpl-mock',
    object: 'chat.completion.chunk',
    created: 1764460800,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  })}\n\n`;
}

/**
 * Start the mock. Resolves to `{ origin, baseUrl, state, set, until, close }`:
 * `set(name)` switches the behaviour; `state` holds `posts`, `preflights`,
 * `authorizations` and `aborted` (replies the client went away from);
 * `until(predicate)` resolves once `predicate(state)` holds, checked each
 * time the state changes (so a test waits on the event, not a sleep).
 */
export async function startMock() {
  const state = {
    behaviour: 'good',
    posts: 0,
    preflights: 0,
    authorizations: [],
    referers: [],
    aborted: 0,
    bodies: [],
    redirectTo: null,
  };
  const waiters = new Set();
  const changed = () => {
    for (const check of waiters) check();
  };
  const open = new Set();
  const server = createServer(async (req, res) => {
    open.add(res);
    res.on('close', () => open.delete(res));
    const url = new URL(req.url, 'http://x');
    if (req.method === 'OPTIONS') {
      state.preflights += 1;
      changed();
      if (state.behaviour === 'cors-refused') {
        res.writeHead(403, { 'content-type': 'text/plain' }).end('origin not allowed\n');
      } else {
        res.writeHead(204, CORS).end();
      }
      return;
    }
    if (req.method !== 'POST' || url.pathname !== '/v1/chat/completions') {
      res.writeHead(404, { ...CORS, 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `Unknown path ${url.pathname}`, type: 'invalid_request_error' } }));
      return;
    }
    state.posts += 1;
    state.authorizations.push(req.headers.authorization ?? null);
    state.referers.push(req.headers.referer ?? null);
    changed();
    let raw = '';
    for await (const part of req) raw += part;
    state.bodies.push(raw);
    const behaviour = state.behaviour;
    let gone = false;
    res.on('close', () => {
      if (!res.writableEnded) {
        gone = true;
        state.aborted += 1;
        changed();
      }
    });
    if (behaviour === 'redirect') {
      res.writeHead(307, { ...CORS, location: state.redirectTo ?? '/' }).end();
      return;
    }
    if (behaviour === 'huge-error') {
      res.writeHead(500, { ...CORS, 'content-type': 'text/html; charset=utf-8' });
      const line = `<p>${'Internal error. '.repeat(60)}</p>\n`;
      for (let i = 0; i < 2000 && !gone; i += 1) {
        res.write(line);
        await sleep(10);
      }
      if (!gone) res.end();
      return;
    }
    if (behaviour === 'cors-refused') {
      // A browser never gets here (the preflight failed); answer without CORS anyway.
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      return;
    }
    if (behaviour === 'unauthorized') {
      res.writeHead(401, { ...CORS, 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' },
        }),
      );
      return;
    }
    if (behaviour === 'rate-limited') {
      res.writeHead(429, { ...CORS, 'content-type': 'application/json', 'retry-after': '7' });
      res.end(JSON.stringify({ error: { message: 'Rate limit reached for requests.', type: 'requests', code: 'rate_limit_exceeded' } }));
      return;
    }
    let body = {};
    try {
      body = JSON.parse(raw);
    } catch {
      res.writeHead(400, { ...CORS, 'content-type': 'application/json' }).end('{"error":{"message":"bad JSON"}}');
      return;
    }
    const system = body.messages?.[0]?.content ?? '';
    const user = body.messages?.[1]?.content ?? '';
    const model = body.model ?? 'mock';
    res.writeHead(200, { ...CORS, 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.flushHeaders();
    res.write(': keep-alive\n\n');
    res.write(chunk(model, { role: 'assistant', content: '' }));
    const text = gradeText(behaviour, dimensionsOf(system), quoteFrom(user));
    if (behaviour === 'huge') {
      const piece = 'x'.repeat(1024);
      for (let i = 0; i < 400 && !gone; i += 1) {
        res.write(chunk(model, { content: piece }));
        await sleep(5);
      }
      if (!gone) {
        res.write(chunk(model, {}, 'stop'));
        res.end('data: [DONE]\n\n');
      }
      return;
    }
    if (behaviour === 'stall') {
      res.write(chunk(model, { content: text.slice(0, 10) }));
      return; // and never another byte
    }
    const pieces = text.match(/[\s\S]{1,24}/g) ?? [];
    const pause = behaviour === 'slow' ? 300 : 8;
    const rounds = behaviour === 'slow' ? 200 : 1;
    for (let r = 0; r < rounds && !gone; r += 1) {
      for (const p of pieces) {
        if (gone) return;
        res.write(chunk(model, { content: behaviour === 'slow' ? ' ' : p }));
        await sleep(pause);
      }
    }
    if (gone) return;
    res.write(chunk(model, {}, 'stop'));
    res.end('data: [DONE]\n\n');
  });
  await new Promise((ok, no) => {
    server.once('error', no);
    server.listen(0, '127.0.0.1', ok);
  });
  const origin = `http://127.0.0.1:${server.address().port}`;
  return {
    origin,
    baseUrl: `${origin}/v1`,
    state,
    set(name) {
      if (!BEHAVIOURS.includes(name)) throw new Error(`unknown behaviour ${name}`);
      state.behaviour = name;
    },
    until(predicate, { timeout = 10000 } = {}) {
      return new Promise((ok, no) => {
        const check = () => {
          if (!predicate(state)) return;
          waiters.delete(check);
          clearTimeout(timer);
          ok(state);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          no(new Error(`the mock's state never reached ${predicate} within ${timeout} ms`));
        }, timeout);
        waiters.add(check);
        check();
      });
    },
    close: () =>
      new Promise((ok) => {
        for (const res of open) res.destroy();
        server.closeAllConnections?.();
        server.close(() => ok());
      }),
  };
}
