// Names of reconciliation: a run's id (rcn_), drawn at random or from its workflow (a scheduled run),
// and an item's id (rci_), derived from the route and the PSP record it is about, so that any run over
// the same record finds the same item.
import { createHash, randomBytes } from 'node:crypto';

const hex24 = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 24);

export const newRunId = (): string => `rcn_${randomBytes(12).toString('hex')}`;

/** The run a scheduled workflow makes: one per workflow id, however often its first step is retried. */
export const runIdOfWorkflow = (workflowId: string): string => `rcn_${hex24(`reconciliation\n${workflowId}`)}`;

export const itemIdOf = (route: string, recordKey: string): string => `rci_${hex24(`${route}\n${recordKey}`)}`;

/** The key of each PSP record an item can be about, by the PSP's own ids; an engine operation the PSP does not list, by the engine's. */
export const recordKeys = {
  received: (endToEndId: string) => `pix:${endToEndId}`,
  sent: (idEnvio: string) => `envio:${idEnvio}`,
  refund: (devolucaoId: string) => `devolucao:${devolucaoId}`,
  missing: (engineId: string) => `missing:${engineId}`,
};

const OWN_DEVOLUCAO = /^(rfd|rci)([0-9a-f]{24})$/;

/**
 * The engine's refund (rfd_) or item whose devolução from suspense (rci_) a devolução id names (the
 * id without its `_`, as the route is given it), or null for one the engine did not ask for.
 */
export function engineIdOfDevolucao(devolucaoId: string): string | null {
  const match = OWN_DEVOLUCAO.exec(devolucaoId);
  return match ? `${match[1]}_${match[2]}` : null;
}

/** The id a route is given for the engine's devolução `engineId` (rfd_… or rci_…): the id without its `_`. */
export const devolucaoIdOf = (engineId: string): string => engineId.replace('_', '');
