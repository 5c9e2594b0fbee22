// The payer's page (design/checkout-page.md) in a real browser: headless Chromium opens the
// checkoutUrl of a charge and checks what a payer sees and does: the QR decodes to the charge's
// copy-and-paste code, the copy button puts it on the clipboard, the status turns to paid after the
// approval and to expired after the validity, each by the page's event stream (not a poll, not a
// reload), no payer data in the page, nothing asked of another origin, no horizontal scrolling on a
// 375-pixel phone. Screenshots at 375 and 1280 pixels go to test-artifacts/checkout/ (gitignored). How
// long the page takes to show and to flip is measured by `npm run bench:checkout`, not here.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeQrPngBase64 } from '../../src/domain/qrcode.js';
import { addDays, saoPauloDate } from '../../contracts/calendar.js';
import { launchBrowser, type Browser } from '../helpers/browser.js';
import { fitsWidth, isLiveStatus, liveRequests, lowContrast, openPage, statusBecomes } from '../helpers/checkout-page.js';
import { createCharge, payCharge } from '../helpers/charges.js';
import { createMerchant } from '../helpers/fixtures.js';
import { startStack, type Stack } from '../helpers/stack.js';

const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'checkout');
const TTL_SECONDS = 20;
const PAYER = { name: 'Joana Pagadora Souza', document: '52998224725', email: 'joana.pagadora@example.com' };

