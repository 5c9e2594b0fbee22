// What the worker's data converter (src/temporal/codec/unencrypted-marker.ts) and the workflows'
// interceptor (payload-encryption.interceptors.ts) agree on. Every workflow start, signal and update the
// engine makes is encrypted by its client's codec; one that is not came from someone else who reached
// Temporal (the CLI, the Web UI, a plain SDK client) and is refused from REFUSE_UNENCRYPTED_INPUT on.

/** Metadata the worker's data converter adds to every payload it received unencrypted. */
export const UNENCRYPTED_METADATA = 'unencrypted';

/**
 * From this patch on, a run started with an input that is not encrypted under a known payload key fails
 * (PAYLOAD_NOT_ENCRYPTED) before anything else; a signal whose arguments are not encrypted is ignored, and
 * an update's is refused (PAYLOAD_NOT_ENCRYPTED). Runs started before encryption replay their clear input
 * and messages: the marker is recorded only where something was refused.
 */
export const REFUSE_UNENCRYPTED_INPUT = 'refuse-unencrypted-input';

/** The failure type of a refused run or update. */
export const PAYLOAD_NOT_ENCRYPTED = 'PayloadNotEncrypted';
