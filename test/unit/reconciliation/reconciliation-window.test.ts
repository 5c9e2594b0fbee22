// The day a scheduled reconciliation run covers: the local day before the one it fires on, in
// America/Sao_Paulo, whatever offset the zone had on those days.
import { describe, expect, it } from 'vitest';
import { previousLocalDay } from '../../../src/reconciliation/window.js';

const window = (at: string) => {
  const { from, to } = previousLocalDay(new Date(at));
  return [from.toISOString(), to.toISOString()];
};

describe('previousLocalDay', () => {
  it('is yesterday 00:00 to today 00:00 in São Paulo (UTC−3)', () => {
    expect(window('2026-11-27T07:00:00Z')).toEqual(['2026-11-26T03:00:00.000Z', '2026-11-27T03:00:00.000Z']);
  });

  it('follows the local date, not the UTC one, around midnight', () => {
    expect(window('2026-11-27T02:59:59.999Z')).toEqual(['2026-11-25T03:00:00.000Z', '2026-11-26T03:00:00.000Z']);
    expect(window('2026-11-27T03:00:00Z')).toEqual(['2026-11-26T03:00:00.000Z', '2026-11-27T03:00:00.000Z']);
  });

  it('crosses months and years', () => {
    expect(window('2027-01-01T10:00:00Z')).toEqual(['2026-12-31T03:00:00.000Z', '2027-01-01T03:00:00.000Z']);
    expect(window('2028-03-01T10:00:00Z')).toEqual(['2028-02-29T03:00:00.000Z', '2028-03-01T03:00:00.000Z']);
  });

  it('gives a day of 23 hours where São Paulo changed its offset', () => {
    // São Paulo's last summer time ended on 2019-02-17 (−2 → −3).
    expect(window('2019-02-17T12:00:00Z')).toEqual(['2019-02-16T02:00:00.000Z', '2019-02-17T03:00:00.000Z']);
  });
});
