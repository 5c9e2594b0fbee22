// The bounds of the payer page's event streams (CHECKOUT_EVENT_STREAM*): their documented defaults, and
// values the engine cannot use refused at start (a lifetime past a day would overflow Node's timers).
import { expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';

it('has the documented defaults, and reads each variable', () => {
  expect(loadConfig({}).checkoutEventStreams).toEqual({ maxStreams: 10_000, lifetimeMs: 900_000 });
  expect(loadConfig({ CHECKOUT_EVENT_STREAMS_MAX: '0', CHECKOUT_EVENT_STREAM_LIFETIME_SECONDS: '86400' }).checkoutEventStreams).toEqual({
    maxStreams: 0,
    lifetimeMs: 86_400_000,
  });
});

it('refuses values it cannot use', () => {
  expect(() => loadConfig({ CHECKOUT_EVENT_STREAMS_MAX: '-1' })).toThrow(/CHECKOUT_EVENT_STREAMS_MAX must be an integer from 0/);
  expect(() => loadConfig({ CHECKOUT_EVENT_STREAM_LIFETIME_SECONDS: '0' })).toThrow(/CHECKOUT_EVENT_STREAM_LIFETIME_SECONDS/);
  expect(() => loadConfig({ CHECKOUT_EVENT_STREAM_LIFETIME_SECONDS: '86401' })).toThrow(/from 1 to 86400, got "86401"/);
});
