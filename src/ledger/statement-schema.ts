// The statement as the APIs show it (GET /admin/accounts/{id}/statement, GET /v1/statement and its MCP
// tool): the window's query parameters, the answer as a typebox schema, and its values in reais.
import Type from 'typebox';
import { parseInstant } from '../domain/instant.js';
import { centsToReais } from '../domain/money.js';
import { invalidRequest } from '../domain/refusal.js';
import { STATEMENT_KINDS, type StatementEntry, type StatementWindow } from './statement.js';

const instant = (description: string) =>
  Type.Refine(
    Type.String({ format: 'date-time', description: `${description} (ISO 8601 com fuso, por exemplo 2025-01-31T03:00:00.000Z; lido até o milissegundo)` }),
    (value) => typeof value === 'string' && parseInstant(value) !== null,
    () => 'um instante ISO 8601 com data, hora e fuso (por exemplo 2025-01-31T03:00:00.000Z)',
  );

/** The query parameters of the window, both required. */
export const StatementWindowQuery = {
  from: instant('Início do período, incluído'),
  to: instant('Fim do período, excluído; igual ou posterior a from'),
};

/** The window the validated query names; `to` before `from` is refused. */
export function statementWindow(query: { from: string; to: string }): StatementWindow {
  const window = { from: parseInstant(query.from)!, to: parseInstant(query.to)! };
  if (window.to < window.from) throw invalidRequest('to deve ser igual ou posterior a from', '/to');
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
