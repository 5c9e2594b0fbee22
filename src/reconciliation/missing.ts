// missing_at_psp (books.md): an approved charge, transfer or refund of the run's window on its route
// that none of the PSP's records read by the run names. Nothing moves: the item is open and an
// operator is alerted. Read from the run's working set once both passes staged what they read, in
// batches, so a day of a million operations is never held at once. A charge's refunds are looked for
// in its Pix's window, where the PSP lists a received Pix's devoluções.
import type { Fragment } from 'postgres';
import { idEnvioOf } from '../pix-routes/bcb-api-pix/ids.js';
import type { Deps } from '../runtime/deps.js';
import { itemIdOf, recordKeys } from './ids.js';
import { runWindow } from './runs.js';

const BATCH = 1000;

interface Missing {
  engineId: string;
  kind: 'charge' | 'transfer' | 'refund';
  transactionId: string;
  amount: bigint;
  endToEndId: string | null;
  txid: string | null;
}

const DETAIL = {
  charge: 'Cobrança aprovada no motor que o PSP não lista entre os Pix recebidos',
  transfer: 'Transferência aprovada no motor que o PSP não lista entre os envios',
  refund: 'Devolução aprovada no motor que o PSP não lista entre as devoluções do Pix',
};

/** Finds the run's missing_at_psp items; answers how many the run found (found again included). */
export async function reconcileMissing(deps: Deps, runId: string): Promise<number> {
  const run = await runWindow(deps.sql, runId);
  const { sql } = deps;
  const unseen = (id: Fragment) =>
    sql`not exists (select 1 from reconciliation_records r where r.run_id = ${run.id} and r.engine_id = ${id})`;
  let found = 0;
  for (let after = ''; ;) {
    const batch = await sql<Missing[]>`
      select * from (
        select t.id as "engineId", case t.type when 'payment' then 'charge' else 'transfer' end as kind, t.id as "transactionId",
               case t.type when 'payment' then coalesce(t.paid_amount, t.amount) else t.recipient_amount end as amount,
               case t.type when 'payment' then t.end_to_end_id else t.processor_ref end as "endToEndId",
               case t.type when 'payment' then t.processor_ref end as txid
        from transactions t
        where t.acquirer = ${run.route} and t.approved_at >= ${run.from} and t.approved_at < ${run.to}
          and ((t.type = 'payment' and t.status in ('approved', 'refunded')) or (t.type = 'withdrawal' and t.status = 'approved'))
          and ${unseen(sql`t.id`)}
        union all
        select f.id, 'refund', f.transaction_id, f.amount, t.end_to_end_id, t.processor_ref
        from transactions t join refunds f on f.transaction_id = t.id
        where t.acquirer = ${run.route} and t.approved_at >= ${run.from} and t.approved_at < ${run.to} and t.type = 'payment'
          and f.status = 'approved' and ${unseen(sql`f.id`)}
      ) missing
      where "engineId" > ${after}
      order by "engineId"
      limit ${BATCH}`;
    for (const missing of batch) await recordMissing(deps, run.route, run.id, missing);
    found += batch.length;
    if (batch.length < BATCH) return found;
    after = batch.at(-1)!.engineId;
  }
}

async function recordMissing(deps: Deps, route: string, runId: string, missing: Missing): Promise<void> {
  const key = recordKeys.missing(missing.engineId);
  const itemId = itemIdOf(route, key);
  const [created] = await deps.sql.begin(async (tx) => {
    const inserted = await tx`
      insert into reconciliation_items (id, run_id, route, record_key, kind, status, transaction_id, end_to_end_id, txid, id_envio,
                                        engine_amount, detail)
      values (${itemId}, ${runId}, ${route}, ${key}, 'missing_at_psp', 'open', ${missing.transactionId},
              ${missing.kind === 'transfer' ? null : missing.endToEndId}, ${missing.txid},
              ${missing.kind === 'transfer' ? idEnvioOf(missing.transactionId) : null}, ${Number(missing.amount)},
              ${`${DETAIL[missing.kind]} (${missing.engineId})`})
      on conflict (route, record_key) do nothing
      returning 1`;
    await tx`insert into reconciliation_run_items (run_id, item_id) values (${runId}, ${itemId}) on conflict do nothing`;
    return inserted;
  });
  if (created) {
    deps.log.error(
      { alert: 'reconciliation_missing_at_psp', route, runId, itemId, engineId: missing.engineId, transactionId: missing.transactionId },
      'alert: an operation the engine approved is not in the PSP records; nothing was moved',
    );
  }
}
