// The payer's page of a recurrence's authorization (Pix Automático, design/checkout-page.md) in a real
// browser: headless Chromium opens the recurrence's checkoutUrl and checks what a payer sees and does:
// what is authorized, the QR that decodes to the authorization's copy-and-paste code (journey 3: the
// combined code that also pays the first payment), the copy button, the status turning to
// "Autorização confirmada" by the page's event stream once the payer authorizes, the rejected, cancelled,
// expired and completed pages, no payer data or engine id in the page, nothing asked of another
// origin, no horizontal scrolling on a 375-pixel phone, contrast of at least 4.5:1. Screenshots at 375
// and 1280 pixels go to test-artifacts/checkout/recurrence-*.png (gitignored). How long a flip takes is
// measured by `npm run bench:checkout`, not here: the waits below only bound how long a test waits.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Sql } from '../../../src/db/database.js';
import { parseBrCode } from '../../../src/domain/brcode.js';
import { addDays, saoPauloDate } from '../../../contracts/calendar.js';
import { decodeQrPngBase64 } from '../../../src/domain/qrcode.js';
import { launchBrowser, type Browser } from '../../helpers/browser.js';
import { fitsWidth, isLiveStatus, liveRequests, lowContrast, openPage, statusBecomes } from '../../helpers/checkout-page.js';
import { newKey, payCharge, waitForStatus } from '../../helpers/charges.js';
import { CPF, createMerchant } from '../../helpers/fixtures.js';
import { admin, http, startStack, type Stack } from '../../helpers/stack.js';

const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'checkout');
const PAYER = { name: 'Joana Pagadora Souza', document: CPF.valid };
const CONTRACT = 'CTR-77-ACADEMIA';
const brazilian = (date: string) => date.split('-').reverse().join('/');
const FLIP_TIMEOUT_MS = 30_000;

