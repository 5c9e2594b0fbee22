// The mixed workload, as integrators and the Pix network would drive it: charges (some with split,
// some with coverFee) paid by the simulated payer or left to expire, transfers the network approves
// or fails, internal payments (one account paying another's BR Code), MEDs opened and decided, and
// repeats of finished requests. Each lane owns two accounts and runs its operations one after the
// other (so at most one transfer of an account is pending); the lanes run side by side. What every
// operation expects is recorded for the checks; what it saw that no retry can explain is a finding.
import { randomBytes, randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { generateCnpj, generateCpf } from '@brazilian-utils/brazilian-utils';
import type { Sql } from '../../src/db/database.js';
import { readBalance } from '../../src/ledger/balance.js';
import { NoFinalAnswer, type Answer, type RetryingClient } from './client.js';
import type { WebhookReceiver } from './receiver.js';

export type OpKind = 'charge_paid' | 'charge_expired' | 'transfer_approved' | 'transfer_failed' | 'internal_payment' | 'med' | 'repeat';

const WEIGHTS: Array<[OpKind, number]> = [
  ['charge_paid', 34],
  ['charge_expired', 8],
  ['transfer_approved', 16],
  ['transfer_failed', 10],
  ['internal_payment', 12],
  ['med', 10],
  ['repeat', 10],
];
const KEYS_PER_ACCOUNT = 3;
const FINAL_WAIT_MS = 120_000;

interface Merchant {
  id: string;
  keys: string[];
  used: number;
}

/** A POST with an idempotency key whose final answer named a transaction. */
export interface KeyedRequest {
  accountId: string;
  token: string;
  path: '/transactions' | '/transfers';
  key: string;
  body: unknown;
  transactionId: string;
}

export type Expectation =
  | { transactionId: string; status: string; expired?: boolean; why: string }
  | { medId: string; status: string; why: string }
  /** An internal payment: both approved, or the charge expired before the transfer reached it (then failed and cancelled). */
  | { transferId: string; chargeId: string; why: string };

export interface PaymentSample {
  chargeId: string;
  /** When its creation was first asked for (from then on a worker may hold its workflow). */
  createdAtMs: number;
  /** When the simulated payer's first pay call was sent. */
  paidAtMs: number;
}

export interface Finding {
  op: number;
  kind: OpKind;
  what: string;
}

export interface WorkloadResult {
  ops: Map<OpKind, number>;
  keyed: KeyedRequest[];
  expectations: Expectation[];
  payments: PaymentSample[];
  findings: Finding[];
  accounts: string[];
}

export interface WorkloadTarget {
  baseUrl: string;
  adminUrl: string;
  adminToken: string;
  sql: Sql;
}

const reais = (min: number, max: number) => randomInt(min * 100, max * 100 + 1) / 100;
const newKey = (label: string) => `chaos-${label}-${randomBytes(6).toString('hex')}`;

function pickKind(): OpKind {
  let roll = randomInt(WEIGHTS.reduce((sum, [, w]) => sum + w, 0));
  for (const [kind, weight] of WEIGHTS) {
    if (roll < weight) return kind;
    roll -= weight;
  }
  return 'charge_paid';
}

class Unexpected extends Error {}

export class Workload {
  readonly result: WorkloadResult = { ops: new Map(), keyed: [], expectations: [], payments: [], findings: [], accounts: [] };
  private started = 0;
  /** Set when the campaign's time is up: no operation starts after it. */
  stopAt = Infinity;
  /** Called after each finished operation with the number finished so far. */
  onFinished: (finished: number) => void = () => {};
  private finished = 0;

  constructor(
    private readonly target: WorkloadTarget,
    private readonly client: RetryingClient,
    private readonly receiver: WebhookReceiver,
    private readonly totalOps: number,
  ) {}

  private admin(
    method: string,
    path: string,
    body?: unknown,
    options: { retryIf?: (a: Answer) => boolean; headers?: Record<string, string> } = {},
  ): Promise<Answer> {
    return this.client.untilFinal(method, `${this.target.adminUrl}${path}`, { token: this.target.adminToken, body, ...options });
  }

  async createMerchant(label: string): Promise<Merchant> {
    const created = await this.admin('POST', '/accounts', {
      name: `Loja Caos ${label}`,
      document: generateCnpj(),
      email: `caos-${label}-${randomBytes(4).toString('hex')}@example.com`,
      kycStatus: 'approved',
      fees: { charge: { fixed: 0.5, percent: 1.2 }, transfer: { fixed: 0.25, percent: 0 } },
    });
    if (created.status !== 201) throw new Error(`account creation answered ${created.status}: ${JSON.stringify(created.body)}`);
    const id: string = created.body.data.id;
    const keys: string[] = [];
    for (let i = 0; i < KEYS_PER_ACCOUNT; i += 1) {
      const key = await this.admin('POST', `/accounts/${id}/api-keys`, {
        permissions: ['balance:read', 'transactions:read', 'payments:write', 'transfers:write'],
      });
      if (key.status !== 201) throw new Error(`key creation answered ${key.status}`);
      keys.push(key.body.data.key);
    }
    const endpoint = await this.admin('POST', `/accounts/${id}/webhook-endpoints`, { url: this.receiver.urlFor(id) });
    if (endpoint.status !== 201) throw new Error(`endpoint registration answered ${endpoint.status}: ${JSON.stringify(endpoint.body)}`);
    this.receiver.trust(id, endpoint.body.data.secret);
    this.result.accounts.push(id);
    return { id, keys, used: 0 };
  }

  async run(lanes: number): Promise<void> {
    const pairs = [];
    for (let i = 0; i < lanes; i += 1)
      pairs.push({ main: await this.createMerchant(`${i}a`), peer: await this.createMerchant(`${i}b`), approved: [] as string[] });
    await Promise.all(pairs.map((lane) => this.lane(lane)));
  }

  private async lane(lane: { main: Merchant; peer: Merchant; approved: string[] }): Promise<void> {
    while (this.started < this.totalOps && Date.now() < this.stopAt) {
      const op = ++this.started;
      let kind = pickKind();
      if (kind === 'med' && lane.approved.length === 0) kind = 'charge_paid';
      if (kind === 'repeat' && this.result.keyed.length === 0) kind = 'charge_paid';
      if (
        (kind === 'transfer_approved' || kind === 'transfer_failed' || kind === 'internal_payment') &&
        (await this.available(lane.main.id)) < 60
      )
        kind = 'charge_paid';
      this.result.ops.set(kind, (this.result.ops.get(kind) ?? 0) + 1);
      try {
        await this.runOp(kind, lane);
      } catch (err) {
        const what = err instanceof Unexpected || err instanceof NoFinalAnswer ? err.message : `harness error: ${(err as Error).stack}`;
        this.result.findings.push({ op, kind, what });
      }
      this.onFinished(++this.finished);
    }
  }

  private async available(accountId: string): Promise<number> {
    for (;;) {
      try {
        return (await readBalance(this.target.sql, accountId)).availableCents / 100;
      } catch {
        await sleep(200); // our own connection was terminated by a fault
      }
    }
  }

  private runOp(kind: OpKind, lane: { main: Merchant; peer: Merchant; approved: string[] }): Promise<void> {
    switch (kind) {
      case 'charge_paid':
        return this.chargePaid(lane.main, lane.peer, lane.approved);
      case 'charge_expired':
        return this.chargeExpired(lane.main);
      case 'transfer_approved':
        return this.transfer(lane.main, 'approved');
      case 'transfer_failed':
        return this.transfer(lane.main, 'failed');
      case 'internal_payment':
        return this.internalPayment(lane.main, lane.peer);
      case 'med':
        return this.med(lane.approved.splice(randomInt(lane.approved.length), 1)[0]!);
      case 'repeat':
        return this.repeat(this.result.keyed[randomInt(this.result.keyed.length)]!);
    }
  }

  private token(merchant: Merchant): string {
    return merchant.keys[merchant.used++ % merchant.keys.length]!;
  }

  /** POSTs until final; the answer must be 201 or 200 (else Unexpected unless `allowed`). */
  private async keyedPost(
    merchant: Merchant,
    path: KeyedRequest['path'],
    body: Record<string, unknown>,
    allowed: number[] = [],
  ): Promise<Answer & { keyed?: KeyedRequest }> {
    const token = this.token(merchant);
    const key = newKey(path === '/transactions' ? 'c' : 't');
    const answer = await this.client.untilFinal('POST', `${this.target.baseUrl}${path}`, {
      token,
      body,
      headers: { 'Idempotency-Key': key },
    });
    if (answer.status === 200 || answer.status === 201) {
      const keyed: KeyedRequest = { accountId: merchant.id, token, path, key, body, transactionId: answer.body.data.id };
      this.result.keyed.push(keyed);
      return { ...answer, keyed };
    }
    if (allowed.includes(answer.status)) return answer;
    throw new Unexpected(`POST ${path} key ${key} answered ${answer.status} ${JSON.stringify(answer.body?.error)}`);
  }

  private chargeBody(recipient: Merchant | null): Record<string, unknown> {
    const body: Record<string, unknown> = {
      amount: reais(5, 300),
      payer: { name: 'Pagador Caos da Silva', document: generateCpf(), email: 'pagador@example.com' },
      description: 'Pedido caos',
      coverFee: Math.random() < 0.3,
    };
    if (recipient && Math.random() < 0.3)
      body.split = [Math.random() < 0.5 ? { recipient: recipient.id, percent: 10 } : { recipient: recipient.id, amount: 1.5 }];
    return body;
  }

  /** Polls the read model until the transaction leaves `pending`; null when it does not within FINAL_WAIT_MS. */
  private async finalStatus(transactionId: string): Promise<string | null> {
    const deadline = Date.now() + FINAL_WAIT_MS;
    while (Date.now() < deadline) {
      try {
        const [row] = await this.target.sql<{ status: string }[]>`select status from transactions where id = ${transactionId}`;
        if (row && row.status !== 'pending') return row.status;
      } catch {
        // our own connection was terminated by a fault: ask again
      }
      await sleep(150);
    }
    return null;
  }

  private expect(transactionId: string, status: string, why: string, expired?: boolean): void {
    this.result.expectations.push({ transactionId, status, why, ...(expired === undefined ? {} : { expired }) });
  }

  private async chargePaid(merchant: Merchant, peer: Merchant, approved: string[]): Promise<void> {
    const createdAtMs = Date.now();
    const { body } = await this.keyedPost(merchant, '/transactions', this.chargeBody(peer));
    const chargeId: string = body.data.id;
    const paidAtMs = Date.now();
    const paid = await this.admin('POST', `/simulator/charges/${chargeId}/pay`);
    // 409: an earlier attempt whose answer was lost took the payment.
    if (paid.status === 200 || (paid.status === 409 && paid.body?.error?.code === 'charge_already_paid')) {
      this.result.payments.push({ chargeId, createdAtMs, paidAtMs });
      this.expect(chargeId, 'approved', 'the network took the payment');
      const status = await this.finalStatus(chargeId);
      if (status === 'approved') approved.push(chargeId);
      return;
    }
    if (paid.status === 422) {
      this.expect(chargeId, 'cancelled', `the network refused the payment (${paid.body?.error?.code})`);
      return;
    }
    throw new Unexpected(`pay ${chargeId} answered ${paid.status} ${JSON.stringify(paid.body?.error)}`);
  }

  private async chargeExpired(merchant: Merchant): Promise<void> {
    const { body } = await this.keyedPost(merchant, '/transactions', this.chargeBody(null));
    this.expect(body.data.id, 'cancelled', 'left unpaid past its expiry', true);
  }

  private async transfer(merchant: Merchant, outcome: 'approved' | 'failed'): Promise<void> {
    const answer = await this.keyedPost(
      merchant,
      '/transfers',
      {
        amount: reais(3, 40),
        destination: { type: 'pix_key', value: `destino-${randomBytes(3).toString('hex')}@example.com` },
        description: 'Saque caos',
      },
      [422],
    );
    if (answer.status === 422) return; // refused (balance): nothing reserved, nothing to expect
    const transferId: string = answer.body.data.id;
    const notAtNetworkYet = (a: Answer) => a.status === 409 && /ainda não chegou/.test(a.body?.error?.message ?? '');
    const completed = await this.admin('POST', `/simulator/transfers/${transferId}/complete`, { outcome }, { retryIf: notAtNetworkYet });
    if (completed.status === 200) this.expect(transferId, outcome, `the network ${outcome} it`);
    else if (completed.status === 409) {
      // An earlier attempt whose answer was lost, or the network had already decided: it says which.
      const decided = /\((approved|failed)\)/.exec(completed.body?.error?.message ?? '')?.[1];
      if (!decided) throw new Unexpected(`complete ${transferId} answered 409 ${JSON.stringify(completed.body?.error)}`);
      this.expect(transferId, decided, `the network had ${decided} it`);
    } else throw new Unexpected(`complete ${transferId} answered ${completed.status} ${JSON.stringify(completed.body?.error)}`);
    await this.finalStatus(transferId);
  }

  private async internalPayment(payer: Merchant, receiver: Merchant): Promise<void> {
    const { body: charge } = await this.keyedPost(receiver, '/transactions', this.chargeBody(null));
    const chargeId: string = charge.data.id;
    const answer = await this.keyedPost(
      payer,
      '/transfers',
      { destination: { type: 'pix_copy_paste', value: charge.data.pix.copyPaste }, description: 'Pagamento interno caos' },
      [422],
    );
    if (answer.status === 422) {
      this.expect(chargeId, 'cancelled', 'its internal payment was refused, so it expires');
      return;
    }
    const transferId: string = answer.body.data.id;
    if (answer.body.data.method !== 'internal')
      throw new Unexpected(`transfer ${transferId} paying own charge ${chargeId} has method ${answer.body.data.method}`);
    this.result.expectations.push({ transferId, chargeId, why: 'internal payment' });
    await Promise.all([this.finalStatus(transferId), this.finalStatus(chargeId)]);
  }

  private async med(chargeId: string): Promise<void> {
    const [charge] = await this.target.sql<{ amount: bigint }[]>`select amount from transactions where id = ${chargeId}`;
    const partial = Math.random() < 0.4 ? Math.max(1, Math.floor(Number(charge!.amount) / 2)) / 100 : undefined;
    const key = newKey('m');
    const body = { transactionId: chargeId, ...(partial ? { amount: partial } : {}), reason: 'fraud' };
    const opened = await this.admin('POST', '/simulator/meds', body, { headers: { 'Idempotency-Key': key } });
    if (opened.status !== 201 && opened.status !== 200)
      throw new Unexpected(`MED on ${chargeId} key ${key} answered ${opened.status} ${JSON.stringify(opened.body?.error)}`);
    const medId: string = opened.body.data.id;
    const outcome = Math.random() < 0.5 ? 'accepted' : 'rejected';
    const decided = await this.admin('POST', `/meds/${medId}/decision`, { outcome });
    if (decided.status !== 200)
      throw new Unexpected(`decision ${outcome} of ${medId} answered ${decided.status} ${JSON.stringify(decided.body?.error)}`);
    this.result.expectations.push({ medId, status: outcome, why: `decided ${outcome}` });
  }

  /** The same request again, as a client that never saw the first answer: the same transaction, idempotent. */
  private async repeat(earlier: KeyedRequest): Promise<void> {
    const answer = await this.client.untilFinal('POST', `${this.target.baseUrl}${earlier.path}`, {
      token: earlier.token,
      body: earlier.body,
      headers: { 'Idempotency-Key': earlier.key },
    });
    if (answer.status !== 200 || answer.body?.idempotent !== true || answer.body?.data?.id !== earlier.transactionId) {
      throw new Unexpected(
        `repeat of ${earlier.path} key ${earlier.key} (${earlier.transactionId}) answered ${answer.status} idempotent=${answer.body?.idempotent} id=${answer.body?.data?.id} ${JSON.stringify(answer.body?.error ?? '')}`,
      );
    }
  }
}
