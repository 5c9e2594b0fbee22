// A charge's life over HTTP against the real stack: creation with a real BR Code and QR code, the
// simulated payer, approval with the ledger checked to the centavo, fees, coverFee and split.
import { describe, expect, it } from 'vitest';
import { parseBrCode } from '../../../src/domain/brcode.js';
import { decodeQrPngBase64 } from '../../../src/domain/qrcode.js';
import { customerAccount, platformAccount } from '../../../src/ledger/accounts.js';
import { createCharge, newKey, payCharge, postCharge, chargeBody, waitForStatus } from '../../helpers/charges.js';
import { CPF, createAccount, createMerchant } from '../../helpers/fixtures.js';
import { expectLedgerConsistent } from '../../helpers/ledger.js';
import { liveStack } from '../../helpers/live-stack.js';
import { runPixctl } from '../../helpers/pixctl-run.js';
import { admin } from '../../helpers/stack.js';

const FEES = { charge: { fixed: 0.5, percent: 1.99 } };

describe('charges: create, pay, approve', () => {
  const live = liveStack();

  async function entriesOf(postingKey: string): Promise<Record<string, number>> {
    const rows = await live.sql<{ account: string; amount: bigint }[]>`
      select e.ledger_account_id as account, e.amount from ledger_entries e join ledger_postings p on p.id = e.posting_id
      where p.posting_key = ${postingKey}`;
    return Object.fromEntries(rows.map((r) => [r.account, Number(r.amount)]));
  }

  async function availableOf(accountId: string): Promise<number> {
    const res = await admin(live.stack, 'GET', `/accounts/${accountId}`);
    return res.body.data.balance.available;
  }

  it('creates a pending charge whose BR Code carries the payer amount (CRC valid) and whose QR code decodes to exactly that code', async () => {
    const { client } = await createMerchant(live.stack, { fees: FEES });
    const created = await createCharge(client, { amount: 100, coverFee: true });
    expect(created).toMatchObject({
      status: 'pending',
      processingState: 'monitoring',
      expired: false,
      direction: 'in',
      type: 'payment',
      method: 'pix',
      acquirer: 'simulator',
      amount: 102.54,
      fee: 2.54,
      netAmount: 100,
      splitAmount: 0,
      split: [],
      approvedAt: null,
      counterparty: null,
    });
    expect(Date.parse(created.expiresAt) - Date.parse(created.createdAt)).toBe(15 * 60 * 1000);
    const code = parseBrCode(created.pix.copyPaste);
    expect(code).toMatchObject({ ok: true, amountCents: 10254 });
    expect(code.ok && code.txid).toMatch(/^[A-Za-z0-9]{1,25}$/);
    expect(created.pix.qrCodeBase64).not.toMatch(/^data:/);
    expect(decodeQrPngBase64(created.pix.qrCodeBase64)).toBe(created.pix.copyPaste);
  });

  it('approves a paid charge: payer details from the network, ledger posted once to the centavo, event recorded', async () => {
    const { client, account } = await createMerchant(live.stack, { fees: FEES });
    const created = await createCharge(client, { amount: 150.75 });
    const paid = await payCharge(live.stack, created.id, {
      name: 'João Pagador',
      document: CPF.other,
      bankName: 'Banco do Teste',
      state: 'MG',
    });
    expect(paid.status).toBe(200);
    expect(paid.body.data).toMatchObject({ transactionId: created.id, amount: 150.75, status: 'paid', copyPaste: created.pix.copyPaste });

    const approved = await waitForStatus(client, created.id, 'approved');
    expect(approved).toMatchObject({ processingState: 'completed', amount: 150.75, fee: 3.5, netAmount: 147.25 });
    expect(approved.payer).toEqual({
      name: 'João Pagador',
      document: CPF.other,
      email: 'maria@example.com',
      bankName: 'Banco do Teste',
      state: 'MG',
    });
    expect(Date.parse(approved.approvedAt)).toBeGreaterThanOrEqual(Date.parse(created.createdAt));

    expect(await entriesOf(`charge:${created.id}:settle`)).toEqual({
      [platformAccount('pix_clearing', created.id)]: -15075,
      [platformAccount('fee_revenue', created.id)]: 350,
      [customerAccount(account.id, 'available')]: 14725,
    });
    expect((await client.get('/balance')).body.data).toEqual({ currency: 'BRL', available: 147.25, reserved: 0 });
    const [event] = await live.sql<
      { id: string; type: string; payload: any }[]
    >`select id, type, payload from events where transaction_id = ${created.id}`;
    expect(event).toMatchObject({ id: `evt_${created.id}_approved`, type: 'transaction.approved' });
    expect(event!.payload.data).toEqual(approved);
    await expectLedgerConsistent(live.stack.databaseUrl);
  });

  it('refuses to pay a charge twice, and an unknown charge', async () => {
    const { client } = await createMerchant(live.stack);
    const created = await createCharge(client);
    expect((await payCharge(live.stack, created.id)).status).toBe(200);
    const twice = await payCharge(live.stack, created.id);
    expect(twice.status).toBe(409);
    expect(twice.body.error.code).toBe('charge_already_paid');
    const unknown = await payCharge(live.stack, 'txn_000000000000000000000000');
    expect(unknown.status).toBe(404);
    const badPayer = await payCharge(live.stack, created.id, { state: 'São Paulo' });
    expect(badPayer.status).toBe(400);
    await waitForStatus(client, created.id, 'approved');
    expect((await client.get('/balance')).body.data.available).toBe(100);
  });

  it('pays a charge from the command line (pixctl charges pay) and refuses to pay it again', async () => {
    const { client } = await createMerchant(live.stack);
    const created = await createCharge(client, { amount: 12.34 });
    const run = await runPixctl(live.stack, ['charges', 'pay', created.id, '--bank', 'Banco CLI', '--state', 'BA', '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      transactionId: created.id,
      amount: 12.34,
      status: 'paid',
      payer: { bankName: 'Banco CLI', state: 'BA' },
    });
    const approved = await waitForStatus(client, created.id, 'approved');
    expect(approved.payer).toMatchObject({ bankName: 'Banco CLI', state: 'BA' });
    const again = await runPixctl(live.stack, ['charges', 'pay', created.id]);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/já foi paga|charge_already_paid/);
  });

  it.each([
    {
      label: 'no coverFee, no split',
      body: { amount: 100 },
      expected: { amount: 100, fee: 2.49, splitAmount: 0, netAmount: 97.51 },
      shares: [],
    },
    {
      label: 'coverFee',
      body: { amount: 100, coverFee: true },
      expected: { amount: 102.54, fee: 2.54, splitAmount: 0, netAmount: 100 },
      shares: [],
    },
    {
      label: 'split by percent and by amount',
      body: { amount: 200, split: [{ percent: 10 }, { amount: 15.5, description: 'frete' }] },
      expected: { amount: 200, fee: 4.48, splitAmount: 35.5, netAmount: 160.02 },
      shares: [20, 15.5],
    },
    {
      label: 'coverFee with split',
      body: { amount: 100, coverFee: true, split: [{ percent: 10 }] },
      expected: { amount: 102.54, fee: 2.54, splitAmount: 10, netAmount: 90 },
      shares: [10],
    },
  ])('settles $label consistently to the centavo', async ({ body, expected, shares }) => {
    const { client, account } = await createMerchant(live.stack, { fees: FEES });
    const partners = await Promise.all((body.split ?? []).map(() => createAccount(live.stack)));
    const split = (body.split ?? []).map((item, i) => ({ recipient: i === 0 ? partners[i].email : partners[i].id, ...item }));
    const created = await createCharge(client, { ...body, ...(split.length ? { split } : {}) });
    expect(created).toMatchObject(expected);
    expect(created.split.map((s: any) => s.amount)).toEqual(shares);
    expect(created.split.map((s: any) => s.accountId)).toEqual(partners.map((p) => p.id));
    expect(created.amount).toBeCloseTo(created.fee + created.splitAmount + created.netAmount, 10);

    await payCharge(live.stack, created.id);
    const approved = await waitForStatus(client, created.id, 'approved');
    expect(approved).toMatchObject(expected);
    expect(await availableOf(account.id)).toBe(expected.netAmount);
    for (const [i, partner] of partners.entries()) expect(await availableOf(partner.id)).toBe(shares[i]);
    await expectLedgerConsistent(live.stack.databaseUrl);
  });

  it('lists an approved charge under type=payment and status=approved', async () => {
    const { client } = await createMerchant(live.stack);
    const key = newKey();
    const created = await postCharge(client, chargeBody(), key);
    await payCharge(live.stack, created.body.data.id);
    await waitForStatus(client, created.body.data.id, 'approved');
    const list = await client.get('/transactions?type=payment&status=approved');
    expect(list.body.data.map((t: any) => t.id)).toEqual([created.body.data.id]);
  });
});
