// refusedWhileTaskFails: Temporal's refusal of an update while the workflow's task is failing, in the two
// shapes the SDK throws it (an update's ServiceError around the gRPC error, an update-with-start's gRPC
// error carrying the update's status in its message), and nothing else.
import { ServiceError } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { refusedWhileTaskFails } from '../../src/temporal/accept-with-start.js';

const REFUSAL = 'Unable to perform workflow execution update due to Workflow Task in failed state.';

/** A gRPC error as @grpc/grpc-js makes it (callErrorFromStatus). */
const grpcError = (code: number, message: string, details: string) => Object.assign(new Error(message), { code, details, metadata: {} });

describe('refusedWhileTaskFails', () => {
  it("knows an update's refusal, a ServiceError around the gRPC FAILED_PRECONDITION", () => {
    const cause = grpcError(9, `9 FAILED_PRECONDITION: ${REFUSAL}`, REFUSAL);
    expect(refusedWhileTaskFails(new ServiceError('Workflow Update failed', { cause }))).toBe(true);
  });

  it("knows an update-with-start's refusal, the gRPC error whose message the SDK replaced with the update's", () => {
    expect(refusedWhileTaskFails(grpcError(9, REFUSAL, 'Update-With-Start could not be executed.'))).toBe(true);
  });

  it('refuses any other failure: another FAILED_PRECONDITION, another code, a plain error', () => {
    expect(refusedWhileTaskFails(grpcError(9, '9 FAILED_PRECONDITION: namespace deprecated', 'namespace deprecated'))).toBe(false);
    expect(refusedWhileTaskFails(grpcError(14, `14 UNAVAILABLE: ${REFUSAL}`, REFUSAL))).toBe(false);
    expect(refusedWhileTaskFails(new Error(REFUSAL))).toBe(false);
    expect(refusedWhileTaskFails(new ServiceError('Workflow Update failed', { cause: new Error(REFUSAL) }))).toBe(false);
  });
});
