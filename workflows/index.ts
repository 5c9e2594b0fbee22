// Every workflow the worker runs. Workflow code is deterministic and does no I/O: it is bundled for
// Temporal's sandbox, so it imports only @temporalio/workflow, contracts (*.contract.ts) and types
// (eslint.config.js enforces it). src/ reaches a workflow through its contract only.
export { webhookDeliveryWorkflow } from './webhook-delivery.js';
export { chargeWorkflow } from '../src/charges/workflow.js';
export { transferWorkflow } from '../src/transfers/workflow.js';
export { medWorkflow } from '../src/meds/workflow.js';
export { medReturnsWorkflow } from '../src/meds/returns.workflow.js';
export { refundWorkflow } from '../src/refunds/workflow.js';
export { reconciliationWorkflow } from '../src/reconciliation/workflow.js';
export { suspenseRefundWorkflow } from '../src/reconciliation/suspense-refund.workflow.js';
export { recurrenceWorkflow } from '../src/recurrences/workflow.js';
