// The accept step decides once: a request that waited (202 while no worker ran) and every repetition
// of its key learn the same decision, taken against the account as it is when the workflow runs; a
// key already bound to an operation joins it whatever the account's state; data PostgreSQL refuses
// to store ends the operation at once instead of retrying for hours.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Sql } from '../../src/db/database.js';
import { chargeBody, newKey, postCharge } from '../helpers/charges.js';
import { eventually } from '../helpers/eventually.js';
import { createMerchant, patchAccount } from '../helpers/fixtures.js';
import { expectLedgerConsistent } from '../helpers/ledger.js';
import { admin, spawnEngine, startStack, waitWorker, type HttpResult, type Stack } from '../helpers/stack.js';
import { cpfKeyBody, fund, postTransfer } from '../helpers/transfers.js';

/** Repeats `send` until it answers something other than 202, as a client following the spec does. */
function outcomeOf(send: () => Promise<HttpResult>): Promise<HttpResult> {
  return eventually(
    async () => {
      const res = await send();
      return res.status === 202 ? undefined : res;
    },
    30_000,
    200,
  );
}

async function accountBalance(stack: Stack, accountId: string): Promise<{ available: number; reserved: number }> {
  const res = await admin(stack, 'GET', `/accounts/${accountId}`);
  return { available: res.body.data.balance.available, reserved: res.body.data.balance.reserved };
}

