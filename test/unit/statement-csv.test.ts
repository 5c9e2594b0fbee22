// One line of a statement's CSV (GET /admin/accounts/{id}/statement with Accept: text/csv).
import { describe, expect, it } from 'vitest';
import { csvLine } from '../../src/admin/routes/statement.js';
import type { StatementEntry } from '../../src/ledger/statement.js';

const entry = (overrides: Partial<StatementEntry>): StatementEntry => ({
  at: new Date('2026-01-02T03:04:05.678Z'),
  kind: 'fee',
  transactionId: 'txn_1',
  description: 'Tarifa da cobrança Pix',
  amountCents: -150,
  balanceAfterCents: 9850,
  ...overrides,
});

describe('a statement CSV line', () => {
  it('writes reais with a decimal point and two decimals, signed, and CRLF', () => {
    expect(csvLine(entry({}))).toBe('2026-01-02T03:04:05.678Z,fee,txn_1,Tarifa da cobrança Pix,-1.50,98.50\r\n');
    expect(csvLine(entry({ amountCents: 5, balanceAfterCents: 0 }))).toMatch(/,0\.05,0\.00\r\n$/);
    expect(csvLine(entry({ amountCents: -123456789, balanceAfterCents: 100 }))).toMatch(/,-1234567\.89,1\.00\r\n$/);
  });

  it('leaves the transaction empty when there is none', () => {
    expect(csvLine(entry({ transactionId: null }))).toMatch(/^[^,]+,fee,,Tarifa/);
  });

  it('quotes a description with a comma, a quote or a line break', () => {
    expect(csvLine(entry({ description: 'MED med_1: devolução, parcial' }))).toContain(',"MED med_1: devolução, parcial",');
    expect(csvLine(entry({ description: 'pedido "42"' }))).toContain(',"pedido ""42""",');
  });

  it('never lets a description start as a spreadsheet formula', () => {
    for (const start of ['=', '+', '-', '@']) {
      expect(csvLine(entry({ description: `${start}HYPERLINK("x")` }))).toContain(`,"'${start}HYPERLINK(""x"")",`);
    }
  });
});
