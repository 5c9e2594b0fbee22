// The bcb-api-pix route end to end: the engine (real processes, PostgreSQL, Temporal) configured with a
// routes file pointing at the conformance fake PSP (mTLS, OAuth, the standard's schemas). Charges and
// transfers go through the public API as an integrator's would; the fake plays the payer's and the
// network's side. Routes: `psp` (with Efí send and a webhook URL), `stranger` (a Pix key the PSP says is
// not the account's: every creation is refused), `nosend` (no send API).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBrCode } from '../../src/domain/brcode.js';
import { decodeQrPngBase64 } from '../../src/domain/qrcode.js';
import { chargeIdOfTxid, idEnvioOf, txidOf } from '../../src/pix-routes/bcb-api-pix/ids.js';
import { chargeBody, newKey, postCharge, waitForStatus } from '../helpers/charges.js';
import { CPF, createMerchant, patchAccount } from '../helpers/fixtures.js';
import { startFakePsp, type FakePsp } from '../helpers/fake-psp/index.js';
import { liveStack } from '../helpers/live-stack.js';
import { runPixctl } from '../helpers/pixctl-run.js';
import { freePort } from '../../src/runtime/free-port.js';
import { admin } from '../helpers/stack.js';
import { balanceOf, cpfKeyBody, fund, postTransfer } from '../helpers/transfers.js';
import { eventually } from '../helpers/eventually.js';
import { poll } from '../helpers/probe.js';

const TTL_SECONDS = 600;
type MerchantClient = Awaited<ReturnType<typeof createMerchant>>['client'];
let psp: FakePsp;
let routesFile: string;
let webhookUrl: string;
let listenerPort: number;

beforeAll(async () => {
  psp = await startFakePsp();
  listenerPort = await freePort();
  webhookUrl = `http://127.0.0.1:${listenerPort}/psp-webhooks/psp`;
  const route = JSON.parse(readFileSync(psp.writeRoutesFile(), 'utf8')).routes.psp;
  const { send: _send, ...withoutSend } = route;
  routesFile = join(dirname(psp.certs.clientCertFile), 'engine-routes.json');
  writeFileSync(
    routesFile,
    JSON.stringify({
      routes: { psp: { ...route, webhookUrl }, stranger: { ...route, pixKey: 'chave-de-outra-conta' }, nosend: withoutSend },
    }),
  );
});

afterAll(async () => {
  await psp?.close();
});

