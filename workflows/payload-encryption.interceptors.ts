// Bundled with the workflows, before every other interceptor (src/temporal/bundle.ts): a workflow acts
// only on a start input and signal or update arguments encrypted under a known payload key. The worker's
// data converter marks each payload that arrived in clear (payload-encryption.contract.ts); the workflow
// sees values only, so the activation step, which still sees the payloads, tells the handlers through a
// header of the start, signal or update that it set or cleared itself. From REFUSE_UNENCRYPTED_INPUT on:
// - a start whose input is missing or in clear fails the run at once, before any activity;
// - a signal with arguments in clear is ignored (logged), the run goes on;
// - an update with arguments in clear is refused (its failure says why), the run goes on.
// A run started before encryption replays its clear input and messages without the marker.
// Messages without arguments (paymentNotified, networkAnswered, recurrenceNotified, cycleCancelled, refresh,
// opened) carry nothing to trust: the workflow confirms each one with the route or PostgreSQL, or only
// answers its state.
import { ApplicationFailure, log, patched, type Headers, type WorkflowInterceptors } from '@temporalio/workflow';
import { PAYLOAD_NOT_ENCRYPTED, REFUSE_UNENCRYPTED_INPUT, UNENCRYPTED_METADATA } from '../contracts/payload-encryption.contract.js';

const UNENCRYPTED_HEADER = 'engine-arguments-unencrypted';

type Payloads = Array<{ metadata?: Record<string, Uint8Array> | null }> | null | undefined;

const inClear = (payloads: Payloads): boolean => (payloads ?? []).some((payload) => payload.metadata?.[UNENCRYPTED_METADATA] != null);

function flagged(headers: Headers | null | undefined, unencrypted: boolean): Headers {
  const { [UNENCRYPTED_HEADER]: _sent, ...rest } = headers ?? {};
  return unencrypted ? { ...rest, [UNENCRYPTED_HEADER]: {} } : rest;
}

/** True when the message's arguments were not encrypted and this run refuses such messages. */
const refused = (headers: Headers): boolean => UNENCRYPTED_HEADER in headers && patched(REFUSE_UNENCRYPTED_INPUT);

const NOT_ENCRYPTED = 'not encrypted with a known payload key (every start, signal and update of the engine is): refused';

export const interceptors = (): WorkflowInterceptors => ({
  internals: [
    {
      activate(input, next) {
        for (const job of input.activation.jobs ?? []) {
          const start = job.initializeWorkflow;
          if (start) start.headers = flagged(start.headers, !start.arguments?.length || inClear(start.arguments));
          if (job.signalWorkflow) job.signalWorkflow.headers = flagged(job.signalWorkflow.headers, inClear(job.signalWorkflow.input));
          if (job.doUpdate) job.doUpdate.headers = flagged(job.doUpdate.headers, inClear(job.doUpdate.input));
        }
        return next(input);
      },
    },
  ],
  inbound: [
    {
      // Each one passes straight to `next` otherwise: no await added to a run's own steps.
      execute(input, next) {
        if (!refused(input.headers)) return next(input);
        log.error('alert: workflow start refused: its input is not encrypted with a known payload key', { alert: 'payload_not_encrypted' });
        return Promise.reject(ApplicationFailure.nonRetryable(`workflow input ${NOT_ENCRYPTED}, nothing was done`, PAYLOAD_NOT_ENCRYPTED));
      },
      handleSignal(input, next) {
        if (!refused(input.headers)) return next(input);
        log.error(`alert: signal ${input.signalName} ignored: its arguments are not encrypted with a known payload key`, {
          alert: 'payload_not_encrypted',
          signal: input.signalName,
        });
        return Promise.resolve();
      },
      handleUpdate(input, next) {
        if (!refused(input.headers)) return next(input);
        log.error(`alert: update ${input.name} refused: its arguments are not encrypted with a known payload key`, {
          alert: 'payload_not_encrypted',
          update: input.name,
        });
        return Promise.reject(ApplicationFailure.nonRetryable(`update ${input.name}: arguments ${NOT_ENCRYPTED}`, PAYLOAD_NOT_ENCRYPTED));
      },
    },
  ],
});
