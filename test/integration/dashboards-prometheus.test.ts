// The dashboard and the alert rules against a real Prometheus scraping a real engine: Debian's
// prometheus with docker-compose's prometheus.yml and alerts.yml (the scrape target rewritten to this
// engine), a paid charge, a transfer, a refund, a due-date charge and a reconciliation run holding an
// unmatched Pix in suspense, then every panel's query and every
// alert rule evaluated through the Prometheus HTTP API. promtool checks the rules and runs their unit
// tests (docker/alerts.test.yml, docker/alerts-hours.test.yml).
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROWS_WITH_DATA } from '../../scripts/dashboards/pix-engine.js';
import { renderDashboards } from '../../scripts/dashboards/render.js';
import { addDays, saoPauloDate } from '../../contracts/calendar.js';
import { chargeBody, createCharge, newKey, payCharge, postCharge, waitForStatus } from '../helpers/charges.js';
import { eventually } from '../helpers/eventually.js';
import { CPF, createMerchant } from '../helpers/fixtures.js';
import { liveStack } from '../helpers/live-stack.js';
import { startPrometheus, type PrometheusServer } from '../helpers/prometheus-server.js';
import { admin, ADMIN_TOKEN, http } from '../helpers/stack.js';
import { completeTransfer, cpfKeyBody, postTransfer } from '../helpers/transfers.js';
import { startReceiver } from '../helpers/webhook-receiver.js';

const run = promisify(execFile);
const RULE_TESTS = ['docker/alerts.test.yml', 'docker/alerts-hours.test.yml'];

/** What Grafana puts in place of its variables; Prometheus knows none of them. */
const GRAFANA_VARIABLES: Record<string, string> = { $__rate_interval: '1m' };

interface PanelQuery {
  row: string;
  panel: string;
  expr: string;
  instant: boolean;
}

/** Every query of every provisioned dashboard, with the row its panel sits in (rows are not collapsed). */
function panelQueries(): PanelQuery[] {
  const queries: PanelQuery[] = [];
  for (const text of renderDashboards().values()) {
    let row = '';
    for (const panel of JSON.parse(text).panels) {
      if (panel.type === 'row') row = panel.title;
      for (const target of panel.targets ?? []) {
        let expr: string = target.expr;
        for (const [variable, value] of Object.entries(GRAFANA_VARIABLES)) expr = expr.replaceAll(variable, value);
        expect(expr, panel.title).not.toContain('$');
        queries.push({ row, panel: panel.title, expr, instant: target.instant === true });
      }
    }
  }
  return queries;
}

const alertRules = (): { alert: string; expr: string }[] =>
  parse(readFileSync('docker/alerts.yml', 'utf8')).groups.flatMap((group: { rules: { alert: string; expr: string }[] }) => group.rules);

