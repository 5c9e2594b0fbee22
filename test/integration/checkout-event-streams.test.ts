// The payer's page's live status by server-sent events (src/api/checkout/live.ts), over real HTTP
// against a stack with small bounds: the total cap on open streams refuses the next one with a 503 the
// page answers by polling, a stream ends after its lifetime with a `retry:` so the page reconnects at
// once and the reconnect starts with the current status, and a viewer that joins is sent the status
// alone (the viewers already there are sent nothing). Then the same in headless Chromium: the page
// reconnects after the lifetime and still flips to paid (a screenshot goes to test-artifacts/checkout/),
// and a page refused a stream polls and flips.
import { mkdir } from 'node:fs/promises';
import { request, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type Browser } from '../helpers/browser.js';
import { openPage, statusBecomes } from '../helpers/checkout-page.js';
import { createCharge, payCharge, waitForStatus } from '../helpers/charges.js';
import { eventually } from '../helpers/eventually.js';
import { createMerchant } from '../helpers/fixtures.js';
import { liveStack } from '../helpers/live-stack.js';

const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'checkout');
const CAP = 3;
const LIFETIME_SECONDS = 8;
const live = liveStack({
  env: { CHECKOUT_EVENT_STREAMS_MAX: String(CAP), CHECKOUT_EVENT_STREAM_LIFETIME_SECONDS: String(LIFETIME_SECONDS) },
});

interface OpenStream {
  status: number;
  headers: IncomingHttpHeaders;
  /** Everything received so far. */
  text(): string;
  /** The data of each whole event received so far, parsed. */
  events(): any[];
  /** When the server ended the response (ms since the epoch). */
  ended: Promise<number>;
  close(): void;
}

async function openStream(url: string): Promise<OpenStream> {
  const req = request(url, { headers: { accept: 'text/event-stream' } });
  const res = await new Promise<IncomingMessage>((resolve, reject) => {
    req.once('response', resolve);
    req.once('error', reject);
    req.end();
  });
  let text = '';
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => (text += chunk));
  res.on('error', () => {}); // closed by the test
  const ended = new Promise<number>((resolve) => res.once('end', () => resolve(Date.now())));
  const events = () =>
    text
      .split('\n\n')
      .slice(0, -1)
      .flatMap((block) => block.split('\n').filter((line) => line.startsWith('data: ')))
      .map((line) => JSON.parse(line.slice('data: '.length)));
  return { status: res.statusCode!, headers: res.headers, text: () => text, events, ended, close: () => req.destroy() };
}

const tokenOf = (charge: { checkoutUrl: string }) => new URL(charge.checkoutUrl).pathname;
const pageUrl = (charge: { checkoutUrl: string }) => `${live.stack.rootUrl}${tokenOf(charge)}`;
const eventsUrl = (charge: { checkoutUrl: string }) => `${pageUrl(charge)}/events`;
const states = (stream: OpenStream) => stream.events().map((status) => status.state);

/** A stream of `url` once the server has let go of the streams earlier tests closed. */
const openAccepted = (url: string) =>
  eventually(async () => {
    const stream = await openStream(url);
    if (stream.status === 200) return stream;
    stream.close();
    return undefined;
  });

