// The page of a recurrence's authorization (Pix Automático): the receiver, what is paid, then what the
// payer authorizes (the amount or its floor, the frequency, the first due date, the end, what happens
// when the balance falls short, the first payment of journey 3), and, while it waits, the QR and
// copy-and-paste code that authorize it (journey 3: the combined code that also pays the first
// payment) with the time left to answer.
import { formatReais } from '../../domain/money.js';
import { SAO_PAULO } from '../../../contracts/calendar.js';
import type { RecurrenceFrequency } from '../../recurrences/contract.js';
import { brazilianDate, codeSection, escapeHtml, pageScript, refreshWhilePending, shell, statusLine, timeLeftLine } from './page-parts.js';
import type { AuthorizationView } from './view.js';

const FREQUENCY: Record<RecurrenceFrequency, { name: string; amountLabel: string }> = {
  weekly: { name: 'Semanal', amountLabel: 'Valor semanal' },
  monthly: { name: 'Mensal', amountLabel: 'Valor mensal' },
  quarterly: { name: 'Trimestral', amountLabel: 'Valor trimestral' },
  semiannual: { name: 'Semestral', amountLabel: 'Valor semestral' },
  annual: { name: 'Anual', amountLabel: 'Valor anual' },
};

const saoPauloMinute = new Intl.DateTimeFormat('pt-BR', {
  timeZone: SAO_PAULO,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/** `2026-12-04T17:30:00Z` → `04/12/2026 às 14:30`, in Brasília time. */
const brazilianMinute = (instant: Date) => saoPauloMinute.format(instant).replace(', ', ' às ');

const row = (term: string, value: string) => `<div><dt>${term}</dt><dd>${value}</dd></div>`;

/** The payer's ceiling of a variable amount: chosen in the bank's app when authorizing. */
function maximumRow(view: AuthorizationView): string {
  const { minimumAmountCents, payerMaximumAmountCents } = view.terms;
  if (minimumAmountCents === null) return '';
  if (payerMaximumAmountCents !== null) return row('Valor máximo', formatReais(payerMaximumAmountCents));
  return row('Valor máximo', view.state === 'pending' ? 'Você escolhe no app do seu banco' : 'Sem limite definido');
}

function termsList(view: AuthorizationView): string {
  const { terms } = view;
  return `<h2 class="terms-title">Condições</h2>
<dl class="terms">
${terms.firstPaymentCents !== null ? row('Pagamento agora', formatReais(terms.firstPaymentCents)) : ''}
${row('Frequência', FREQUENCY[terms.frequency].name)}
${maximumRow(view)}
${row('Primeira cobrança', brazilianDate(terms.firstDueDate))}
${row('Vigência', terms.endDate === null ? 'Até ser cancelado' : `Até ${brazilianDate(terms.endDate)}`)}
${row('Se faltar saldo', terms.retryPolicy === 'three_in_seven_days' ? 'Até 3 novas tentativas em 7 dias' : 'Sem nova tentativa')}
</dl>`;
}

export function authorizationPage(view: AuthorizationView, token: string, nonce: string, now: Date): string {
  const { terms } = view;
  const pending = view.state === 'pending';
  const fixed = terms.amountCents !== null;
  const amount = formatReais(fixed ? terms.amountCents! : terms.minimumAmountCents!);
  const amountLabel = fixed ? FREQUENCY[terms.frequency].amountLabel : 'Valor variável, a partir de';
  const firstPayment = terms.firstPaymentCents === null ? '' : ` e pagar ${formatReais(terms.firstPaymentCents)} agora`;
  const intro = `<p class="intro">Escaneie no aplicativo do seu banco para autorizar o Pix Automático${firstPayment}.</p>\n`;
  const qrAlt = `QR code do Pix Automático de ${view.merchantName}: abra o aplicativo do seu banco e escaneie para autorizar${firstPayment}`;
  const body = `<div class="card">
<p class="kicker">Pix Automático</p>
<h1>${escapeHtml(view.merchantName)}</h1>
<p class="desc">${escapeHtml(view.description ?? '')}</p>
<p class="label">${amountLabel}</p>
<p class="amount">${amount}</p>
${termsList(view)}
${statusLine(view)}
${pending ? codeSection(view, token, 'Autorizar com Pix', qrAlt, intro) : ''}
${timeLeftLine(view, 'Prazo para autorizar', now, ` <span class="nowrap">(até ${brazilianMinute(view.expiresAt)})</span>`)}
</div>
${pending ? '<p id="foot" class="foot">Depois de autorizado, cada cobrança é debitada pelo seu banco no vencimento. Você pode cancelar quando quiser no aplicativo do seu banco. Confira o nome do recebedor antes de confirmar.</p>' : ''}
${pageScript(nonce)}`;
  return shell(nonce, `Autorizar Pix Automático para ${view.merchantName}`, body, refreshWhilePending(view));
}
