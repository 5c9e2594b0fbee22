// The charge and transfer workflows keep a state of their own, but the committed histories hold what
// their activities answered before: the public transaction (reais, ISO dates, the QR code). The
// workflows read those answers into the same state, so a replayed run decides as it did.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCharge, readTransaction } from '../../workflows/transaction-activities.js';
import { historyPayloads } from '../helpers/history-payloads.js';

/** What each local activity of a clear (unencrypted) committed history answered, by activity type. */
function localActivityResults(file: string): Map<string, any> {
  const history = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'replay', 'histories', file), 'utf8'));
  const results = new Map<string, any>();
  for (const event of history.events) {
    const marker = event.markerRecordedEventAttributes;
    if (marker?.markerName !== 'core_local_activity') continue;
    const [data, result] = ['data', 'result'].map((key) => JSON.parse(historyPayloads(marker.details[key])[0]!.data.toString('utf8')));
    results.set(data.activity_type, result);
  }
  return results;
}

describe('reading what activities answered in runs recorded before the workflows kept their own state', () => {
  it('reads a charge the persist and open steps answered as the public transaction: its expiry in ms, and whether it is opened', () => {
    const recorded = localActivityResults('charge-paid.json');
    const persisted = recorded.get('persistCharge').transaction;
    const opened = recorded.get('openChargeAtRoute');
    expect(persisted).toMatchObject({ status: 'pending', pix: null, expiresAt: expect.any(String) });
    expect(opened.pix).not.toBeNull();

    expect(readCharge(persisted)).toEqual({
      id: persisted.id,
      status: 'pending',
      expiresAtMs: Date.parse(persisted.expiresAt),
      opened: false,
    });
    expect(readCharge(opened)).toEqual({ id: persisted.id, status: 'pending', expiresAtMs: Date.parse(persisted.expiresAt), opened: true });
  });

  it('reads the state as it is when the activity answered it', () => {
    const charge = { id: 'txn_1', status: 'approved' as const, expiresAtMs: 1_000, opened: true };
    expect(readCharge(charge)).toBe(charge);
    expect(readTransaction({ id: 'out_1', status: 'pending' })).toEqual({ id: 'out_1', status: 'pending' });
  });

  it('reads a transfer the persist step answered as the public transaction: its id and status', () => {
    const recorded = localActivityResults('transfer-approved.json');
    const { transaction } = recorded.get('persistTransfer');
    expect(Object.keys(transaction).length).toBeGreaterThan(2);
    expect(readTransaction(transaction)).toEqual({ id: transaction.id, status: 'pending' });
  });
});
