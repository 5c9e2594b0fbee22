// pix_ledger_check_ok: set by each full ledger check this process runs (GET /admin/ledger/check,
// `pixctl ledger check`), not at scrape time: the check reads every entry, too much for every scrape.
import { ledgerCheckOk, ledgerCheckTime } from './registry.js';

export function recordLedgerCheck(ok: boolean): void {
  ledgerCheckOk.set(ok ? 1 : 0);
  ledgerCheckTime.set(Date.now() / 1000);
}