describe('the event stream of the payer page', { timeout: 60_000 }, () => {
  let merchant: Awaited<ReturnType<typeof createMerchant>>;
  beforeAll(async () => {
    merchant = await createMerchant(live.stack, { name: 'Padaria Pão Quente Ltda' });
  });

  it('sends a viewer that joins the status alone: the viewer already there receives exactly its own events', async () => {
    const charge = await createCharge(merchant.client);
    const first = await openAccepted(eventsUrl(charge));
    await eventually(() => first.events().length === 1);
    const second = await openAccepted(eventsUrl(charge));
    await eventually(() => second.events().length === 1);
    const third = await openAccepted(eventsUrl(charge));
    await eventually(() => third.events().length === 1);
    // Two reads of the watcher (one a second) after the joins: nothing changed, so nothing is sent.
    await sleep(2500);
    for (const stream of [first, second, third]) {
      expect(stream.events()).toEqual([
        { state: 'pending', message: 'Aguardando pagamento', secondsLeft: expect.any(Number), ready: true },
      ]);
    }

    expect((await payCharge(live.stack, charge.id)).status).toBe(200);
    for (const stream of [first, second, third]) {
      await stream.ended;
      expect(states(stream)).toEqual(['pending', 'paid']);
    }
  });

  it('ends a stream after its lifetime with a prompt retry, and the reconnect starts with the current status', async () => {
    const charge = await createCharge(merchant.client);
    const stream = await openAccepted(eventsUrl(charge));
    const openedAt = Date.now();
    expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    const endedAt = await stream.ended;
    // Between 90 % and 100 % of the lifetime (spread so that streams opened together do not reconnect together).
    expect(endedAt - openedAt).toBeGreaterThanOrEqual(LIFETIME_SECONDS * 900 - 200);
    expect(endedAt - openedAt).toBeLessThan(LIFETIME_SECONDS * 1000 + 1000);
    const retry = /^retry: (\d+)\n/.exec(stream.text());
    expect(Number(retry?.[1])).toBeGreaterThan(0);
    expect(Number(retry?.[1])).toBeLessThanOrEqual(2000);
    expect(states(stream)).toEqual(['pending']);

    // Paid while no stream was open: the reconnect's first event says so, and that stream ends.
    expect((await payCharge(live.stack, charge.id)).status).toBe(200);
    await waitForStatus(merchant.client, charge.id, 'approved');
    const again = await openAccepted(eventsUrl(charge));
    await again.ended;
    expect(again.events()).toEqual([{ state: 'paid', message: 'Pagamento confirmado', secondsLeft: 0, ready: true }]);
  });

  it(`refuses the stream past ${CAP} open ones with a 503 and Retry-After, and changes nothing`, async () => {
    const charge = await createCharge(merchant.client);
    const other = await createCharge(merchant.client);
    const held = [await openAccepted(eventsUrl(charge)), await openAccepted(eventsUrl(charge)), await openAccepted(eventsUrl(other))];

    const refused = await openStream(eventsUrl(charge));
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toMatch(/^[1-9]\d*$/);
    expect(refused.headers['content-type']).toMatch(/^application\/json/);
    await refused.ended;
    expect(JSON.parse(refused.text())).toMatchObject({
      success: false,
      error: { code: 'internal_error' },
      requestId: expect.stringMatching(/^req_/),
    });
    // Where the page goes instead: the status route still answers.
    const polled = await fetch(`${pageUrl(charge)}/status`);
    expect(polled.status).toBe(200);
    expect(((await polled.json()) as any).data.state).toBe('pending');

    // The held streams are untouched and still live: the payment reaches those of its charge.
    expect((await payCharge(live.stack, charge.id)).status).toBe(200);
    await Promise.all(held.slice(0, 2).map((stream) => stream.ended));
    expect(held.slice(0, 2).map(states)).toEqual([
      ['pending', 'paid'],
      ['pending', 'paid'],
    ]);
    expect(states(held[2]!)).toEqual(['pending']);

    // Once they are gone, a stream is served again.
    const next = await openAccepted(eventsUrl(other));
    await eventually(() => next.events().length === 1);
    next.close();
    held[2]!.close();
  });

  describe('in headless Chromium', () => {
    let browser: Browser;
    beforeAll(async () => {
      await mkdir(ARTIFACTS, { recursive: true });
      browser = await launchBrowser();
    }, 60_000);
    afterAll(async () => {
      await browser?.close();
    });

    it('reconnects after the stream ends at its lifetime and still flips to paid', async () => {
      const charge = await createCharge(merchant.client);
      const { page, requests } = await openPage(browser, pageUrl(charge), 375);
      const streams = () => requests.filter((url) => url.endsWith('/events')).length;
      await eventually(() => streams() >= 2, (LIFETIME_SECONDS + 5) * 1000, 100);
      await sleep(500); // the reconnected stream is open

      expect((await payCharge(live.stack, charge.id)).status).toBe(200);
      const flippedAt = await statusBecomes(page, 'Pagamento confirmado', 5000);
      const approved = (await merchant.client.get(`/transactions/${charge.id}`)).body.data;
      expect(flippedAt - Date.parse(approved.approvedAt)).toBeLessThan(2000);
      expect(await page.isHidden('#pay')).toBe(true);
      expect(requests.filter((url) => url.endsWith('/status'))).toEqual([]);
      await page.screenshot({ path: join(ARTIFACTS, 'paid-after-reconnect-375.png'), fullPage: true });
      await page.close();
    });

    it(`polls when the stream is refused (${CAP} open) and still flips to paid`, async () => {
      const charge = await createCharge(merchant.client);
      const held = await Promise.all(Array.from({ length: CAP }, () => openAccepted(eventsUrl(charge))));
      const { page, requests } = await openPage(browser, pageUrl(charge), 375);
      await eventually(() => requests.some((url) => url.endsWith('/status')), 5000, 100);

      expect((await payCharge(live.stack, charge.id)).status).toBe(200);
      const flippedAt = await statusBecomes(page, 'Pagamento confirmado', 5000);
      const approved = (await merchant.client.get(`/transactions/${charge.id}`)).body.data;
      expect(flippedAt - Date.parse(approved.approvedAt)).toBeLessThan(2000);
      expect(requests.filter((url) => url.endsWith('/events'))).toHaveLength(1);
      await page.close();
      await Promise.all(held.map((stream) => stream.ended));
    });
  });
});
