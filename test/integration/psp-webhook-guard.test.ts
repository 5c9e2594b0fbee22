// The PSP webhook listener against hostile senders, over real mTLS with the engine as a real process:
// a flood of hints for one charge becomes one signal in its workflow's history (the rest coalesced by
// the hint processor, so Temporal's per-run signal budget is not spent), and a sender whose certificate the listener's CA signed
// is still refused (403) when it is the engine's own client certificate or lacks the route's
// webhookClientSubject. The listener's CA file here trusts the engine's CA too, as one shared with a PSP would.
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { idEnvioOf, txidOf } from '../../src/pix-routes/bcb-api-pix/ids.js';
import { chargeWorkflowId } from '../../src/charges/contract.js';
import { createCharge, newKey, waitForStatus } from '../helpers/charges.js';
import { eventually } from '../helpers/eventually.js';
import { client, createKey, createMerchant } from '../helpers/fixtures.js';
import { engineOnFakePsp, startFakePsp, type FakePsp } from '../helpers/fake-psp/index.js';
import { startStack, type Stack } from '../helpers/stack.js';

let psp: FakePsp;
let stack: Stack;
let temporal: Client;
let listenerUrl: string;
let merchant: Awaited<ReturnType<typeof createMerchant>>;

beforeAll(async () => {
  psp = await startFakePsp();
  const onPsp = await engineOnFakePsp(psp);
  listenerUrl = onPsp.listenerUrl;
  const sharedCa = join(psp.certs.listenerClientCaFile.replace(/[^/]+$/, ''), 'shared-ca.pem');
  writeFileSync(sharedCa, readFileSync(psp.certs.listenerClientCaFile, 'utf8') + psp.engineCaPem, { mode: 0o600 });
  // A second route whose webhooks must come from another PSP's certificate.
  const routes = JSON.parse(readFileSync(onPsp.env.PIX_ROUTES_FILE!, 'utf8'));
  routes.routes.other = { ...routes.routes.psp, webhookUrl: undefined, webhookClientSubject: 'CN=other-psp-webhooks' };
  routes.routes.psp.webhookClientSubject = 'CN=fake-psp-webhooks';
  writeFileSync(onPsp.env.PIX_ROUTES_FILE!, JSON.stringify(routes), { mode: 0o600 });
  stack = await startStack({ env: { ...onPsp.env, PSP_WEBHOOK_CLIENT_CA_FILE: sharedCa, PSP_WEBHOOK_HINT_INTERVAL_MS: '600000' } });
  merchant = await createMerchant(stack, { route: 'psp' });
  temporal = new Client({ connection: await Connection.connect({ address: inject('temporalAddress') }) });
}, 120_000);

afterAll(async () => {
  await temporal?.connection.close();
  await stack?.stop();
  await psp?.close();
});

/** A webhook POST presenting the engine's own client certificate. */
async function postAsEngine(url: string, body: unknown): Promise<number> {
  const text = JSON.stringify(body);
  const req = request(url, {
    method: 'POST',
    agent: false,
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
    ca: psp.engineCaPem,
    cert: readFileSync(psp.certs.clientCertFile),
    key: readFileSync(psp.certs.clientKeyFile),
  });
  req.end(text);
  const [res] = (await once(req, 'response')) as [import('node:http').IncomingMessage];
  res.resume();
  await once(res, 'end');
  return res.statusCode ?? 0;
}

describe('PSP webhook listener against hostile senders', () => {
  it('turns 40 webhooks for one paid charge into one paymentNotified signal in its history', async () => {
    const key = newKey('flood');
    const charge = await createCharge(merchant.client, { amount: 3 }, key);
    psp.pay(txidOf(charge.id));
    // Bodies naming the charge only: a Pix's endToEndId is a name of its own (its MED check), whose rows
    // would share the batches' counters with the charge's in an order that depends on timing.
    const body = { pix: [{ txid: txidOf(charge.id) }] };
    const statuses = await Promise.all(Array.from({ length: 40 }, () => psp.sendWebhook({ url: `${listenerUrl}/pix`, body })));
    expect(statuses.every((status) => status === 200)).toBe(true);
    const reader = client(stack, (await createKey(stack, merchant.account.id)).key);
    await waitForStatus(reader, charge.id, 'approved');
    const { events } = await temporal.workflow.getHandle(chargeWorkflowId(merchant.account.id, key)).fetchHistory();
    const signals = (events ?? []).filter((event) => event.workflowExecutionSignaledEventAttributes?.signalName === 'paymentNotified');
    expect(signals).toHaveLength(1);
    const lines = () =>
      stack.processes[0]!.output()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line));
    const batches = await eventually(() => {
      const found = lines().filter((line) => line.msg === 'PSP webhook hints');
      return found.reduce((sum, batch) => sum + batch.hints, 0) >= 40 ? found : undefined;
    }, 10_000);
    expect(lines().filter((line) => line.msg === 'PSP webhook' && line.charges === 1)).toHaveLength(40);
    expect(batches.reduce((sum, batch) => sum + batch.signalled, 0)).toBe(1);
    expect(batches.reduce((sum, batch) => sum + batch.coalesced, 0)).toBe(39);
  });

  it("refuses the engine's own client certificate, and a PSP certificate without the route's webhookClientSubject", async () => {
    const body = { pix: [{ gnExtras: { idEnvio: idEnvioOf('out_0123456789abcdef01234567') }, endToEndId: 'E1' }] };
    expect(await postAsEngine(`${listenerUrl}/pix`, body)).toBe(403);
    expect(await psp.sendWebhook({ url: listenerUrl.replace(/\/psp$/, '/other/pix'), body })).toBe(403);
    expect(await psp.sendWebhook({ url: `${listenerUrl}/pix`, body })).toBe(200);
  });
});
