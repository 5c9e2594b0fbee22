// Every pixctl command group: one line each.
export { accounts } from './accounts.js';
export { charges } from './charges.js';
export { keys } from './keys.js';
export { listenCommand } from './listen.js';
export { ledger } from './ledger.js';
export { meds } from './meds.js';
export { reconciliations } from './reconciliations.js';
export { recurrences } from './recurrences.js';
export { refunds } from './refunds.js';
export { routes } from './routes.js';
export { transfers } from './transfers.js';
export { deliveries, webhooks } from './webhooks.js';
export { triggerCommand } from './trigger.js';