describe('bcb-api-pix route', () => {
  const live = liveStack(() => ({
    env: {
      PIX_ROUTES_FILE: routesFile,
      CHARGE_TTL_SECONDS: String(TTL_SECONDS),
      PSP_WEBHOOK_PORT: String(listenerPort),
      ACCEPT_WAIT_MS: '3000',
    },
  }));
  const requestsFor = (pathPart: string, method?: string) =>
    psp.requests.filter((r) => r.path.includes(pathPart) && (method === undefined || r.method === method));

  describe('configuration', () => {
    it('GET /admin/routes lists the simulator and the configured routes, without a secret or key material', async () => {
      const res = await admin(live.stack, 'GET', '/routes');
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([
        { name: 'simulator', type: 'simulator', baseUrl: null, sendBaseUrl: null, canSend: true, webhookUrl: null },
        { name: 'psp', type: 'bcb-api-pix', baseUrl: psp.baseUrl, sendBaseUrl: psp.sendBaseUrl, canSend: true, webhookUrl },
        { name: 'stranger', type: 'bcb-api-pix', baseUrl: psp.baseUrl, sendBaseUrl: psp.sendBaseUrl, canSend: true, webhookUrl: null },
        { name: 'nosend', type: 'bcb-api-pix', baseUrl: psp.baseUrl, sendBaseUrl: null, canSend: false, webhookUrl: null },
      ]);
      const key = readFileSync(psp.certs.clientKeyFile, 'utf8').split('\n')[1]!;
      for (const text of [res.text, live.stack.processes[0]!.output()]) {
        expect(text).not.toContain(psp.clientSecret);
        expect(text).not.toContain(key);
      }
    });

    it('pixctl routes list prints them', async () => {
      const run = await runPixctl(live.stack, ['routes', 'list']);
      expect(run.code, run.stderr).toBe(0);
      const lines = run.stdout.trim().split('\n');
      expect(lines[0]).toMatch(/^name\s+type\s+baseUrl\s+sendBaseUrl\s+canSend\s+webhookUrl$/);
      expect(lines.slice(1).map((line) => line.split(/\s+/).slice(0, 2))).toEqual([
        ['simulator', 'simulator'],
        ['psp', 'bcb-api-pix'],
        ['stranger', 'bcb-api-pix'],
        ['nosend', 'bcb-api-pix'],
      ]);
      expect(run.stdout).not.toContain(psp.clientSecret);
      const json = await runPixctl(live.stack, ['routes', 'list', '--json']);
      expect(JSON.parse(json.stdout).map((route: { name: string }) => route.name)).toEqual(['simulator', 'psp', 'stranger', 'nosend']);
    });

    it('accounts take a configured route; an unknown one is a 400 naming the field', async () => {
      const { account } = await createMerchant(live.stack, { route: 'psp' });
      expect(account.route).toBe('psp');
      expect((await patchAccount(live.stack, account.id, { route: 'nosend' })).route).toBe('nosend');
      const unknown = await admin(live.stack, 'PATCH', `/accounts/${account.id}`, { route: 'nowhere' });
      expect(unknown.status).toBe(400);
      expect(unknown.body.error).toMatchObject({ code: 'invalid_request', param: '/route' });
      expect(unknown.body.error.message).toContain('simulator, psp, stranger, nosend');
    });

    it('without TLS files and PSP_WEBHOOK_HOST, the webhook listener takes plain HTTP on 127.0.0.1 and says so at start', async () => {
      const res = await fetch(`http://127.0.0.1:${listenerPort}/psp-webhooks/psp/pix`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"pix": []}',
      });
      expect(res.status).toBe(200);
      expect(live.stack.processes[0]!.output()).toContain('PSP webhook listener on 127.0.0.1 only: no PSP_WEBHOOK_TLS_* files');
    });

    it('registered the webhook URL with the PSP at start', async () => {
      await eventually(() => psp.webhookUrl === webhookUrl, 10_000);
      expect(requestsFor('/v2/webhook/', 'PUT').at(-1)).toMatchObject({ status: 200, conforms: true, body: { webhookUrl } });
    });
  });

  describe('charges', () => {
    it('creates the cob as the standard and DESIGN say: txid rule, expiry, valor, chave, devedor, description; pix is the PSP copy-and-paste with its QR', async () => {
      const { client } = await createMerchant(live.stack, { route: 'psp' });
      const res = await postCharge(client, chargeBody({ amount: 87.65, description: 'Pedido 7' }));
      expect(res.status, res.text).toBe(201);
      const charge = res.body.data;
      const txid = txidOf(charge.id);
      expect(txid).toMatch(/^[a-zA-Z0-9]{26,35}$/);
      expect(chargeIdOfTxid(txid)).toBe(charge.id);
      const [put] = requestsFor(`/v2/cob/${txid}`, 'PUT');
      expect(put).toMatchObject({ status: 201, conforms: true });
      expect(put!.body).toEqual({
        calendario: { expiracao: TTL_SECONDS },
        valor: { original: '87.65' },
        chave: psp.pixKey,
        devedor: { cpf: CPF.validDigits, nome: 'Maria da Silva' },
        solicitacaoPagador: 'Pedido 7',
      });
      const cob = psp.cob(txid) as { pixCopiaECola: string };
      expect(charge.acquirer).toBe('psp');
      expect(charge.pix.copyPaste).toBe(cob.pixCopiaECola);
      expect(decodeQrPngBase64(charge.pix.qrCodeBase64)).toBe(cob.pixCopiaECola);
    });

    it('reuses one OAuth token across calls, and replaces a refused one once', async () => {
      const { client } = await createMerchant(live.stack, { route: 'psp' });
      await eventually(() => psp.tokensIssued > 0, 10_000);
      const tokens = psp.tokensIssued;
      for (let i = 0; i < 3; i++) expect((await postCharge(client, chargeBody())).status).toBe(201);
      expect(psp.tokensIssued).toBe(tokens);
      psp.revokeTokens();
      const before = psp.requests.length;
      const res = await postCharge(client, chargeBody());
      expect(res.status, res.text).toBe(201);
      expect(psp.tokensIssued).toBe(tokens + 1);
      const txid = txidOf(res.body.data.id);
      expect(
        psp.requests
          .slice(before)
          .filter((r) => r.path === `/v2/cob/${txid}`)
          .map((r) => r.status),
      ).toEqual([401, 201]);
    });

    it('answers 202 while the PSP is down, then the same key answers the charge', async () => {
      const { client } = await createMerchant(live.stack, { route: 'psp' });
      const key = newKey('outage');
      psp.down(6_000, '503');
      const during = await postCharge(client, chargeBody({ amount: 12.34 }), key);
      expect(during.status, during.text).toBe(202);
      expect(during.body.data).toMatchObject({ status: 'pending', pix: null });
      const after = await poll(
        () => postCharge(client, chargeBody({ amount: 12.34 }), key),
        (res) => (res.body.data.pix ? res : undefined),
        { notYet: [202], timeoutMs: 40_000, everyMs: 500 },
      );
      expect(after.body.data).toMatchObject({
        id: during.body.data.id,
        status: 'pending',
        pix: { copyPaste: (psp.cob(txidOf(during.body.data.id)) as { pixCopiaECola: string }).pixCopiaECola },
      });
      expect(requestsFor(`/v2/cob/${txidOf(during.body.data.id)}`, 'PUT').map((r) => r.status)).toContain(503);
    });

    it('fails a charge the PSP refuses (4xx), after reading the cob back and finding none', async () => {
      const { client } = await createMerchant(live.stack, { route: 'stranger' });
      const res = await postCharge(client, chargeBody());
      expect([201, 202]).toContain(res.status);
      // After a 202 the charge reads 404 until its workflow stores it.
      const failed =
        res.body.data.status === 'failed'
          ? res.body.data
          : await waitForStatus(client, res.body.data.id, 'failed', 20_000, res.status === 202 ? [404] : []);
      expect(failed).toMatchObject({ status: 'failed', acquirer: 'stranger', pix: null });
      const txid = txidOf(failed.id);
      expect(requestsFor(`/v2/cob/${txid}`).map((r) => [r.method, r.status])).toEqual([
        ['PUT', 400],
        ['GET', 404],
      ]);
    });
  });

  describe('transfers', () => {
    /** A merchant funded with `reais` on the simulator, then moved to `route`. */
    async function fundedMerchant(reais: number, route: string) {
      const merchant = await createMerchant(live.stack);
      await fund(live.stack, merchant.client, reais);
      await patchAccount(live.stack, merchant.account.id, { route });
      return merchant;
    }

    /** The envio's PUT at the fake PSP, once the engine has sent it. */
    async function sentEnvio(path: string) {
      await eventually(() => requestsFor(path, 'PUT').length > 0, 20_000);
      return requestsFor(path, 'PUT')[0];
    }

    /** The PSP concludes the envio with `situacao`: the transfer ends `status`, the balance as `settled`, the ledger sound. */
    async function concludeEnvio(
      client: MerchantClient,
      transferId: string,
      situacao: 'REALIZADO' | 'NAO_REALIZADO',
      status: string,
      settled: { available: number; reserved: number },
    ) {
      psp.completeEnvio(idEnvioOf(transferId), situacao);
      await waitForStatus(client, transferId, status, 40_000);
      expect(await balanceOf(client)).toEqual(settled);
      const check = await admin(live.stack, 'GET', '/ledger/check');
      expect(check.body.data).toMatchObject({ ok: true, violations: [] });
    }

    it('sends to a Pix key (PUT /v3/gn/pix) and settles on REALIZADO, the ledger to the centavo', async () => {
      const { client } = await fundedMerchant(100, 'psp');
      const res = await postTransfer(client, cpfKeyBody({ amount: 33.33, description: 'Aluguel' }));
      expect(res.status, res.text).toBe(201);
      const transfer = res.body.data;
      expect(await sentEnvio(`/v3/gn/pix/${idEnvioOf(transfer.id)}`)).toMatchObject({
        status: 201,
        conforms: true,
        body: { valor: '33.33', pagador: { chave: psp.pixKey, infoPagador: 'Aluguel' }, favorecido: { chave: CPF.validDigits } },
      });
      expect(await balanceOf(client)).toEqual({ available: 66.67, reserved: 33.33 });
      await concludeEnvio(client, transfer.id, 'REALIZADO', 'approved', { available: 66.67, reserved: 0 });
    });

    it('pays a copy-and-paste (PUT /v2/gn/pix/…/qrcode); NAO_REALIZADO fails it and releases the funds', async () => {
      const { client } = await fundedMerchant(50, 'psp');
      const code = buildBrCode({
        pixKey: 'loja@example.com',
        amountCents: 1_999,
        txid: 'PEDIDO77',
        merchantName: 'Loja Externa',
        merchantCity: 'RECIFE',
      });
      const res = await postTransfer(client, { destination: { type: 'pix_copy_paste', value: code } });
      expect(res.status, res.text).toBe(201);
      const transfer = res.body.data;
      expect(await sentEnvio(`/v2/gn/pix/${idEnvioOf(transfer.id)}/qrcode`)).toMatchObject({
        status: 201,
        conforms: true,
        body: { pagador: { chave: psp.pixKey }, pixCopiaECola: code },
      });
      expect(await balanceOf(client)).toEqual({ available: 30.01, reserved: 19.99 });
      await concludeEnvio(client, transfer.id, 'NAO_REALIZADO', 'failed', { available: 50, reserved: 0 });
    });

    it('refuses a transfer on a route without send with 422 before anything is reserved', async () => {
      const { client, account } = await fundedMerchant(20, 'nosend');
      const res = await postTransfer(client, cpfKeyBody({ amount: 5 }));
      expect(res.status, res.text).toBe(422);
      expect(res.body.error).toMatchObject({ code: 'operation_refused' });
      expect(res.body.error.message).toContain('nosend');
      expect(await balanceOf(client)).toEqual({ available: 20, reserved: 0 });
      const [row] = await live.sql<
        { count: bigint }[]
      >`select count(*) from transactions where account_id = ${account.id} and direction = 'out'`;
      expect(Number(row!.count)).toBe(0);
    });
  });
});
