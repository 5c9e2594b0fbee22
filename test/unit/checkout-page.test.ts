// The payer's page as pure code: what the HTML says for each state, escaping, the token, the URL,
// the security headers and CHECKOUT_FRAME_ANCESTORS.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { checkoutHeaders } from '../../src/api/checkout/headers.js';
import { checkoutPage, messagePage } from '../../src/api/checkout/page.js';
import { formatTimeLeft } from '../../src/api/checkout/page-parts.js';
import { isCheckoutTokenShape, newCheckoutToken } from '../../src/domain/checkout-token.js';
import { checkoutOrigin } from '../../src/domain/checkout-url.js';
import { viewStatus, type AuthorizationView, type ChargeView } from '../../src/api/checkout/view.js';

const NOW = new Date('2026-11-27T12:00:00Z');
const view = (overrides: Partial<ChargeView> = {}): ChargeView => ({
  kind: 'charge',
  merchantName: 'Loja <b>Boa</b> & Cia',
  description: 'Pedido "42"',
  amountCents: 14990,
  dueDate: null,
  late: null,
  copyPaste: '00020126580014br.gov.bcb.pix0136<code>',
  qrPngBase64: 'iVBORw0KGgo=',
  expiresAt: new Date(NOW.getTime() + 899_000),
  state: 'pending',
  ...overrides,
});

describe('the payer page HTML', () => {
  it('is Portuguese, shows the merchant, description, amount, code, QR and time left, escaped, with the nonce on script and style', () => {
    const html = checkoutPage(view(), 'tok_en', 'N0nce', NOW);
    expect(html).toContain('<html lang="pt-BR">');
    expect(html).toContain('<h1>Loja &lt;b&gt;Boa&lt;/b&gt; &amp; Cia</h1>');
    expect(html).toContain('Pedido &quot;42&quot;');
    expect(html).toContain('R$ 149,90');
    expect(html).toContain('00020126580014br.gov.bcb.pix0136&lt;code&gt;</textarea>');
    expect(html).toContain('src="/pay/tok_en/qr.png"');
    expect(html).toContain('Tempo restante: <span id="left-value">14:59</span>');
    expect(html).toContain('Aguardando pagamento');
    expect(html).toContain('<label for="code">');
    expect(html.match(/<script nonce="N0nce">/g)).toHaveLength(1);
    expect(html.match(/<style nonce="N0nce">/g)).toHaveLength(1);
    expect(html).not.toMatch(/<script(?! nonce="N0nce")/);
    expect(html).not.toContain(' style=');
    expect(html).toContain('<noscript><meta http-equiv="refresh"');
  });

  it('shows a due-date charge with the amount due today and its due date', () => {
    const html = checkoutPage(view({ dueDate: '2026-12-01', amountCents: 95000 }), 't', 'n', NOW);
    expect(html).toContain('Valor a pagar hoje');
    expect(html).toContain('R$ 950,00');
    expect(html).toContain('Vencimento: 01/12/2026');
    expect(html).not.toContain('atraso');
  });

  it('says what paying late adds to the amount due today, naming the rules that add it', () => {
    const late = (l: ChargeView['late']) => checkoutPage(view({ dueDate: '2026-11-24', amountCents: 10350, late: l }), 't', 'n', NOW);
    expect(late({ cents: 350, daysLate: 3, fine: true, interest: true })).toContain(
      '<p class="due">Inclui R$ 3,50 de multa e juros por 3 dias de atraso</p>',
    );
    expect(late({ cents: 200, daysLate: 1, fine: true, interest: false })).toContain('Inclui R$ 2,00 de multa por 1 dia de atraso');
    expect(late({ cents: 50, daysLate: 1, fine: false, interest: true })).toContain('Inclui R$ 0,50 de juros por 1 dia de atraso');
  });

  it('drops the code and QR once the charge is paid or expired, and says so', () => {
    const paid = checkoutPage(view({ state: 'paid' }), 't', 'n', NOW);
    expect(paid).toContain('Pagamento confirmado');
    expect(paid).toContain('Valor pago');
    expect(paid).not.toContain('<textarea');
    expect(paid).not.toContain('qr.png');
    expect(paid).not.toContain('http-equiv="refresh"');
    expect(paid).not.toContain('Confira o nome do recebedor');
    const expired = checkoutPage(view({ state: 'expired' }), 't', 'n', NOW);
    expect(expired).toContain('Cobrança expirada');
    expect(expired).not.toContain('<textarea');
  });

  it('says the code is being made while the route has not made it', () => {
    expect(checkoutPage(view({ copyPaste: null, qrPngBase64: null }), 't', 'n', NOW)).toContain('Gerando o código Pix');
  });

  it('writes the time left as a payer reads it', () => {
    expect(formatTimeLeft(899)).toBe('14:59');
    expect(formatTimeLeft(-5)).toBe('00:00');
    expect(formatTimeLeft(2 * 3600 + 5 * 60)).toBe('2 h 05 min');
    expect(formatTimeLeft(86400)).toBe('1 dia');
    expect(formatTimeLeft(3 * 86400 + 4 * 3600 + 59)).toBe('3 dias e 4 h');
  });

  it('answers a status the page polls, with no time left once final', () => {
    expect(viewStatus(view(), NOW)).toEqual({ state: 'pending', message: 'Aguardando pagamento', secondsLeft: 899, ready: true });
    expect(viewStatus(view({ state: 'paid' }), NOW)).toEqual({
      state: 'paid',
      message: 'Pagamento confirmado',
      secondsLeft: 0,
      ready: true,
    });
  });

  it('renders a message page in the same look', () => {
    const html = messagePage('n', 'Cobrança não encontrada', 'Confira <o> endereço');
    expect(html).toContain('<html lang="pt-BR">');
    expect(html).toContain('Confira &lt;o&gt; endereço');
  });
});

