// Pix Automático on a bcb-api-pix route, end to end: the engine (real processes, PostgreSQL, Temporal)
// against the conformance fake PSP, which checks every request against the standard's schemas. The
// integrator uses the public API; the fake plays the payer (answers in the bank's app, the payer's
// bank debits each cobr) and sends the PSP's webhooks, which the engine only takes as hints: it reads
// the rec or cobr back before anything changes; a bare cycleCancelled signal is a hint too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { txidOf } from '../../../src/pix-routes/bcb-api-pix/ids.js';
import { newKey, waitForStatus } from '../../helpers/charges.js';
import { eventually } from '../../helpers/eventually.js';
import { CPF, createMerchant } from '../../helpers/fixtures.js';
import { engineOnFakePsp, startFakePsp, type FakePsp } from '../../helpers/fake-psp/index.js';
import { expectLedgerConsistent } from '../../helpers/ledger.js';
import { liveStack } from '../../helpers/live-stack.js';
import { http } from '../../helpers/stack.js';
import { day, recurrenceBody } from '../../helpers/recurrences.js';
import { balanceOf } from '../../helpers/transfers.js';
import { sendBareCycleCancelled } from '../../helpers/workflow-history.js';

const RECEIVER_ACCOUNT = { conta: '1234567', tipoConta: 'CORRENTE', agencia: '0001' };
let psp: FakePsp;
let listenerUrl: string;
let env: Record<string, string>;

beforeAll(async () => {
  psp = await startFakePsp();
  ({ listenerUrl, env } = await engineOnFakePsp(psp, { receiverAccount: RECEIVER_ACCOUNT }));
});

afterAll(async () => {
  await psp?.close();
});

