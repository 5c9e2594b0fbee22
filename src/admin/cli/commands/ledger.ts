// pixctl ledger check: the ledger's invariants (every posting sums to zero, every balance equals its
// entries, no customer balance negative). Exits 1 when a violation is found, so a monitor can run it.
import type { LedgerReport } from '../../../ledger/check.js';
import type { CommandGroup } from '../../../cli/command.js';
import { table } from '../../../cli/output.js';

function render(data: unknown): string {
  const report = data as LedgerReport;
  const summary = table({ ok: report.ok, checkedAt: report.checkedAt, postings: report.postings, violations: report.violations.length });
  return report.ok ? summary : `${summary}\n\n${table(report.violations)}`;
}

export const ledger: CommandGroup = {
  name: 'ledger',
  summary: 'check the double-entry ledger',
  commands: [
    {
      name: 'check',
      summary:
        'prove every posting sums to zero, every balance equals its entries and no customer balance is negative; exits 1 on a violation',
      run: ({ admin }) => admin.request('GET', '/ledger/check'),
      render,
      failed: (data) => !(data as LedgerReport).ok,
    },
  ],
};
