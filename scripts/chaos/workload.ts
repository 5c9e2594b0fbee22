// The mixed workload, as integrators and the Pix network would drive it: charges (some with split,
// some with coverFee) paid by the simulated payer or left to expire, due-date charges paid early or
// late, recurrence cycles debited or declined (billing.ts), transfers the network approves or fails,
// internal payments (one account paying another's BR Code), refunds and MEDs on the same charges, one
// after the other and at once (returns.ts), and repeats of finished requests. Each lane owns two
// accounts and runs its operations one after the other (so at most one transfer of an account is
// pending); the lanes run side by side. What every operation expects is recorded for the checks; what
// it saw that no retry can explain is a finding.
import { randomBytes, randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { generateCnpj, generateCpf } from '@brazilian-utils/brazilian-utils';
import type { Sql } from '../../src/db/database.js';
import { readBalance } from '../../src/ledger/balance.js';
import { dueDateCharge, recurrenceCycle } from './billing.js';
import { NoFinalAnswer, type Answer, type RetryingClient } from './client.js';
import {
  errorOf,
  newKey,
  reais,
  Unexpected,
  type AdminOptions,
  type Driver,
  type Expectation,
  type KeyedRequest,
  type Lane,
  type Merchant,
} from './driver.js';
import type { WebhookReceiver } from './receiver.js';
import { med, refund, refundAndMed } from './returns.js';

export type OpKind =
  | 'charge_paid'
  | 'charge_expired'
  | 'due_date_early'
  | 'due_date_late'
  | 'recurrence_cycle'
  | 'transfer_approved'
  | 'transfer_failed'
  | 'internal_payment'
  | 'refund'
  | 'med'
  | 'refund_and_med'
  | 'repeat';

const WEIGHTS: Array<[OpKind, number]> = [
  ['charge_paid', 22],
  ['charge_expired', 6],
  ['due_date_early', 6],
  ['due_date_late', 6],
  ['recurrence_cycle', 6],
  ['transfer_approved', 12],
  ['transfer_failed', 7],
  ['internal_payment', 9],
  ['refund', 8],
  ['med', 7],
  ['refund_and_med', 7],
  ['repeat', 8],
];
const KEYS_PER_ACCOUNT = 3;
const FINAL_WAIT_MS = 120_000;

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

function pickKind(): OpKind {
  let roll = randomInt(WEIGHTS.reduce((sum, [, w]) => sum + w, 0));
  for (const [kind, weight] of WEIGHTS) {
    if (roll < weight) return kind;
    roll -= weight;
  }
  return 'charge_paid';
}

export class Workload implements Driver {
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

  get sql(): Sql {
    return this.target.sql;
  }

  admin(method: string, path: string, body?: unknown, options: AdminOptions = {}): Promise<Answer> {
    return this.client.untilFinal(method, `${this.target.adminUrl}${path}`, { token: this.target.adminToken, body, ...options });
  }

  api(merchant: Merchant, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Answer> {
    return this.client.untilFinal(method, `${this.target.baseUrl}${path}`, { token: this.token(merchant), body, headers });
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
      pairs.push({ main: await this.createMerchant(`${i}a`), peer: await this.createMerchant(`${i}b`), approved: [] });
    await Promise.all(pairs.map((lane) => this.lane(lane)));
  }

  private async lane(lane: Lane): Promise<void> {
    while (this.started < this.totalOps && Date.now() < this.stopAt) {
      const op = ++this.started;
      let kind = pickKind();
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

  private runOp(kind: OpKind, lane: Lane): Promise<unknown> {
    switch (kind) {
      case 'charge_paid':
        return this.paidCharge(lane);
      case 'charge_expired':
        return this.chargeExpired(lane.main);
      case 'due_date_early':
        return dueDateCharge(this, lane, 'early');
      case 'due_date_late':
        return dueDateCharge(this, lane, 'late');
      case 'recurrence_cycle':
        return recurrenceCycle(this, lane);
      case 'transfer_approved':
        return this.transfer(lane.main, 'approved');
      case 'transfer_failed':
        return this.transfer(lane.main, 'failed');
      case 'internal_payment':
        return this.internalPayment(lane.main, lane.peer);
      case 'refund':
        return refund(this, lane);
      case 'med':
        return med(this, lane);
      case 'refund_and_med':
        return refundAndMed(this, lane);
      case 'repeat':
        return this.repeat(this.result.keyed[randomInt(this.result.keyed.length)]!);
    }
  }

  private token(merchant: Merchant): string {
    return merchant.keys[merchant.used++ % merchant.keys.length]!;
  }

  async keyedPost(
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
    throw new Unexpected(`POST ${path} key ${key} answered ${errorOf(answer)}`);
  }

  chargeBody(recipient: Merchant | null): Record<string, unknown> {
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

  /** Polls `read` until it answers; null when it does not within FINAL_WAIT_MS. */
  async settled<T>(read: () => Promise<T | undefined>): Promise<T | null> {
    const deadline = Date.now() + FINAL_WAIT_MS;
    while (Date.now() < deadline) {
      try {
        const answer = await read();
        if (answer !== undefined) return answer;
      } catch {
        // our own connection was terminated by a fault: ask again
      }
      await sleep(150);
    }
    return null;
  }

  finalStatus(transactionId: string): Promise<string | null> {
    return this.settled(async () => {
      const [row] = await this.target.sql<{ status: string }[]>`select status from transactions where id = ${transactionId}`;
      return row && row.status !== 'pending' ? row.status : undefined;
    });
  }

  expect(expectation: Expectation): void {
    this.result.expectations.push(expectation);
  }

  async paidCharge(lane: Lane, amount?: number): Promise<string | null> {
    const createdAtMs = Date.now();
    const { body } = await this.keyedPost(lane.main, '/transactions', { ...this.chargeBody(lane.peer), ...(amount ? { amount } : {}) });
    const chargeId: string = body.data.id;
    const paidAtMs = Date.now();
    const paid = await this.admin('POST', `/simulator/charges/${chargeId}/pay`);
    // 409: an earlier attempt whose answer was lost took the payment.
    if (paid.status === 200 || (paid.status === 409 && paid.body?.error?.code === 'charge_already_paid')) {
      this.result.payments.push({ chargeId, createdAtMs, paidAtMs });
      this.expect({ transactionId: chargeId, status: 'approved', why: 'the network took the payment' });
      if ((await this.finalStatus(chargeId)) !== 'approved') return null;
      lane.approved.push(chargeId);
      return chargeId;
    }
    if (paid.status === 422) {
      this.expect({ transactionId: chargeId, status: 'cancelled', why: `the network refused the payment (${paid.body?.error?.code})` });
      return null;
    }
    throw new Unexpected(`pay ${chargeId} answered ${errorOf(paid)}`);
  }

  private async chargeExpired(merchant: Merchant): Promise<void> {
    const { body } = await this.keyedPost(merchant, '/transactions', this.chargeBody(null));
    this.expect({ transactionId: body.data.id, status: 'cancelled', expired: true, why: 'left unpaid past its expiry' });
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
    if (completed.status === 200) this.expect({ transactionId: transferId, status: outcome, why: `the network ${outcome} it` });
    else if (completed.status === 409) {
      // An earlier attempt whose answer was lost, or the network had already decided: it says which.
      const decided = /\((approved|failed)\)/.exec(completed.body?.error?.message ?? '')?.[1];
      if (!decided) throw new Unexpected(`complete ${transferId} answered ${errorOf(completed)}`);
      this.expect({ transactionId: transferId, status: decided, why: `the network had ${decided} it` });
    } else throw new Unexpected(`complete ${transferId} answered ${errorOf(completed)}`);
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
      this.expect({ transactionId: chargeId, status: 'cancelled', why: 'its internal payment was refused, so it expires' });
      return;
    }
    const transferId: string = answer.body.data.id;
    if (answer.body.data.method !== 'internal')
      throw new Unexpected(`transfer ${transferId} paying own charge ${chargeId} has method ${answer.body.data.method}`);
    this.expect({ transferId, chargeId, why: 'internal payment' });
    await Promise.all([this.finalStatus(transferId), this.finalStatus(chargeId)]);
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
