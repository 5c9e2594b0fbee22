// What the payer's page tests ask of a page in headless Chromium: open it with every request and
// response counted and what its event streams sent kept, whether it fits the width, when its status reads a text, which visible text falls
// under the 4.5:1 contrast of WCAG AA. Page-side code is given as functions or text: this project's
// TypeScript has no DOM library, and the page's CSP forbids the eval a text predicate would need.
import type { Page } from 'playwright-core';
import type { Browser } from './browser.js';

export interface Opened {
  page: Page;
  /** Every URL the page asked for. */
  requests: string[];
  /** The bytes of every response body so far but the live status's. */
  bytes(): Promise<number>;
  /** The statuses the page's event streams (/events) delivered to it so far, in order (as Chromium's network layer saw them). */
  streamed(): Promise<any[]>;
}

export const isLiveStatus = (url: string) => /\/(events|status)$/.test(url);

/** The live status requests the page made, by the last part of their path (`events`, `status`), in order. */
export const liveRequests = (opened: Pick<Opened, 'requests'>) =>
  opened.requests.filter(isLiveStatus).map((url) => new URL(url).pathname.split('/').at(-1));

export async function openPage(browser: Browser, url: string, width: number): Promise<Opened> {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width, height: 900 });
  const requests: string[] = [];
  const sizes: Promise<number>[] = [];
  // Each server-sent message as it arrives: a stream the page closes itself has no body left to read afterwards.
  const streamed: any[] = [];
  const devtools = await browser.context.newCDPSession(page);
  devtools.on('Network.eventSourceMessageReceived', (message) => streamed.push(JSON.parse(message.data)));
  await devtools.send('Network.enable');
  page.on('request', (request) => requests.push(request.url()));
  page.on('response', (response) => {
    if (isLiveStatus(response.url())) return;
    sizes.push(
      response
        .body()
        .then((body) => body.length)
        .catch(() => 0),
    );
  });
  await page.goto(url, { waitUntil: 'load' });
  return {
    page,
    requests,
    bytes: async () => (await Promise.all(sizes)).reduce((a, b) => a + b, 0),
    streamed: async () => [...streamed],
  };
}

/** No horizontal scrolling. */
export const fitsWidth = (page: Page) =>
  page.evaluate<boolean>('document.documentElement.scrollWidth <= document.documentElement.clientWidth');

/** Waits for the page's status to read `text`; when it did (ms since the epoch). */
export async function statusBecomes(page: Page, text: string, timeoutMs: number): Promise<number> {
  await page.waitForFunction((expected) => (globalThis as any).document.getElementById('status')?.textContent === expected, text, {
    timeout: timeoutMs,
    polling: 50,
  });
  return Date.now();
}

/** Visible text whose contrast with its background is under 4.5:1 (WCAG AA), as `text (ratio)`. */
export const lowContrast = (page: Page) =>
  page.evaluate(() => {
    const doc = (globalThis as any).document;
    const view = (globalThis as any).window;
    const rgb = (text: string) => (text.match(/[\d.]+/g) ?? []).map(Number);
    const luminance = ([r, g, b]: number[]) => {
      const linear = (c: number) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
      return 0.2126 * linear(r!) + 0.7152 * linear(g!) + 0.0722 * linear(b!);
    };
    const background = (element: any): number[] => {
      for (let e = element; e; e = e.parentElement) {
        const color = rgb(view.getComputedStyle(e).backgroundColor);
        if (color.length === 3 || color[3] !== 0) return color.slice(0, 3);
      }
      return [255, 255, 255];
    };
    const low: string[] = [];
    for (const element of doc.querySelectorAll('h1, h2, p, label, button, textarea, span, dt, dd')) {
      if (!element.textContent.trim() || element.offsetParent === null || element.classList.contains('sr')) continue;
      const [a, b] = [luminance(rgb(view.getComputedStyle(element).color)), luminance(background(element))];
      const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
      if (ratio < 4.5) low.push(`${element.textContent.trim().slice(0, 30)} (${ratio.toFixed(2)})`);
    }
    return low;
  });
