// The one table the edge answers the core's refusals with: every code of the closed set has the status
// of the spec's error table (pix-service-spec.md, "Errors > Codes": the expectation below is that table,
// for the codes the core uses, copied by hand), and a refusal recorded by a workflow is answered as the
// refusal itself.
import { describe, expect, it } from 'vitest';
import { Refusal, unavailable, withdrawalInProgress, withdrawalsBlocked, type RefusalCode } from '../../src/domain/refusal.js';
import { answerOf, ApiError, refusalAnswer } from '../../src/http/errors.js';
import { REASON_STATUS, REFUSAL_STATUS } from '../../src/http/refusal-status.js';
import { recordedRefusal, refusalOf } from '../../src/transactions/acceptance.js';
import { resolveIdempotencyKey } from '../../src/transactions/idempotency.js';

const SPEC_STATUS: Record<RefusalCode, number> = {
  invalid_request: 400,
  idempotency_key_required: 400,
  invalid_idempotency_key: 400,
  idempotency_conflict: 409,
  account_unavailable: 403,
  kyc_required: 403,
  operation_refused: 422,
  WITHDRAWAL_IN_PROGRESS: 409,
  // The spec says "500, 503": the core's is "processing route unavailable", the 503.
  internal_error: 503,
  SPLIT_INVALID: 400,
  SPLIT_RECIPIENT_INVALID: 400,
  SPLIT_TOO_MANY_RECIPIENTS: 400,
  SPLIT_RECIPIENT_NOT_FOUND: 404,
  SPLIT_RECIPIENT_SELF: 409,
  SPLIT_RECIPIENT_DUPLICATED: 409,
  SPLIT_EXCEEDS_SALE: 422,
  // Pix Automático's, not in the spec's table.
  invalid_recurrence_status: 409,
};

describe('the refusal status table', () => {
  it('gives every code of the core the status of the spec, and no other code', () => {
    expect(REFUSAL_STATUS).toEqual(SPEC_STATUS);
  });

  it('answers withdrawals blocked by the administration 423 invalid_request (the spec\'s "400 (and 423)")', () => {
    expect(REASON_STATUS).toEqual({ withdrawals_blocked: 423 });
    expect(refusalAnswer(withdrawalsBlocked())).toMatchObject({ status: 423, code: 'invalid_request' });
  });

  it('answers each code of the set with its status, its code and its message', () => {
    for (const [code, status] of Object.entries(SPEC_STATUS)) {
      const answer = refusalAnswer(new Refusal(code as RefusalCode, 'motivo'));
      expect([answer.status, answer.code, answer.message, answer.headers]).toEqual([status, code, 'motivo', {}]);
    }
  });

  it('carries the field to blame and when to repeat', () => {
    expect(refusalAnswer(new Refusal('SPLIT_INVALID', 'x', { param: '/split/0' })).param).toBe('/split/0');
    expect(refusalAnswer(new Refusal('invalid_request', 'x').at('/externalId')).param).toBe('/externalId');
    expect(refusalAnswer(unavailable('ocupado', 1))).toMatchObject({
      status: 503,
      code: 'internal_error',
      headers: { 'Retry-After': '1' },
    });
  });
});

describe('what the edge answers for an error thrown below it', () => {
  it('is the refusal by the table, an ApiError as it is, nothing for a fault', () => {
    expect(answerOf(withdrawalInProgress())).toMatchObject({ status: 409, code: 'WITHDRAWAL_IN_PROGRESS' });
    const own = new ApiError(405, 'method_not_allowed', 'x');
    expect(answerOf(own)).toBe(own);
    expect(answerOf(new Error('bug'))).toBeNull();
  });

  it('is the same for a refusal the accept step records and for the refusal itself; the record holds no status', () => {
    const outOfLimits = new Refusal('invalid_request', 'Valor fora dos limites', { param: '/fine/value' });
    for (const refusal of [withdrawalsBlocked(), withdrawalInProgress(), new Refusal('SPLIT_EXCEEDS_SALE', 'x'), outOfLimits]) {
      const recorded = refusalOf(refusal);
      expect(recorded).not.toHaveProperty('status');
      expect(answerOf(recordedRefusal(recorded))).toEqual(refusalAnswer(refusal));
    }
    expect(refusalOf(withdrawalsBlocked())).toEqual({
      code: 'invalid_request',
      message: withdrawalsBlocked().message,
      reason: 'withdrawals_blocked',
    });
    expect(answerOf(recordedRefusal(refusalOf(outOfLimits)))?.param).toBe('/fine/value');
  });
});

describe('the core', () => {
  it('refuses with a domain refusal, not an HTTP error', () => {
    let thrown: unknown;
    try {
      resolveIdempotencyKey(undefined, undefined);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(Refusal);
    expect(thrown).not.toBeInstanceOf(ApiError);
    expect((thrown as Refusal).code).toBe('idempotency_key_required');
  });
});
