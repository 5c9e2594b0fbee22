// The fields of POST /transactions that make a charge a due-date charge (the standard's `cobv`): their
// typebox schemas (merged into the charge body's), the messages of their schema refusals, and the
// checks a schema cannot express (today or later in São Paulo, discounts in order, nothing left to pay),
// each refusal naming its field with `param`.
import Type from 'typebox';
import type { BillingValue, DueDateBilling, DueDateTerms } from '../contract.js';
import { addYears, daysBetween, saoPauloDate } from '../../../contracts/calendar.js';
import { reaisToCents } from '../../domain/money.js';
import { invalidRequest, type Refusal } from '../../domain/refusal.js';
import { reais, TWO_DECIMALS_KEYWORD } from '../../http/request-schema.js';
import { amountDueOn } from '../../domain/amount-due.js';

export const VALIDITY_AFTER_DUE_DEFAULT = 30;
export const VALIDITY_AFTER_DUE_MAX = 365;
export const DUE_DATE_MAX_YEARS = 5;
export const DISCOUNTS_MAX = 3;

const FIXED_OR_PERCENT = ['fixed', 'percent'] as const;
const INTEREST_MODES = ['fixed_per_day', 'percent_per_day', 'percent_per_month', 'percent_per_year'] as const;
const FIXED_MODES: readonly string[] = ['fixed', 'fixed_per_day'];

const calendarDate = (description: string) => Type.String({ format: 'date', description: `${description} (AAAA-MM-DD)` });
const ruleValue = () =>
  reais({ exclusiveMinimum: 0, description: 'Reais nos modos fixos; percentual de 0,01 a 100 nos demais (até duas casas decimais)' });

/** A percent mode's value is at most 100 (documented as a `oneOf` by mode; the code names the field). */
function percentCap(modes: readonly string[]) {
  const fixed = modes.filter((mode) => FIXED_MODES.includes(mode));
  return [
    { title: 'Valor fixo em reais', required: ['mode'], properties: { mode: { enum: fixed } } },
    {
      title: 'Percentual',
      required: ['mode'],
      properties: { mode: { enum: modes.filter((mode) => !fixed.includes(mode)) }, value: { maximum: 100 } },
    },
  ];
}

function ruleSchema(modes: readonly string[], description: string) {
  return Type.Object({ mode: Type.Enum([...modes]), value: ruleValue() }, { description, oneOf: percentCap(modes) });
}

const DiscountSchema = Type.Object(
  { until: calendarDate('Último dia do desconto'), mode: Type.Enum([...FIXED_OR_PERCENT]), value: ruleValue() },
  {
    description:
      'Desconto por pagamento até `until`: reais, ou percentual da base (valor menos abatimento); o valor com o desconto fica dentro dos limites da conta',
    oneOf: percentCap(FIXED_OR_PERCENT),
  },
);

/** The due-date fields of the charge body. */
export const DUE_DATE_BODY_FIELDS = {
  dueDate: Type.Optional(
    Type.Union([
      calendarDate(
        `Vencimento: torna a cobrança uma cobrança com vencimento (cobv); de hoje (horário de Brasília) a ${DUE_DATE_MAX_YEARS} anos à frente`,
      ),
      Type.Null(),
    ]),
  ),
  validityAfterDue: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: VALIDITY_AFTER_DUE_MAX,
      default: VALIDITY_AFTER_DUE_DEFAULT,
      description: 'Dias depois do vencimento em que a cobrança ainda pode ser paga (só com dueDate)',
    }),
  ),
  fine: Type.Optional(
    Type.Union([
      ruleSchema(
        FIXED_OR_PERCENT,
        'Multa por atraso: reais, ou percentual da base (só com dueDate); com os juros, o valor do último dia de pagamento fica dentro dos limites da conta',
      ),
      Type.Null(),
    ]),
  ),
  interest: Type.Optional(
    Type.Union([
      ruleSchema(
        INTEREST_MODES,
        'Juros por dia de atraso: reais por dia, ou percentual da base ao dia, ao mês (÷ 30) ou ao ano (÷ 365) (só com dueDate); com a multa, o valor do último dia de pagamento fica dentro dos limites da conta',
      ),
      Type.Null(),
    ]),
  ),
  discounts: Type.Optional(
    Type.Array(DiscountSchema, {
      minItems: 1,
      maxItems: DISCOUNTS_MAX,
      description: `De 1 a ${DISCOUNTS_MAX} descontos, datas em ordem estritamente crescente, nenhuma depois de dueDate, um só mode (só com dueDate)`,
    }),
  ),
  abatement: Type.Optional(
    Type.Union([
      ruleSchema(
        FIXED_OR_PERCENT,
        'Abatimento: reais, ou percentual de amount (só com dueDate); o valor com abatimento fica dentro dos limites da conta',
      ),
      Type.Null(),
    ]),
  ),
};

/** The fields that only a due-date charge takes. */
const BILLING_FIELDS = ['validityAfterDue', 'fine', 'interest', 'discounts', 'abatement'] as const;

export interface DueDateBody {
  dueDate?: string | null;
  validityAfterDue?: number;
  fine?: { mode: string; value: number } | null;
  interest?: { mode: string; value: number } | null;
  discounts?: { until: string; mode: string; value: number }[];
  abatement?: { mode: string; value: number } | null;
  coverFee?: boolean;
}

const RULE_SHAPES: Record<string, string> = {
  fine: 'fine deve ser um objeto {mode: "fixed" ou "percent", value}',
  interest: 'interest deve ser um objeto {mode: "fixed_per_day", "percent_per_day", "percent_per_month" ou "percent_per_year", value}',
  abatement: 'abatement deve ser um objeto {mode: "fixed" ou "percent", value}',
};

