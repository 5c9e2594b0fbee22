// The spec's idempotency rules for POST /transactions over HTTP, with the read model and Temporal
// checked directly: one key, one transaction, one workflow.
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { connect, type Sql } from '../../../src/db/database.js';
import { chargeBody, newKey, payCharge, postCharge, waitForStatus } from '../../helpers/charges.js';
import { eventually } from '../../helpers/eventually.js';
import { CPF, createAccount, createMerchant } from '../../helpers/fixtures.js';
import { startStack, type Stack } from '../../helpers/stack.js';

describe('POST /transactions idempotency', () => {
  let stack: Stack;
  let sql: Sql;
  let temporal: Client;

  beforeAll(async () => {
    stack = await startStack();
    sql = connect(stack.databaseUrl, { max: 2 });
    temporal = new Client({ connection: await Connection.connect({ address: inject('temporalAddress') }) });
  });
  afterAll(async () => {
    await temporal?.connection.close();
    await sql?.end({ timeout: 5 });
    await stack?.stop();
  });

  async function workflowRuns(query: string): Promise<string[]> {
    const ids: string[] = [];
    for await (const execution of temporal.workflow.list({ query })) ids.push(execution.workflowId);
    return ids;
  }

  it('answers 201 for a new key and 200 with idempotent true and the original for a repeat; the key works as {id}', async () => {
    const { client } = await createMerchant(stack);
    const key = newKey('pedido');
    const first = await postCharge(client, chargeBody(), key);
    expect(first.status).toBe(201);
    expect(first.body.idempotent).toBe(false);
    expect(first.body.data.externalId).toBe(key);

    const again = await postCharge(client, chargeBody(), key);
    expect(again.status).toBe(200);
    expect(again.body.idempotent).toBe(true);
    expect(again.body.data).toEqual(first.body.data);

    const byKey = await client.get(`/transactions/${key}`);
    expect(byKey.status).toBe(200);
    expect(byKey.body.data.id).toBe(first.body.data.id);
  });

  it('accepts the key from externalId alone, or from both when they are equal', async () => {
    const { client } = await createMerchant(stack);
    const key = newKey('ext');
    const viaBody = await postCharge(client, chargeBody({ externalId: key }), null);
    expect(viaBody.status).toBe(201);
    const viaBoth = await postCharge(client, chargeBody({ externalId: key }), key);
    expect(viaBoth.status).toBe(200);
    expect(viaBoth.body.data.id).toBe(viaBody.body.data.id);
    // The header alone names the same operation: externalId is not one of the compared fields.
    const viaHeader = await postCharge(client, chargeBody(), key);
    expect(viaHeader.status).toBe(200);
    expect(viaHeader.body.data.id).toBe(viaBody.body.data.id);
  });

  it('compares amount, payer, description, coverFee and split, but not webhookUrl', async () => {
    const { client } = await createMerchant(stack);
    const partner = await createAccount(stack);
    const key = newKey('cmp');
    const original = chargeBody({ webhookUrl: 'https://example.com/a' });
    expect((await postCharge(client, original, key)).status).toBe(201);
    const sameButWebhook = await postCharge(client, { ...original, webhookUrl: 'https://example.com/b' }, key);
    expect(sameButWebhook.status).toBe(200);
    const maskless = await postCharge(client, { ...original, payer: { ...(original.payer as object), document: CPF.validDigits } }, key);
    expect(maskless.status).toBe(200);

    const payer = original.payer as Record<string, string>;
    for (const change of [
      { amount: 100.01 },
      { payer: { ...payer, name: 'Outra Pessoa' } },
      { payer: { ...payer, document: CPF.other } },
      { payer: { ...payer, email: 'outro@example.com' } },
      { description: 'Outro pedido' },
      { coverFee: true },
      { split: [{ recipient: partner.id, amount: 1 }] },
    ]) {
      const res = await postCharge(client, { ...original, ...change }, key);
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('idempotency_conflict');
    }
    expect((await sql`select count(*)::int as n from transactions where external_id = ${key}`)[0]!.n).toBe(1);
  });

  it('scopes keys to the account: two accounts with one key get two charges', async () => {
    const [a, b] = [await createMerchant(stack), await createMerchant(stack)];
    const key = newKey('shared');
    const fromA = await postCharge(a.client, chargeBody(), key);
    const fromB = await postCharge(b.client, chargeBody({ amount: 55 }), key);
    expect([fromA.status, fromB.status]).toEqual([201, 201]);
    expect(fromA.body.data.id).not.toBe(fromB.body.data.id);
    expect((await b.client.get(`/transactions/${key}`)).body.data.amount).toBe(55);
  });

  it('keeps a charge bound to its key after it is paid', async () => {
    const { client } = await createMerchant(stack);
    const key = newKey('paid');
    const created = await postCharge(client, chargeBody(), key);
    const paid = await payCharge(stack, created.body.data.id);
    expect(paid.status).toBe(200);
    const approved = await waitForStatus(client, created.body.data.id, 'approved');
    const again = await postCharge(client, chargeBody(), key);
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(approved);
  });

  it('creates exactly one transaction and one workflow from 50 concurrent requests with one key', async () => {
    const { client, account } = await createMerchant(stack);
    const key = newKey('burst');
    const answers = await Promise.all(Array.from({ length: 50 }, () => postCharge(client, chargeBody(), key)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.every((s) => s === 201 || s === 200 || s === 202)).toBe(true);
    expect(new Set(answers.map((a) => a.body.data.id)).size).toBe(1);
    for (const answer of answers) expect(answer.body.idempotent).toBe(answer.status === 200);

    const rows = await sql`select id from transactions where account_id = ${account.id}`;
    expect(rows.map((r) => r.id)).toEqual([answers[0]!.body.data.id]);
    // Visibility is eventually consistent: wait until the run is listed, then it must be the only one.
    const runs = await eventually(async () => {
      const found = await workflowRuns(`AccountId = '${account.id}'`);
      return found.length > 0 ? found : undefined;
    });
    expect(runs).toEqual([`charge:${account.id}:${key}`]);
    expect(await workflowRuns(`TransactionId = '${answers[0]!.body.data.id}'`)).toEqual(runs);
  });
});
