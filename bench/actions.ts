// Temporal actions per operation, from the committed workflow histories (test/replay/histories), which
// scripts/record-history.ts records from real runs of the engine: each row is one operation's run as
// the engine plays it after the patch its file is named by, so a row per patch shows before and after.
// A paid charge's webhook adds no Temporal work when its first attempt succeeds (the settling activity
// makes it); a delivery that fails is retried by a webhook-delivery workflow (the last row).
//
//   npm run bench:actions
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { countEvents, printActionsTable } from './temporal-actions.js';

const HISTORIES = join(dirname(fileURLToPath(import.meta.url)), '..', 'test', 'replay', 'histories');

const OPERATIONS: [label: string, file: string][] = [
  ['paid charge, simulator', 'charge-paid-transaction-status-search-attribute-encrypted.json'],
  ['paid charge, simulator (local-confirm-and-settle)', 'charge-paid-local-confirm-and-settle-encrypted.json'],
  ['paid charge, PSP route (before)', 'charge-psp-paid-persist-and-open-encrypted.json'],
  ['paid charge, PSP route (confirm-and-settle)', 'charge-psp-paid-confirm-and-settle-encrypted.json'],
  ['transfer approved, simulator (before)', 'transfer-approved-transaction-status-search-attribute-encrypted.json'],

  ['transfer approved, simulator (transfer-local-steps)', 'transfer-approved-transfer-local-steps-encrypted.json'],
  ['transfer failed, simulator (before)', 'transfer-failed-transaction-status-search-attribute-encrypted.json'],
  ['transfer failed, simulator (transfer-local-steps)', 'transfer-failed-transfer-local-steps-encrypted.json'],
  ['transfer approved later, simulator (transfer-settles-in-accept)', 'transfer-approved-transfer-settles-in-accept-encrypted.json'],
  [
    'transfer settled at hand-over, simulator (transfer-settles-in-accept)',
    'transfer-pays-charge-transfer-settles-in-accept-encrypted.json',
  ],

  ['transfer approved, PSP route (before)', 'transfer-psp-approved-remote-route-calls-encrypted.json'],
  ['transfer approved, PSP route (transfer-local-steps)', 'transfer-psp-approved-transfer-local-steps-encrypted.json'],
  ['transfer approved, PSP route (transfer-settles-in-accept)', 'transfer-psp-approved-transfer-settles-in-accept-encrypted.json'],
  ['refund approved, simulator', 'refund-approved-transaction-status-search-attribute-encrypted.json'],
  ['due-date charge paid late, simulator', 'due-date-charge-paid-late-encrypted.json'],
  ['due-date charge paid, PSP route', 'due-date-charge-psp-paid-encrypted.json'],
  ['recurrence cycle paid (its charge)', 'recurrence-cycle-paid-encrypted.json'],
  ['recurrence between cycles (its workflow)', 'recurrence-active-encrypted.json'],
  ['webhook delivery retried (its workflow)', 'webhook-retried-first-attempt-failed-at-start-encrypted.json'],
];

printActionsTable(
  OPERATIONS.map(([label, file]) => ({
    label,
    counts: countEvents((JSON.parse(readFileSync(join(HISTORIES, file), 'utf8')) as { events: [] }).events),
  })),
);
process.stdout.write(
  '\nactions: what Temporal Cloud bills, each counted once (starts, signals, updates, activities, local activities, timers, search-attribute upserts);\n' +
    'wf tasks and events: what a self-hosted cluster persists besides.\n',
);
