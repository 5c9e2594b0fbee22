// The core's "no": a business rule or a request check that refuses throws a Refusal, named by the spec's
// error code (a closed set: the codes the core uses) with a Portuguese message, and, when one field is to
// blame, the JSON pointer of it (`param`, as in Stripe's errors). The core says nothing of HTTP: the edge
// answers each code with its status from one table (src/http/refusal-status.ts), as Stripe keeps an
// error's `type` apart from its status.

export type RefusalCode =
  | 'invalid_request'
  | 'idempotency_key_required'
  | 'invalid_idempotency_key'
  | 'idempotency_conflict'
  | 'account_unavailable'
  | 'kyc_required'
  | 'operation_refused'
  | 'WITHDRAWAL_IN_PROGRESS'
  | 'internal_error'
  | 'SPLIT_INVALID'
  | 'SPLIT_RECIPIENT_INVALID'
  | 'SPLIT_TOO_MANY_RECIPIENTS'
  | 'SPLIT_RECIPIENT_NOT_FOUND'
  | 'SPLIT_RECIPIENT_SELF'
  | 'SPLIT_RECIPIENT_DUPLICATED'
  | 'SPLIT_EXCEEDS_SALE'
  | 'invalid_recurrence_status';

/**
 * Why a refusal whose code says too little was given, where the spec answers it apart: withdrawals
 * blocked by the administration are an `invalid_request` the spec answers 423.
 */
export type RefusalReason = 'withdrawals_blocked';

export interface RefusalDetails {
  /** The JSON pointer of the one field to blame (`/amount`, `/split/0/percent`). */
  param?: string;
  reason?: RefusalReason;
  /** Nothing was judged (a resource was busy): the same request may be repeated after this many seconds. */
  retryAfterSeconds?: number;
}

export class Refusal extends Error {
  constructor(
    readonly code: RefusalCode,
    message: string,
    readonly details: RefusalDetails = {},
  ) {
    super(message);
  }

  /** The same refusal, blamed on the field at `param` (a JSON pointer). */
  at(param: string | undefined): Refusal {
    const { param: _previous, ...rest } = this.details;
    return new Refusal(this.code, this.message, param === undefined ? rest : { ...rest, param });
  }
}

export const invalidRequest = (message: string, param?: string) =>
  new Refusal('invalid_request', message, param === undefined ? {} : { param });
export const operationRefused = (message: string) => new Refusal('operation_refused', message);
export const accountUnavailable = () => new Refusal('account_unavailable', 'Conta bloqueada ou indisponível');
export const kycRequired = () => new Refusal('kyc_required', 'A verificação de identidade (KYC) da conta não está concluída');
export const withdrawalInProgress = () =>
  new Refusal('WITHDRAWAL_IN_PROGRESS', 'Já existe uma transferência pendente nesta conta; aguarde a conclusão');
export const withdrawalsBlocked = () =>
  new Refusal('invalid_request', 'Transferências bloqueadas pela administração da conta', { reason: 'withdrawals_blocked' });
export const insufficientBalance = () => operationRefused('Saldo disponível insuficiente para a transferência');
export const insufficientRefundBalance = () => operationRefused('Saldo disponível da conta insuficiente para a devolução');
/** The engine could not take the request now (nothing was judged): the client repeats it, with the same key. */
export const unavailable = (message: string, retryAfterSeconds?: number) =>
  new Refusal('internal_error', message, retryAfterSeconds === undefined ? {} : { retryAfterSeconds });
