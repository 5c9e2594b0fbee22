import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.js';

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
      reconcileAt: { hour: 4, minute: 0 },
      logLevel: 'info',
    });
  });

  it('reads RECONCILE_AT as a time of day, or off; refuses anything else, naming it', () => {
    expect(loadConfig({ RECONCILE_AT: '23:05' }).reconcileAt).toEqual({ hour: 23, minute: 5 });
    expect(loadConfig({ RECONCILE_AT: '00:00' }).reconcileAt).toEqual({ hour: 0, minute: 0 });
    expect(loadConfig({ RECONCILE_AT: 'off' }).reconcileAt).toBeNull();
    for (const text of ['24:00', '4:00', '04:60', '04:00:00', 'OFF', 'never']) {
      expect(() => loadConfig({ RECONCILE_AT: text })).toThrow(
        `RECONCILE_AT must be a time of day HH:MM (24 hours, America/Sao_Paulo) or off, got "${text}"`,
      );
    }
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

  it('words each refusal with the variable, its rule and the text given, read strictly', () => {
    const refusal = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (err) {
        expect(err).toBeInstanceOf(ConfigError);
        return (err as Error).message;
      }
      throw new Error('the environment was accepted');
    };
    expect(refusal({ PORT: '70000' })).toBe('PORT must be an integer from 0 to 65535, got "70000"');
    expect(refusal({ ADMIN_PORT: '1e6' })).toBe('ADMIN_PORT must be an integer from 0 to 65535, got "1e6"');
    expect(refusal({ CHARGE_TTL_SECONDS: '1.5' })).toBe('CHARGE_TTL_SECONDS must be an integer from 1 to 9007199254740991, got "1.5"');
    expect(refusal({ ACCEPT_WAIT_MS: 'true' })).toBe('ACCEPT_WAIT_MS must be an integer from 1 to 9007199254740991, got "true"');
    expect(refusal({ TRUST_PROXY: 'TRUE' })).toBe('TRUST_PROXY must be true or false, got "TRUE"');
    expect(refusal({ LOG_LEVEL: 'loud' })).toBe('LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent');
    expect(refusal({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toBe(
      'OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL, got "collector:4318"',
    );
    expect(refusal({ CODEC_UI_SECRET: 'has a space'.padEnd(40, 'x') })).toBe(
      "CODEC_UI_SECRET must be letters, digits, '_' or '-' only (at least 32)",
    );
    expect(refusal({ CODEC_UI_SECRET: 'u'.repeat(31) })).toBe(
      "CODEC_UI_SECRET is shorter than 32 characters: give a random one of at least 32 letters, digits, '_' or '-' (openssl rand -hex 32)",
    );
    expect(refusal({ CODEC_CORS_ORIGINS: 'http://localhost:8233, http://ui.example/path' })).toBe(
      'CODEC_CORS_ORIGINS must list origins like http://localhost:8233 (scheme, host and port only), got "http://ui.example/path"',
    );
  });

  it('reads an empty variable as unset and a number as Number does', () => {
    expect(loadConfig({ PORT: '', TRUST_PROXY: '', LOG_LEVEL: '' })).toMatchObject({ port: 3000, trustProxy: false, logLevel: 'info' });
    expect(loadConfig({ PORT: '1e3', TRUST_PROXY: '1', WEBHOOK_ALLOW_INSECURE: '0' })).toMatchObject({
      port: 1000,
      trustProxy: true,
      webhookAllowInsecure: false,
    });
    expect(loadConfig({}).metricsPort).toBeNull();
    expect(loadConfig({ METRICS_PORT: '9100' }).metricsPort).toBe(9100);
  });

  it('takes the codec CORS origins as a comma-separated list, by default the Temporal UI on this machine', () => {
    expect(loadConfig({ TEMPORAL_UI_PORT: '9000' }).codecCorsOrigins).toEqual(['http://localhost:9000', 'http://127.0.0.1:9000']);
    expect(loadConfig({ CODEC_CORS_ORIGINS: ' https://ui.example , http://10.0.0.5:8233,' }).codecCorsOrigins).toEqual([
      'https://ui.example',
      'http://10.0.0.5:8233',
    ]);
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
