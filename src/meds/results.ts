// What the MED activities answer: the MED after the change and the events to dispatch, or a refusal
// the admin API turns into its error envelope. Pure types: they travel through Temporal.
import type { Med } from './schema.js';

export interface MedRefusal {
  ok: false;
  status: 404 | 422;
  code: 'not_found' | 'operation_refused';
  message: string;
}

export type MedChangeResult = { ok: true; med: Med; eventIds: string[] } | MedRefusal;

export const medNotFound = (message = 'MED não encontrada'): MedRefusal => ({ ok: false, status: 404, code: 'not_found', message });
export const medRefused = (message: string): MedRefusal => ({ ok: false, status: 422, code: 'operation_refused', message });
