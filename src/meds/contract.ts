// The MED workflow's contract: what the admin API starts it with and asks it, and what it and its
// activities answer. One workflow per MED, id `med:<med id>`.
import { defineUpdate } from '@temporalio/workflow';

export interface OpenMedInput {
  medId: string;
  transactionId: string;
  /** Centavos disputed; null disputes everything not yet returned. */
  amountCents: number | null;
  reason: string;
  deadlineSeconds: number;
}

export interface MedWorkflowInput {
  open: OpenMedInput;
}

export type MedOutcome = 'accepted' | 'rejected';

/**
 * Why a MED was not opened or decided, in the core's terms: the admin API answers `not_found` 404 and
 * `operation_refused` 422. Each code has one status, so a `status` some recorded results carry is not read.
 */
export interface MedRefusal {
  ok: false;
  code: 'not_found' | 'operation_refused';
  message: string;
}

/**
 * A MED opened or decided, with the events to dispatch; or the refusal. The admin API answers the MED
 * from the read model (a `med` some recorded results carry is not read).
 */
export type MedChangeResult = { ok: true; eventIds: string[] } | MedRefusal;

/** The decision, or the refusal to open. */
export type MedWorkflow = (input: MedWorkflowInput) => Promise<MedChangeResult>;
export const MED_WORKFLOW = 'medWorkflow';

export const medWorkflowId = (medId: string): string => `med:${medId}`;

/** Answers once the MED is open (or refused); the admin API starts the workflow with it. */
export const openedUpdate = defineUpdate<MedChangeResult, []>('opened');
export const decideUpdate = defineUpdate<MedChangeResult, [MedOutcome]>('decide');
