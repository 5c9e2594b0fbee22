// Pix the simulated network receives that no charge asked for (POST /admin/simulator/pix): to the
// engine's key (the account the payer chose), or naming a txid — a charge's (the BR Code's field
// 62-05), or one never issued. So that every disagreement reconciliation knows can be produced
// without a PSP, the receiver is never told: a Pix of the whole amount naming a charge still open
// pays it at the network as a payment whose notice was lost would; any other is only recorded.
import type { Sql } from '../db/database.js';
import { newEndToEndId } from './simulator.js';
import type { RoutePayer } from './types.js';

export interface UnaskedPix {
  txid: string | null;
  /** The account whose key the payer chose, when named. */
  accountId: string | null;
  amountCents: number;
  payer: RoutePayer;
}

export interface ReceivedPix {
  endToEndId: string;
  txid: string | null;
  amountCents: number;
}

export async function receiveUnaskedPix(sql: Sql, pix: UnaskedPix): Promise<ReceivedPix> {
  const endToEndId = newEndToEndId(new Date());
  const payer = sql.json(pix.payer as Record<string, string>);
  const received = { endToEndId, txid: pix.txid, amountCents: pix.amountCents };
  if (pix.txid !== null) {
    const [paid] = await sql`
      update simulator_charges set status = 'paid', paid_at = now(), payer = ${payer}, end_to_end_id = ${endToEndId}
      where txid = ${pix.txid} and status = 'active' and expires_at > now() and amount = ${pix.amountCents}
      returning txid`;
    if (paid) return received;
  }
  await sql`
    insert into simulator_received_pix (end_to_end_id, txid, account_id, amount, payer)
    values (${endToEndId}, ${pix.txid}, ${pix.accountId}, ${pix.amountCents}, ${payer})`;
  return received;
}
