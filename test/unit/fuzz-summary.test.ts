// `npm run fuzz`'s reading of Schemathesis's summary (scripts/fuzz/summary.ts): the counts of its
// "Test cases:" block in each wording Schemathesis 4 writes it, and a run that checked no case failing
// even when Schemathesis exits 0.
import { describe, expect, it } from 'vitest';
import { schemathesisCases, schemathesisFailures } from '../../scripts/fuzz/summary.js';

/** The end of a run's report, as `st run --no-color` prints it, around its "Test cases:" line. */
const report = (casesLine: string, finalLine = '=== No issues found in 120.02s ===') =>
  ['=== SUMMARY ===', '', 'API Operations:', '  Selected: 18/18', '', 'Test cases:', casesLine, '', 'Seed: 123', '', finalLine, ''].join(
    '\n',
  );

describe('schemathesisCases', () => {
  it('reads a run whose cases all passed', () => {
    expect(schemathesisCases(report('  4321 generated, 4321 passed'))).toEqual({ generated: 4321, checked: 4321, uniqueFailures: 0 });
  });

  it('reads the unique failures, and leaves the errored and skipped cases out of the checked ones', () => {
    expect(schemathesisCases(report('  120 generated, 7 found 2 unique failures, 3 errored, 10 skipped'))).toEqual({
      generated: 120,
      checked: 107,
      uniqueFailures: 2,
    });
    expect(schemathesisCases(report('  5 generated, 1 found 1 unique failure'))).toMatchObject({ uniqueFailures: 1 });
  });

  it('reads a run that generated nothing, or checked nothing it generated, as no case checked', () => {
    expect(schemathesisCases(report('  No test cases were generated', '=== Empty test suite ==='))).toEqual({
      generated: 0,
      checked: 0,
      uniqueFailures: 0,
    });
    expect(schemathesisCases(report('  9 generated, 4 errored, 5 skipped'))).toEqual({ generated: 9, checked: 0, uniqueFailures: 0 });
  });

  it('answers null for an output without the block, or with a line it cannot read', () => {
    expect(schemathesisCases('Schema Loading Error\n\nFailed to load the schema\n')).toBeNull();
    expect(schemathesisCases('')).toBeNull();
    expect(schemathesisCases(report('  many generated'))).toBeNull();
  });
});

describe('schemathesisFailures', () => {
  it('passes a run that exited 0 and checked cases', () => {
    expect(schemathesisFailures(0, { generated: 10, checked: 10, uniqueFailures: 0 })).toEqual([]);
  });

  it('fails a run that checked no case, though Schemathesis exited 0', () => {
    expect(schemathesisFailures(0, { generated: 0, checked: 0, uniqueFailures: 0 })).toEqual([
      'Schemathesis checked no test case (0 generated)',
    ]);
    expect(schemathesisFailures(0, { generated: 9, checked: 0, uniqueFailures: 0 })).toEqual([
      'Schemathesis checked no test case (9 generated)',
    ]);
  });

  it('fails a run without counts, and one Schemathesis failed', () => {
    expect(schemathesisFailures(0, null)).toEqual(['Schemathesis printed no count of test cases']);
    expect(schemathesisFailures(1, { generated: 10, checked: 10, uniqueFailures: 2 })).toEqual(['Schemathesis exited with 1']);
  });
});
