// Charges and transfers on a bcb-api-pix route end to end against the conformance fake PSP: the
// engine as a real process with a routes file naming the fake, its PSP webhook listener on HTTPS with
// the standard's mTLS, PostgreSQL and Temporal. The webhook is only a hint: every approval is
// confirmed with the PSP, a lost webhook delays (polling) and never loses a payment, a forged or
// replayed one moves nothing, and a MED devolução the PSP made is recorded once with the debit.
import { Client } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sql } from '../../src/db/database.js';
import { idEnvioOf, txidOf } from '../../src/pix-routes/bcb-api-pix/ids.js';
import { chargeWorkflowId } from '../../src/charges/contract.js';
import { medReturnsWorkflowId } from '../../src/meds/returns.contract.js';
import { createCharge, postCharge } from '../helpers/charges.js';
import { addDays, saoPauloDate } from '../../contracts/calendar.js';
import { encryptingDataConverter } from '../../src/temporal/codec/data-converter.js';
import { eventually } from '../helpers/eventually.js';
import { client, createKey, createMerchant } from '../helpers/fixtures.js';
import type { FakePsp } from '../helpers/fake-psp/index.js';
import { expectLedgerConsistent } from '../helpers/ledger.js';
import { testPayloadKeys } from '../helpers/payload-keys.js';
import { startPspStack, type PspStack } from '../helpers/psp-stack.js';
import { type Stack } from '../helpers/stack.js';
import { balanceOf, ledgerEntriesOf, postTransfer } from '../helpers/transfers.js';
import { eventTypes, firstAfterSignal, timersBeforeSignal } from '../helpers/workflow-history.js';

/** Long enough to pay by polling first (5 s, then 15 s after acceptance), short enough to wait for an expiry. */
const CHARGE_TTL_SECONDS = 20;

let psp: FakePsp;
let stack: Stack;
let sql: Sql;
let temporal: Client;
let listenerUrl: string;
let merchant: Awaited<ReturnType<typeof createMerchant>>;
/** A second key of the merchant, for reads: the first one's quota (100 a minute) goes to creations. */
let reader: ReturnType<typeof client>;

let running: PspStack;

beforeAll(async () => {
  running = await startPspStack({ CHARGE_TTL_SECONDS: String(CHARGE_TTL_SECONDS) });
  ({ psp, stack, sql, temporal, listenerUrl } = running);
  merchant = await createMerchant(stack, { route: 'psp' });
  reader = client(stack, (await createKey(stack, merchant.account.id)).key);
}, 120_000);

afterAll(() => running?.stop());

/** The PSP's webhook for these Pix, at the engine's listener, with the PSP's client certificate. */
const webhook = (input: { endToEndIds?: string[]; body?: unknown; withClientCert?: boolean; url?: string }) =>
  psp.sendWebhook({ url: `${listenerUrl}/pix`, ...input });

const cobReads = (txid: string) => psp.requests.filter((r) => r.method === 'GET' && r.path.endsWith(`/cob/${txid}`));

/** Waits (reading PostgreSQL) until the transaction has `status`, then answers it as GET /transactions/{id} does. */
async function waitForStatus(id: string, status: string, timeoutMs = 20_000): Promise<any> {
  await eventually(async () => (await statusOf(id)) === status, timeoutMs, 50);
  const res = await reader.get(`/transactions/${id}`);
  expect(res.status).toBe(200);
  return res.body.data;
}

/**
 * The webhook settled the run, not a poll: the workflow was signalled before any poll timer fired and
 * confirmed with the PSP (an activity) before the next one did.
 */
async function expectActedOnWebhook(workflowId: string): Promise<void> {
  const types = await eventTypes(temporal.workflow.getHandle(workflowId));
  expect(timersBeforeSignal(types)).toBe(0);
  expect(firstAfterSignal(types)).toBe('work');
}

async function statusOf(id: string): Promise<string> {
  const [row] = await sql<{ status: string }[]>`select status from transactions where id = ${id}`;
  return row!.status;
}

/** A charge approved through the webhook, its key, and the endToEndId of its payment. */
async function paidCharge(amount: number): Promise<{ id: string; externalId: string; endToEndId: string }> {
  const charge = await createCharge(merchant.client, { amount });
  const { endToEndId } = psp.pay(txidOf(charge.id));
  expect(await webhook({ endToEndIds: [endToEndId] })).toBe(200);
  await waitForStatus(charge.id, 'approved');
  return { id: charge.id, externalId: charge.externalId, endToEndId };
}

