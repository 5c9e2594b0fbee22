// The statement as the APIs show it (GET /admin/accounts/{id}/statement, GET /v1/statement and its MCP
// tool): the window's query parameters, the answer as a typebox schema, and its values in reais.
import Type from 'typebox';
import { parseInstant } from '../domain/instant.js';
import { centsToReais } from '../domain/money.js';
import { invalidRequest } from '../domain/refusal.js';
import { STATEMENT_KINDS, type StatementEntry, type StatementWindow } from './statement.js';

/** An ISO 8601 instant with a date, a time and an offset (parseInstant reads it). */
export const instantField = (description: string) =>
  Type.Refine(
    Type.String({
      format: 'date-time',
      description: `${description} (ISO 8601 com fuso, por exemplo 2025-01-31T03:00:00.000Z; lido até o milissegundo)`,
    }),
    (value) => typeof value === 'string' && parseInstant(value) !== null,
    () => 'um instante ISO 8601 com data, hora e fuso (por exemplo 2025-01-31T03:00:00.000Z)',
  );

/** The query parameters of a window of at most `maxDays` (any when undefined), both required. */
export const statementWindowQuery = (maxDays?: number) => ({
  from: instantField('Início do período, incluído'),
  to: instantField(
    `Fim do período, excluído; igual ou posterior a from${maxDays === undefined ? '' : ` e no máximo ${maxDays} dias depois`}`,
  ),
});

/**
 * The longest window of GET /v1/statement. Each of its pages counts and sums the whole window in
 * PostgreSQL (2.6 s for 630,000 entries, a month of 10,000 paid charges a day: README, "Statements");
 * the admin route streams any window.
 */
export const MAX_PUBLIC_WINDOW_DAYS = 31;

/** The window the validated query names; `to` before `from` is refused, and so is a window over `maxDays`. */
export function statementWindow(query: { from: string; to: string }, maxDays?: number): StatementWindow {
  const window = { from: parseInstant(query.from)!, to: parseInstant(query.to)! };
  if (window.to < window.from) throw invalidRequest('to deve ser igual ou posterior a from', '/to');
  if (maxDays !== undefined && window.to.getTime() - window.from.getTime() > maxDays * 86_400_000) {
    throw invalidRequest(`O período de from a to deve ser de no máximo ${maxDays} dias`, '/to');
  }
  return window;
}

const reais = (description: string) => Type.Number({ description: `${description} (reais)` });

export const StatementEntrySchema = Type.Object(
  {
    at: Type.String({ format: 'date-time', description: 'Quando o lançamento foi feito (ISO 8601 UTC, milissegundos)' }),
    kind: Type.Enum([...STATEMENT_KINDS], {
      description:
        'charge: cobrança paga (o valor pago); fee: tarifa da cobrança; split_in / split_out: comissão de split recebida / repassada; transfer: transferência, reserva do valor (sem a tarifa); transfer_fee: tarifa da transferência; transfer_released: transferência que falhou, reserva devolvida; refund / refund_released: devolução, reserva do valor / reserva devolvida; med_retained / med_released / med_returned: MED, valor retido / liberado / devolvido ao pagador; deposit: crédito na conta',
    }),
    transactionId: Type.Union([Type.String(), Type.Null()], { description: 'Transação do lançamento (txn_…, out_…)' }),
    description: Type.String(),
    amount: reais('Valor com sinal: positivo entra no saldo disponível, negativo sai'),
    balanceAfter: reais('Saldo disponível depois do lançamento'),
  },
  { additionalProperties: false, $id: 'StatementEntry' },
);

/** A new schema object each time: a route may mark its own (an admin route also answers CSV). */
export const statementSchema = () =>
  Type.Object(
    {
      openingBalance: reais('Saldo disponível no início do período'),
      closingBalance: reais('Saldo disponível no fim do período: openingBalance mais a soma dos lançamentos'),
      entries: Type.Array(StatementEntrySchema, { description: 'Lançamentos em ordem cronológica' }),
    },
    { additionalProperties: false, description: 'Extrato do saldo disponível da conta num período [from, to)' },
  );

export function statementEntryJson(entry: StatementEntry) {
  return {
    at: entry.at.toISOString(),
    kind: entry.kind,
    transactionId: entry.transactionId,
    description: entry.description,
    amount: centsToReais(entry.amountCents),
    balanceAfter: centsToReais(entry.balanceAfterCents),
  };
}
