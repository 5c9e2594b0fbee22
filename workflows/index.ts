// Every workflow the worker runs. Workflow code is deterministic and does no I/O: it is bundled for
// Temporal's sandbox, so it imports only @temporalio/workflow, its siblings and pure modules.
export {};
export * from './webhook-delivery.js';
export * from './charge.js';
export * from './transfer.js';
export * from './med.js';
