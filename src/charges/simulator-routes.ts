// POST /admin/simulator/charges/{id}/pay: plays the payer on the simulated Pix network. The network
// takes the payment (or refuses it as a bank app would), then notifies the engine, which signals the
// charge's workflow. `{id}` is the transaction id (txn_…) or the BR Code's txid. A due-date charge is
// paid on `paidOn` (default today in São Paulo), for the amount due that day.
import type Koa from 'koa';
import Type, { type Static } from 'typebox';
import { notifyChargePaid } from './workflow-client.js';
import type { Deps } from '../runtime/deps.js';
import { normalizeDocument } from '../domain/documents.js';
import { centsToReais } from '../domain/money.js';
import { ok } from '../http/edge.js';
import { ApiError, invalidRequest, notFound } from '../http/errors.js';
import { daysBetween, saoPauloDate } from '../../contracts/calendar.js';
import { ChargeNotPayable, findNetworkCharge, payCharge, type NetworkCharge, type NotPayableReason } from '../pix-routes/simulator.js';
import type { RoutePayer } from '../pix-routes/types.js';
import { findTransactionPayer } from '../transactions/repository.js';
import { afterCommit } from '../routing/after-commit.js';
import { authorizeByFirstPayment } from '../recurrences/first-payment.js';
import { closed, documentField, emailField, idParam } from '../routing/admin-fields.js';
import { NOT_FOUND } from '../routing/admin-errors.js';
import type { AdminRoute } from '../routing/operation.js';

/** Who pays when the operator does not say: the payer the charge names, at a simulated bank. */
const DEFAULT_BANK = { bankName: 'Banco Simulado S.A.', state: 'SP' };
const UF = /^[A-Z]{2}$/;

/** A payer field: text judged once trimmed, with its own rule. */
const payerText = (description: string, rule: (trimmed: string) => boolean, expected: string) =>
  Type.Refine(
    Type.String({ minLength: 1, description }),
    (value) => typeof value === 'string' && value.trim() !== '' && rule(value.trim()),
    () => expected,
  );

const PayBody = closed({
  payer: Type.Optional(
    closed(
      {
        name: Type.Optional(payerText('Nome do pagador', (name) => name.length >= 3, 'um texto de ao menos 3 caracteres')),
        document: Type.Optional(documentField('CPF ou CNPJ do pagador')),
        email: Type.Optional(emailField('E-mail do pagador')),
        bankName: Type.Optional(payerText(`Banco do pagador (padrão ${DEFAULT_BANK.bankName})`, () => true, 'um texto não vazio')),
        state: Type.Optional(
          payerText(
            `UF do pagador (padrão ${DEFAULT_BANK.state})`,
            (state) => UF.test(state),
            'a sigla de uma UF (duas letras maiúsculas)',
          ),
        ),
      },
      { description: 'Quem paga; o que faltar vem do pagador que a cobrança indica, num banco simulado' },
    ),
  ),
  paidOn: Type.Optional(
    Type.String({
      format: 'date',
      description:
        'Dia do pagamento (AAAA-MM-DD, horário de Brasília; padrão hoje): numa cobrança com vencimento, paga-se o valor devido nesse dia; depois da validade, 409. Uma cobrança imediata só é paga hoje',
    }),
  ),
});

function payerOf(body: Static<typeof PayBody>): RoutePayer {
  const payer: RoutePayer = {};
  for (const [field, value] of Object.entries(body.payer ?? {})) payer[field as keyof RoutePayer] = value.trim();
  if (payer.document !== undefined) payer.document = normalizeDocument(payer.document);
  return payer;
}

export const NetworkChargeSchema = Type.Object(
  {
    txid: Type.String(),
    transactionId: Type.String(),
    amount: Type.Number({
      description: 'Reais: o valor do código; numa cobrança com vencimento, o valor antes de multa, juros, descontos e abatimento',
    }),
    dueDate: Type.Union([Type.String({ format: 'date' }), Type.Null()], { description: 'Vencimento de uma cobrança com vencimento' }),
    paidAmount: Type.Union([Type.Number({ description: 'Reais' }), Type.Null()], { description: 'O valor pago' }),
    status: Type.Enum(['active', 'paid', 'cancelled']),
    copyPaste: Type.String({ description: 'O BR Code (copia e cola)' }),
    expiresAt: Type.String({ format: 'date-time' }),
    paidAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    payer: Type.Union([
      Type.Object({
        name: Type.Optional(Type.String()),
        document: Type.Optional(Type.String()),
        email: Type.Optional(Type.String()),
        bankName: Type.Optional(Type.String()),
        state: Type.Optional(Type.String()),
      }),
      Type.Null(),
    ]),
  },
  { additionalProperties: false, description: 'A cobrança como a rede simulada a viu' },
);

