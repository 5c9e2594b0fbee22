// The bcb-api-pix route's client and its sides (charges, Efí send, devoluções) against the conformance
// fake PSP (mTLS, OAuth, the standard's schemas): what it sends, how it reads the answers, tokens,
// outages and refusals.
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseBrCode } from '../../src/domain/brcode.js';
import { decodeQrPngBase64 } from '../../src/domain/qrcode.js';
import { createLogger } from '../../src/runtime/log.js';
import { BcbApiPixChargeRoute } from '../../src/pix-routes/bcb-api-pix/charges.js';
import { PspClient } from '../../src/pix-routes/bcb-api-pix/client.js';
import { EfiTransferRoute } from '../../src/pix-routes/bcb-api-pix/efi-send.js';
import { BcbApiPixRefundRoute } from '../../src/pix-routes/bcb-api-pix/refunds.js';
import { PspUnavailable } from '../../src/pix-routes/bcb-api-pix/errors.js';
import { devolucaoIdOf, idEnvioOf, txidOf } from '../../src/pix-routes/bcb-api-pix/ids.js';
import { loadRoutesFile } from '../../src/config/routes-file.js';
import { registerPspWebhooks } from '../../src/pix-routes/bcb-api-pix/webhook-registration.js';
import type { RouteRefundRequest } from '../../src/pix-routes/refund-route.js';
import { RouteRefused, type RouteChargeRequest, type RouteDueDateCharge } from '../../src/pix-routes/types.js';
import { addDays, saoPauloDate } from '../../contracts/calendar.js';
import { startFakePsp, type FakePsp } from '../helpers/fake-psp/index.js';
import { eventually } from '../helpers/eventually.js';

const TTL = 900;
let psp: FakePsp;
let clients: PspClient[] = [];
let logLines: string[] = [];
let seq = 0;

const newId = (prefix: 'txn' | 'out' | 'rfd') =>
  `${prefix}_${(Date.now().toString(16) + (++seq).toString(16).padStart(6, '0')).padStart(24, '0').slice(-24)}`;

function logger() {
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => logLines.push(...chunk.toString().split('\n').filter(Boolean)));
  return createLogger('info', stream);
}

function clientFor(
  fake: FakePsp,
  overrides: Record<string, unknown> = {},
  options: ConstructorParameters<typeof PspClient>[1] = {},
): PspClient {
  const [route] = loadRoutesFile(fake.writeRoutesFile(overrides));
  const client = new PspClient(route!, options);
  clients.push(client);
  return client;
}

const chargeRouteOf = (client: PspClient) => new BcbApiPixChargeRoute(client, { chargeTtlSeconds: TTL, log: logger() });
const transferRouteOf = (client: PspClient, fake = psp) => new EfiTransferRoute(client, { sendBaseUrl: fake.sendBaseUrl });
const refundRouteOf = (client: PspClient) => new BcbApiPixRefundRoute(client, {});

const chargeRequest = (extra: Partial<RouteChargeRequest> = {}): RouteChargeRequest => ({
  transactionId: newId('txn'),
  amountCents: 12_345,
  merchantName: 'Padaria Central',
  description: 'Pedido 42',
  expiresAt: new Date(Date.now() + TTL * 1000),
  payer: { name: 'Maria Souza', document: '11144477735' },
  ...extra,
});

const requestsTo = (fake: FakePsp, method: string, pathPart: string) =>
  fake.requests.filter((r) => r.method === method && r.path.includes(pathPart));

beforeAll(async () => {
  psp = await startFakePsp();
});

afterEach(async () => {
  await Promise.all(clients.map((client) => client.close()));
  clients = [];
  logLines = [];
});

afterAll(async () => {
  await psp.close();
});

/** A due-date charge of R$ 1.000,00 due in 10 days (São Paulo): 2 % fine, 1 % a month, R$ 50 off until the 5th day, 1 % abatement. */
function dueDateRequest(): RouteChargeRequest & { due: RouteDueDateCharge } {
  const today = saoPauloDate(new Date());
  const due: RouteDueDateCharge = {
    amountCents: 100_000,
    dueDate: addDays(today, 10),
    billing: {
      validityAfterDue: 15,
      fine: { mode: 'percent', value: 200 },
      interest: { mode: 'percent_per_month', value: 100 },
      discounts: [{ until: addDays(today, 5), mode: 'fixed', value: 5000 }],
      abatement: { mode: 'percent', value: 100 },
    },
  };
  return { ...chargeRequest({ amountCents: 100_000, payer: { name: 'Mercearia Ltda', document: '12ABC34501DE35' } }), due };
}