describe('the payer page in headless Chromium', () => {
  let stack: Stack;
  let browser: Browser;
  let merchant: Awaited<ReturnType<typeof createMerchant>>;

  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    stack = await startStack({ env: { CHARGE_TTL_SECONDS: String(TTL_SECONDS), TRUST_PROXY: 'true' } });
    browser = await launchBrowser();
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.rootUrl });
    merchant = await createMerchant(stack, { name: 'Padaria Pão Quente Ltda' });
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  /** The page of a charge, asked of the stack's address (checkoutUrl names http://localhost:PORT). */
  const pageUrl = (charge: { checkoutUrl: string }) => `${stack.rootUrl}${new URL(charge.checkoutUrl).pathname}`;

  const open = (url: string, width: number) => openPage(browser, url, width);

  it('gives every charge a checkoutUrl with a random token, not derived from the id', async () => {
    const a = await createCharge(merchant.client, { payer: PAYER });
    const b = await createCharge(merchant.client, { payer: PAYER });
    const port = new URL(stack.rootUrl).port;
    for (const charge of [a, b]) {
      expect(charge.checkoutUrl).toMatch(new RegExp(`^http://localhost:${port}/pay/[A-Za-z0-9_-]{43}$`));
      expect(charge.checkoutUrl).not.toContain(charge.id);
    }
    expect(a.checkoutUrl).not.toBe(b.checkoutUrl);
    const read = await merchant.client.get(`/transactions/${a.id}`);
    expect(read.body.data.checkoutUrl).toBe(a.checkoutUrl);
  });

  it('shows the charge, decodes its QR, copies its code, shows no payer data and flips to paid by its event stream', async () => {
    const charge = await createCharge(merchant.client, { amount: 149.9, description: 'Pão de queijo (dúzia)', payer: PAYER });
    const url = pageUrl(charge);

    const head = await fetch(url);
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = head.headers.get('content-security-policy')!;
    expect(csp).toMatch(/script-src 'nonce-[A-Za-z0-9+/=]+'/);
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(head.headers.get('referrer-policy')).toBe('no-referrer');
    expect(head.headers.get('cache-control')).toBe('no-store');

    const opened = await open(url, 375);
    const { page } = opened;
    expect(await page.getAttribute('html', 'lang')).toBe('pt-BR');
    await expect(page.textContent('h1')).resolves.toBe('Padaria Pão Quente Ltda');
    const text = (await page.textContent('main'))!;
    expect(text).toContain('Pão de queijo (dúzia)');
    expect(text).toContain('R$ 149,90');
    expect(text).toContain('Aguardando pagamento');
    expect(text).toMatch(/Tempo restante: 00:(1\d|20)/);

    const qr = await page.locator('img.qr').screenshot();
    expect(decodeQrPngBase64(qr.toString('base64'))).toBe(charge.pix.copyPaste);

    expect(await lowContrast(page)).toEqual([]);
    // By keyboard: the button takes the focus and Enter copies.
    await page.focus('#copy');
    await page.keyboard.press('Enter');
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(charge.pix.copyPaste);
    await expect(page.textContent('#copy')).resolves.toBe('Código copiado');

    const dom = await page.content();
    for (const personal of [PAYER.name, PAYER.document, PAYER.email, 'Joana', charge.id, merchant.account.id]) {
      expect(dom).not.toContain(personal);
    }
    expect(await fitsWidth(page)).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, 'pending-375.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: join(ARTIFACTS, 'pending-1280.png'), fullPage: true });

    const paid = await payCharge(stack, charge.id);
    expect(paid.status).toBe(200);
    await statusBecomes(page, 'Pagamento confirmado', 30_000);
    expect((await merchant.client.get(`/transactions/${charge.id}`)).body.data.status).toBe('approved');
    // The flip came through the page's one event stream, which sent the pending status and then the paid one.
    expect(liveRequests(opened)).toEqual(['events']);
    expect((await opened.streamed()).map((status) => status.state)).toEqual(['pending', 'paid']);
    expect(await page.isHidden('#pay')).toBe(true);
    expect(await lowContrast(page)).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, 'paid-1280.png'), fullPage: true });
    await page.setViewportSize({ width: 375, height: 900 });
    await page.screenshot({ path: join(ARTIFACTS, 'paid-375.png'), fullPage: true });

    const bytes = await opened.bytes();
    const origin = new URL(stack.rootUrl).origin;
    for (const request of opened.requests) expect(new URL(request).origin).toBe(origin);
    const load = opened.requests.filter((url) => !isLiveStatus(url));
    expect(load).toHaveLength(2); // the page and its QR image
    expect(bytes).toBeLessThan(100 * 1024);
    await page.close();
  });

  it('shows a due-date charge with the amount due today and its due date', async () => {
    const today = saoPauloDate(new Date());
    const dueDate = addDays(today, 5);
    const charge = await createCharge(merchant.client, {
      amount: 1000,
      dueDate,
      discounts: [{ until: addDays(today, 2), mode: 'fixed', value: 50 }],
      payer: PAYER,
    });
    expect(charge.amountDue).toBe(950);
    const { page } = await open(pageUrl(charge), 375);
    const text = (await page.textContent('main'))!;
    expect(text).toContain('Valor a pagar hoje');
    expect(text).toContain('R$ 950,00');
    expect(text).toContain(`Vencimento: ${dueDate.split('-').reverse().join('/')}`);
    expect(text).toMatch(/Tempo restante: \d+ dias( e \d+ h)?/);
    expect(await fitsWidth(page)).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, 'due-date-375.png'), fullPage: true });
    await page.close();
  });

  it('turns to expired by itself when the charge expires unpaid', async () => {
    const charge = await createCharge(merchant.client, { payer: PAYER });
    const opened = await open(pageUrl(charge), 375);
    const { page } = opened;
    await statusBecomes(page, 'Cobrança expirada', (TTL_SECONDS + 40) * 1000);
    const cancelled = (await merchant.client.get(`/transactions/${charge.id}`)).body.data;
    expect(cancelled).toMatchObject({ status: 'cancelled', expired: true });
    expect(liveRequests(opened)).toEqual(['events']);
    expect((await opened.streamed()).map((status) => status.state)).toEqual(['pending', 'expired']);
    expect(await page.isHidden('#pay')).toBe(true);
    expect(await lowContrast(page)).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, 'expired-375.png'), fullPage: true });
    await page.close();

    const reopened = await fetch(pageUrl(charge));
    expect(reopened.status).toBe(200);
    expect(await reopened.text()).toContain('Cobrança expirada');
  }, 120_000);

  it('answers an unknown token with a 404 page in the same style', async () => {
    const { page } = await open(`${stack.rootUrl}/pay/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`, 375);
    expect(await page.getAttribute('html', 'lang')).toBe('pt-BR');
    await expect(page.textContent('h1')).resolves.toBe('Cobrança não encontrada');
    await page.screenshot({ path: join(ARTIFACTS, 'not-found-375.png'), fullPage: true });
    await page.close();
    for (const path of ['/pay/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', '/pay/short', '/pay/%3Cscript%3E']) {
      const res = await fetch(`${stack.rootUrl}${path}`);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await res.text()).toContain('<html lang="pt-BR">');
    }
    const status = await fetch(`${stack.rootUrl}/pay/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/status`);
    expect(status.status).toBe(404);
    expect(((await status.json()) as any).error.code).toBe('not_found');
  });

  it('applies the per-IP protection of the public routes', async () => {
    const charge = await createCharge(merchant.client, { payer: PAYER });
    const asIp = (ip: string) => fetch(`${pageUrl(charge)}/status`, { headers: { 'X-Forwarded-For': ip } });
    for (let i = 0; i < 300; i += 1) expect((await asIp('203.0.113.7')).status).toBe(200);
    const refused = await asIp('203.0.113.7');
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as any).error.code).toBe('rate_limit_exceeded');
    const page = await fetch(pageUrl(charge), { headers: { 'X-Forwarded-For': '203.0.113.7' } });
    expect(page.status).toBe(429);
    expect(await page.text()).toContain('<html lang="pt-BR">');
    expect((await asIp('203.0.113.8')).status).toBe(200);
  }, 60_000);
});
