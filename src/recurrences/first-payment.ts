// Journey 3 of Pix Automático: the payer pays the recurrence's first payment and authorizes the
// recurrence with the same code, so the payment of that charge authorizes it.
import type { Deps } from '../runtime/deps.js';
import { recurrenceOfFirstPayment } from './repository.js';
import { changeRecurrence } from './workflow-client.js';

/** The recurrence whose first payment `transactionId` is, authorized (when it still waits for it). */
export async function authorizeByFirstPayment(deps: Deps, transactionId: string): Promise<void> {
  const recurrence = await recurrenceOfFirstPayment(deps.sql, transactionId);
  if (recurrence?.status === 'pending_authorization') await changeRecurrence(deps, recurrence, { change: 'authorize' });
}