describe('due-date charges on /cobv', () => {
  it("creates the cobv in the standard's modalities (its schema checked by the PSP) and answers its pixCopiaECola", async () => {
    const route = chargeRouteOf(clientFor(psp));
    const request = dueDateRequest();
    const created = await route.createCharge(request);
    const txid = txidOf(request.transactionId);
    const [put] = requestsTo(psp, 'PUT', `/cobv/${txid}`);
    expect(put).toMatchObject({ status: 201, conforms: true });
    expect(put!.body).toEqual({
      calendario: { dataDeVencimento: request.due.dueDate, validadeAposVencimento: 15 },
      devedor: { cnpj: '12ABC34501DE35', nome: 'Mercearia Ltda' },
      valor: {
        original: '1000.00',
        multa: { modalidade: 2, valorPerc: '2.00' },
        juros: { modalidade: 3, valorPerc: '1.00' },
        desconto: { modalidade: 1, descontoDataFixa: [{ data: request.due.billing.discounts[0]!.until, valorPerc: '50.00' }] },
        abatimento: { modalidade: 2, valorPerc: '1.00' },
      },
      chave: psp.pixKey,
      solicitacaoPagador: 'Pedido 42',
    });
    const cobv = psp.cobv(txid)!;
    expect(created).toMatchObject({ routeRef: txid, copyPaste: cobv.pixCopiaECola });
    expect(decodeQrPngBase64(created.qrCodeBase64)).toBe(cobv.pixCopiaECola);
    expect(requestsTo(psp, 'PUT', `/cob/${txid}`)).toEqual([]);
    // Repeated (the first answer lost): the PSP refuses the txid, the cobv is read back.
    expect((await route.createCharge(request)).copyPaste).toBe(cobv.pixCopiaECola);
    expect(requestsTo(psp, 'GET', `/cobv/${txid}`).map((r) => r.status)).toEqual([200]);
  });

  it('writes interest per day, per year and in reais, and percent discounts, as their modalities', async () => {
    const route = chargeRouteOf(clientFor(psp));
    for (const [mode, modalidade] of [
      ['fixed_per_day', 1],
      ['percent_per_day', 2],
      ['percent_per_year', 4],
    ] as const) {
      const request = dueDateRequest();
      request.due = {
        ...request.due,
        billing: {
          ...request.due.billing,
          fine: { mode: 'fixed', value: 1990 },
          interest: { mode, value: 33 },
          discounts: [{ ...request.due.billing.discounts[0]!, mode: 'percent', value: 250 }],
          abatement: null,
        },
      };
      await route.createCharge(request);
      const [put] = requestsTo(psp, 'PUT', `/cobv/${txidOf(request.transactionId)}`);
      expect(put).toMatchObject({ status: 201, conforms: true });
      expect((put!.body as { valor: unknown }).valor).toEqual({
        original: '1000.00',
        multa: { modalidade: 1, valorPerc: '19.90' },
        juros: { modalidade, valorPerc: '0.33' },
        desconto: { modalidade: 2, descontoDataFixa: [{ data: request.due.billing.discounts[0]!.until, valorPerc: '2.50' }] },
      });
    }
  });

  it("is paid by its Pix of the value the PSP computed; a value other than the engine's for that day is approved with an alert", async () => {
    const route = chargeRouteOf(clientFor(psp));
    const request = dueDateRequest();
    await route.createCharge(request);
    expect(await route.chargeStatus(request.transactionId, request.due)).toEqual({ status: 'pending' });
    // Today: 1000 − 1 % abatement − R$ 50 = R$ 940,00.
    const { endToEndId } = psp.payCobv(txidOf(request.transactionId), {
      amountCents: 94_000,
      payer: { nome: 'Mercearia Ltda', cnpj: '12ABC34501DE35' },
    });
    expect(await route.chargeStatus(request.transactionId, request.due)).toMatchObject({
      status: 'paid',
      amountCents: 94_000,
      endToEndId,
      payer: { name: 'Mercearia Ltda', document: '12ABC34501DE35' },
    });
    expect(logLines.some((line) => line.includes('psp_amount_due_mismatch'))).toBe(false);

    const other = dueDateRequest();
    await route.createCharge(other);
    psp.payCobv(txidOf(other.transactionId), { amountCents: 94_002 });
    expect(await route.chargeStatus(other.transactionId, other.due)).toMatchObject({ status: 'paid', amountCents: 94_002 });
    const alert = logLines.map((line) => JSON.parse(line)).find((line) => line.alert === 'psp_amount_due_mismatch');
    expect(alert).toMatchObject({ level: 'error', transactionId: other.transactionId, expectedCents: 94_000, paidCents: 94_002 });
  });

  it('expires with PATCH /cobv REMOVIDA_PELO_USUARIO_RECEBEDOR; a payment that won the race prevails', async () => {
    const route = chargeRouteOf(clientFor(psp));
    const request = dueDateRequest();
    await route.createCharge(request);
    expect(await route.cancelCharge(request.transactionId, 'expired', request.due)).toEqual({ status: 'cancelled', expired: true });
    expect(requestsTo(psp, 'PATCH', `/cobv/${txidOf(request.transactionId)}`)[0]).toMatchObject({
      status: 200,
      conforms: true,
      body: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' },
    });
    expect(await route.chargeStatus(request.transactionId, request.due)).toEqual({ status: 'cancelled', expired: true });

    const raced = dueDateRequest();
    await route.createCharge(raced);
    const { endToEndId } = psp.payCobv(txidOf(raced.transactionId), { amountCents: 94_000 });
    expect(await route.cancelCharge(raced.transactionId, 'expired', raced.due)).toMatchObject({
      status: 'paid',
      endToEndId,
      amountCents: 94_000,
    });
  });
});

