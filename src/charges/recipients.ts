// Split recipients: each item's `recipient` (e-mail, CPF/CNPJ or account id) resolved to one active
// account whose identity verification is approved, with the spec's codes for a missing, blocked,
// ambiguous, self or repeated recipient. An account with KYC pending could not take a charge in its own
// right, so it is refused as a blocked one is (SPLIT_RECIPIENT_NOT_FOUND).
import type { Sql, TxSql } from '../db/database.js';
import { Refusal } from '../domain/refusal.js';
import { recipientIdentifier, type RecipientIdentifier } from './schema.js';

interface Candidate {
  id: string;
  email: string;
  document: string;
  status: 'active' | 'blocked';
  kyc_status: 'approved' | 'pending';
}

function matches(candidate: Candidate, identifier: RecipientIdentifier): boolean {
  if (identifier.kind === 'account') return candidate.id === identifier.value;
  if (identifier.kind === 'email') return candidate.email.toLowerCase() === identifier.value;
  return candidate.document === identifier.value;
}

/** The account id of every split recipient, in the order of the items. */
export async function resolveSplitRecipients(sql: Sql | TxSql, selfAccountId: string, recipients: string[]): Promise<string[]> {
  if (recipients.length === 0) return [];
  const identifiers = recipients.map((recipient, index) => {
    const identifier = recipientIdentifier(recipient);
    if (!identifier) {
      throw new Refusal(
        'SPLIT_RECIPIENT_INVALID',
        `split[${index}].recipient deve ser um e-mail, um CPF/CNPJ válido ou o identificador de uma conta`,
      );
    }
    return identifier;
  });
  const values = (kind: RecipientIdentifier['kind']) => identifiers.filter((i) => i.kind === kind).map((i) => i.value);
  const candidates = await sql<Candidate[]>`
    select id, email, document, status, kyc_status from accounts
    where id = any(${values('account')}::text[])
       or lower(email) = any(${values('email')}::text[])
       or document = any(${values('document')}::text[])`;

  const seen = new Set<string>();
  return identifiers.map((identifier, index) => {
    const found = candidates.filter((c) => matches(c, identifier));
    if (found.some((c) => c.id === selfAccountId)) {
      throw new Refusal('SPLIT_RECIPIENT_SELF', `split[${index}]: a conta recebedora não pode ser a própria conta da cobrança`);
    }
    const active = found.filter((c) => c.status === 'active' && c.kyc_status === 'approved');
    if (active.length === 0) {
      throw new Refusal('SPLIT_RECIPIENT_NOT_FOUND', `split[${index}]: conta recebedora não encontrada ou indisponível`);
    }
    if (active.length > 1) {
      throw new Refusal(
        'SPLIT_RECIPIENT_INVALID',
        `split[${index}]: o identificador corresponde a mais de uma conta; use o identificador da conta (acc_…)`,
      );
    }
    const accountId = active[0]!.id;
    if (seen.has(accountId)) {
      throw new Refusal('SPLIT_RECIPIENT_DUPLICATED', `split[${index}]: recebedor repetido no split`);
    }
    seen.add(accountId);
    return accountId;
  });
}
