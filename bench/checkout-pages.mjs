// The open payer's pages of bench/checkout.ts, in a worker thread of their own so that their event
// loop is not the one timing /healthz. Each page is what the page's script does, without a browser:
// `poll` asks GET /pay/{token}/status one second after each answer; `sse` holds GET /pay/{token}/events
// open. Every page has its own client address (X-Forwarded-For, the engine runs with TRUST_PROXY=true),
// as real payers do, so the per-IP protection counts each page apart.
import { Agent, request } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

// Messages in: the number of pages to hold open. Out: {open, answers, errors} after each change.
// Plain JavaScript: a worker thread's entry is not run through tsx.

const { port, tokens, mode } = workerData;
const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
const POLL_MS = 1000;
let answers = 0;
let errors = 0;
/** Each open page's close. */
const pages = [];

const addressOf = (i) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

function pollingPage(i) {
  let stopped = false;
  let timer;
  const ask = () => {
    if (stopped) return;
    const req = request(
      { host: '127.0.0.1', port, path: `/pay/${tokens[i % tokens.length]}/status`, agent, headers: { 'x-forwarded-for': addressOf(i) } },
      (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode === 200) answers += 1;
          else errors += 1;
          timer = setTimeout(ask, POLL_MS);
        });
      },
    );
    req.on('error', () => {
      errors += 1;
      timer = setTimeout(ask, POLL_MS);
    });
    req.end();
  };
  // Spread the first asks over a second, as pages opened at different moments are.
  timer = setTimeout(ask, Math.random() * POLL_MS);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

function streamingPage(i) {
  const req = request({
    host: '127.0.0.1',
    port,
    path: `/pay/${tokens[i % tokens.length]}/events`,
    headers: { 'x-forwarded-for': addressOf(i), accept: 'text/event-stream' },
    agent: false,
  });
  req.on('response', (res) => {
    if (res.statusCode !== 200) errors += 1;
    res.on('data', () => (answers += 1));
    res.on('error', () => {});
  });
  req.on('error', () => (errors += 1));
  req.end();
  return () => req.destroy();
}

parentPort.on('message', (wanted) => {
  while (pages.length < wanted) pages.push((mode === 'poll' ? pollingPage : streamingPage)(pages.length));
  while (pages.length > wanted) pages.pop()();
  parentPort.postMessage({ open: pages.length, answers, errors });
});
