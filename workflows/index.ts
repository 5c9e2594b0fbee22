// Every workflow the worker runs. Workflow code is deterministic and does no I/O: it is bundled for
// Temporal's sandbox, so it imports only @temporalio/workflow, contracts (*.contract.ts) and types
// (eslint.config.js enforces it). src/ reaches a workflow through its contract only.
export { webhookDeliveryWorkflow } from './webhook-delivery.js';
export { chargeWorkflow } from './charge.js';
export { transferWorkflow } from './transfer.js';
export { medWorkflow } from './med.js';
export { medReturnsWorkflow } from './med-returns.js';
export { refundWorkflow } from './refund.js';
export { reconciliationWorkflow } from './reconciliation.js';
export { suspenseRefundWorkflow } from './suspense-refund.js';
export { recurrenceWorkflow } from './recurrence.js';
