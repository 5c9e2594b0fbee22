/**
 * The workflow task timeout of every workflow the engine starts. A task held by a worker that died is
 * given to another worker after this (Temporal's default is 10 s); the engine's tasks take
 * milliseconds, and a task running local activities longer than this is heartbeated by the SDK.
 */
export const WORKFLOW_TASK_TIMEOUT = '3 seconds';
