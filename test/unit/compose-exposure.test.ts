// docker-compose.yml (Docker cannot run here, so it is read as YAML): only the public API is published
// beyond this machine's loopback, the Web UI's write actions are off unless configured, and no secret has a
// default, so the stack never starts with a value anyone who read the repository knows.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { PUBLISHED_SECRETS } from '../../src/config/exposed-settings.js';

const text = readFileSync(join(import.meta.dirname, '..', '..', 'docker-compose.yml'), 'utf8');
const compose = parse(text) as { services: Record<string, { ports?: string[]; environment?: Record<string, string> }> };

/** The host address of a short-syntax port ("127.0.0.1:3001:3001"); none given means every interface. */
const hostOf = (port: string) => (port.split(':').length === 3 ? port.split(':')[0] : '0.0.0.0');

describe('docker-compose.yml exposure', () => {
  it('publishes Temporal, the Web UI, the admin port, Prometheus and Grafana on loopback only, PostgreSQL not at all', () => {
    expect(compose.services.postgres!.ports).toBeUndefined();
    for (const [name, service] of Object.entries(compose.services)) {
      for (const port of service.ports ?? []) {
        const isPublicApi = name === 'engine' && port.endsWith(':3000');
        if (!isPublicApi) expect(hostOf(port), `${name} ${port}`).toBe('127.0.0.1');
      }
    }
    expect(compose.services.engine!.ports).toEqual(expect.arrayContaining(['127.0.0.1:3001:3001']));
    expect(compose.services.temporal!.ports).toEqual(['127.0.0.1:7233:7233']);
  });

  it("turns the Web UI's write actions off unless configured", () => {
    expect(compose.services['temporal-ui']!.environment!.TEMPORAL_DISABLE_WRITE_ACTIONS).toBe('${TEMPORAL_DISABLE_WRITE_ACTIONS:-true}');
  });

  it('requires ADMIN_TOKEN, CODEC_UI_SECRET and the Grafana password instead of defaulting them, and prints no published value', () => {
    for (const variable of ['ADMIN_TOKEN', 'CODEC_UI_SECRET', 'GRAFANA_ADMIN_PASSWORD']) {
      const uses = [...text.matchAll(new RegExp(`\\$\\{${variable}(:?[-?=+])?`, 'g'))];
      expect(uses.length, variable).toBeGreaterThan(0);
      for (const use of uses) expect(use[1], `${variable} in ${use[0]}`).toBe(':?');
    }
    for (const published of PUBLISHED_SECRETS.filter((value) => value.length > 6)) expect(text).not.toContain(published);
  });
});
