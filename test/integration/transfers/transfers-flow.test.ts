import { describe, expect, it } from 'vitest';
import { buildBrCode } from '../../../src/domain/brcode.js';
import { createCharge, newKey, waitForStatus } from '../../helpers/charges.js';
import { createMerchant } from '../../helpers/fixtures.js';
import { expectLedgerConsistent } from '../../helpers/ledger.js';
import { liveStack } from '../../helpers/live-stack.js';
import {
  balanceOf,
  completeTransfer,
  cpfKeyBody,
  fund,
  ledgerEntriesOf,
  postTransfer,
  settledTransferEntries,
} from '../../helpers/transfers.js';

// Transfers settle only when the operator (the simulated network) says so.
describe('transfers: approve, fail, internal payment', () => {
  const live = liveStack({ env: { SIMULATOR_TRANSFER_DELAY_MS: '-1' } });

  const transferFees = { transfer: { fixed: 0.5, percent: 1.25 } };

  it('approve: reserved while pending, then the reservation leaves with the fee posted once', async () => {
    const merchant = await createMerchant(live.stack, { fees: transferFees });
    await fund(live.stack, merchant.client, 200);

    const res = await postTransfer(merchant.client, cpfKeyBody({ amount: 100, coverFee: true, description: 'aluguel' }));
    expect(res.status).toBe(201);
    const transfer = res.body.data;
    // fee = 0.50 + 1.25 % of 100.00 = 1.75
    expect(transfer).toMatchObject({
      direction: 'out',
      type: 'withdrawal',
      method: 'pix',
      status: 'pending',
      processingState: 'monitoring',
      amount: 100,
      fee: 1.75,
      debitedAmount: 101.75,
      recipientAmount: 100,
      netAmount: 100,
      description: 'aluguel',
      counterparty: { type: 'pix_key', keyType: 'cpf', key: '52998224725' },
      pix: null,
      approvedAt: null,
    });
    expect(transfer.id).toMatch(/^out_/);
    // The paying account is the payer; the expiry is creation plus the charge TTL (900 s by default).
    const { name, document, email } = merchant.account;
    expect(transfer.payer).toEqual({ name, document, email });
    expect(Date.parse(transfer.expiresAt) - Date.parse(transfer.createdAt)).toBe(900_000);
    expect(await balanceOf(merchant.client)).toEqual({ available: 98.25, reserved: 101.75 });

    const done = await completeTransfer(live.stack, transfer.id, 'approved');
    expect(done.status).toBe(200);
    const approved = await waitForStatus(merchant.client, transfer.id, 'approved');
    expect(approved).toMatchObject({ processingState: 'completed', payer: transfer.payer, expiresAt: transfer.expiresAt });
    expect(Date.parse(approved.approvedAt)).toBeGreaterThanOrEqual(Date.parse(transfer.createdAt));
    expect(await balanceOf(merchant.client)).toEqual({ available: 98.25, reserved: 0 });
    expect(await ledgerEntriesOf(live.sql, transfer.id)).toEqual(settledTransferEntries(transfer.id, merchant.account.id, 10175, 10000));
    const [event] = await live.sql`select type from events where id = ${`evt_${transfer.id}_approved`}`;
    expect(event).toEqual({ type: 'transaction.approved' });

    const again = await completeTransfer(live.stack, transfer.id, 'failed');
    expect(again.status).toBe(409);
    await expectLedgerConsistent(live.stack.databaseUrl);
  });

  it('fail: the reservation goes back to available, no fee, and the key stays bound to the failed transfer', async () => {
    const merchant = await createMerchant(live.stack, { fees: transferFees });
    await fund(live.stack, merchant.client, 50);
    const key = newKey('fail');
    const body = cpfKeyBody({ amount: 20 });
    const res = await postTransfer(merchant.client, body, key);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ amount: 20, fee: 0.75, debitedAmount: 20, recipientAmount: 19.25, netAmount: 19.25 });
    expect(await balanceOf(merchant.client)).toEqual({ available: 30, reserved: 20 });

    expect((await completeTransfer(live.stack, res.body.data.id, 'failed')).status).toBe(200);
    const failed = await waitForStatus(merchant.client, res.body.data.id, 'failed');
    expect(failed.approvedAt).toBeNull();
    expect(await balanceOf(merchant.client)).toEqual({ available: 50, reserved: 0 });
    const entries = await ledgerEntriesOf(live.sql, failed.id);
    expect(entries.filter((e) => e.account.startsWith('platform:'))).toEqual([]);
    expect(entries.filter((e) => e.key.endsWith(':release'))).toEqual([
      { key: `transfer:${failed.id}:release`, account: `${merchant.account.id}:reserved`, amount: -2000 },
      { key: `transfer:${failed.id}:release`, account: `${merchant.account.id}:available`, amount: 2000 },
    ]);

    const repeat = await postTransfer(merchant.client, body, key);
    expect(repeat.status).toBe(200);
    expect(repeat.body).toMatchObject({ idempotent: true, data: { id: failed.id, status: 'failed' } });
    // A new key can transfer again: the failed transfer no longer blocks the account.
    expect((await postTransfer(merchant.client, body)).status).toBe(201);
    await expectLedgerConsistent(live.stack.databaseUrl);
  });

  it('internal: a BR Code of a pending charge of this engine pays that charge through its own workflow', async () => {
    const seller = await createMerchant(live.stack, { fees: { charge: { fixed: 1, percent: 0 } } });
    const buyer = await createMerchant(live.stack, { fees: transferFees });
    await fund(live.stack, buyer.client, 100);
    const charge = await createCharge(seller.client, { amount: 40 });

    const res = await postTransfer(buyer.client, { destination: { type: 'pix_copy_paste', value: charge.pix.copyPaste }, coverFee: true });
    expect(res.status).toBe(201);
    const transfer = res.body.data;
    expect(transfer).toMatchObject({
      method: 'internal',
      type: 'withdrawal',
      amount: 40,
      fee: 1,
      debitedAmount: 41,
      recipientAmount: 40,
      counterparty: { type: 'br_code', internal: true },
    });
    const paidCharge = await waitForStatus(seller.client, charge.id, 'approved');
    expect(paidCharge).toMatchObject({ amount: 40, fee: 1, netAmount: 39, payer: { name: buyer.account.name } });
    await waitForStatus(buyer.client, transfer.id, 'approved');
    expect(await balanceOf(buyer.client)).toEqual({ available: 59, reserved: 0 });
    expect(await balanceOf(seller.client)).toEqual({ available: 39, reserved: 0 });

    // The same code cannot be paid twice.
    const twice = await postTransfer(buyer.client, { destination: { type: 'qr_code', value: charge.pix.qrCodeBase64 }, coverFee: true });
    expect(twice.status).toBe(422);
    expect(twice.body.error.code).toBe('operation_refused');
    await expectLedgerConsistent(live.stack.databaseUrl);
  });

  it('a BR Code that defines its value, amount and coverFee omitted: the recipient gets the code value, the fee is debited on top', async () => {
    const seller = await createMerchant(live.stack);
    const buyer = await createMerchant(live.stack, { fees: transferFees });
    await fund(live.stack, buyer.client, 20);
    const charge = await createCharge(seller.client, { amount: 12.34 });

    const res = await postTransfer(buyer.client, { destination: { type: 'pix_copy_paste', value: charge.pix.copyPaste } });
    expect(res.status).toBe(201);
    const transfer = res.body.data;
    // fee = 0.50 + 1.25 % of 12.34 (0.15425, rounded to 0.15) = 0.65
    expect(transfer).toMatchObject({ amount: 12.34, fee: 0.65, debitedAmount: 12.99, recipientAmount: 12.34, netAmount: 12.34 });
    // An internal payment settles at once, so the reservation may already be gone; the ledger below shows it was made.
    const justAfter = await balanceOf(buyer.client);
    expect(justAfter.available).toBe(7.01);
    expect([12.99, 0]).toContain(justAfter.reserved);

    await waitForStatus(buyer.client, transfer.id, 'approved');
    expect(await waitForStatus(seller.client, charge.id, 'approved')).toMatchObject({ amount: 12.34, netAmount: 12.34 });
    expect(await balanceOf(buyer.client)).toEqual({ available: 7.01, reserved: 0 });
    expect(await balanceOf(seller.client)).toEqual({ available: 12.34, reserved: 0 });
    expect(await ledgerEntriesOf(live.sql, transfer.id)).toEqual(settledTransferEntries(transfer.id, buyer.account.id, 1299, 1234));
    // coverFee stays a compared field as sent: the same key with coverFee true is another request.
    const changed = await postTransfer(
      buyer.client,
      { destination: { type: 'pix_copy_paste', value: charge.pix.copyPaste }, coverFee: true },
      transfer.externalId,
    );
    expect([changed.status, changed.body.error?.code]).toEqual([409, 'idempotency_conflict']);
    await expectLedgerConsistent(live.stack.databaseUrl);
  });

  it('the network refuses a one-time (dynamic) BR Code already taken by another transfer: failed, funds released', async () => {
    const code = buildBrCode({
      url: `pix.example.com/qr/v2/${newKey('loc')}`,
      txid: 'unused',
      merchantName: 'Loja Dinamica',
      merchantCity: 'Recife',
    });
    const [first, second] = [await createMerchant(live.stack), await createMerchant(live.stack)];
    await fund(live.stack, first.client, 10);
    await fund(live.stack, second.client, 10);
    const body = { amount: 10, destination: { type: 'qr_code', value: code } };
    const taken = await postTransfer(first.client, body);
    expect(taken.status).toBe(201);
    const refused = await postTransfer(second.client, body);
    expect(refused.status).toBe(201);
    const failed = await waitForStatus(second.client, refused.body.data.id, 'failed');
    expect(failed.counterparty).toMatchObject({
      type: 'br_code',
      url: expect.stringContaining('pix.example.com'),
      failureReason: 'already_paid',
    });
    expect(await balanceOf(second.client)).toEqual({ available: 10, reserved: 0 });
    expect(await balanceOf(first.client)).toEqual({ available: 0, reserved: 10 });
    await expectLedgerConsistent(live.stack.databaseUrl);
  });
});