/**
 * Waits until the engine has acted on every webhook stored so far naming a paid charge or its Pix, and
 * whatever that could move has moved: no hint of them is left to act on, the charge's workflow has ended
 * (a signal finds nothing to wake), and the Pix's MED check the hints started or joined has completed.
 * Answers how many devoluções that check reported.
 */
async function webhooksActedOn(paid: { id: string; externalId: string; endToEndId: string }): Promise<number> {
  await eventually(
    async () => (await sql`select 1 from psp_hints where name in (${paid.id}, ${paid.endToEndId}) and signalled_at is null`).length === 0,
    20_000,
    100,
  );
  const chargeRun = await temporal.workflow.getHandle(chargeWorkflowId(merchant.account.id, paid.externalId)).describe();
  expect(chargeRun.status.name).toBe('COMPLETED');
  const medCheck = temporal.workflow.getHandle(medReturnsWorkflowId('psp', paid.endToEndId));
  const run = await eventually(async () => {
    const described = await medCheck.describe();
    return described.status.name === 'COMPLETED' ? described : undefined;
  }, 20_000);
  const reader = new Client({ connection: temporal.connection, dataConverter: encryptingDataConverter(testPayloadKeys()) });
  return reader.workflow.getHandle(run.workflowId, run.runId).result();
}

