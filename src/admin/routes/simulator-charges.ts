// POST /admin/simulator/charges/{id}/pay: plays the payer on the simulated Pix network. The network
// takes the payment (or refuses it as a bank app would), then notifies the engine, which signals the
// charge's workflow. `{id}` is the transaction id (txn_…) or the BR Code's txid.
import type Koa from 'koa';
import { notifyChargePaid } from '../../charges/workflow-client.js';
import type { Deps } from '../../deps.js';
import { documentKind, normalizeDocument } from '../../domain/documents.js';
import { centsToReais } from '../../domain/money.js';
import { ok } from '../../http/edge.js';
import { ApiError, invalidRequest, notFound } from '../../http/errors.js';
import { ChargeNotPayable, findNetworkCharge, payCharge, type NetworkCharge, type NotPayableReason } from '../../processors/simulator.js';
import type { RoutePayer } from '../../processors/types.js';
import type { StoredPayer } from '../../transactions/row.js';
import { afterCommit } from './after-commit.js';
import type { AdminRoute } from './index.js';

/** Who pays when the operator does not say: the payer the charge names, at a simulated bank. */
const DEFAULT_BANK = { bankName: 'Banco Simulado S.A.', state: 'SP' };
const PAYER_FIELDS = ['name', 'document', 'email', 'bankName', 'state'] as const;
const UF = /^[A-Z]{2}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function parsePayer(body: unknown): RoutePayer {
  if (body === undefined) return {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidRequest('O corpo deve ser um objeto JSON com payer opcional');
  const unknownField = Object.keys(body).find((field) => field !== 'payer');
  if (unknownField !== undefined) throw invalidRequest(`Campo desconhecido: ${unknownField}`);
  const raw = (body as { payer?: unknown }).payer;
  if (raw === undefined) return {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw invalidRequest('payer deve ser um objeto');
  const payer: RoutePayer = {};
  for (const [field, value] of Object.entries(raw)) {
    if (!(PAYER_FIELDS as readonly string[]).includes(field)) throw invalidRequest(`Campo desconhecido: payer.${field}`);
    if (typeof value !== 'string' || value.trim() === '') throw invalidRequest(`payer.${field} deve ser um texto não vazio`);
    payer[field as (typeof PAYER_FIELDS)[number]] = value.trim();
  }
  if (payer.name !== undefined && payer.name.length < 3) throw invalidRequest('payer.name deve ter ao menos 3 caracteres');
  if (payer.document !== undefined) {
    if (!documentKind(payer.document)) throw invalidRequest('payer.document deve ser um CPF ou CNPJ válido');
    payer.document = normalizeDocument(payer.document);
  }
  if (payer.email !== undefined && !EMAIL.test(payer.email)) throw invalidRequest('payer.email deve ser um e-mail válido');
  if (payer.state !== undefined && !UF.test(payer.state)) throw invalidRequest('payer.state deve ser a sigla de uma UF (duas letras maiúsculas)');
  return payer;
}

const REFUSALS: Record<NotPayableReason, () => ApiError> = {
  not_found: () => notFound('Cobrança não encontrada na rede simulada'),
  already_paid: () => new ApiError(409, 'charge_already_paid', 'Esta cobrança já foi paga'),
  cancelled: () => new ApiError(422, 'charge_cancelled', 'Esta cobrança foi cancelada e não pode ser paga'),
  expired: () => new ApiError(422, 'charge_expired', 'Esta cobrança expirou e não pode ser paga'),
};

/** The charge as the network saw it. */
function networkChargeJson(charge: NetworkCharge) {
  return {
    txid: charge.txid,
    transactionId: charge.transactionId,
    amount: centsToReais(charge.amountCents),
    status: charge.status,
    copyPaste: charge.copyPaste,
    expiresAt: charge.expiresAt.toISOString(),
    paidAt: charge.paidAt?.toISOString() ?? null,
    payer: charge.payer,
  };
}

async function pay(ctx: Koa.Context, deps: Deps) {
  const given = parsePayer(ctx.request.body);
  const charge = await findNetworkCharge(deps.sql, ctx.params.id!);
  if (!charge) throw REFUSALS.not_found();
  const [named] = await deps.sql<{ payer: StoredPayer | null }[]>`select payer from transactions where id = ${charge.transactionId}`;
  const indicated = named?.payer;
  const payer: RoutePayer = {
    ...(indicated ? { name: indicated.name, document: indicated.document, ...(indicated.email ? { email: indicated.email } : {}) } : {}),
    ...DEFAULT_BANK,
    ...given,
  };
  let paid: NetworkCharge;
  try {
    paid = await payCharge(deps.sql, charge.txid, payer);
  } catch (err) {
    if (!(err instanceof ChargeNotPayable)) throw err;
    // A retried payment: the network tells the receiver again, in case the first notification was lost
    // (the charge's workflow confirms with the route, so a repeated notification changes nothing).
    if (err.reason === 'already_paid') await afterCommit(deps, { transactionId: charge.transactionId }, () => notifyChargePaid(deps, charge.transactionId));
    throw REFUSALS[err.reason]();
  }
  await afterCommit(deps, { transactionId: paid.transactionId }, () => notifyChargePaid(deps, paid.transactionId));
  ok(ctx, networkChargeJson(paid));
}

export const SIMULATOR_CHARGE_ROUTES: AdminRoute[] = [{ method: 'POST', path: '/simulator/charges/:id/pay', handler: pay }];
