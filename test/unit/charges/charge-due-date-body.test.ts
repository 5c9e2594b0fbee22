// POST /transactions with `dueDate`: the due-date fields' checks, each refusal naming its field.
import { describe, expect, it } from 'vitest';
import { checkDueDateAhead } from '../../../src/charges/due-date/body.js';
import { chargeComparedFields, parseChargeBody } from '../../../src/charges/schema.js';
import { Refusal } from '../../../src/domain/refusal.js';
import { refusalAnswer } from '../../../src/http/errors.js';
import { CNPJ, CPF } from '../../helpers/fixtures.js';

const options = { webhookAllowInsecure: false };
const payer = { name: 'Maria da Silva', document: CPF.valid };
const body = (overrides: Record<string, unknown> = {}) => ({ amount: 500, payer, dueDate: '2026-04-10', ...overrides });

function refusal(input: unknown): { status: number; code: string; message: string; param?: string } {
  try {
    parseChargeBody(input, options);
  } catch (err) {
    if (!(err instanceof Refusal)) throw err;
    const answer = refusalAnswer(err);
    return { status: answer.status, code: answer.code, message: answer.message, param: err.details.param };
  }
  throw new Error('expected a refusal');
}

describe('a due-date charge body', () => {
  it('reads every rule in exact integers (centavos, hundredths of a percent), as sent with the defaults', () => {
    const parsed = parseChargeBody(
      body({
        validityAfterDue: 60,
        fine: { mode: 'percent', value: 2 },
        interest: { mode: 'percent_per_month', value: 1.5 },
        discounts: [
          { until: '2026-03-31', mode: 'fixed', value: 20 },
          { until: '2026-04-10', mode: 'fixed', value: 10.5 },
        ],
        abatement: { mode: 'fixed', value: 0.99 },
      }),
      options,
    );
    expect(parsed.due).toEqual({
      dueDate: '2026-04-10',
      billing: {
        validityAfterDue: 60,
        fine: { mode: 'percent', value: 200 },
        interest: { mode: 'percent_per_month', value: 150 },
        discounts: [
          { until: '2026-03-31', mode: 'fixed', value: 2000 },
          { until: '2026-04-10', mode: 'fixed', value: 1050 },
        ],
        abatement: { mode: 'fixed', value: 99 },
      },
    });
    expect(parseChargeBody(body(), options).due).toEqual({
      dueDate: '2026-04-10',
      billing: { validityAfterDue: 30, fine: null, interest: null, discounts: [], abatement: null },
    });
  });

  it('takes a CPF or a CNPJ, numeric or alphanumeric, as the payer (an immediate charge only a CPF)', () => {
    for (const document of [CNPJ.valid, CNPJ.validDigits, CNPJ.alphanumeric, CPF.valid]) {
      expect(parseChargeBody(body({ payer: { ...payer, document } }), options).payer.document).toMatch(/^[0-9A-Z]+$/);
    }
    expect(parseChargeBody(body({ payer: { ...payer, document: CNPJ.alphanumeric } }), options).payer.document).toBe('12ABC34501DE35');
    expect(refusal(body({ payer: { ...payer, document: '11.222.333/0001-82' } }))).toMatchObject({
      param: '/payer/document',
      message: /CPF ou CNPJ/,
    });
    expect(refusal({ amount: 500, payer: { ...payer, document: CNPJ.valid } })).toMatchObject({
      param: '/payer/document',
      message: /CPF válido/,
    });
  });

  it('reads null rules and a null dueDate as absent', () => {
    expect(parseChargeBody(body({ fine: null, interest: null, abatement: null }), options)).toEqual(parseChargeBody(body(), options));
    expect(parseChargeBody({ amount: 500, payer, dueDate: null, fine: null }, options).due).toBeUndefined();
  });

  it('is due today in São Paulo or later, and at most five years ahead (checked for new charges)', () => {
    // 2026-03-10 at 23:30 in São Paulo (02:30 UTC on the 11th): "today" is the 10th there.
    const now = new Date('2026-03-11T02:30:00Z');
    const ahead = (dueDate: string) => {
      try {
        checkDueDateAhead(dueDate, now);
        return null;
      } catch (err) {
        return { message: (err as Refusal).message, param: (err as Refusal).details.param };
      }
    };
    expect(ahead('2026-03-10')).toBeNull();
    expect(ahead('2031-03-10')).toBeNull();
    expect(ahead('2026-03-09')).toEqual({ message: expect.stringMatching(/hoje ou uma data futura/), param: '/dueDate' });
    expect(ahead('2031-03-11')).toEqual({ message: expect.stringMatching(/5 anos/), param: '/dueDate' });
  });

  it.each([
    ['a due date that does not exist', body({ dueDate: '2026-02-30' }), '/dueDate', /AAAA-MM-DD/],
    ['a due date with a time', body({ dueDate: '2026-04-10T00:00:00Z' }), '/dueDate', /AAAA-MM-DD/],
    ['coverFee with a due date', body({ coverFee: true }), '/coverFee', /coverFee/],
    ['validityAfterDue of 366 days', body({ validityAfterDue: 366 }), '/validityAfterDue', /0 a 365/],
    ['validityAfterDue negative', body({ validityAfterDue: -1 }), '/validityAfterDue', /0 a 365/],
    ['validityAfterDue not whole', body({ validityAfterDue: 1.5 }), '/validityAfterDue', /inteiro/],
    ['a fine of another mode', body({ fine: { mode: 'percent_per_day', value: 1 } }), '/fine/mode', /fine/],
    ['a fine without a value', body({ fine: { mode: 'fixed' } }), '/fine/value', /fine.value/],
    ['a percent fine over 100', body({ fine: { mode: 'percent', value: 100.01 } }), '/fine/value', /0,01 a 100/],
    ['a fine with three decimals', body({ fine: { mode: 'fixed', value: 1.005 } }), '/fine/value', /duas casas decimais/],
    ['a percent with three decimals', body({ interest: { mode: 'percent_per_month', value: 1.005 } }), '/interest/value', /duas casas/],
    ['interest of zero', body({ interest: { mode: 'fixed_per_day', value: 0 } }), '/interest/value', /maior que zero/],
    ['interest of an unknown mode', body({ interest: { mode: 'percent_per_week', value: 1 } }), '/interest/mode', /percent_per_year/],
    ['a percent per year over 100', body({ interest: { mode: 'percent_per_year', value: 101 } }), '/interest/value', /0,01 a 100/],
    ['an empty list of discounts', body({ discounts: [] }), '/discounts', /1 a 3/],
    [
      'four discounts',
      body({ discounts: ['03-20', '03-25', '03-30', '04-05'].map((d) => ({ until: `2026-${d}`, mode: 'fixed', value: 1 })) }),
      '/discounts',
      /1 a 3/,
    ],
    [
      'discount dates out of order',
      body({
        discounts: [
          { until: '2026-04-01', mode: 'fixed', value: 2 },
          { until: '2026-04-01', mode: 'fixed', value: 1 },
        ],
      }),
      '/discounts/1/until',
      /estritamente crescente/,
    ],
    [
      'a discount after the due date',
      body({ discounts: [{ until: '2026-04-11', mode: 'percent', value: 5 }] }),
      '/discounts/0/until',
      /depois de dueDate/,
    ],
    [
      'discounts of two modes',
      body({
        discounts: [
          { until: '2026-03-20', mode: 'percent', value: 5 },
          { until: '2026-03-30', mode: 'fixed', value: 1 },
        ],
      }),
      '/discounts/1/mode',
      /mesmo mode/,
    ],
    [
      'a discount date that does not exist',
      body({ discounts: [{ until: '2026-02-29', mode: 'fixed', value: 1 }] }),
      '/discounts/0/until',
      /AAAA-MM-DD/,
    ],
    [
      'a fixed discount that leaves nothing to pay',
      body({ abatement: { mode: 'fixed', value: 100 }, discounts: [{ until: '2026-04-01', mode: 'fixed', value: 400 }] }),
      '/discounts/0/value',
      /sem valor a pagar/,
    ],
    [
      'a percent discount of 100',
      body({ discounts: [{ until: '2026-04-01', mode: 'percent', value: 100 }] }),
      '/discounts/0/value',
      /sem valor/,
    ],
    ['an abatement of the whole amount', body({ abatement: { mode: 'fixed', value: 500 } }), '/abatement/value', /sem valor a pagar/],
    ['an abatement over the amount', body({ abatement: { mode: 'fixed', value: 600 } }), '/abatement/value', /sem valor a pagar/],
    ['an abatement of 100 %', body({ abatement: { mode: 'percent', value: 100 } }), '/abatement/value', /sem valor a pagar/],
    ['an abatement of 101 %', body({ abatement: { mode: 'percent', value: 101 } }), '/abatement/value', /0,01 a 100/],
  ])('refuses %s (400 invalid_request naming the field)', (_label, input, param, message) => {
    const error = refusal(input);
    expect(error).toMatchObject({ status: 400, code: 'invalid_request', param });
    expect(error.message).toMatch(message);
  });

  it.each([
    ['validityAfterDue', 10],
    ['fine', { mode: 'fixed', value: 1 }],
    ['interest', { mode: 'percent_per_day', value: 1 }],
    ['discounts', [{ until: '2026-04-01', mode: 'fixed', value: 1 }]],
    ['abatement', { mode: 'percent', value: 1 }],
  ])('refuses %s without dueDate, naming it', (field, value) => {
    expect(refusal({ amount: 500, payer, [field]: value })).toMatchObject({
      status: 400,
      code: 'invalid_request',
      param: `/${field}`,
      message: new RegExp(`${field} só vale para cobranças com vencimento`),
    });
  });

  it('accepts coverFee false with a due date', () => {
    expect(parseChargeBody(body({ coverFee: false }), options).coverFee).toBe(false);
  });
});

