// The admin statement's body (GET /admin/accounts/{id}/statement): a line of its CSV, and a client that
// stops taking the answer.
import { setImmediate as turn } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { csvLine, STALLED_READER_MS, statementBody } from '../../src/admin/routes/statement.js';
import type { StatementEntry, StatementLine } from '../../src/ledger/statement.js';

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

describe('the body of a statement', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Lines of a statement of `entries` entries, telling when its reading was ended. */
  function statement(entries: number) {
    const read = { ended: false };
    async function* lines(): AsyncGenerator<StatementLine> {
      try {
        for (let i = 0; i < entries; i += 1) yield { line: 'entry', ...entry({ description: `lançamento ${i}` }) };
        yield { line: 'closing', balanceCents: 0 };
      } finally {
        read.ended = true;
      }
    }
    return { read, lines: lines() };
  }
  const kilobyte = (line: StatementLine) => (line.line === 'entry' ? ['x'.repeat(1024)] : []);

  it('is abandoned, and the reading of the statement ended, when the client takes nothing for a minute', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { read, lines } = statement(10_000); // 10 MB: more than the stream buffers
    const body = statementBody({ line: 'opening', balanceCents: 0 }, lines, kilobyte);
    const failed = new Promise<Error>((resolve) => body.once('error', resolve));
    body.read(0);
    while (body.readableLength < body.readableHighWaterMark) await turn();
    await vi.advanceTimersByTimeAsync(STALLED_READER_MS - 1);
    expect([body.destroyed, read.ended]).toEqual([false, false]);
    await vi.advanceTimersByTimeAsync(1);
    expect((await failed).message).toBe('the client took nothing of the statement for 60 s');
    while (!read.ended) await turn();
  });

  it('gives a client that keeps taking it the whole statement, however long it takes', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { read, lines } = statement(1000);
    const body = statementBody({ line: 'opening', balanceCents: 0 }, lines, kilobyte);
    let length = 0;
    for await (const chunk of body) {
      length += (chunk as string).length;
      await vi.advanceTimersByTimeAsync(STALLED_READER_MS / 2);
    }
    expect(length).toBe(1000 * 1024);
    expect(read.ended).toBe(true);
  });
});
