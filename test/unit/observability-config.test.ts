// The Prometheus, alert and Grafana files of docker-compose.yml (Docker cannot run here): they parse,
// Prometheus scrapes the engine's /metrics and loads the rules, every alert is complete, and every
// metric an alert or a panel reads is one the engine exports (its registry, or the Temporal SDK's).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import '../../src/charges/due-date/metrics.js';
import '../../src/recurrences/metrics.js';
import '../../src/refunds/metrics.js';
import '../../src/metrics/suspense.js';
import '../../src/metrics/transactions.js';
import { registry } from '../../src/metrics/registry.js';

const ROOT = join(import.meta.dirname, '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const yamlOf = (path: string) => parse(read(path));

const TEMPORAL_SERIES = [
  'temporal_workflow_task_execution_latency_bucket',
  'temporal_workflow_task_schedule_to_start_latency_bucket',
  'temporal_activity_schedule_to_start_latency_bucket',
  'temporal_sticky_cache_hit_total',
  'temporal_sticky_cache_miss_total',
];

/** The series an expression reads: pix_* and temporal_* names. */
const seriesOf = (expr: string) => [...expr.matchAll(/\b(pix_[a-z_]+|temporal_[a-z_]+)/g)].map((m) => m[1]!);

async function exportedSeries(): Promise<Set<string>> {
  const names = new Set<string>(TEMPORAL_SERIES);
  for (const metric of await registry.getMetricsAsJSON()) {
    const suffixes = String(metric.type) === 'histogram' ? ['_bucket', '_sum', '_count'] : [''];
    for (const suffix of suffixes) names.add(metric.name + suffix);
  }
  return names;
}

describe('docker/ observability files', () => {
  it('prometheus.yml scrapes the engine admin port /metrics and loads alerts.yml; compose mounts both', () => {
    const config = yamlOf('docker/prometheus.yml');
    expect(config.rule_files).toEqual(['/etc/prometheus/alerts.yml']);
    expect(config.scrape_configs).toContainEqual(
      expect.objectContaining({ job_name: 'pix-engine', metrics_path: '/metrics', static_configs: [{ targets: ['engine:3001'] }] }),
    );
    const compose = yamlOf('docker-compose.yml');
    expect(compose.services.prometheus.volumes).toEqual(
      expect.arrayContaining([
        './docker/prometheus.yml:/etc/prometheus/prometheus.yml:ro',
        './docker/alerts.yml:/etc/prometheus/alerts.yml:ro',
      ]),
    );
    expect(compose.services.grafana.volumes).toEqual(
      expect.arrayContaining([
        './docker/grafana/provisioning:/etc/grafana/provisioning:ro',
        './docker/grafana/dashboards:/var/lib/grafana/dashboards:ro',
      ]),
    );
    expect(yamlOf('docker/grafana/provisioning/dashboards/pix.yml').providers[0].options.path).toBe('/var/lib/grafana/dashboards');
    expect(yamlOf('docker/grafana/provisioning/datasources/prometheus.yml').datasources[0]).toMatchObject({
      uid: 'prometheus',
      url: 'http://prometheus:9090',
    });
  });

  it('alerts.yml: webhook failure rate, overdue MED, ledger check not ok, 5xx rate; each complete and on exported series', async () => {
    const rules = yamlOf('docker/alerts.yml').groups.flatMap((group: { rules: unknown[] }) => group.rules);
    expect(rules.map((rule: { alert: string }) => rule.alert)).toEqual(
      expect.arrayContaining(['PixWebhookFailureRate', 'PixMedOverdue', 'PixLedgerCheckFailed', 'PixHttp5xxRate']),
    );
    const exported = await exportedSeries();
    for (const rule of rules) {
      expect(rule).toMatchObject({
        alert: expect.any(String),
        expr: expect.any(String),
        labels: { severity: expect.stringMatching(/^(warning|critical)$/) },
      });
      expect(rule.annotations.summary, rule.alert).toBeTruthy();
      for (const series of seriesOf(rule.expr)) expect(exported, `${rule.alert} reads ${series}`).toContain(series);
    }
  });

  it('the dashboard is valid JSON on the provisioned datasource, and every panel reads exported series', async () => {
    const dashboard = JSON.parse(read('docker/grafana/dashboards/pix-engine.json'));
    expect(dashboard.uid).toBe('pix-engine');
    const exported = await exportedSeries();
    const exprs: string[] = [];
    for (const panel of dashboard.panels) {
      if (panel.type === 'row') continue;
      expect(panel.datasource.uid).toBe('prometheus');
      for (const target of panel.targets) exprs.push(target.expr);
    }
    for (const expr of exprs) for (const series of seriesOf(expr)) expect(exported, expr).toContain(series);
    const all = exprs.join('\n');
    for (const wanted of [
      'pix_transactions_total',
      'route="POST /v1/transactions"',
      'pix_webhook_delivery_seconds_bucket',
      'pix_webhook_attempts_total',
      'temporal_workflow_task_execution_latency_bucket',
      'pix_meds_open',
      'pix_reconciliation_items_open',
      'pix_suspense_balance_cents',
      'pix_refunds_total',
      'pix_due_date_charges_pending',
      'pix_recurrences_active',
      'pix_recurrence_cycles_total',
      'temporal_sticky_cache_hit_total',
      'ALERTS',
    ]) {
      expect(all).toContain(wanted);
    }
  });
});
