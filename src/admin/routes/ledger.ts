// GET /admin/ledger/check: the ledger's invariants over the whole database, for operators and monitors.
// A violation is not an error of the request: the answer is 200 with `ok: false` and the violations.
import type Koa from 'koa';
import Type from 'typebox';
import type { Deps } from '../../runtime/deps.js';
import { ok } from '../../http/edge.js';
import { ledgerReport } from '../../ledger/check.js';
import type { AdminRoute } from '../../routing/operation.js';

async function check(ctx: Koa.Context, deps: Deps) {
  const report = await ledgerReport(deps.sql);
  if (!report.ok)
    deps.log.error(
      { alert: 'ledger_violation', violations: report.violations.slice(0, 20), count: report.violations.length },
      'ledger check found violations',
    );
  ok(ctx, report);
}

const Violation = Type.Object(
  {
    kind: Type.Enum(['unbalanced_posting', 'balance_mismatch', 'negative_customer_balance', 'suspense_mismatch']),
    postingKey: Type.Optional(Type.String()),
    account: Type.Optional(Type.String()),
    sumCents: Type.Optional(Type.Integer()),
    balanceCents: Type.Optional(Type.Integer()),
    entriesCents: Type.Optional(Type.Integer()),
    heldCents: Type.Optional(Type.Integer({ description: "suspense_mismatch: what the route's reconciliation items hold" })),
  },
  { description: 'A broken invariant, with the posting or ledger account it concerns (centavos)' },
);

const LedgerReportSchema = Type.Object(
  {
    ok: Type.Boolean({ description: 'true when no invariant is broken' }),
    checkedAt: Type.String({ format: 'date-time' }),
    postings: Type.Integer({ minimum: 0, description: 'Postings examined, all of them in one snapshot' }),
    violations: Type.Array(Violation),
  },
  { additionalProperties: false },
);

export const LEDGER_ROUTES: AdminRoute[] = [
  {
    method: 'GET',
    path: '/ledger/check',
    summary:
      'Verifica as invariantes do razão: lançamentos que somam zero, saldos iguais às suas entradas, nenhum saldo de cliente negativo, a conta de suspense de cada rota igual ao que seus itens de conciliação retêm',
    operationId: 'checkLedger',
    response: LedgerReportSchema,
    handler: check,
  },
];
