// What a PSP webhook names, and the engine's answer to each name. The body is only a hint: nothing
// here moves money. A txid of an engine charge signals its workflow (which asks the PSP for the cob),
// an Efí `gnExtras.idEnvio` of an engine transfer signals its workflow (which asks for the envio), and
// the endToEndId of the Pix that paid an approved charge starts the check of its MED devoluções,
// under an id derived from the route and the Pix, so that duplicates join one run. Whatever a body
// names costs a bounded amount: at most MAX_HINTS_PER_BODY names, two queries, signals coalesced per
// transaction (coalescer.ts), and one log line (app.ts) with the counts returned here.
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { SignalDefinition } from '@temporalio/common';
import type { Deps } from '../runtime/deps.js';
import { chargeIdOfTxid, transferIdOfIdEnvio } from '../processors/bcb-api-pix/ids.js';
import { WORKFLOW_TASK_TIMEOUT } from '../temporal/timeouts.js';
import { chargeWorkflowId, paymentNotifiedSignal } from '../../workflows/charge.contract.js';
import { MED_RETURNS_WORKFLOW, medReturnsWorkflowId, type MedReturnsWorkflow } from '../../workflows/med-returns.contract.js';
import { networkAnsweredSignal, transferWorkflowId } from '../../workflows/transfer.contract.js';
import type { SignalCoalescer } from './coalescer.js';

/** Names of one body acted on; the rest are counted as `ignored` (a PSP sends a few Pix per call). */
export const MAX_HINTS_PER_BODY = 100;

export interface PixHints {
  chargeIds: string[];
  transferIds: string[];
  endToEndIds: string[];
  /** Distinct names past MAX_HINTS_PER_BODY. */
  ignored: number;
}

/** What a body's hints came to, for its log line. */
export interface HintsOutcome {
  /** Charges and transfers named that the engine does not have. */
  unknown: number;
  signalled: number;
  /** Hints for a transaction signalled less than PSP_WEBHOOK_HINT_INTERVAL_MS ago: one signal at the interval's end. */
  coalesced: number;
  undelivered: number;
  /** The first refusal of a signal, if any (the workflow ended, Temporal unreachable). */
  undeliveredError: unknown;
  medChecks: number;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.length > 0 && value.length <= 64 ? value : null);

/** The engine's operations and the received Pix a webhook body names (the standard's `{"pix": [...]}`), each once. */
export function pixHints(body: unknown): PixHints {
  const entries = (body as { pix?: unknown } | null)?.pix;
  const charges = new Set<string>();
  const transfers = new Set<string>();
  const endToEndIds = new Set<string>();
  let ignored = 0;
  const add = (names: Set<string>, name: string) => {
    if (names.has(name)) return;
    if (charges.size + transfers.size + endToEndIds.size < MAX_HINTS_PER_BODY) names.add(name);
    else ignored += 1;
  };
  for (const entry of Array.isArray(entries) ? entries : []) {
    if (typeof entry !== 'object' || entry === null) continue;
    const { txid, endToEndId, gnExtras } = entry as { txid?: unknown; endToEndId?: unknown; gnExtras?: { idEnvio?: unknown } };
    const chargeId = text(txid) && chargeIdOfTxid(text(txid)!);
    const transferId = text(gnExtras?.idEnvio) && transferIdOfIdEnvio(text(gnExtras?.idEnvio)!);
    if (chargeId) add(charges, chargeId);
    if (transferId) add(transfers, transferId);
    if (text(endToEndId) && !transferId) add(endToEndIds, text(endToEndId)!);
  }
  return { chargeIds: [...charges], transferIds: [...transfers], endToEndIds: [...endToEndIds], ignored };
}

interface Addressee {
  signal: SignalDefinition<[]>;
  workflowId(accountId: string, key: string): string;
}

const ADDRESSEES: Record<'payment' | 'withdrawal', Addressee> = {
  payment: { signal: paymentNotifiedSignal, workflowId: chargeWorkflowId },
  withdrawal: { signal: networkAnsweredSignal, workflowId: transferWorkflowId },
};

/** Wakes the workflows the hints name; each confirms with the route before anything changes. */
export async function actOnHints(deps: Deps, route: string, hints: PixHints, coalescer: SignalCoalescer): Promise<HintsOutcome> {
  const [signals, medChecks] = await Promise.all([signalTransactions(deps, hints, coalescer), checkMedReturns(deps, route, hints.endToEndIds)]);
  return { ...signals, medChecks };
}

async function signalTransactions(deps: Deps, hints: PixHints, coalescer: SignalCoalescer): Promise<Omit<HintsOutcome, 'medChecks'>> {
  const outcome = { unknown: 0, signalled: 0, coalesced: 0, undelivered: 0, undeliveredError: undefined as unknown };
  const named = [...hints.chargeIds.map((id) => ({ id, type: 'payment' as const })), ...hints.transferIds.map((id) => ({ id, type: 'withdrawal' as const }))];
  if (named.length === 0) return outcome;
  const rows = await deps.sql<{ id: string; type: string; account_id: string; external_id: string }[]>`
    select id, type, account_id, external_id from transactions where id = any(${named.map((n) => n.id)}::text[])`;
  const sending: Promise<void>[] = [];
  for (const { id, type } of named) {
    const row = rows.find((r) => r.id === id && r.type === type);
    if (!row) {
      outcome.unknown += 1;
      continue;
    }
    const { signal, workflowId } = ADDRESSEES[type];
    const send = () => deps.temporal.workflow.getHandle(workflowId(row.account_id, row.external_id)).signal(signal);
    const submitted = coalescer.submit(id, send);
    if (submitted.outcome === 'coalesced') {
      outcome.coalesced += 1;
      continue;
    }
    sending.push(
      submitted.sending!.then(
        () => void (outcome.signalled += 1),
        (err: unknown) => {
          outcome.undelivered += 1;
          outcome.undeliveredError ??= err;
        },
      ),
    );
  }
  await Promise.all(sending);
  return outcome;
}

/** Starts the MED check of each received Pix that paid an approved charge of `route`; answers how many. */
async function checkMedReturns(deps: Deps, route: string, endToEndIds: string[]): Promise<number> {
  if (endToEndIds.length === 0) return 0;
  const paid = await deps.sql<{ end_to_end_id: string }[]>`
    select end_to_end_id from transactions
    where end_to_end_id = any(${endToEndIds}::text[]) and acquirer = ${route} and type = 'payment' and status in ('approved', 'refunded')`;
  await Promise.all(paid.map(({ end_to_end_id: endToEndId }) => startMedReturns(deps, route, endToEndId)));
  return paid.length;
}

async function startMedReturns(deps: Deps, route: string, endToEndId: string): Promise<void> {
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
