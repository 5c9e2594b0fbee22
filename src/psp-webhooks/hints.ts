// What a PSP webhook names, and the engine's answer to each name. The body is only a hint: nothing
// here moves money. A txid of an engine charge signals its workflow (which asks the PSP for the cob),
// an Efí `gnExtras.idEnvio` of an engine transfer signals its workflow (which asks for the envio), and
// the endToEndId of the Pix that paid an approved charge starts the check of its MED devoluções,
// under an id derived from the route and the Pix, so that duplicates join one run.
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { notifyChargePaid } from '../charges/workflow-client.js';
import type { Deps } from '../deps.js';
import { chargeOfEndToEndId } from '../meds/route-returns.js';
import { chargeIdOfTxid, transferIdOfIdEnvio } from '../processors/bcb-api-pix/ids.js';
import { WORKFLOW_TASK_TIMEOUT } from '../temporal/timeouts.js';
import { notifyTransferAnswered } from '../transfers/workflow-client.js';
import { MED_RETURNS_WORKFLOW, medReturnsWorkflowId, type MedReturnsWorkflow } from '../../workflows/med-returns.contract.js';

export interface PixHints {
  chargeIds: string[];
  transferIds: string[];
  endToEndIds: string[];
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.length > 0 && value.length <= 64 ? value : null);

/** The engine's operations and the received Pix a webhook body names (the standard's `{"pix": [...]}`), each once. */
export function pixHints(body: unknown): PixHints {
  const entries = (body as { pix?: unknown } | null)?.pix;
  const charges = new Set<string>();
  const transfers = new Set<string>();
  const endToEndIds = new Set<string>();
  for (const entry of Array.isArray(entries) ? entries : []) {
    if (typeof entry !== 'object' || entry === null) continue;
    const { txid, endToEndId, gnExtras } = entry as { txid?: unknown; endToEndId?: unknown; gnExtras?: { idEnvio?: unknown } };
    const chargeId = text(txid) && chargeIdOfTxid(text(txid)!);
    const transferId = text(gnExtras?.idEnvio) && transferIdOfIdEnvio(text(gnExtras?.idEnvio)!);
    if (chargeId) charges.add(chargeId);
    if (transferId) transfers.add(transferId);
    if (text(endToEndId) && !transferId) endToEndIds.add(text(endToEndId)!);
  }
  return { chargeIds: [...charges], transferIds: [...transfers], endToEndIds: [...endToEndIds] };
}

/** Wakes the workflows the hints name; each confirms with the route before anything changes. */
export async function actOnHints(deps: Deps, route: string, hints: PixHints): Promise<void> {
  await Promise.all([
    ...hints.chargeIds.map((id) => notifyChargePaid(deps, id)),
    ...hints.transferIds.map((id) => notifyTransferAnswered(deps, id)),
    ...hints.endToEndIds.map((endToEndId) => checkMedReturns(deps, route, endToEndId)),
  ]);
}

async function checkMedReturns(deps: Deps, route: string, endToEndId: string): Promise<void> {
  if (!(await chargeOfEndToEndId(deps.sql, route, endToEndId))) return;
  try {
    await deps.temporal.workflow.start<MedReturnsWorkflow>(MED_RETURNS_WORKFLOW, {
      workflowId: medReturnsWorkflowId(route, endToEndId),
      taskQueue: deps.config.temporalTaskQueue,
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowTaskTimeout: WORKFLOW_TASK_TIMEOUT,
      args: [{ route, endToEndId }],
    });
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return;
    throw err;
  }
}
