// What the drafts of charges and transfers have in common. Pure types only: the workflow bundle imports this file.

/** A transaction computed and checked by the API before its workflow starts, as both kinds carry it. */
export interface DraftBasics {
  transactionId: string;
  accountId: string;
  apiKeyId: string;
  externalId: string;
  /** Hex SHA-256 of the fields the idempotency rules compare. */
  fingerprint: string;
  route: string;
  amountCents: number;
  feeCents: number;
  netAmountCents: number;
  description: string | null;
}
