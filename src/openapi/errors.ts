// Which error answers an operation can give: the ones its route declares, plus the ones every route
// gets from the edge and the guard (authentication, permission, identity, rate limits, failures).
import { KEY_QUOTA_LIMIT, KEY_QUOTA_WINDOW_SECONDS } from '../routing/rate-limit.js';
import type { RouteSpec } from '../routing/public-route.js';

export interface DocumentedError {
  status: number;
  code: string;
}

const GUARDED: DocumentedError[] = [
  { status: 401, code: 'invalid_api_key' },
  { status: 403, code: 'permission_denied' },
  { status: 403, code: 'ip_not_allowed' },
  { status: 403, code: 'account_unavailable' },
  { status: 429, code: 'rate_limit_exceeded' },
];
const FINANCIAL: DocumentedError[] = [{ status: 403, code: 'kyc_required' }];
/** Public routes are still behind the per-IP protection. */
const PUBLIC: DocumentedError[] = [{ status: 429, code: 'rate_limit_exceeded' }];
/** Any route: an unexpected failure, or PostgreSQL unreachable (503 with a Retry-After: repeat with the same key). */
export const ALWAYS: DocumentedError[] = [
  { status: 500, code: 'internal_error' },
  { status: 503, code: 'internal_error' },
];
/** Routes with a body: malformed JSON, a key repeated in one object, wrong content type, oversized body. */
export const WITH_BODY: DocumentedError[] = [{ status: 400, code: 'invalid_request' }];

/** Every error (status and code) the route can answer, ordered by status then code, without repeats. */
export function routeErrors(route: RouteSpec): DocumentedError[] {
  return documentedErrors([
    ...(route.errors ?? []),
    ...(route.permission === null ? PUBLIC : GUARDED),
    ...(route.permission !== null && route.financial ? FINANCIAL : []),
    ...(route.request?.body ? WITH_BODY : []),
    ...ALWAYS,
  ]);
}

/** Errors ordered by status then code, without repeats. */
export function documentedErrors(errors: DocumentedError[]): DocumentedError[] {
  const unique = new Map(errors.map((e) => [`${e.status} ${e.code}`, e]));
  return [...unique.values()].sort((a, b) => a.status - b.status || a.code.localeCompare(b.code));
}

/** The errors grouped by HTTP status, codes sorted. */
export function errorsByStatus(errors: DocumentedError[]): Map<number, string[]> {
  const grouped = new Map<number, string[]>();
  for (const { status, code } of errors) grouped.set(status, [...(grouped.get(status) ?? []), code]);
  return grouped;
}

/** The spec's meaning of each error status (its Errors table). */
export const STATUS_MEANING: Record<number, string> = {
  400: 'Invalid data; do not retry unchanged.',
  401: 'API key missing, malformed, unknown or revoked.',
  403: 'No permission, IP not allowed, unverified or unavailable account.',
  404: 'Not found.',
  409: 'Idempotency conflict or withdrawal already in progress; do not retry with a new body.',
  422: 'Refused by a business rule.',
  423: 'Withdrawals blocked by the administration.',
  429: 'Rate limit; retry after `Retry-After` seconds.',
  500: 'Internal failure; retry with the same idempotency key.',
  503: 'Temporarily unavailable; retry later (after `Retry-After` seconds when the answer carries it).',
};

/** The spec's condition for each error code (its Codes table), shown beside the codes of each response. */
export const CODE_MEANING: Record<string, string> = {
  invalid_api_key: 'Key missing, malformed, unknown or revoked',
  permission_denied: 'The key lacks the permission; the message names it',
  ip_not_allowed: 'The key is IP-restricted and the caller IP is not listed',
  kyc_required: 'Account identity verification not complete',
  account_unavailable: 'Account blocked or unavailable',
  invalid_request: 'Invalid data; the message says which, and `param` points at the field when one is to blame',
  invalid_status: '`status` filter outside the allowed values',
  invalid_type: '`type` filter outside `payment`, `withdrawal`',
  invalid_med_status: 'MED status filter outside the list',
  not_found: 'Transaction or MED not found',
  idempotency_key_required: 'Neither `Idempotency-Key` nor `externalId` sent',
  invalid_idempotency_key:
    'More than 100 chars, characters outside letters, digits and `. _ : / -`, or the exact shape of an identifier the engine generates (`txn_`, `out_`, `med_`… followed by their generated part)',
  idempotency_conflict: 'Same key with a different body, or `Idempotency-Key` different from `externalId`',
  operation_refused: 'Business rule: insufficient balance, feature disabled, split does not fit',
  WITHDRAWAL_IN_PROGRESS: 'A transfer is already `pending` in the account',
  internal_error: 'Internal failure or unavailable dependency (generic message)',
  SPLIT_INVALID: 'Item with neither or both of `amount` and `percent`',
  SPLIT_RECIPIENT_INVALID: 'Invalid `recipient`',
  SPLIT_TOO_MANY_RECIPIENTS: 'More than 10 recipients',
  SPLIT_RECIPIENT_NOT_FOUND: 'Recipient account does not exist or is blocked',
  SPLIT_RECIPIENT_SELF: 'Recipient is the account itself',
  SPLIT_RECIPIENT_DUPLICATED: 'Repeated recipient',
  SPLIT_EXCEEDS_SALE: 'Split does not fit in the sale',
  rate_limit_exceeded: `More than ${KEY_QUOTA_LIMIT} requests in the ${KEY_QUOTA_WINDOW_SECONDS}-second window of the key, or an IP protection`,
};
