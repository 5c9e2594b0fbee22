// The listener bounds of the configuration (HTTP_*): their documented defaults, and a headers timeout
// longer than the request timeout refused at start (Node would throw it later, at the listener).
import { expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.js';

it('has the documented defaults, and reads each variable', () => {
  expect(loadConfig({}).listener).toEqual({
    idleTimeoutMs: 60_000,
    headersTimeoutMs: 20_000,
    requestTimeoutMs: 30_000,
    keepAliveTimeoutMs: 5000,
    maxConnectionsPerIp: 1024,
  });
  const env = {
    HTTP_IDLE_TIMEOUT_MS: '1000',
    HTTP_HEADERS_TIMEOUT_MS: '2000',
    HTTP_REQUEST_TIMEOUT_MS: '3000',
    HTTP_KEEP_ALIVE_TIMEOUT_MS: '4000',
    HTTP_MAX_CONNECTIONS_PER_IP: '5',
  };
  expect(loadConfig(env).listener).toEqual({
    idleTimeoutMs: 1000,
    headersTimeoutMs: 2000,
    requestTimeoutMs: 3000,
    keepAliveTimeoutMs: 4000,
    maxConnectionsPerIp: 5,
  });
  // A request timeout under the headers' default takes the headers timeout down with it.
  expect(loadConfig({ HTTP_REQUEST_TIMEOUT_MS: '5000' }).listener.headersTimeoutMs).toBe(5000);
});

it('refuses a headers timeout longer than the request timeout, and values it cannot use', () => {
  expect(() => loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '40000' })).toThrow(ConfigError);
  expect(() => loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '40000' })).toThrow(
    /HTTP_HEADERS_TIMEOUT_MS \(40000\) must not exceed HTTP_REQUEST_TIMEOUT_MS \(30000\)/,
  );
  expect(() => loadConfig({ HTTP_MAX_CONNECTIONS_PER_IP: '0' })).toThrow(/HTTP_MAX_CONNECTIONS_PER_IP/);
  expect(() => loadConfig({ HTTP_IDLE_TIMEOUT_MS: 'soon' })).toThrow(/HTTP_IDLE_TIMEOUT_MS/);
});