/** The message of a schema refusal of a due-date field, or null when `path` is not one. */
export function dueDateSchemaRefusal(path: string, keyword: string): Refusal | null {
  if (path === '/dueDate') return invalidRequest('dueDate deve ser uma data válida no formato AAAA-MM-DD');
  if (path === '/validityAfterDue')
    return invalidRequest(`validityAfterDue deve ser um número inteiro de dias, de 0 a ${VALIDITY_AFTER_DUE_MAX}`);
  if (path === '/discounts') return invalidRequest(`discounts deve ser uma lista de 1 a ${DISCOUNTS_MAX} descontos`);
  const discount = /^\/discounts\/(\d+)(?:\/(\w+))?$/.exec(path);
  const rule = /^\/(fine|interest|abatement)(?:\/(\w+))?$/.exec(path);
  const label = discount ? `discounts[${discount[1]}]` : rule ? rule[1]! : null;
  const field = discount?.[2] ?? rule?.[2];
  if (label === null) return null;
  if (field === 'until') return invalidRequest(`${label}.until deve ser uma data válida no formato AAAA-MM-DD`);
  if (field === 'value' && keyword === TWO_DECIMALS_KEYWORD) return invalidRequest(`${label}.value deve ter no máximo duas casas decimais`);
  if (field === 'value') return invalidRequest(`${label}.value deve ser um número maior que zero`);
  if (discount) return invalidRequest(`${label} deve ser um objeto {until, mode: "fixed" ou "percent", value}`);
  return invalidRequest(RULE_SHAPES[label]!);
}

/** A rule as sent, in exact integers: centavos, or hundredths of a percent (at most 100 %). */
function ruleOf<M extends string>(sent: { mode: string; value: number }, label: string, param: string): BillingValue<M> {
  const value = reaisToCents(sent.value)!; // the schema checked two decimals at most
  if (!FIXED_MODES.includes(sent.mode) && value > 100_00)
    throw invalidRequest(`${label}.value deve ser um percentual de 0,01 a 100`, param);
  return { mode: sent.mode as M, value };
}

function discountsOf(body: DueDateBody, dueDate: string): DueDateBilling['discounts'] {
  const sent = body.discounts ?? [];
  return sent.map((discount, index) => {
    const at = `/discounts/${index}`;
    if (discount.mode !== sent[0]!.mode) throw invalidRequest('Todos os descontos devem ter o mesmo mode', `${at}/mode`);
    if (index > 0 && daysBetween(sent[index - 1]!.until, discount.until) <= 0) {
      throw invalidRequest('As datas dos descontos (until) devem estar em ordem estritamente crescente', `${at}/until`);
    }
    if (daysBetween(discount.until, dueDate) < 0)
      throw invalidRequest(`discounts[${index}].until não pode ser depois de dueDate`, `${at}/until`);
    return { until: discount.until, ...ruleOf<'fixed' | 'percent'>(discount, `discounts[${index}]`, `${at}/value`) };
  });
}

/** A new due-date charge is due today or later in São Paulo, and at most five years ahead. */
export function checkDueDateAhead(dueDate: string, now: Date): void {
  const today = saoPauloDate(now);
  if (daysBetween(today, dueDate) < 0) throw invalidRequest('dueDate deve ser hoje ou uma data futura (horário de Brasília)', '/dueDate');
  if (daysBetween(addYears(today, DUE_DATE_MAX_YEARS), dueDate) > 0) {
    throw invalidRequest(`dueDate deve estar a no máximo ${DUE_DATE_MAX_YEARS} anos de hoje`, '/dueDate');
  }
}

/** An abatement or a discount that leaves nothing to pay is refused, naming it. */
function checkSomethingToPay(terms: DueDateTerms, amountCents: number): void {
  const { abatement, discounts } = terms.billing;
  const charge = { ...terms, amountCents };
  const nothingLeft = abatement && amountDueOn({ ...charge, billing: { ...terms.billing, discounts: [] } }, terms.dueDate) === 0;
  if (nothingLeft) throw invalidRequest('abatement não pode deixar a cobrança sem valor a pagar', '/abatement/value');
  discounts.forEach((discount, index) => {
    if (amountDueOn(charge, discount.until) === 0) {
      throw invalidRequest(`discounts[${index}] não pode deixar a cobrança sem valor a pagar`, `/discounts/${index}/value`);
    }
  });
}

/**
 * A due-date charge's terms from a body its schema accepted, with the defaults applied; null for an
 * immediate charge (no `dueDate`), which may carry none of the due-date fields. Whether the due date is
 * still ahead is checked apart (checkDueDateAhead), for new charges only: a repeat answers its charge.
 */
export function parseDueDateTerms(body: DueDateBody, amountCents: number): DueDateTerms | null {
  if (body.dueDate === undefined || body.dueDate === null) {
    const stray = BILLING_FIELDS.find((field) => body[field] !== undefined && body[field] !== null);
    if (stray) throw invalidRequest(`${stray} só vale para cobranças com vencimento: informe dueDate`, `/${stray}`);
    return null;
  }
  const { dueDate } = body;
  if (body.coverFee === true) throw invalidRequest('coverFee não se aplica a cobranças com vencimento (dueDate)', '/coverFee');
  const terms: DueDateTerms = {
    dueDate,
    billing: {
      validityAfterDue: body.validityAfterDue ?? VALIDITY_AFTER_DUE_DEFAULT,
      fine: body.fine ? ruleOf(body.fine, 'fine', '/fine/value') : null,
      interest: body.interest ? ruleOf(body.interest, 'interest', '/interest/value') : null,
      discounts: discountsOf(body, dueDate),
      abatement: body.abatement ? ruleOf(body.abatement, 'abatement', '/abatement/value') : null,
    },
  };
  checkSomethingToPay(terms, amountCents);
  return terms;
}
