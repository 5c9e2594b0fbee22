// What `npm run fuzz` makes of a Schemathesis run: the counts of its summary's "Test cases:" block (as
// schemathesis/cli/output.py's display_test_cases writes it), and whether the run passed. A run that
// checked no case proves nothing, whatever Schemathesis's exit code: an unreachable document, every
// operation filtered out or every case refused before a check ran all end with nothing tested.

export interface CaseCounts {
  generated: number;
  /** The cases at least one check ran on: the generated ones that neither errored nor were skipped. */
  checked: number;
  uniqueFailures: number;
}

/**
 * "  1234 generated, 1234 passed", "  12 generated, 3 found 2 unique failures, 1 errored, 4 skipped" or
 * "  No test cases were generated", on the line after "Test cases:"; null when there is no such block
 * (Schemathesis stopped before its summary).
 */
export function schemathesisCases(output: string): CaseCounts | null {
  const line = /^Test cases:[ \t]*\r?\n([^\n]*)/m.exec(output)?.[1];
  if (line === undefined) return null;
  if (/No test cases were generated/.test(line)) return { generated: 0, checked: 0, uniqueFailures: 0 };
  const generated = /(\d+) generated/.exec(line);
  if (!generated) return null;
  const count = (pattern: RegExp) => Number(pattern.exec(line)?.[1] ?? 0);
  return {
    generated: Number(generated[1]),
    checked: Number(generated[1]) - count(/(\d+) errored/) - count(/(\d+) skipped/),
    uniqueFailures: count(/(\d+) unique failures?/),
  };
}

/** Why the Schemathesis part of a fuzz run failed; empty when it passed. */
export function schemathesisFailures(exitCode: number, cases: CaseCounts | null): string[] {
  const failures: string[] = [];
  if (exitCode !== 0) failures.push(`Schemathesis exited with ${exitCode}`);
  if (cases === null) failures.push('Schemathesis printed no count of test cases');
  else if (cases.checked <= 0) failures.push(`Schemathesis checked no test case (${cases.generated} generated)`);
  return failures;
}