describe('the dashboard and the alert rules on a real Prometheus', () => {
  const live = liveStack({ env: { SIMULATOR_TRANSFER_DELAY_MS: '-1' } });
  let prometheus: PrometheusServer;

  beforeAll(async () => {
    prometheus = await startPrometheus(new URL(live.stack.adminUrl).host);
  });
  afterAll(async () => {
    await prometheus?.stop();
  });

  it('promtool accepts the rules and their unit tests pass (each alert fires when it should, silent when it should not)', async () => {
    const checked = await run('promtool', ['check', 'rules', 'docker/alerts.yml']);
    expect(checked.stdout).toContain(`SUCCESS: ${alertRules().length} rules found`);
    // promtool exits non-zero (run rejects) when a test fails.
    await run('promtool', ['test', 'rules', ...RULE_TESTS]);
    const tests = RULE_TESTS.flatMap(
      (file) => parse(readFileSync(file, 'utf8')).tests as { alert_rule_test: { alertname: string; exp_alerts: unknown[] }[] }[],
    );
    const cases = tests.flatMap((test) => test.alert_rule_test);
    for (const { alert } of alertRules()) {
      expect(
        cases.some((c) => c.alertname === alert && c.exp_alerts.length > 0),
        `${alert} fires in a test`,
      ).toBe(true);
      expect(
        cases.some((c) => c.alertname === alert && c.exp_alerts.length === 0),
        `${alert} silent in a test`,
      ).toBe(true);
    }
  });

  it('evaluates every panel query and every alert rule after a paid charge, a transfer, a refund, a due-date charge and a reconciliation; traffic, money, the books and due-date charges show data', async () => {
    const testStarted = Date.now();
    const receiver = await startReceiver();
    try {
      const { client } = await createMerchant(live.stack);
      const charge = await createCharge(client, { amount: 100, webhookUrl: receiver.url });
      expect((await payCharge(live.stack, charge.id)).status).toBe(200);
      await waitForStatus(client, charge.id, 'approved');
      await eventually(() => receiver.received.length > 0, 20_000);

      const transfer = await postTransfer(client, cpfKeyBody({ amount: 10 }));
      expect(transfer.status, transfer.text).toBe(201);
      expect((await completeTransfer(live.stack, transfer.body.data.id, 'approved')).status).toBe(200);
      await waitForStatus(client, transfer.body.data.id, 'approved');

      const refund = await http('POST', `${live.stack.adminUrl}/transactions/${charge.id}/refunds`, {
        body: { amount: 5, reason: 'Pedido cancelado' },
        token: ADMIN_TOKEN,
        headers: { 'idempotency-key': newKey('r') },
      });
      expect(refund.status, refund.text).toBe(201);
      const settled = await admin(live.stack, 'POST', `/simulator/refunds/${refund.body.data.id}/complete`, { outcome: 'approved' });
      expect(settled.status, settled.text).toBe(200);

      const dueDate = await postCharge(client, chargeBody({ amount: 300, dueDate: addDays(saoPauloDate(new Date()), 10) }));
      expect(dueDate.status, dueDate.text).toBe(201);

      // A Pix no charge asked for: the reconciliation run holds it in the route's suspense and opens an item.
      const unmatched = await admin(live.stack, 'POST', '/simulator/pix', {
        amount: 7,
        payer: { name: 'Beltrano Souza', document: CPF.valid },
      });
      expect(unmatched.status, unmatched.text).toBe(201);
      const window = { from: new Date(testStarted - 60_000).toISOString(), to: new Date(Date.now() + 60_000).toISOString() };
      const run = await admin(live.stack, 'POST', '/reconciliations', { route: 'simulator', ...window });
      expect(run.status, run.text).toBe(202);
      await eventually(
        async () => (await admin(live.stack, 'GET', `/reconciliations/${run.body.data.id}`)).body.data.status === 'completed',
        30_000,
        200,
      );

      expect((await admin(live.stack, 'GET', '/ledger/check')).body.data.ok).toBe(true);
    } finally {
      await receiver.close();
    }

    const query = async ({ expr, instant }: PanelQuery): Promise<unknown[]> => {
      const end = Date.now() / 1000;
      const data = instant
        ? await prometheus.api('query', { query: expr, time: String(end) })
        : await prometheus.api('query_range', { query: expr, start: String(end - 60), end: String(end), step: '1' });
      return data.result;
    };
    const queries = panelQueries();
    const withData = queries.filter((q) => ROWS_WITH_DATA.includes(q.row));
    expect(new Set(withData.map((q) => q.row))).toEqual(new Set(ROWS_WITH_DATA));
    // Scraped every second: the refund's approval and the ledger check reach Prometheus within seconds.
    const scraped = async (expr: string) => (await prometheus.api('query', { query: expr })).result.length > 0;
    await eventually(
      async () => (await scraped('pix_refunds_total{status="approved"}')) && scraped('pix_ledger_check_ok == 1'),
      30_000,
      200,
    );
    const withoutData = async (list: PanelQuery[]) => {
      const results = await Promise.all(list.map(query)); // throws on a query Prometheus cannot parse or evaluate
      return list.filter((_, i) => results[i]!.length === 0).map((q) => `${q.row} / ${q.panel}: ${q.expr}`);
    };
    const deadline = Date.now() + 30_000;
    while ((await withoutData(withData)).length > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await withoutData(withData)).toEqual([]);
    const empty = await withoutData(queries);
    for (const rule of alertRules()) await prometheus.api('query', { query: rule.expr });

    // Prometheus itself evaluated every rule of the file without error.
    const rules = await eventually(async () => {
      const groups = (await prometheus.api('rules')).groups as { rules: { name: string; health: string; lastError?: string }[] }[];
      const all = groups.flatMap((group) => group.rules);
      return all.length === alertRules().length && all.every((rule) => rule.health !== 'unknown') ? all : undefined;
    }, 10_000);
    expect(rules.filter((rule) => rule.health !== 'ok')).toEqual([]);
    expect((await prometheus.api('query', { query: 'up{job="pix-engine"}' })).result).toMatchObject([{ value: [expect.anything(), '1'] }]);

    console.log(
      `dashboard: ${queries.length} queries evaluated (${withData.length} with data required), ${rules.length} alert rules; no data: ${empty.join(' | ') || 'none'}`,
    );
  });
});