describe('the recurrence authorization page in headless Chromium', () => {
  let stack: Stack;
  let sql: Sql;
  let browser: Browser;
  let merchant: Awaited<ReturnType<typeof createMerchant>>;
  const today = saoPauloDate(new Date());

  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    stack = await startStack();
    sql = connect(stack.databaseUrl, { max: 1 });
    browser = await launchBrowser();
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.rootUrl });
    merchant = await createMerchant(stack, { name: 'Academia Corpo em Movimento Ltda' });
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await sql?.end({ timeout: 5 });
    await stack?.stop();
  });

  async function createRecurrence(overrides: Record<string, unknown> = {}): Promise<any> {
    const body = {
      payer: PAYER,
      contract: CONTRACT,
      description: 'Plano mensal da academia',
      frequency: 'monthly',
      firstDueDate: addDays(today, 5),
      amount: 99.9,
      ...overrides,
    };
    const res = await merchant.client.post('/recurrences', body, { 'Idempotency-Key': newKey('rec') });
    if (res.status !== 201) throw new Error(`recurrence creation answered ${res.status}: ${res.text}`);
    return res.body.data;
  }

  const simulator = (id: string, action: string, body?: unknown) => admin(stack, 'POST', `/simulator/recurrences/${id}/${action}`, body);
  /** The page of a recurrence, asked of the stack's address (checkoutUrl names http://localhost:PORT). */
  const pageUrl = (rec: { checkoutUrl: string }) => `${stack.rootUrl}${new URL(rec.checkoutUrl).pathname}`;
  const open = (rec: { checkoutUrl: string }, width: number) => openPage(browser, pageUrl(rec), width);

  /** Nothing of the payer, the contract or the engine's ids in the page, only the token. */
  async function expectNoPrivateData(page: Page, rec: any): Promise<void> {
    const dom = await page.content();
    const hex = rec.id.slice('rec_'.length);
    for (const secret of [PAYER.name, 'Joana', CPF.validDigits, CPF.valid, CONTRACT, rec.id, hex, rec.externalId, merchant.account.id]) {
      expect(dom).not.toContain(secret);
    }
    if (rec.firstPaymentTransactionId) expect(dom).not.toContain(rec.firstPaymentTransactionId);
  }

  async function screenshots(page: Page, name: string): Promise<void> {
    await page.setViewportSize({ width: 375, height: 900 });
    expect(await fitsWidth(page)).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, `recurrence-${name}-375.png`), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: join(ARTIFACTS, `recurrence-${name}-1280.png`), fullPage: true });
  }

  it('gives every recurrence a checkoutUrl with a random token, not derived from its id, kept on reads and lists', async () => {
    const a = await createRecurrence();
    const b = await createRecurrence();
    const port = new URL(stack.rootUrl).port;
    for (const rec of [a, b]) {
      expect(rec.checkoutUrl).toMatch(new RegExp(`^http://localhost:${port}/pay/[A-Za-z0-9_-]{43}$`));
      expect(rec.checkoutUrl).not.toContain(rec.id.slice(4));
    }
    expect(a.checkoutUrl).not.toBe(b.checkoutUrl);
    expect((await merchant.client.get(`/recurrences/${a.id}`)).body.data.checkoutUrl).toBe(a.checkoutUrl);
    const listed = (await merchant.client.get('/recurrences?limit=100')).body.data;
    expect(listed.find((r: any) => r.id === b.id).checkoutUrl).toBe(b.checkoutUrl);
  });

  it('journey 2: shows what is authorized, decodes its QR, copies its code, leaks nothing and flips to authorized by its event stream', async () => {
    const rec = await createRecurrence({ endDate: addDays(today, 400) });
    const url = pageUrl(rec);

    const head = await fetch(url);
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = head.headers.get('content-security-policy')!;
    expect(csp).toMatch(/script-src 'nonce-[A-Za-z0-9+/=]+'/);
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(head.headers.get('referrer-policy')).toBe('no-referrer');
    expect(head.headers.get('cache-control')).toBe('no-store');
    const status = await fetch(`${url}/status`);
    expect(((await status.json()) as any).data).toMatchObject({ state: 'pending', message: 'Aguardando autorização', ready: true });

    const opened = await open(rec, 375);
    const { page } = opened;
    expect(await page.getAttribute('html', 'lang')).toBe('pt-BR');
    await expect(page.textContent('h1')).resolves.toBe('Academia Corpo em Movimento Ltda');
    const text = (await page.innerText('main')).replace(/\s+/g, ' ');
    expect(text).toContain('Pix Automático');
    expect(text).toContain('Plano mensal da academia');
    expect(text).toContain('Valor mensal R$ 99,90');
    expect(text).toContain('Frequência Mensal');
    expect(text).toContain(`Primeira cobrança ${brazilian(addDays(today, 5))}`);
    expect(text).toContain(`Vigência Até ${brazilian(addDays(today, 400))}`);
    expect(text).toContain('Se faltar saldo Sem nova tentativa');
    expect(text).toContain('Aguardando autorização');
    expect(text).toMatch(/Prazo para autorizar: 6 dias e 23 h \(até \d\d\/\d\d\/\d{4} às \d\d:\d\d\)/);

    const qr = await page.locator('img.qr').screenshot();
    expect(decodeQrPngBase64(qr.toString('base64'))).toBe(rec.authorization.copyPaste);
    expect(await page.inputValue('#code')).toBe(rec.authorization.copyPaste);
    expect(await lowContrast(page)).toEqual([]);
    await page.focus('#copy');
    await page.keyboard.press('Enter');
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(rec.authorization.copyPaste);
    await expect(page.textContent('#copy')).resolves.toBe('Código copiado');
    await expectNoPrivateData(page, rec);
    await screenshots(page, 'pending');

    const authorized = await simulator(rec.id, 'authorize');
    expect(authorized.body.data.status).toBe('active');
    await statusBecomes(page, 'Autorização confirmada', FLIP_TIMEOUT_MS);
    // The flip came through the page's one event stream, which sent the pending status and then the authorized one.
    expect(liveRequests(opened)).toEqual(['events']);
    expect((await opened.streamed()).map((status) => status.state)).toEqual(['pending', 'authorized']);
    expect(await page.isHidden('#pay')).toBe(true);
    expect(await page.isHidden('#left')).toBe(true);
    expect(await lowContrast(page)).toEqual([]);
    await screenshots(page, 'authorized');

    const bytes = await opened.bytes();
    const origin = new URL(stack.rootUrl).origin;
    for (const request of opened.requests) expect(new URL(request).origin).toBe(origin);
    expect(opened.requests.filter((u) => !isLiveStatus(u))).toHaveLength(2); // the page and its QR image
    expect(bytes).toBeLessThan(100 * 1024);
    await page.close();

    const after = await fetch(url);
    expect(after.status).toBe(200);
    expect(await after.text()).toContain('Autorização confirmada');
    expect((await fetch(`${url}/qr.png`)).status).toBe(404);
    const final = await fetch(`${url}/status`);
    expect(((await final.json()) as any).data).toMatchObject({ state: 'authorized', message: 'Autorização confirmada', secondsLeft: 0 });
  });

  it('journey 3: the combined code pays the first payment and authorizes; the page says so and flips when it is paid', async () => {
    const rec = await createRecurrence({ firstPayment: { amount: 49.9 }, retryPolicy: 'three_in_seven_days', frequency: 'quarterly' });
    const { page } = await open(rec, 375);
    const text = (await page.innerText('main')).replace(/\s+/g, ' ');
    expect(text).toContain('Pagamento agora R$ 49,90');
    expect(text).toContain('autorizar o Pix Automático e pagar R$ 49,90 agora');
    expect(text).toContain('Valor trimestral R$ 99,90');
    expect(text).toContain('Vigência Até ser cancelado');
    expect(text).toContain('Se faltar saldo Até 3 novas tentativas em 7 dias');
    const qr = await page.locator('img.qr').screenshot();
    const decoded = decodeQrPngBase64(qr.toString('base64'));
    expect(decoded).toBe(rec.authorization.copyPaste);
    expect(parseBrCode(decoded!)).toMatchObject({ ok: true, amountCents: 4990 });
    expect(await lowContrast(page)).toEqual([]);
    await expectNoPrivateData(page, rec);
    await screenshots(page, 'journey3');

    expect((await payCharge(stack, rec.firstPaymentTransactionId)).status).toBe(200);
    await waitForStatus(merchant.client, rec.firstPaymentTransactionId, 'approved');
    await statusBecomes(page, 'Autorização confirmada', FLIP_TIMEOUT_MS);
    await page.close();
  });

  it('turns by itself to rejected when the payer refuses, and to cancelled when the merchant cancels', async () => {
    const refused = await createRecurrence();
    const { page } = await open(refused, 375);
    expect((await simulator(refused.id, 'reject')).body.data.status).toBe('rejected');
    await statusBecomes(page, 'Autorização recusada', FLIP_TIMEOUT_MS);
    expect(await page.isHidden('#pay')).toBe(true);
    expect(await lowContrast(page)).toEqual([]);
    await screenshots(page, 'rejected');
    await page.close();

    const cancelled = await createRecurrence({ amount: undefined, minimumAmount: 50 });
    const opened = await open(cancelled, 375);
    expect((await opened.page.innerText('main')).replace(/\s+/g, ' ')).toContain('Valor máximo Você escolhe no app do seu banco');
    await screenshots(opened.page, 'variable');
    const res = await http('DELETE', `${stack.baseUrl}/recurrences/${cancelled.id}`, { token: merchant.key });
    expect(res.body.data.status).toBe('cancelled');
    await statusBecomes(opened.page, 'Pix Automático cancelado', FLIP_TIMEOUT_MS);
    expect(await opened.page.isHidden('#pay')).toBe(true);
    await opened.page.close();
  });

  it('shows a variable amount with the maximum the payer authorized, then cancelled by the payer', async () => {
    const rec = await createRecurrence({ amount: undefined, minimumAmount: 50 });
    await simulator(rec.id, 'authorize', { maximumAmount: 300 });
    expect((await simulator(rec.id, 'cancel')).body.data).toMatchObject({ status: 'cancelled', cancelledBy: 'payer' });
    const { page } = await open(rec, 375);
    const text = (await page.innerText('main')).replace(/\s+/g, ' ');
    expect(text).toContain('Valor variável, a partir de R$ 50,00');
    expect(text).toContain('Valor máximo R$ 300,00');
    expect(text).toContain('Pix Automático cancelado');
    expect(await page.$('#code')).toBeNull();
    expect(await lowContrast(page)).toEqual([]);
    await screenshots(page, 'cancelled');
    await page.close();
  });

  // The workflow expires an authorization after RECURRENCE_AUTHORIZATION_DAYS (a day at least) and
  // completes a recurrence past its end date (test/workflows/recurrences/recurrence.test.ts): here the row is put
  // where those transitions leave it, which is all the page reads.
  it('turns by itself to expired when the authorization expires, and shows a completed recurrence', async () => {
    const expiring = await createRecurrence();
    const { page } = await open(expiring, 375);
    await sql`update recurrences set status = 'expired', updated_at = now() where id = ${expiring.id}`;
    await statusBecomes(page, 'Autorização expirada', FLIP_TIMEOUT_MS);
    expect(await page.isHidden('#pay')).toBe(true);
    expect(await lowContrast(page)).toEqual([]);
    await screenshots(page, 'expired');
    await page.close();

    const ended = await createRecurrence({ endDate: addDays(today, 40) });
    await simulator(ended.id, 'authorize');
    await sql`update recurrences set status = 'completed', updated_at = now() where id = ${ended.id}`;
    const done = await open(ended, 375);
    await expect(done.page.textContent('#status')).resolves.toBe('Pix Automático encerrado');
    expect(await lowContrast(done.page)).toEqual([]);
    await screenshots(done.page, 'completed');
    await done.page.close();
  });
});
