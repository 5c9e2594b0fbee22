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

  it('refuses a weak ADMIN_TOKEN when other machines reach the admin port, and only warns on loopback, never echoing it', () => {
    const strong = 'k'.repeat(32);
    for (const token of ['test-admin-token', 'change-me', 'CHANGE-ME', 'zq', 'x'.repeat(31)]) {
      for (const host of ['0.0.0.0', '::', '192.168.0.10']) {
        let message = '';
        expect(() => {
          try {
            loadConfig({ ADMIN_TOKEN: token, ADMIN_HOST: host });
          } catch (err) {
            message = (err as Error).message;
            throw err;
          }
        }).toThrow(ConfigError);
        expect(message).toMatch(/^ADMIN_TOKEN .*ADMIN_HOST/);
        expect(message).not.toContain(token);
      }
      for (const host of [undefined, '127.0.0.1', '127.0.0.2', 'localhost', '::1']) {
        const config = loadConfig({ ADMIN_TOKEN: token, ADMIN_HOST: host });
        expect(config.adminToken).toBe(token);
        expect(config.warnings).toEqual([expect.stringMatching(/^ADMIN_TOKEN .*loopback/)]);
        expect(config.warnings[0]).not.toContain(token);
      }
    }
    expect(loadConfig({ ADMIN_TOKEN: strong, ADMIN_HOST: '0.0.0.0' })).toMatchObject({ adminToken: strong, warnings: [] });
    expect(loadConfig({ ADMIN_HOST: '0.0.0.0' })).toMatchObject({ adminToken: null, warnings: [] });
  });

  it('refuses a CODEC_UI_SECRET shorter than 32 characters or published in the repository, wherever the admin port is', () => {
    for (const secret of ['change-me-codec-ui-secret-0000', 'u'.repeat(31), 'has a space'.padEnd(40, 'x')]) {
      let message = '';
      try {
        loadConfig({ CODEC_UI_SECRET: secret });
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        message = (err as Error).message;
      }
      expect(message).toMatch(/^CODEC_UI_SECRET /);
      expect(message).not.toContain(secret);
    }
    expect(loadConfig({ CODEC_UI_SECRET: 'u'.repeat(32) }).codecUiSecret).toBe('u'.repeat(32));
  });
});