const authorization = (overrides: Partial<AuthorizationView> = {}, terms: Partial<AuthorizationView['terms']> = {}): AuthorizationView => ({
  kind: 'recurrence',
  merchantName: 'Academia <Forte> Ltda',
  description: 'Plano mensal',
  copyPaste: '00020126580014br.gov.bcb.pix0136<rec>',
  qrPngBase64: 'iVBORw0KGgo=',
  expiresAt: new Date('2026-12-04T17:30:00Z'),
  state: 'pending',
  terms: {
    frequency: 'monthly',
    amountCents: 9990,
    minimumAmountCents: null,
    payerMaximumAmountCents: null,
    firstDueDate: '2026-12-02',
    endDate: null,
    retryPolicy: 'none',
    firstPaymentCents: null,
    ...terms,
  },
  ...overrides,
});

describe('the recurrence authorization page HTML', () => {
  it('says what the payer authorizes, with the code, its QR and the time left to authorize in Brasília time', () => {
    const html = checkoutPage(authorization(), 'tok_en', 'N0nce', NOW);
    expect(html).toContain('<h1>Academia &lt;Forte&gt; Ltda</h1>');
    expect(html).toContain('<title>Autorizar Pix Automático para Academia &lt;Forte&gt; Ltda</title>');
    expect(html).toContain('Plano mensal');
    expect(html).toMatch(/Valor mensal<\/p>\n<p class="amount">R\$ 99,90</);
    expect(html).toContain('<dt>Frequência</dt><dd>Mensal</dd>');
    expect(html).toContain('<dt>Primeira cobrança</dt><dd>02/12/2026</dd>');
    expect(html).toContain('<dt>Vigência</dt><dd>Até ser cancelado</dd>');
    expect(html).toContain('<dt>Se faltar saldo</dt><dd>Sem nova tentativa</dd>');
    expect(html).not.toContain('Pagamento agora');
    expect(html).toContain('Aguardando autorização');
    expect(html).toContain('00020126580014br.gov.bcb.pix0136&lt;rec&gt;</textarea>');
    expect(html).toContain('src="/pay/tok_en/qr.png"');
    expect(html).toContain(
      'Prazo para autorizar: <span id="left-value">7 dias e 5 h</span> <span class="nowrap">(até 04/12/2026 às 14:30)</span>',
    );
    expect(html).toContain('<noscript><meta http-equiv="refresh"');
    expect(html.match(/<script nonce="N0nce">/g)).toHaveLength(1);
  });

  it('shows a journey 3 first payment, an end date, the retry policy and a variable amount with the payer maximum', () => {
    const html = checkoutPage(
      authorization({}, { firstPaymentCents: 4990, endDate: '2027-06-30', retryPolicy: 'three_in_seven_days', frequency: 'weekly' }),
      't',
      'n',
      NOW,
    );
    expect(html).toContain('<dt>Pagamento agora</dt><dd>R$ 49,90</dd>');
    expect(html).toContain('para autorizar o Pix Automático e pagar R$ 49,90 agora.');
    expect(html).toContain('<dt>Vigência</dt><dd>Até 30/06/2027</dd>');
    expect(html).toContain('<dt>Se faltar saldo</dt><dd>Até 3 novas tentativas em 7 dias</dd>');
    expect(html).toContain('Valor semanal');
    const variable = checkoutPage(authorization({}, { amountCents: null, minimumAmountCents: 5000 }), 't', 'n', NOW);
    expect(variable).toMatch(/Valor variável, a partir de<\/p>\n<p class="amount">R\$ 50,00</);
    expect(variable).toContain('<dt>Valor máximo</dt><dd>Você escolhe no app do seu banco</dd>');
    const capped = checkoutPage(
      authorization({ state: 'authorized' }, { amountCents: null, minimumAmountCents: 5000, payerMaximumAmountCents: 10000 }),
      't',
      'n',
      NOW,
    );
    expect(capped).toContain('<dt>Valor máximo</dt><dd>R$ 100,00</dd>');
  });

  it.each([
    ['authorized', 'Autorização confirmada'],
    ['rejected', 'Autorização recusada'],
    ['expired', 'Autorização expirada'],
    ['cancelled', 'Pix Automático cancelado'],
    ['completed', 'Pix Automático encerrado'],
  ] as const)('once %s, says "%s" and offers no code', (state, message) => {
    const html = checkoutPage(authorization({ state }), 't', 'n', NOW);
    expect(html).toContain(`data-state="${state}">${message}</p>`);
    expect(html).not.toContain('<textarea');
    expect(html).not.toContain('qr.png');
    expect(html).not.toContain('http-equiv="refresh"');
    expect(viewStatus(authorization({ state }), NOW)).toEqual({ state, message, secondsLeft: 0, ready: true });
  });
});