export const REFUSALS: Record<NotPayableReason, () => ApiError> = {
  not_found: () => notFound('Cobrança não encontrada na rede simulada'),
  already_paid: () => new ApiError(409, 'charge_already_paid', 'Esta cobrança já foi paga'),
  cancelled: () => new ApiError(422, 'charge_cancelled', 'Esta cobrança foi cancelada e não pode ser paga'),
  expired: () => new ApiError(422, 'charge_expired', 'Esta cobrança expirou e não pode ser paga'),
  past_validity: () =>
    new ApiError(409, 'payment_after_validity', 'Nesse dia a cobrança não pode mais ser paga: a validade depois do vencimento terminou'),
  amount_mismatch: () => new ApiError(409, 'amount_mismatch', 'O valor pago difere do valor que a cobrança pede nesse dia'),
  attempt_declined: () =>
    new ApiError(409, 'attempt_already_declined', 'A última tentativa de débito já falhou; a próxima espera o pedido de nova tentativa'),
};

/** The charge as the network saw it. */
export function networkChargeJson(charge: NetworkCharge) {
  return {
    txid: charge.txid,
    transactionId: charge.transactionId,
    amount: centsToReais(charge.amountCents),
    dueDate: charge.dueDate,
    paidAmount: charge.paidAmountCents === null ? null : centsToReais(charge.paidAmountCents),
    status: charge.status,
    copyPaste: charge.copyPaste,
    expiresAt: charge.expiresAt.toISOString(),
    paidAt: charge.paidAt?.toISOString() ?? null,
    payer: charge.payer,
  };
}

/** The day a payment is made on: an immediate charge only today, a due-date charge not before it existed. */
function paymentDay(charge: NetworkCharge, paidOn: string | undefined): string | undefined {
  if (paidOn === undefined) return undefined;
  const today = saoPauloDate(new Date());
  if (charge.dueDate === null && paidOn !== today) {
    throw invalidRequest(`paidOn só vale para cobranças com vencimento; uma cobrança imediata é paga hoje (${today})`, '/paidOn');
  }
  if (daysBetween(saoPauloDate(charge.createdAt), paidOn) < 0)
    throw invalidRequest('paidOn não pode ser antes da criação da cobrança', '/paidOn');
  return paidOn;
}

async function pay(ctx: Koa.Context, deps: Deps) {
  const body = (ctx.request.body ?? {}) as Static<typeof PayBody>;
  const given = payerOf(body);
  const charge = await findNetworkCharge(deps.sql, ctx.params.id!);
  if (!charge) throw REFUSALS.not_found();
  const paidOn = paymentDay(charge, body.paidOn);
  const indicated = await findTransactionPayer(deps.sql, charge.transactionId);
  const payer: RoutePayer = {
    ...(indicated ? { name: indicated.name, document: indicated.document, ...(indicated.email ? { email: indicated.email } : {}) } : {}),
    ...DEFAULT_BANK,
    ...given,
  };
  let paid: NetworkCharge;
  try {
    paid = await payCharge(deps.sql, charge.txid, { payer, ...(paidOn === undefined ? {} : { paidOn }) });
  } catch (err) {
    if (!(err instanceof ChargeNotPayable)) throw err;
    // A retried payment: the network tells the receiver again, in case the first notification (or the
    // authorization it makes) was lost; the charge's workflow confirms with the route and the
    // authorization is only for a recurrence still pending it, so a repeat changes nothing.
    if (err.reason === 'already_paid') await afterPayment(deps, charge.transactionId);
    throw REFUSALS[err.reason]();
  }
  await afterPayment(deps, paid.transactionId);
  ok(ctx, networkChargeJson(paid));
}

/** The network tells the receiver; paying a recurrence's first payment (journey 3) also authorizes the recurrence. */
async function afterPayment(deps: Deps, transactionId: string): Promise<void> {
  await afterCommit(deps, { transactionId }, () => notifyChargePaid(deps, transactionId));
  await afterCommit(deps, { transactionId }, () => authorizeByFirstPayment(deps, transactionId));
}

export const SIMULATOR_CHARGE_ROUTES: AdminRoute[] = [
  {
    method: 'POST',
    path: '/simulator/charges/:id/pay',
    summary: 'Simulador: paga uma cobrança na rede simulada, como o banco do pagador faria',
    operationId: 'payCharge',
    request: { params: idParam('Identificador da transação (txn_…) ou txid do BR Code'), body: PayBody, optionalBody: true },
    response: NetworkChargeSchema,
    errors: [
      NOT_FOUND,
      { status: 409, code: 'charge_already_paid' },
      { status: 409, code: 'payment_after_validity' },
      { status: 422, code: 'charge_cancelled' },
      { status: 422, code: 'charge_expired' },
    ],
    handler: pay,
  },
];
