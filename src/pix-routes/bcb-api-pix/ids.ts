// The PSP's names for the engine's operations: a charge's `txid`, a transfer's `idEnvio` and a
// devolução's `id` (a refund's, or a reconciliation item's devolução from suspense) are the engine's id
// without its `_` (27 letters and digits: inside the standard's 26–35 for a txid and 1–35 for a
// devolução id, and Efí's 1–35 for an idEnvio). Deriving them lets a
// PSP webhook name the workflow to wake without a lookup.

const CHARGE_ID = /^txn_([0-9a-f]{24})$/;
const TRANSFER_ID = /^out_([0-9a-f]{24})$/;
/** A refund (rfd_), or a reconciliation item (rci_) whose money in suspense is returned. */
const REFUND_ID = /^(?:rfd|rci)_([0-9a-f]{24})$/;

function withoutUnderscore(id: string, shape: RegExp): string {
  const match = shape.exec(id);
  if (!match) throw new Error(`not an engine id: ${id}`);
  return `${id.slice(0, 3)}${match[1]}`;
}

export const txidOf = (transactionId: string): string => withoutUnderscore(transactionId, CHARGE_ID);
export const idEnvioOf = (transferId: string): string => withoutUnderscore(transferId, TRANSFER_ID);
export const devolucaoIdOf = (refundId: string): string => withoutUnderscore(refundId, REFUND_ID);

/** The charge a txid names, or null when the txid is not one the engine made. */
export function chargeIdOfTxid(txid: string): string | null {
  return /^txn[0-9a-f]{24}$/.test(txid) ? `txn_${txid.slice(3)}` : null;
}

/** The transfer an idEnvio names, or null when it is not one the engine made. */
export function transferIdOfIdEnvio(idEnvio: string): string | null {
  return /^out[0-9a-f]{24}$/.test(idEnvio) ? `out_${idEnvio.slice(3)}` : null;
}
