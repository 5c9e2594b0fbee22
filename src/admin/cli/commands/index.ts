// Every pixctl command group: one line each.
export { accounts } from './accounts.js';
export { charges } from '../../../charges/cli.js';
export { keys } from './keys.js';
export { listenCommand } from './listen.js';
export { ledger } from './ledger.js';
export { meds } from '../../../meds/cli.js';
export { reconciliations } from '../../../reconciliation/cli.js';
export { recurrences } from '../../../recurrences/cli.js';
export { refunds } from '../../../refunds/cli.js';
export { routes } from './routes.js';
export { transfers } from '../../../transfers/cli.js';
export { deliveries, webhooks } from './webhooks.js';
export { triggerCommand } from './trigger.js';