describe('charges on a PSP route', () => {
  it('paid by webhook: approved on the webhook before any poll, confirmed with GET /cob, endToEndId kept', async () => {
    const charge = await createCharge(merchant.client, { amount: 12.34 });
    expect(charge.pix.copyPaste).toBe((psp.cob(txidOf(charge.id)) as { pixCopiaECola: string }).pixCopiaECola);
    const { endToEndId } = psp.pay(txidOf(charge.id));
    expect(await webhook({ endToEndIds: [endToEndId] })).toBe(200);
    const approved = await waitForStatus(charge.id, 'approved', 10_000);
    await expectActedOnWebhook(`charge:${merchant.account.id}:${charge.externalId}`);
    expect(approved.amount).toBe(12.34);
    expect(cobReads(txidOf(charge.id)).length).toBeGreaterThanOrEqual(1);
    const [row] = await sql<{ end_to_end_id: string }[]>`select end_to_end_id from transactions where id = ${charge.id}`;
    expect(row!.end_to_end_id).toBe(endToEndId);
    await expectLedgerConsistent(stack.databaseUrl);
  });

  it('paid with the webhook lost: the workflow polls GET /cob and approves it', async () => {
    const charge = await createCharge(merchant.client, { amount: 5 });
    psp.pay(txidOf(charge.id)); // no webhook
    await waitForStatus(charge.id, 'approved', 15_000);
    expect(cobReads(txidOf(charge.id)).length).toBeGreaterThanOrEqual(1);
  });

  it('expiry: PATCH REMOVIDA_PELO_USUARIO_RECEBEDOR at expiresAt, cancelled and expired', async () => {
    const charge = await createCharge(merchant.client, { amount: 7 });
    const txid = txidOf(charge.id);
    const cancelled = await waitForStatus(charge.id, 'cancelled', (CHARGE_TTL_SECONDS + 15) * 1000);
    expect(cancelled.expired).toBe(true);
    const patch = psp.requests.find((r) => r.method === 'PATCH' && r.path.endsWith(`/cob/${txid}`));
    expect(patch).toMatchObject({ body: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' }, conforms: true });
    expect((psp.cob(txid) as { status: string }).status).toBe('REMOVIDA_PELO_USUARIO_RECEBEDOR');
  }, 60_000);

  it('paid at the moment of expiry: the PATCH finds it paid, GET decides, approved (not cancelled)', async () => {
    const charge = await createCharge(merchant.client, { amount: 8 });
    const txid = txidOf(charge.id);
    // After the second poll (15 s after acceptance) no poll comes before the expiry at 20 s.
    await eventually(() => cobReads(txid).length >= 2, 30_000, 50);
    psp.pay(txid); // and the webhook is lost
    const approved = await waitForStatus(charge.id, 'approved', (CHARGE_TTL_SECONDS + 15) * 1000);
    expect(approved.expired).toBe(false);
    expect(psp.requests.some((r) => r.method === 'PATCH' && r.path.endsWith(`/cob/${txid}`) && r.status >= 400)).toBe(true);
  }, 60_000);

  it('a forged webhook approves nothing (the PSP says ATIVA), and a replayed one moves nothing twice', async () => {
    const charge = await createCharge(merchant.client, { amount: 9 });
    const txid = txidOf(charge.id);
    const forged = { pix: [{ endToEndId: 'E99999999202601011200forgedforged', txid, valor: '9.00', horario: new Date().toISOString() }] };
    const readsBefore = cobReads(txid).length;
    expect(await webhook({ body: forged })).toBe(200);
    // The workflow asked the PSP, which says ATIVA: still pending.
    await eventually(() => cobReads(txid).length > readsBefore, 4000, 50);
    expect(await statusOf(charge.id)).toBe('pending');

    const paid = await paidCharge(11);
    const entriesBefore = await ledgerEntriesOf(sql, paid.id);
    const balanceBefore = await balanceOf(reader);
    for (let i = 0; i < 3; i++) expect(await webhook({ endToEndIds: [paid.endToEndId] })).toBe(200);
    expect(await webhooksActedOn(paid)).toBe(0);
    expect(await ledgerEntriesOf(sql, paid.id)).toEqual(entriesBefore);
    expect(await balanceOf(reader)).toEqual(balanceBefore);
    expect(await statusOf(paid.id)).toBe('approved');
    await expectLedgerConsistent(stack.databaseUrl);
  });

  it('the listener refuses a caller without a client certificate at the handshake', async () => {
    await expect(webhook({ endToEndIds: [], withClientCert: false })).rejects.toThrow();
    expect(await webhook({ body: { pix: [] } })).toBe(200);
    expect(await webhook({ body: { pix: [] }, url: listenerUrl.replace(/\/psp$/, '/nope/pix') })).toBe(404);
  });
});

describe('MED devoluções reported by the PSP', () => {
  it('records each devolução once as an accepted MED with the debit; refunded when the whole amount went back', async () => {
    const partial = await paidCharge(30);
    const whole = await paidCharge(20);
    const before = await balanceOf(reader);

    psp.addDevolucao(partial.endToEndId, { id: 'D1partial', amountCents: 1000, natureza: 'MED_OPERACIONAL' });
    psp.addDevolucao(whole.endToEndId, { id: 'D1whole', amountCents: 2000, natureza: 'MED_FRAUDE' });
    // A devolução of nature ORIGINAL is not a MED: nothing is recorded for it.
    psp.addDevolucao(partial.endToEndId, { id: 'D2original', amountCents: 500, natureza: 'ORIGINAL' });
    for (let i = 0; i < 2; i++) expect(await webhook({ endToEndIds: [partial.endToEndId, whole.endToEndId] })).toBe(200);

    const meds = await eventually(
      async () => {
        const rows = await sql<
          { transaction_id: string; status: string; reason: string; amount: bigint; returned_amount: bigint; route_return_id: string }[]
        >`
        select transaction_id, status, reason, amount, returned_amount, route_return_id from meds
        where transaction_id in (${partial.id}, ${whole.id}) order by amount`;
        return rows.length === 2 ? rows : undefined;
      },
      20_000,
      100,
    );
    expect(meds.map((m) => [m.transaction_id, m.status, m.reason, Number(m.amount), Number(m.returned_amount), m.route_return_id])).toEqual(
      [
        [partial.id, 'accepted', 'MED_OPERACIONAL', 1000, 1000, 'D1partial'],
        [whole.id, 'accepted', 'MED_FRAUDE', 2000, 2000, 'D1whole'],
      ],
    );
    const partialNow = await waitForStatus(partial.id, 'approved');
    expect(partialNow.refundedAmount).toBe(10);
    const wholeNow = await waitForStatus(whole.id, 'refunded');
    expect(wholeNow.refundedAmount).toBe(20);
    expect((await balanceOf(reader)).available).toBe(Math.round((before.available - 30) * 100) / 100);

    const events = await sql<{ type: string; transaction_id: string }[]>`
      select type, transaction_id from events where transaction_id in (${partial.id}, ${whole.id}) and type <> 'transaction.approved' order by created_at, id`;
    expect(
      events
        .filter((e) => e.transaction_id === partial.id)
        .map((e) => e.type)
        .sort(),
    ).toEqual(['med.created', 'med.updated']);
    expect(
      events
        .filter((e) => e.transaction_id === whole.id)
        .map((e) => e.type)
        .sort(),
    ).toEqual(['med.created', 'med.updated', 'transaction.refunded']);

    // Another webhook naming the same Pix: its check finds the devolução again, and records it no second time.
    expect(await webhook({ endToEndIds: [whole.endToEndId] })).toBe(200);
    expect(await webhooksActedOn(whole)).toBe(1);
    const [count] = await sql<{ n: number }[]>`select count(*)::int as n from meds where transaction_id in (${partial.id}, ${whole.id})`;
    expect(count!.n).toBe(2);
    await expectLedgerConsistent(stack.databaseUrl);
  });
});

describe('transfers on a PSP route', () => {
  it('an Efí webhook naming the envio (gnExtras.idEnvio) settles it at once, confirmed with the PSP', async () => {
    await paidCharge(50);
    const sent = await postTransfer(merchant.client, { amount: 10, pixKey: '529.982.247-25', pixKeyType: 'cpf' });
    expect(sent.status, sent.text).toBe(201);
    const id = sent.body.data.id as string;
    const { endToEndId } = psp.completeEnvio(idEnvioOf(id), 'REALIZADO');
    expect(await webhook({ endToEndIds: [endToEndId] })).toBe(200);
    await waitForStatus(id, 'approved', 10_000);
    await expectActedOnWebhook(`transfer:${merchant.account.id}:${sent.body.data.externalId}`);
    await expectLedgerConsistent(stack.databaseUrl);
  });
});

describe('due-date charges (cobv) on a PSP route', () => {
  const today = saoPauloDate(new Date());
  /** R$ 500,00 due in 5 days, R$ 20 off until the 2nd day, 2 % fine, 1 % a month; a company payer. */
  const dueDateCharge = async () => {
    const res = await postCharge(merchant.client, {
      amount: 500,
      payer: { name: 'Mercearia Central Ltda', document: '11.222.333/0001-81' },
      description: 'Mensalidade',
      dueDate: addDays(today, 5),
      fine: { mode: 'percent', value: 2 },
      interest: { mode: 'percent_per_month', value: 1 },
      discounts: [{ until: addDays(today, 2), mode: 'fixed', value: 20 }],
    });
    expect(res.status).toBe(201);
    return res.body.data;
  };
  const cobvCalls = (txid: string) => psp.requests.filter((r) => r.path.endsWith(`/cobv/${txid}`));

  it("is created with PUT /cobv (conforming to the standard), paid with the PSP's value, confirmed with GET /cobv: two PSP calls", async () => {
    const charge = await dueDateCharge();
    const txid = txidOf(charge.id);
    const cobv = psp.cobv(txid)!;
    expect(charge).toMatchObject({ dueDate: addDays(today, 5), amountDue: 480, pix: { copyPaste: cobv.pixCopiaECola } });
    expect(cobv.calendario).toMatchObject({ dataDeVencimento: addDays(today, 5), validadeAposVencimento: 30 });
    const { endToEndId } = psp.payCobv(txid, { amountCents: 48_000, payer: { nome: 'Mercearia Central Ltda', cnpj: '11222333000181' } });
    expect(await webhook({ endToEndIds: [endToEndId] })).toBe(200);
    const approved = await waitForStatus(charge.id, 'approved');
    expect(approved).toMatchObject({ amount: 500, paidAmount: 480, amountDue: null, fee: 0, netAmount: 480 });
    expect(cobvCalls(txid).map((r) => `${r.method} ${r.status} ${r.conforms}`)).toEqual(['PUT 201 true', 'GET 200 true']);
    expect(psp.requests.filter((r) => r.path.endsWith(`/cob/${txid}`))).toEqual([]);
    const clearing = (await ledgerEntriesOf(sql, charge.id)).filter((entry) => entry.account.includes('pix_clearing'));
    expect(clearing).toEqual([{ key: `charge:${charge.id}:settle`, account: expect.any(String), amount: -48_000 }]);
    await expectLedgerConsistent(stack.databaseUrl);
  });

  it("keeps the approval with the value the PSP took when it differs from the engine's amount due", async () => {
    const charge = await dueDateCharge();
    const { endToEndId } = psp.payCobv(txidOf(charge.id), { amountCents: 48_500 });
    expect(await webhook({ endToEndIds: [endToEndId] })).toBe(200);
    expect(await waitForStatus(charge.id, 'approved')).toMatchObject({ paidAmount: 485, netAmount: 485 });
  });
});