describe('acceptance decided once, in the workflow', () => {
  let stack: Stack;
  let sql: Sql;
  beforeAll(async () => {
    stack = await startStack({ layout: 'split', env: { ACCEPT_WAIT_MS: '3000', SIMULATOR_TRANSFER_DELAY_MS: '-1' } });
    sql = connect(stack.databaseUrl, { max: 1 });
  });
  afterAll(async () => {
    await sql?.end();
    await stack?.stop();
  });

  it('a request answered 202 and its retries get the decision taken when the worker runs, against the account as it is then', async () => {
    const unverified = await createMerchant(stack);
    const raisedMinimum = await createMerchant(stack);
    const receivingOff = await createMerchant(stack);
    await fund(stack, unverified.client, 50);
    await fund(stack, raisedMinimum.client, 50);

    await stack.processes[1]!.kill();
    const keys = { unverified: newKey('kyc'), raisedMinimum: newKey('min'), receivingOff: newKey('rcv') };
    const sends = {
      unverified: () => postTransfer(unverified.client, cpfKeyBody({ amount: 10 }), keys.unverified),
      raisedMinimum: () => postTransfer(raisedMinimum.client, cpfKeyBody({ amount: 10 }), keys.raisedMinimum),
      receivingOff: () => postCharge(receivingOff.client, chargeBody({ amount: 30 }), keys.receivingOff),
    };
    for (const send of Object.values(sends)) expect((await send()).status).toBe(202);

    // The operator changes the accounts while the requests wait.
    await patchAccount(stack, unverified.account.id, { kycStatus: 'pending' });
    await patchAccount(stack, raisedMinimum.account.id, { limits: { transferMin: 20 } });
    await patchAccount(stack, receivingOff.account.id, { pixReceivingEnabled: false });
    // The retries join the waiting operations: still undecided, not refused on their own.
    for (const send of Object.values(sends)) expect((await send()).status).toBe(202);

    const worker = spawnEngine('worker', stack.env);
    stack.processes.push(worker);
    await waitWorker(worker);

    const decided = {
      unverified: await outcomeOf(sends.unverified),
      raisedMinimum: await outcomeOf(sends.raisedMinimum),
      receivingOff: await outcomeOf(sends.receivingOff),
    };
    expect([decided.unverified.status, decided.unverified.body.error.code]).toEqual([403, 'kyc_required']);
    expect([decided.raisedMinimum.status, decided.raisedMinimum.body.error.code]).toEqual([400, 'invalid_request']);
    expect(decided.raisedMinimum.body.error.message).toContain('R$ 20,00');
    expect([decided.receivingOff.status, decided.receivingOff.body.error.code]).toEqual([422, 'operation_refused']);

    // Nothing was created and no money moved for any of them.
    const rows = await sql`select id from transactions where external_id = any(${Object.values(keys)}::text[])`;
    expect(rows).toHaveLength(0);
    expect(await accountBalance(stack, unverified.account.id)).toEqual({ available: 50, reserved: 0 });
    expect(await accountBalance(stack, raisedMinimum.account.id)).toEqual({ available: 50, reserved: 0 });
    await expectLedgerConsistent(stack.databaseUrl);
  });

  it('a key bound to an operation answers it after the account is blocked or unverified; a new key is refused', async () => {
    const merchant = await createMerchant(stack);
    await fund(stack, merchant.client, 40);
    const key = newKey('bound');
    const created = await postTransfer(merchant.client, cpfKeyBody({ amount: 10 }), key);
    expect(created.status).toBe(201);

    await patchAccount(stack, merchant.account.id, { status: 'blocked' });
    const whileBlocked = await postTransfer(merchant.client, cpfKeyBody({ amount: 10 }), key);
    expect(whileBlocked.status).toBe(200);
    expect(whileBlocked.body).toMatchObject({ idempotent: true, data: { id: created.body.data.id, status: 'pending' } });
    const fresh = await postTransfer(merchant.client, cpfKeyBody({ amount: 10 }), newKey('fresh'));
    expect([fresh.status, fresh.body.error.code]).toEqual([403, 'account_unavailable']);
    // A malformed body of a blocked account is still the account's 403, as on every route.
    const malformed = await merchant.client.post('/transfers', 'not json', { 'Idempotency-Key': newKey('bad') });
    expect([malformed.status, malformed.body.error.code]).toEqual([403, 'account_unavailable']);

    await patchAccount(stack, merchant.account.id, { status: 'active', kycStatus: 'pending' });
    const whileUnverified = await postTransfer(merchant.client, cpfKeyBody({ amount: 10 }), key);
    expect(whileUnverified.status).toBe(200);
    expect(whileUnverified.headers.get('ratelimit-remaining')).not.toBeNull();
    const freshUnverified = await postTransfer(merchant.client, cpfKeyBody({ amount: 10 }), newKey('fresh'));
    expect([freshUnverified.status, freshUnverified.body.error.code]).toEqual([403, 'kyc_required']);
  });

  describe('data PostgreSQL refuses to store', () => {
    beforeAll(async () => {
      // Poison that gets past every check of the API on purpose: the database itself refuses the row (22P02).
      await sql.unsafe(`
        create function poison_charge() returns trigger language plpgsql as $$
        begin
          if new.description = 'veneno' or (new.description = 'veneno na entrega' and new.pix_copy_paste is not null) then
            raise exception using errcode = '22P02', message = 'poisoned row';
          end if;
          return new;
        end $$;
        create trigger poison_charge before insert or update on transactions for each row execute function poison_charge();`);
    });

    it('in the accept step: answered 400 at once and on every retry, nothing kept, an alert for operators', async () => {
      const { client } = await createMerchant(stack);
      const key = newKey('poison');
      const first = await postCharge(client, chargeBody({ description: 'veneno' }), key);
      expect([first.status, first.body.error?.code]).toEqual([400, 'invalid_request']);
      const again = await postCharge(client, chargeBody({ description: 'veneno' }), key);
      expect([again.status, again.body.error?.code]).toEqual([400, 'invalid_request']);
      expect((await client.get(`/transactions/${key}`)).status).toBe(404);
      const worker = stack.processes.at(-1)!;
      await eventually(() => worker.output().includes('permanent_data_error'), 10_000);
      const alert = worker
        .output()
        .split('\n')
        .find((line) => line.includes('permanent_data_error'))!;
      expect(alert).toContain('alert');
      expect(alert).toContain('22P02');
    });

    it('in the hand-over to the route: the charge fails for good instead of retrying', async () => {
      const { client } = await createMerchant(stack);
      const key = newKey('poison-handover');
      const created = await postCharge(client, chargeBody({ description: 'veneno na entrega' }), key);
      expect(created.status).toBe(201);
      expect(created.body.data).toMatchObject({ status: 'failed', pix: null });
      const again = await postCharge(client, chargeBody({ description: 'veneno na entrega' }), key);
      expect(again.body).toMatchObject({ idempotent: true, data: { id: created.body.data.id, status: 'failed' } });
      const worker = stack.processes.at(-1)!;
      expect(worker.output()).toContain(created.body.data.id);
    });
  });
});