describe('compared fields of a due-date charge', () => {
  const compared = (input: Record<string, unknown>) => chargeComparedFields(parseChargeBody(input, options));

  it('compare the due date and every rule, with the defaults applied', () => {
    expect(compared(body())).toEqual(compared(body({ validityAfterDue: 30, fine: null })));
    for (const change of [
      { dueDate: '2026-04-11' },
      { validityAfterDue: 29 },
      { fine: { mode: 'fixed', value: 1 } },
      { fine: { mode: 'percent', value: 1 } },
      { interest: { mode: 'percent_per_day', value: 1 } },
      { interest: { mode: 'percent_per_month', value: 1 } },
      { discounts: [{ until: '2026-04-01', mode: 'fixed', value: 1 }] },
      { discounts: [{ until: '2026-04-02', mode: 'fixed', value: 1 }] },
      { abatement: { mode: 'fixed', value: 1 } },
    ]) {
      expect(compared(body(change))).not.toEqual(compared(body()));
    }
  });

  it('leave an immediate charge compared as before (no due-date key)', () => {
    expect(Object.keys(compared({ amount: 500, payer })).sort()).toEqual(['amount', 'coverFee', 'description', 'payer', 'split']);
    expect(compared({ amount: 500, payer })).not.toEqual(compared(body()));
  });
});
