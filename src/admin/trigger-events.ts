// The events `pixctl trigger` can make happen (simulator-trigger.ts), apart so the CLI reads them
// without loading the engine.
export const TRIGGER_EVENTS = [
  'transaction.approved',
  'transaction.cancelled',
  'transaction.failed',
  'med.created',
  'refund.approved',
  'recurrence.updated',
] as const;
export type TriggerEvent = (typeof TRIGGER_EVENTS)[number];
