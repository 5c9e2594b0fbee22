// The contract of the workflow that checks a received Pix for MED devoluções its PSP made: started by
// the PSP webhook listener when a webhook names the Pix of an approved charge, with an id derived from
// the route and the Pix, so that duplicate webhooks arriving together join one run.

export interface MedReturnsInput {
  route: string;
  endToEndId: string;
}

/** How many devoluções the route reported (each recorded once as an accepted MED). */
export type MedReturnsWorkflow = (input: MedReturnsInput) => Promise<number>;
export const MED_RETURNS_WORKFLOW = 'medReturnsWorkflow';

export const medReturnsWorkflowId = (route: string, endToEndId: string): string => `med-returns:${route}:${endToEndId}`;
