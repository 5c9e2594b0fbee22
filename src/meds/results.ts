// The refusals the MED activities answer (src/meds/contract.ts), in the core's terms: the admin
// API gives each its HTTP status.
import type { MedRefusal } from './contract.js';

export const medNotFound = (message = 'MED não encontrada'): MedRefusal => ({ ok: false, code: 'not_found', message });
export const medRefused = (message: string): MedRefusal => ({ ok: false, code: 'operation_refused', message });
