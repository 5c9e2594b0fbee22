// Reads of MEDs: by id (operators and workflows) and, for an account, by any of the three ids the
// public API accepts, and in pages.
import type { Sql, TxSql } from '../db/database.js';
import { toMedRow, type MedRow, type MedStatus, type RawMedRow } from './row.js';

const SELECT_MED = (sql: Sql | TxSql) => sql`
  select m.*, t.external_id from meds m join transactions t on t.id = m.transaction_id`;

export async function findMedById(sql: Sql | TxSql, medId: string): Promise<MedRow | null> {
  const [raw] = await sql<RawMedRow[]>`${SELECT_MED(sql)} where m.id = ${medId}`;
  return raw ? toMedRow(raw) : null;
}

/**
 * The account's MED named by its id, by the disputed transaction's id or by the order's externalId;
 * a MED id match wins, and among a transaction's MEDs the latest.
 */
export async function findMed(sql: Sql | TxSql, accountId: string, id: string): Promise<MedRow | null> {
  const [raw] = await sql<RawMedRow[]>`
    ${SELECT_MED(sql)}
    where m.account_id = ${accountId} and (m.id = ${id} or t.id = ${id} or t.external_id = ${id})
    order by (m.id = ${id}) desc, m.created_at desc, m.id desc
    limit 1`;
  return raw ? toMedRow(raw) : null;
}

export async function listMeds(
  sql: Sql,
  accountId: string,
  query: { page: number; limit: number; status?: MedStatus },
): Promise<{ rows: MedRow[]; total: number }> {
  const filters = sql`m.account_id = ${accountId} ${query.status ? sql`and m.status = ${query.status}` : sql``}`;
  const [rows, [count]] = await Promise.all([
    sql<RawMedRow[]>`
      ${SELECT_MED(sql)} where ${filters}
      order by m.created_at desc, m.id desc
      limit ${query.limit} offset ${(query.page - 1) * query.limit}`,
    sql<{ total: number }[]>`select count(*)::int as total from meds m where ${filters}`,
  ]);
  return { rows: rows.map(toMedRow), total: count!.total };
}
