// A due-date charge as the API Pix writes it (`cobv`): the body of `PUT /cobv/{txid}`, its rules in the
// standard's modalities (fine 1 fixed, 2 percent; interest 1 to 4, calendar days; discount 1 fixed or
// 2 percent until fixed dates; abatement 1 fixed, 2 percent), and how a paid cobv's value is judged:
// the PSP computed it, so it is what was paid, and a disagreement with the engine's own amount due on
// the Pix's day over R$ 0,01 is logged for an operator (the standard moves a due date falling on a
// weekend or holiday to the next business day; the engine counts calendar days).
import type { DueDateBilling, DueDateTerms } from '../../charges/contract.js';
import { saoPauloDate } from '../../../contracts/calendar.js';
import { amountDueOn } from '../../domain/amount-due.js';
import type { Logger } from '../../runtime/log.js';
import type { RouteChargeRequest, RouteDueDateCharge } from '../types.js';
import type { components } from './api-pix.js';
import { pspAmount } from './amounts.js';

type CobVSolicitada = components['schemas']['CobVSolicitada'];
type CobVValor = components['schemas']['CobVValor'];

const FIXED_OR_PERCENT = { fixed: 1, percent: 2 } as const;
const INTEREST = { fixed_per_day: 1, percent_per_day: 2, percent_per_month: 3, percent_per_year: 4 } as const;

/** A value in the standard's `valorPerc`: reais, or a percent, with two decimals (both kept in hundredths). */
const valorPerc = (value: number) => pspAmount(value);

function valorOf(amountCents: number, billing: DueDateBilling): CobVValor {
  const { fine, interest, discounts, abatement } = billing;
  return {
    original: pspAmount(amountCents),
    ...(fine ? { multa: { modalidade: FIXED_OR_PERCENT[fine.mode], valorPerc: valorPerc(fine.value) } } : {}),
    ...(interest ? { juros: { modalidade: INTEREST[interest.mode], valorPerc: valorPerc(interest.value) } } : {}),
    ...(discounts.length
      ? {
          desconto: {
            modalidade: FIXED_OR_PERCENT[discounts[0]!.mode],
            descontoDataFixa: discounts.map((discount) => ({ data: discount.until, valorPerc: valorPerc(discount.value) })),
          },
        }
      : {}),
    ...(abatement ? { abatimento: { modalidade: FIXED_OR_PERCENT[abatement.mode], valorPerc: valorPerc(abatement.value) } } : {}),
  };
}

/** The body of `PUT /cobv/{txid}`; `devedor` is required by the standard (a due-date charge always names its payer). */
export function cobvBody(
  request: RouteChargeRequest & { due: DueDateTerms },
  chave: string,
  devedor: CobVSolicitada['devedor'],
  solicitacaoPagador: string | null,
): CobVSolicitada {
  return {
    calendario: { dataDeVencimento: request.due.dueDate, validadeAposVencimento: request.due.billing.validityAfterDue },
    devedor,
    valor: valorOf(request.amountCents, request.due.billing),
    chave,
    ...(solicitacaoPagador ? { solicitacaoPagador } : {}),
  };
}

/** Logs the `alert` when what the PSP took differs from the engine's amount due on the Pix's day by more than a centavo. */
export function judgePaidCobv(
  log: Logger,
  context: { route: string; transactionId: string; endToEndId: string },
  charge: RouteDueDateCharge,
  paid: { amountCents: number; at: Date },
): void {
  const day = saoPauloDate(paid.at);
  const expectedCents = amountDueOn(charge, day);
  if (Math.abs(expectedCents - paid.amountCents) <= 1) return;
  log.error(
    { alert: 'psp_amount_due_mismatch', ...context, day, expectedCents, paidCents: paid.amountCents },
    'alert: the PSP took another amount for a due-date charge than the engine computes for that day; the payment is approved with what the PSP took, an operator should check it',
  );
}
