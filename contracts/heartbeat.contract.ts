/**
 * The heartbeat timeout every workflow gives its regular activities: each heartbeats while it runs
 * (activities/heartbeats.ts), so an activity whose worker died is retried on another worker within
 * this, instead of after its start-to-close timeout.
 */
export const HEARTBEAT_TIMEOUT = '2 seconds';
