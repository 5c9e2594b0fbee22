// Opening a MED, as the payer's institution notifies it: in one PostgreSQL transaction, checks the
// disputed charge, records the MED, retains the amount (available → retained) and records
// `med.created`. The disputed amount must fit the charge's return budget (src/returns/budget.ts), which
// refunds approved or pending and other MEDs already draw on. When the available balance is smaller than the disputed amount, what is available
// is retained (a partial cautionary block) and `retainedAmount` shows it; only what was retained can
// be returned to the payer later.
import type { Sql, TxSql } from '../db/database.js';
import { medEventId, recordMedEvent } from './events.js';
import { customerAccount } from '../ledger/accounts.js';
import { lockedBalances } from '../ledger/balance.js';
import { post } from '../ledger/post.js';
import { describeLeft, lockReturnBudget } from '../returns/budget.js';
import { findMedById } from './repository.js';
import { medNotFound, medRefused } from './results.js';
import type { MedChangeResult, OpenMedInput } from './contract.js';

/** The account's available balance, its row locked for the caller's PostgreSQL transaction. */
export async function lockedAvailable(tx: TxSql, accountId: string): Promise<number> {
  const available = customerAccount(accountId, 'available');
  return (await lockedBalances(tx, [available])).get(available) ?? 0;
}

/** Idempotent by `medId`: a retried activity answers the MED it opened. */
export function openMed(sql: Sql, input: OpenMedInput): Promise<MedChangeResult> {
  return sql.begin(async (tx): Promise<MedChangeResult> => {
    const existing = await findMedById(tx, input.medId);
    if (existing) return { ok: true, eventIds: [medEventId(existing.id, 'created')] };

    const charge = await lockReturnBudget(tx, input.transactionId);
    if (!charge) return medNotFound('Transação não encontrada');
    if (charge.type !== 'payment' || charge.status !== 'approved')
      return medRefused('Só uma cobrança Pix aprovada pode ser contestada por MED');
    const [open] = await tx`select id from meds where transaction_id = ${input.transactionId} and status = 'open'`;
    if (open) return medRefused(`Já existe uma MED em análise para esta transação (${open.id as string})`);
    const amountCents = input.amountCents ?? charge.leftCents;
    if (amountCents <= 0 || amountCents > charge.leftCents) {
      return medRefused(`O valor contestado deve ser maior que zero e caber no que ainda pode ser devolvido: ${describeLeft(charge)}`);
    }

    const retainedCents = Math.min(amountCents, await lockedAvailable(tx, charge.accountId));
    await tx`
      insert into meds (id, account_id, transaction_id, reason, amount, retained_amount, deadline_at)
      values (${input.medId}, ${charge.accountId}, ${input.transactionId}, ${input.reason}, ${amountCents}, ${retainedCents},
              now() + make_interval(secs => ${input.deadlineSeconds}))`;
    if (retainedCents > 0) {
      await post(tx, {
        key: `med:${input.medId}:retain`,
        transactionId: input.transactionId,
        description: `MED ${input.medId}: retenção cautelar`,
        entries: [
          { account: customerAccount(charge.accountId, 'available'), amount: -retainedCents },
          { account: customerAccount(charge.accountId, 'retained'), amount: retainedCents },
        ],
      });
    }
    const med = (await findMedById(tx, input.medId))!;
    return { ok: true, eventIds: [await recordMedEvent(tx, med, 'created')] };
  });
}
