// The payer's page as one HTML document in Brazilian Portuguese, rendered on the server so that it
// reads the same without JavaScript (a <noscript> refresh keeps the status current); the script only
// adds the copy button, the running countdown and the live status. A charge's page is here, a
// recurrence authorization's in authorization-page.ts; the pieces they share in page-parts.ts.
import { formatReais } from '../../domain/money.js';
import { authorizationPage } from './authorization-page.js';
import { brazilianDate, codeSection, escapeHtml, pageScript, refreshWhilePending, shell, statusLine, timeLeftLine } from './page-parts.js';
import type { ChargeView, CheckoutView, LateSurcharge } from './view.js';

/** `Inclui R$ 3,50 de multa e juros por 3 dias de atraso`: why today's amount is above the charge's. */
function lateLine({ cents, daysLate, fine, interest }: LateSurcharge): string {
  const rules = [fine ? 'multa' : null, interest ? 'juros' : null].filter((rule) => rule !== null).join(' e ');
  return `Inclui ${formatReais(cents)} de ${rules} por ${daysLate} ${daysLate === 1 ? 'dia' : 'dias'} de atraso`;
}

function chargePage(view: ChargeView, token: string, nonce: string, now: Date): string {
  const pending = view.state === 'pending';
  const amountLabel = view.state === 'paid' ? 'Valor pago' : view.dueDate !== null && pending ? 'Valor a pagar hoje' : 'Valor';
  const amount = formatReais(view.amountCents);
  const qrAlt = `QR code Pix de ${amount}: abra o aplicativo do seu banco e escaneie`;
  const body = `<div class="card">
<h1>${escapeHtml(view.merchantName)}</h1>
${view.description ? `<p class="desc">${escapeHtml(view.description)}</p>` : ''}
<p id="amount-label" class="label">${amountLabel}</p>
<p class="amount">${amount}</p>
${view.dueDate !== null ? `<p class="due">Vencimento: ${brazilianDate(view.dueDate)}</p>` : ''}
${view.late ? `<p class="due">${lateLine(view.late)}</p>` : ''}
${statusLine(view)}
${pending ? codeSection(view, token, 'Pagar com Pix', qrAlt) : ''}
${timeLeftLine(view, 'Tempo restante', now)}
</div>
${pending ? '<p id="foot" class="foot">Pagamento por Pix. Confira o nome do recebedor no aplicativo do seu banco antes de confirmar.</p>' : ''}
${pageScript(nonce)}`;
  return shell(nonce, `Pagar ${amount} para ${view.merchantName}`, body, refreshWhilePending(view));
}

/** The page of a known token, whatever the state. */
export function checkoutPage(view: CheckoutView, token: string, nonce: string, now = new Date()): string {
  return view.kind === 'charge' ? chargePage(view, token, nonce, now) : authorizationPage(view, token, nonce, now);
}

/** The answer to an unknown token, and to a refusal such as the per-IP limit: the same look, no detail. */
export function messagePage(nonce: string, title: string, text: string): string {
  return shell(nonce, title, `<div class="card">\n<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(text)}</p>\n</div>`);
}