describe('the token and the address', () => {
  it('makes 43 base64url characters of 256 random bits, never twice the same', () => {
    const tokens = new Set(Array.from({ length: 1000 }, newCheckoutToken));
    expect(tokens.size).toBe(1000);
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(isCheckoutTokenShape('short')).toBe(false);
    expect(isCheckoutTokenShape('<script>alert(1)</script>xxxxxxxxx')).toBe(false);
  });

  it('puts the page beside the API: PUBLIC_BASE_URL without its /v1, else localhost and PORT', () => {
    expect(checkoutOrigin({ publicBaseUrl: null, port: 3000 })).toBe('http://localhost:3000');
    expect(checkoutOrigin({ publicBaseUrl: 'https://pix.example.com/', port: 3000 })).toBe('https://pix.example.com');
    expect(checkoutOrigin({ publicBaseUrl: 'https://pix.example.com/v1', port: 3000 })).toBe('https://pix.example.com');
  });
});

describe('the security headers', () => {
  it('forbid framing by default, inline code without the nonce, referrers and caching', () => {
    const headers = checkoutHeaders([], 'abc');
    const csp = headers['Content-Security-Policy'];
    expect(csp).toContain("script-src 'nonce-abc'");
    expect(csp).toContain("style-src 'nonce-abc'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(headers).toMatchObject({ 'Referrer-Policy': 'no-referrer', 'Cache-Control': 'no-store', 'X-Frame-Options': 'DENY' });
  });

  it('let the origins of CHECKOUT_FRAME_ANCESTORS frame the page', () => {
    const origins = loadConfig({ CHECKOUT_FRAME_ANCESTORS: 'https://loja.example, http://localhost:8080' }).checkoutFrameAncestors;
    expect(origins).toEqual(['https://loja.example', 'http://localhost:8080']);
    const headers = checkoutHeaders(origins, 'abc');
    expect(headers['Content-Security-Policy']).toContain('frame-ancestors https://loja.example http://localhost:8080');
    expect(headers['X-Frame-Options']).toBeUndefined();
    expect(loadConfig({}).checkoutFrameAncestors).toEqual([]);
    expect(() => loadConfig({ CHECKOUT_FRAME_ANCESTORS: 'https://loja.example/checkout' })).toThrow(
      'CHECKOUT_FRAME_ANCESTORS must list origins like http://localhost:8233 (scheme, host and port only), got "https://loja.example/checkout"',
    );
    expect(() => loadConfig({ CHECKOUT_FRAME_ANCESTORS: "'self' https://x.example" })).toThrow('CHECKOUT_FRAME_ANCESTORS');
  });
});