describe('recurrences (Pix Automático) on a bcb-api-pix route', () => {
  const live = liveStack(() => ({ env }));
  type Merchant = Awaited<ReturnType<typeof createMerchant>>;

  async function created(m: Merchant, overrides: Record<string, unknown> = {}) {
    const res = await m.client.post('/recurrences', recurrenceBody(overrides), { 'Idempotency-Key': newKey('rec') });
    if (res.status !== 201) throw new Error(`recurrence creation answered ${res.status}: ${res.text}`);
    return res.body.data;
  }

  /** The rec the PSP keeps for recurrence `id` (its contract names it in these tests). */
  const recOf = (contract: string) => psp.recurrences().find((rec) => rec.vinculo.contrato === contract)!;

  const statusOf = async (m: Merchant, id: string) => (await m.client.get(`/recurrences/${id}`)).body.data.status;

  async function cycleOf(m: Merchant, recurrenceId: string) {
    return eventually(
      async () => {
        const res = await m.client.get(`/transactions?recurrenceId=${recurrenceId}`);
        return res.body.data?.[0];
      },
      30_000,
      100,
    );
  }

  /** The cycle charge's status once it left `pending` (its settlement), within `timeoutMs`. */
  const settledStatus = (m: Merchant, id: string, timeoutMs = 15_000): Promise<string> =>
    eventually(
      async () => {
        const res = await m.client.get(`/transactions/${id}`);
        return res.status === 200 && res.body.data.status !== 'pending' ? res.body.data.status : undefined;
      },
      timeoutMs,
      250,
    );

  /** Waits until the engine has read `path` from the PSP `count` times in all. */
  const readsOf = (path: string, count: number) =>
    eventually(
      async () => (psp.requests.filter((r) => r.method === 'GET' && r.path === path).length >= count ? true : undefined),
      30_000,
      50,
    );

  const merchantOnPsp = () => createMerchant(live.stack, { route: 'psp' });

  /** The payer's answers in the bank's app, then the PSP's webhookrec naming the rec. */
  async function payerAnswers(idRec: string, ...answers: Array<'APROVADA' | 'REJEITADA' | 'CANCELADA'>) {
    for (const answer of answers) psp.answerRecurrence(idRec, answer);
    expect(await psp.sendRecurrenceWebhook({ kind: 'rec', ids: [idRec] })).toBe(200);
  }

  /** Authorized in the app and announced: once the recurrence is active, its first cycle and that cycle's cobr at the PSP. */
  async function authorizedAtPsp(m: Merchant, recurrenceId: string, idRec: string) {
    await payerAnswers(idRec, 'APROVADA');
    await eventually(async () => ((await statusOf(m, recurrenceId)) === 'active' ? true : undefined));
    const cycle = await cycleOf(m, recurrenceId);
    const txid = txidOf(cycle.id);
    return { cycle, txid, cobr: await eventually(async () => psp.cobr(txid)) };
  }

  it('registers webhookrec and webhookcobr at start; creates the recurrence with POST /locrec and POST /rec as the standard says; the authorization is the PSP’s code', async () => {
    await eventually(async () => (psp.recurrenceWebhookUrls.cobr !== null ? true : undefined));
    expect(psp.recurrenceWebhookUrls).toEqual({ rec: listenerUrl, cobr: listenerUrl });

    const m = await merchantOnPsp();
    const rec = await created(m, { contract: 'J2-CREATE', endDate: day(200), retryPolicy: 'three_in_seven_days' });
    expect(rec.status).toBe('pending_authorization');
    const atPsp = recOf('J2-CREATE');
    expect(atPsp).toMatchObject({
      status: 'CRIADA',
      vinculo: { objeto: 'Academia plano mensal', contrato: 'J2-CREATE', devedor: { cpf: CPF.validDigits, nome: 'Maria da Silva' } },
      calendario: { dataInicial: day(5), dataFinal: day(200), periodicidade: 'MENSAL' },
      valor: { valorRec: '99.90' },
      politicaRetentativa: 'PERMITE_3R_7D',
      dadosQR: { jornada: 'JORNADA_2' },
    });
    expect(rec.authorization.copyPaste).toBe(atPsp.dadosQR.pixCopiaECola);
    const calls = psp.requests.filter((r) => /^\/v2\/(locrec|rec|webhookrec|webhookcobr)/.test(r.path));
    expect(calls.map((r) => `${r.method} ${r.path.replace(/RR\w{27}|\d+$/, '{id}')}`)).toEqual(
      expect.arrayContaining(['PUT /v2/webhookrec', 'PUT /v2/webhookcobr', 'POST /v2/locrec', 'POST /v2/rec', 'GET /v2/rec/{id}']),
    );
    expect(psp.requests.filter((r) => !r.conforms)).toEqual([]);
  });

  it('a webhook that lies moves nothing: the engine reads the rec and the cobr back', async () => {
    const m = await merchantOnPsp();
    const rec = await created(m, { contract: 'LIAR' });
    const { idRec, atualizacao } = recOf('LIAR');
    const reads = psp.requests.filter((r) => r.path === `/v2/rec/${idRec}`).length;
    const lie = {
      recs: [{ idRec, status: 'APROVADA', atualizacao: [...atualizacao, { status: 'APROVADA', data: new Date().toISOString() }] }],
    };
    expect(await psp.sendRecurrenceWebhook({ kind: 'rec', body: lie })).toBe(200);
    await readsOf(`/v2/rec/${idRec}`, reads + 1);
    expect(await statusOf(m, rec.id)).toBe('pending_authorization');

    const { cycle, txid } = await authorizedAtPsp(m, rec.id, idRec);
    const cobrReads = psp.requests.filter((r) => r.path === `/v2/cobr/${txid}`).length;
    const paidLie = {
      cobsr: [{ idRec, txid, status: 'CONCLUIDA', atualizacao: [{ status: 'CONCLUIDA', data: new Date().toISOString() }] }],
    };
    expect(await psp.sendRecurrenceWebhook({ kind: 'cobr', body: paidLie })).toBe(200);
    await readsOf(`/v2/cobr/${txid}`, cobrReads + 1);
    expect((await m.client.get(`/transactions/${cycle.id}`)).body.data.status).toBe('pending');

    // Someone who reached Temporal: `temporal workflow signal --name cycleCancelled`, no arguments, no key.
    await sendBareCycleCancelled(m.account.id, rec.id, cycle.dueDate);
    expect(psp.requests.filter((r) => r.method === 'PATCH' && r.path === `/v2/cobr/${txid}`)).toEqual([]);
    expect(psp.cobr(txid)!.status).toBe('ATIVA');
    expect((await m.client.get(`/transactions/${cycle.id}`)).body.data.status).toBe('pending');
    expect(await statusOf(m, rec.id)).toBe('active');
  });

  it('journey 2: the payer authorizes in the app; the cycle is a cobr of the recurrence, debited by the payer’s bank and approved, the ledger to the centavo', async () => {
    const m = await createMerchant(live.stack, { route: 'psp', fees: { charge: { fixed: 0, percent: 0 } } });
    const rec = await created(m, { contract: 'J2-PAID' });
    const { idRec } = recOf('J2-PAID');
    const { cycle, txid, cobr } = await authorizedAtPsp(m, rec.id, idRec);
    expect(cycle).toMatchObject({ status: 'pending', amount: 99.9, dueDate: day(5), recurrenceId: rec.id });
    expect(cobr).toMatchObject({
      idRec,
      calendario: { dataDeVencimento: day(5) },
      valor: { original: '99.90' },
      ajusteDiaUtil: true,
      recebedor: RECEIVER_ACCOUNT,
      status: 'ATIVA',
    });

    psp.debitCobr(txid, 'PAGA');
    expect(await psp.sendRecurrenceWebhook({ kind: 'cobr', ids: [txid] })).toBe(200);
    const approved = await waitForStatus(m.client, cycle.id, 'approved', 30_000);
    expect(approved.amount).toBe(99.9);
    const [row] = await live.sql<{ end_to_end_id: string }[]>`select end_to_end_id from transactions where id = ${cycle.id}`;
    expect(row!.end_to_end_id).toBe(psp.cobr(txid)!.pix![0]!.endToEndId);
    expect(await balanceOf(m.client)).toEqual({ available: 99.9, reserved: 0 });
    await expectLedgerConsistent(live.stack.databaseUrl);
    expect(psp.requests.filter((r) => !r.conforms)).toEqual([]);
  });

  it('a refused debit is retried at the PSP on the 1st, 3rd and 6th day after the due date (retentativa), then the cycle fails', async () => {
    const m = await merchantOnPsp();
    const rec = await created(m, { contract: 'RETRY', retryPolicy: 'three_in_seven_days' });
    const { cycle, txid } = await authorizedAtPsp(m, rec.id, recOf('RETRY').idRec);
    for (const [attempts, retryDay] of [
      [2, day(6)],
      [3, day(8)],
      [4, day(11)],
    ] as const) {
      psp.debitCobr(txid, 'REJEITADA');
      expect(await psp.sendRecurrenceWebhook({ kind: 'cobr', ids: [txid] })).toBe(200);
      const retried = await eventually(
        async () => (psp.cobr(txid)!.tentativas.length === attempts ? psp.cobr(txid) : undefined),
        30_000,
        50,
      );
      expect(retried!.tentativas.at(-1)).toMatchObject({ status: 'AGENDADA', dataLiquidacao: retryDay });
      expect((await m.client.get(`/transactions/${cycle.id}`)).body.data.status).toBe('pending');
    }
    expect(psp.requests.filter((r) => r.path.startsWith(`/v2/cobr/${txid}/retentativa/`)).map((r) => r.path.split('/').at(-1))).toEqual([
      day(6),
      day(8),
      day(11),
    ]);
    psp.debitCobr(txid, 'REJEITADA');
    expect(psp.cobr(txid)!.status).toBe('REJEITADA');
    await psp.sendRecurrenceWebhook({ kind: 'cobr', ids: [txid] });
    expect(await settledStatus(m, cycle.id)).toBe('failed');
    expect(psp.requests.filter((r) => !r.conforms)).toEqual([]);
  });

  it('without retries, the debit the payer’s bank refuses ends the cobr REJEITADA: the cycle failed, the recurrence still active', async () => {
    const m = await merchantOnPsp();
    const rec = await created(m, { contract: 'NO-RETRY' });
    const { cycle, txid } = await authorizedAtPsp(m, rec.id, recOf('NO-RETRY').idRec);
    psp.debitCobr(txid, 'REJEITADA');
    expect(psp.cobr(txid)).toMatchObject({ status: 'REJEITADA', encerramento: { rejeicao: { codigo: 'AM02' } } });
    expect(await psp.sendRecurrenceWebhook({ kind: 'cobr', ids: [txid] })).toBe(200);
    expect(await settledStatus(m, cycle.id)).toBe('failed');
    expect(await statusOf(m, rec.id)).toBe('active');
    expect(psp.requests.filter((r) => r.path.startsWith(`/v2/cobr/${txid}/retentativa/`))).toEqual([]);
  });

  it('the merchant cancels: PATCH /rec and PATCH /cobr CANCELADA at the PSP; the payer’s refusal and cancellation in the app are read back', async () => {
    const m = await merchantOnPsp();
    const rec = await created(m, { contract: 'CANCEL' });
    const { cycle, txid } = await authorizedAtPsp(m, rec.id, recOf('CANCEL').idRec);

    const cancelled = await http('DELETE', `${live.stack.baseUrl}/recurrences/${rec.id}`, { token: m.key });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ status: 'cancelled', cancelledBy: 'merchant' });
    expect(recOf('CANCEL')).toMatchObject({ status: 'CANCELADA', encerramento: { cancelamento: { solicitante: 'USUARIO_RECEBEDOR' } } });
    // The PSP revises a cobr only while its rec holds: the engine withdrew the cycle before the recurrence.
    expect(await settledStatus(m, cycle.id)).toBe('cancelled');
    expect(psp.cobr(txid)).toMatchObject({ status: 'CANCELADA', encerramento: { cancelamento: { solicitante: 'USUARIO_RECEBEDOR' } } });
    const patches = psp.requests.filter((r) => r.method === 'PATCH');
    const cobrWithdrawn = patches.findIndex((r) => r.path === `/v2/cobr/${txid}` && r.status === 200);
    expect(cobrWithdrawn).toBeGreaterThanOrEqual(0);
    expect(cobrWithdrawn).toBeLessThan(patches.findIndex((r) => r.path === `/v2/rec/${recOf('CANCEL').idRec}`));

    const refused = await created(m, { contract: 'REFUSED' });
    await payerAnswers(recOf('REFUSED').idRec, 'REJEITADA');
    await eventually(async () => ((await statusOf(m, refused.id)) === 'rejected' ? true : undefined));

    const byPayer = await created(m, { contract: 'BYPAYER' });
    await payerAnswers(recOf('BYPAYER').idRec, 'APROVADA', 'CANCELADA');
    const read = await eventually(async () => {
      const data = (await m.client.get(`/recurrences/${byPayer.id}`)).body.data;
      return data.status === 'cancelled' ? data : undefined;
    });
    expect(read.cancelledBy).toBe('payer');
  });

  it('journey 3: the first payment’s cob is created first and named in the rec; paying it and authorizing approve the charge and activate the recurrence', async () => {
    const m = await merchantOnPsp();
    const rec = await created(m, { contract: 'J3', firstPayment: { amount: 49.9 } });
    const txid = txidOf(rec.firstPaymentTransactionId);
    expect(psp.cob(txid)).toMatchObject({ status: 'ATIVA', valor: { original: '49.90' } });
    const atPsp = recOf('J3');
    expect(atPsp).toMatchObject({ ativacao: { dadosJornada: { txid } }, dadosQR: { jornada: 'JORNADA_3' } });
    expect(rec.authorization.copyPaste).toBe(atPsp.dadosQR.pixCopiaECola);

    const { endToEndId } = psp.pay(txid);
    psp.answerRecurrence(atPsp.idRec, 'APROVADA');
    expect(await psp.sendWebhook({ endToEndIds: [endToEndId] })).toBe(200);
    expect(await psp.sendRecurrenceWebhook({ kind: 'rec', ids: [atPsp.idRec] })).toBe(200);
    await waitForStatus(m.client, rec.firstPaymentTransactionId, 'approved', 30_000);
    await eventually(async () => ((await statusOf(m, rec.id)) === 'active' ? true : undefined));
    await expectLedgerConsistent(live.stack.databaseUrl);
  });
});
