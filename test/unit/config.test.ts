import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('configuration', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      adminPort: 3001,
      adminHost: '127.0.0.1',
      adminToken: null,
      databaseUrl: 'postgres://localhost:5432/pix',
      temporalServer: null,
      temporalNamespace: 'default',
      temporalDevPort: 7233,
      temporalUiPort: 8233,
      temporalCliPath: null,
      temporalWorkflowBundle: null,
      temporalMaxCachedWorkflows: 250,
      chargeTtlSeconds: 900,
      webhookAllowInsecure: false,
      simulatorTransferDelayMs: 2000,
      logLevel: 'info',
    });
  });

  it('refuses values it cannot use, naming the variable', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: '70000' })).toThrow(/PORT/);
    expect(() => loadConfig({ WEBHOOK_ALLOW_INSECURE: 'yes' })).toThrow(/WEBHOOK_ALLOW_INSECURE/);
    expect(() => loadConfig({ SIMULATOR_TRANSFER_DELAY_MS: '-2' })).toThrow(/SIMULATOR_TRANSFER_DELAY_MS/);
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/);
    expect(() => loadConfig({ TEMPORAL_DEV_PORT: '7233x' })).toThrow(/TEMPORAL_DEV_PORT/);
    expect(loadConfig({ SIMULATOR_TRANSFER_DELAY_MS: '-1' }).simulatorTransferDelayMs).toBe(-1);
  });
});
