// What an operation of the workload drives the engine with (workload.ts implements it), and the terms
// the operations share: a lane's merchants, the expectations recorded for the checks, and the error
// for what an operation saw that no retry can explain.
import { randomBytes, randomInt } from 'node:crypto';
import type { Sql } from '../../src/db/database.js';
import type { Answer } from './client.js';

export interface Merchant {
  id: string;
  keys: string[];
  used: number;
}

/** Two accounts of one lane, and the lane's approved charges that refunds and MEDs draw on. */
export interface Lane {
  main: Merchant;
  peer: Merchant;
  approved: string[];
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
  /** `paidCents`: what the payer must have paid (a due-date charge priced for the day it was paid on). */
  | { transactionId: string; status: string; expired?: boolean; paidCents?: number; why: string }
  | { medId: string; status: string; why: string }
  | { refundId: string; status: string; why: string }
  | { recurrenceId: string; status: string; why: string }
  /** An internal payment: both approved, or the charge expired before the transfer reached it (then failed and cancelled). */
  | { transferId: string; chargeId: string; why: string };

export interface AdminOptions {
  retryIf?: (a: Answer) => boolean;
  headers?: Record<string, string>;
}

export interface Driver {
  /** The harness's own connection to the engine's database. */
  readonly sql: Sql;
  /** An admin call, repeated until final. */
  admin(method: string, path: string, body?: unknown, options?: AdminOptions): Promise<Answer>;
  /** A public API call with one of the merchant's keys, repeated until final. */
  api(merchant: Merchant, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Answer>;
  /** POSTs until final with a new key; the answer must be 201 or 200 (else Unexpected unless `allowed`). */
  keyedPost(
    merchant: Merchant,
    path: KeyedRequest['path'],
    body: Record<string, unknown>,
    allowed?: number[],
  ): Promise<Answer & { keyed?: KeyedRequest }>;
  /** A charge's body: payer, a random amount, sometimes a split to `recipient`. */
  chargeBody(recipient: Merchant | null): Record<string, unknown>;
  /** Polls `read` until it answers something; null when it does not in time. */
  settled<T>(read: () => Promise<T | undefined>): Promise<T | null>;
  /** The transaction's status once it left `pending`; null when it does not in time. */
  finalStatus(transactionId: string): Promise<string | null>;
  /** An immediate charge of the lane's main account (of `amount` reais, else a random one), paid by the simulated payer; its id once approved, else null. */
  paidCharge(lane: Lane, amount?: number): Promise<string | null>;
  expect(expectation: Expectation): void;
}

/** What an operation saw that no retry can explain: a finding. */
export class Unexpected extends Error {}

export const reais = (min: number, max: number) => randomInt(min * 100, max * 100 + 1) / 100;
export const newKey = (label: string) => `chaos-${label}-${randomBytes(6).toString('hex')}`;
export const errorOf = (answer: Answer) => `${answer.status} ${JSON.stringify(answer.body?.error ?? '')}`;