describe('charges on /cob', () => {
  it('creates the cob as DESIGN says and answers its pixCopiaECola with a QR code of exactly that text', async () => {
    const route = chargeRouteOf(clientFor(psp));
    const request = chargeRequest({ description: 'x'.repeat(200) });
    const created = await route.createCharge(request);
    const txid = txidOf(request.transactionId);
    expect(txid).toMatch(/^[a-zA-Z0-9]{26,35}$/);
    const [put] = requestsTo(psp, 'PUT', `/cob/${txid}`);
    expect(put).toMatchObject({ status: 201, conforms: true });
    expect(put!.body).toEqual({
      calendario: { expiracao: TTL },
      valor: { original: '123.45' },
      chave: psp.pixKey,
      devedor: { cpf: '11144477735', nome: 'Maria Souza' },
      solicitacaoPagador: 'x'.repeat(140),
    });
    const cob = psp.cob(txid) as { pixCopiaECola: string };
    expect(created).toMatchObject({ routeRef: txid, copyPaste: cob.pixCopiaECola });
    expect(decodeQrPngBase64(created.qrCodeBase64)).toBe(cob.pixCopiaECola);
  });

  it('leaves out devedor without a payer document and solicitacaoPagador without a description; a CNPJ payer is a PessoaJuridica', async () => {
    const route = chargeRouteOf(clientFor(psp));
    const bare = chargeRequest({ payer: { name: 'Maria' }, description: null, amountCents: 100 });
    await route.createCharge(bare);
    expect(requestsTo(psp, 'PUT', txidOf(bare.transactionId))[0]!.body).toEqual({
      calendario: { expiracao: TTL },
      valor: { original: '1.00' },
      chave: psp.pixKey,
    });
    const company = chargeRequest({ payer: { name: 'Mercearia Ltda', document: '11222333000181' } });
    await route.createCharge(company);
    expect(requestsTo(psp, 'PUT', txidOf(company.transactionId))[0]).toMatchObject({
      conforms: true,
      body: { devedor: { cnpj: '11222333000181', nome: 'Mercearia Ltda' } },
    });
  });

  it('is idempotent by txid: a repeated creation that the PSP refuses (txid used) reads the cob back and answers it', async () => {
    const route = chargeRouteOf(clientFor(psp));
    const request = chargeRequest();
    const first = await route.createCharge(request);
    const again = await route.createCharge(request);
    expect(again.copyPaste).toBe(first.copyPaste);
    expect(requestsTo(psp, 'PUT', txidOf(request.transactionId)).map((r) => r.status)).toEqual([201, 400]);
    expect(requestsTo(psp, 'GET', txidOf(request.transactionId)).map((r) => r.status)).toEqual([200]);
  });

  it('takes a 4xx on creation as the route refusal when the cob does not exist', async () => {
    const route = chargeRouteOf(clientFor(psp, { pixKey: 'another-key-of-someone-else' }));
    const request = chargeRequest();
    const refused = await route.createCharge(request).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(RouteRefused);
    expect((refused as Error).message).toContain('400');
    expect(requestsTo(psp, 'GET', txidOf(request.transactionId)).map((r) => r.status)).toEqual([404]);
  });

  it('is pending while ATIVA, paid by a Pix of the full amount (with its endToEndId and payer)', async () => {
    const route = chargeRouteOf(clientFor(psp));
    const request = chargeRequest();
    await route.createCharge(request);
    expect(await route.chargeStatus(request.transactionId)).toEqual({ status: 'pending' });
    const { endToEndId } = psp.pay(txidOf(request.transactionId), { payer: { nome: 'João Lima', cpf: '52998224725' } });
    const state = await route.chargeStatus(request.transactionId);
    expect(state).toMatchObject({ status: 'paid', amountCents: 12_345, endToEndId, payer: { name: 'João Lima', document: '52998224725' } });
    expect(state.status === 'paid' && state.paidAt).toBeInstanceOf(Date);
  });

  it('does not approve a Pix of another amount: it stays pending and an alert is logged', async () => {
    const route = chargeRouteOf(clientFor(psp));
    const request = chargeRequest();
    await route.createCharge(request);
    psp.pay(txidOf(request.transactionId), { amountCents: 100 });
    expect(await route.chargeStatus(request.transactionId)).toEqual({ status: 'pending' });
    const alert = logLines.map((line) => JSON.parse(line)).find((line) => line.alert === 'psp_amount_mismatch');
    expect(alert).toMatchObject({ level: 'error', transactionId: request.transactionId, expectedCents: 12_345, receivedCents: [100] });
    expect(alert.msg).toMatch(/^alert:/);
    // The cob can no longer be removed nor paid: the expiry ends it, the alert stays for the operator.
    expect(await route.cancelCharge(request.transactionId, 'expired')).toEqual({ status: 'cancelled', expired: true });
  });

  it('expires with PATCH REMOVIDA_PELO_USUARIO_RECEBEDOR; a payment that won the race prevails', async () => {
    const route = chargeRouteOf(clientFor(psp));
    const request = chargeRequest();
    await route.createCharge(request);
    expect(await route.cancelCharge(request.transactionId, 'expired')).toEqual({ status: 'cancelled', expired: true });
    const patch = requestsTo(psp, 'PATCH', txidOf(request.transactionId))[0]!;
    expect(patch).toMatchObject({ status: 200, conforms: true, body: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' } });
    expect(await route.chargeStatus(request.transactionId)).toEqual({ status: 'cancelled', expired: true });

    const raced = chargeRequest();
    await route.createCharge(raced);
    const { endToEndId } = psp.pay(txidOf(raced.transactionId));
    expect(await route.cancelCharge(raced.transactionId, 'expired')).toMatchObject({ status: 'paid', endToEndId, amountCents: 12_345 });
    expect(requestsTo(psp, 'PATCH', txidOf(raced.transactionId))[0]!.status).toBe(400);
  });

  it('builds a dynamic BR Code from the location, the account name and merchantCity when the PSP sends no pixCopiaECola', async () => {
    const client = clientFor(psp, { merchantCity: 'CURITIBA' });
    // A PSP of the standard's minimum: its answer has `location` (no scheme, as in the standard's examples) and no pixCopiaECola.
    const cob = {
      calendario: { criacao: new Date().toISOString(), expiracao: TTL },
      txid: 'x',
      revisao: 0,
      status: 'ATIVA',
      valor: { original: '1.00' },
      chave: psp.pixKey,
      location: 'pix.psp.example/qr/v2/9d36b84fc70b478fb95c12729b90ca25',
    };
    const minimal = Object.assign(Object.create(client) as PspClient, {
      api: { PUT: async () => ({ data: cob, response: new Response(null, { status: 201 }) }) },
    });
    const created = await chargeRouteOf(minimal).createCharge(chargeRequest());
    expect(parseBrCode(created.copyPaste)).toMatchObject({
      ok: true,
      url: cob.location,
      merchantName: 'Padaria Central',
      merchantCity: 'CURITIBA',
      static: false,
    });
    expect(decodeQrPngBase64(created.qrCodeBase64)).toBe(created.copyPaste);
  });

  it('reports the MED devoluções of a received Pix, and only those', async () => {
    const route = chargeRouteOf(clientFor(psp));
    const request = chargeRequest();
    await route.createCharge(request);
    const { endToEndId } = psp.pay(txidOf(request.transactionId));
    expect(await route.medReturns(endToEndId)).toEqual([]);
    psp.addDevolucao(endToEndId, { id: 'D1', amountCents: 1_000, natureza: 'ORIGINAL' });
    psp.addDevolucao(endToEndId, { id: 'MED1', amountCents: 2_345, natureza: 'MED_FRAUDE' });
    psp.addDevolucao(endToEndId, { id: 'MED2', amountCents: 100, natureza: 'MED_OPERACIONAL' });
    psp.addDevolucao(endToEndId, { id: 'MED3', amountCents: 50, natureza: 'MED_PIX_AUTOMATICO' });
    const returns = await route.medReturns(endToEndId);
    expect(returns.map(({ returnedAt: _r, ...rest }) => rest)).toEqual([
      { id: 'MED1', nature: 'MED_FRAUDE', amountCents: 2_345 },
      { id: 'MED2', nature: 'MED_OPERACIONAL', amountCents: 100 },
      { id: 'MED3', nature: 'MED_PIX_AUTOMATICO', amountCents: 50 },
    ]);
    expect(returns[0]!.returnedAt).toBeInstanceOf(Date);
  });
});

describe('the PSP client', () => {
  it('reuses one token across calls and fetches a new one, repeating the call once, on a 401', async () => {
    const fake = await startFakePsp({ tokenBody: 'json' });
    try {
      const route = chargeRouteOf(clientFor(fake));
      const request = chargeRequest();
      await route.createCharge(request);
      await route.chargeStatus(request.transactionId);
      await route.chargeStatus(request.transactionId);
      expect(fake.tokensIssued).toBe(1);
      fake.revokeTokens();
      expect(await route.chargeStatus(request.transactionId)).toEqual({ status: 'pending' });
      expect(fake.tokensIssued).toBe(2);
      expect(fake.requests.filter((r) => r.path.startsWith('/v2/cob')).map((r) => r.status)).toEqual([201, 200, 200, 401, 200]);
      expect(fake.requests.every((r) => r.conforms)).toBe(true);
    } finally {
      await fake.close();
    }
  });

  it('never presents a token past expires_in minus the smaller of 60 s and 10 %', async () => {
    const fake = await startFakePsp({ tokenTtlSeconds: 300 });
    try {
      let now = Date.now();
      const route = chargeRouteOf(clientFor(fake, {}, { now: () => now }));
      const request = chargeRequest();
      await route.createCharge(request);
      now += 269_000; // 300 s minus 30 s (10 %) is 270 s: still good
      await route.chargeStatus(request.transactionId);
      expect(fake.tokensIssued).toBe(1);
      now += 1_000;
      await route.chargeStatus(request.transactionId);
      expect(fake.tokensIssued).toBe(2);
      expect(fake.requests.some((r) => r.status === 401)).toBe(false);
    } finally {
      await fake.close();
    }
  });

  it('answers an outage (503, reset connections) as PspUnavailable, never as a refusal', async () => {
    const route = chargeRouteOf(clientFor(psp));
    for (const mode of ['503', 'reset'] as const) {
      psp.down(60_000, mode);
      try {
        const failed = await route.createCharge(chargeRequest()).catch((err: unknown) => err);
        expect(failed, mode).toBeInstanceOf(PspUnavailable);
      } finally {
        psp.down(0);
      }
    }
  });

  it('refuses a PSP whose certificate the route does not trust, a refused connection, and one that never answers', async () => {
    const untrusting = chargeRouteOf(clientFor(psp, { tls: { certFile: psp.certs.clientCertFile, keyFile: psp.certs.clientKeyFile } }));
    await expect(untrusting.createCharge(chargeRequest())).rejects.toBeInstanceOf(PspUnavailable);
    const silent = createServer(() => {});
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const port = (silent.address() as AddressInfo).port;
    silent.close();
    await once(silent, 'close');
    const refused = chargeRouteOf(clientFor(psp, { tokenUrl: `https://127.0.0.1:${port}/oauth/token` }));
    await expect(refused.chargeStatus(newId('txn'))).rejects.toThrow(/token request failed \(ECONNREFUSED\)/);
    silent.listen(port, '127.0.0.1');
    await once(silent, 'listening');
    try {
      const mute = chargeRouteOf(clientFor(psp, { tokenUrl: `https://127.0.0.1:${port}/oauth/token` }, { timeoutMs: 300 }));
      await expect(mute.chargeStatus(newId('txn'))).rejects.toThrow(/token request failed \(timed out\)/);
    } finally {
      silent.close();
    }
  });
});

describe('Efí send', () => {
  it('sends to a Pix key with PUT /v3/gn/pix/{idEnvio} and follows the envio to REALIZADO', async () => {
    const route = transferRouteOf(clientFor(psp));
    const transactionId = newId('out');
    const idEnvio = idEnvioOf(transactionId);
    const sent = await route.sendTransfer({
      transactionId,
      amountCents: 5_050,
      destination: { type: 'pix_key', value: 'ana@example.com', keyType: 'email' },
      description: 'Aluguel',
    });
    expect(sent.status).toBe('pending');
    expect(requestsTo(psp, 'PUT', `/v3/gn/pix/${idEnvio}`)[0]).toMatchObject({
      status: 201,
      conforms: true,
      body: { valor: '50.50', pagador: { chave: psp.pixKey, infoPagador: 'Aluguel' }, favorecido: { chave: 'ana@example.com' } },
    });
    expect(await route.transferStatus(transactionId)).toMatchObject({ status: 'pending' });
    const { endToEndId } = psp.completeEnvio(idEnvio, 'REALIZADO');
    const done = await route.transferStatus(transactionId);
    expect(done).toMatchObject({ status: 'approved', routeRef: endToEndId });
  });

  it('pays a copy-and-paste with PUT /v2/gn/pix/{idEnvio}/qrcode; NAO_REALIZADO is a failure', async () => {
    const chargeSide = chargeRouteOf(clientFor(psp));
    const charge = chargeRequest({ amountCents: 700 });
    const { copyPaste } = await chargeSide.createCharge(charge);
    const route = transferRouteOf(clientFor(psp));
    const transactionId = newId('out');
    const idEnvio = idEnvioOf(transactionId);
    await route.sendTransfer({
      transactionId,
      amountCents: 700,
      destination: { type: 'pix_copy_paste', value: copyPaste },
      description: null,
    });
    expect(requestsTo(psp, 'PUT', `/v2/gn/pix/${idEnvio}/qrcode`)[0]).toMatchObject({
      status: 201,
      conforms: true,
      body: { pagador: { chave: psp.pixKey }, pixCopiaECola: copyPaste },
    });
    psp.completeEnvio(idEnvio, 'NAO_REALIZADO');
    expect(await route.transferStatus(transactionId)).toMatchObject({ status: 'failed' });
  });

  it('repeats a send as the same envio (read back), refuses only when the envio does not exist, and is unavailable in an outage', async () => {
    const route = transferRouteOf(clientFor(psp));
    const transactionId = newId('out');
    const request = {
      transactionId,
      amountCents: 300,
      destination: { type: 'pix_key' as const, value: '+5511999990000' },
      description: null,
    };
    await route.sendTransfer(request);
    expect(await route.sendTransfer(request)).toMatchObject({ status: 'pending' });
    expect(requestsTo(psp, 'PUT', idEnvioOf(transactionId)).map((r) => r.status)).toEqual([201, 409]);

    const stranger = transferRouteOf(clientFor(psp, { pixKey: 'not-our-key' }));
    await expect(stranger.sendTransfer({ ...request, transactionId: newId('out') })).rejects.toBeInstanceOf(RouteRefused);

    psp.down(60_000, '503');
    try {
      await expect(route.sendTransfer({ ...request, transactionId: newId('out') })).rejects.toBeInstanceOf(PspUnavailable);
    } finally {
      psp.down(0);
    }
  });
});

describe('devoluções', () => {
  /** A cob of R$ 123,45 paid at the fake: the endToEndId of its Pix. */
  async function receivedPix(): Promise<string> {
    const request = chargeRequest();
    await chargeRouteOf(clientFor(psp)).createCharge(request);
    return psp.pay(txidOf(request.transactionId)).endToEndId;
  }

  const refundRequest = (endToEndId: string | null, extra: Partial<RouteRefundRequest> = {}): RouteRefundRequest => ({
    refundId: newId('rfd'),
    endToEndId,
    amountCents: 2_345,
    description: 'Pedido cancelado',
    ...extra,
  });

  it('asks with PUT /pix/{e2eid}/devolucao/{id}, nature ORIGINAL, and follows it to DEVOLVIDO (approved at its liquidação)', async () => {
    const route = refundRouteOf(clientFor(psp));
    const endToEndId = await receivedPix();
    const request = refundRequest(endToEndId);
    const id = devolucaoIdOf(request.refundId);
    expect(id).toMatch(/^rfd[0-9a-f]{24}$/);
    const sent = await route.sendRefund(request);
    const stored = psp.devolucao(endToEndId, id)!;
    expect(sent).toEqual({ status: 'pending', routeRef: stored.rtrId });
    expect(requestsTo(psp, 'PUT', `/pix/${endToEndId}/devolucao/${id}`)).toEqual([
      expect.objectContaining({
        status: 201,
        conforms: true,
        body: { valor: '23.45', natureza: 'ORIGINAL', descricao: 'Pedido cancelado' },
      }),
    ]);
    expect(await route.refundStatus(request)).toEqual({ status: 'pending', routeRef: stored.rtrId });
    psp.settleDevolucao(endToEndId, id, 'DEVOLVIDO');
    const settled = psp.devolucao(endToEndId, id)!;
    expect(await route.refundStatus(request)).toEqual({
      status: 'approved',
      routeRef: stored.rtrId,
      settledAt: new Date(settled.horario.liquidacao!),
    });
    expect(requestsTo(psp, 'GET', `/devolucao/${id}`).map((r) => [r.status, r.conforms])).toEqual([
      [200, true],
      [200, true],
    ]);
  });

  it("NAO_REALIZADO is a failure whose reason is the PSP's motivo; a refund without a reason sends no descricao", async () => {
    const route = refundRouteOf(clientFor(psp));
    const endToEndId = await receivedPix();
    const request = refundRequest(endToEndId, { description: null, amountCents: 12_345 });
    await route.sendRefund(request);
    expect(requestsTo(psp, 'PUT', devolucaoIdOf(request.refundId))[0]!.body).toEqual({ valor: '123.45', natureza: 'ORIGINAL' });
    psp.settleDevolucao(endToEndId, devolucaoIdOf(request.refundId), 'NAO_REALIZADO', 'Conta do pagador encerrada');
    expect(await route.refundStatus(request)).toMatchObject({ status: 'failed', reason: 'Conta do pagador encerrada' });
  });

  it('believes a refusal of the PUT only when the devolução is not found: a repeated or stored one is read back', async () => {
    const route = refundRouteOf(clientFor(psp));
    const endToEndId = await receivedPix();
    const repeated = refundRequest(endToEndId);
    const first = await route.sendRefund(repeated);
    expect(await route.sendRefund(repeated)).toEqual(first);
    expect(requestsTo(psp, 'PUT', devolucaoIdOf(repeated.refundId)).map((r) => r.status)).toEqual([201, 400]);

    psp.refuseDevolucoes(endToEndId, { stored: true });
    const stored = refundRequest(endToEndId);
    expect(await route.sendRefund(stored)).toMatchObject({ status: 'pending', routeRef: expect.stringMatching(/^D/) });
    expect(requestsTo(psp, 'PUT', devolucaoIdOf(stored.refundId)).map((r) => r.status)).toEqual([400]);
    expect(requestsTo(psp, 'GET', devolucaoIdOf(stored.refundId)).map((r) => r.status)).toEqual([200]);

    psp.refuseDevolucoes(endToEndId, { stored: false });
    const refused = refundRequest(endToEndId);
    const error = await route.sendRefund(refused).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(RouteRefused);
    expect((error as Error).message).toMatch(/PUT \/pix\/.*: the PSP answered 400 Devolução inválida/);
    expect(requestsTo(psp, 'GET', devolucaoIdOf(refused.refundId)).map((r) => r.status)).toEqual([404]);
    expect(psp.devolucao(endToEndId, devolucaoIdOf(refused.refundId))).toBeUndefined();

    // More than the Pix has left to return is the PSP's refusal too (123.45 - 23.45 - 23.45 remain).
    psp.refuseDevolucoes(endToEndId, null);
    await expect(route.sendRefund(refundRequest(endToEndId, { amountCents: 7_656 }))).rejects.toThrow(/excederia o valor/);
    expect(await route.sendRefund(refundRequest(endToEndId, { amountCents: 7_655 }))).toMatchObject({ status: 'pending' });
  });

  it('refuses a charge whose Pix has no endToEndId without asking the PSP, and is unavailable in an outage', async () => {
    const route = refundRouteOf(clientFor(psp));
    const before = psp.requests.length;
    const error = await route.sendRefund(refundRequest(null)).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(RouteRefused);
    expect((error as Error).message).toMatch(/has no endToEndId/);
    expect(psp.requests.length).toBe(before);

    const endToEndId = await receivedPix();
    psp.down(60_000, '503');
    try {
      await expect(route.sendRefund(refundRequest(endToEndId))).rejects.toBeInstanceOf(PspUnavailable);
    } finally {
      psp.down(0);
    }
  });

  it('a devolução of the engine, even DEVOLVIDO, is not a MED devolução of the Pix', async () => {
    const client = clientFor(psp);
    const endToEndId = await receivedPix();
    const request = refundRequest(endToEndId);
    await refundRouteOf(client).sendRefund(request);
    psp.settleDevolucao(endToEndId, devolucaoIdOf(request.refundId), 'DEVOLVIDO');
    const read = requestsTo(psp, 'GET', `/pix/${endToEndId}`).length;
    expect(await chargeRouteOf(client).medReturns(endToEndId)).toEqual([]);
    expect(requestsTo(psp, 'GET', `/pix/${endToEndId}`).length).toBe(read + 1);
  });
});

describe('webhook registration', () => {
  it('registers webhookUrl with PUT /webhook/{pixKey}, retrying in the background while the PSP is down', async () => {
    const fake = await startFakePsp();
    try {
      const client = clientFor(fake, { webhookUrl: 'https://engine.example/psp-webhooks/psp' });
      fake.down(300, '503');
      const stop = registerPspWebhooks([client], logger(), { firstRetryMs: 200, maxRetryMs: 400 });
      try {
        expect(fake.webhookUrl).toBeNull();
        await eventually(() => fake.webhookUrl === 'https://engine.example/psp-webhooks/psp', 5_000);
        // The log line follows the PSP's answer.
        await eventually(() => logLines.some((line) => line.includes('PSP webhook registered')), 2_000);
      } finally {
        stop();
      }
      const lines = logLines.map((line) => JSON.parse(line));
      expect(lines.some((line) => line.msg.startsWith('PSP webhook registration failed'))).toBe(true);
      expect(lines.at(-1)).toMatchObject({ msg: 'PSP webhook registered', route: 'psp' });
      expect(fake.requests.filter((r) => r.method === 'PUT' && r.path.startsWith('/v2/webhook/')).at(-1)).toMatchObject({
        status: 200,
        conforms: true,
        body: { webhookUrl: 'https://engine.example/psp-webhooks/psp' },
      });
      expect(logLines.join('\n')).not.toContain(fake.clientSecret);
    } finally {
      await fake.close();
    }
  });
});
