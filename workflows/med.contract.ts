// The MED workflow's contract: what the admin API starts it with and asks it. One workflow per MED,
// id `med:<med id>`.
import { defineUpdate } from '@temporalio/workflow';
import type { OpenMedInput } from '../src/meds/open.js';
import type { MedChangeResult } from '../src/meds/results.js';
import type { MedOutcome } from '../src/meds/row.js';

export interface MedWorkflowInput {
  open: OpenMedInput;
}

/** The decision, or the refusal to open. */
export type MedWorkflow = (input: MedWorkflowInput) => Promise<MedChangeResult>;
export const MED_WORKFLOW = 'medWorkflow';

export const medWorkflowId = (medId: string): string => `med:${medId}`;

/** Answers once the MED is open (or refused); the admin API starts the workflow with it. */
export const openedUpdate = defineUpdate<MedChangeResult, []>('opened');
export const decideUpdate = defineUpdate<MedChangeResult, [MedOutcome]>('decide');
