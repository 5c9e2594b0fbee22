// Pix Automático (design/pix-automatico.md), from src/recurrences/metrics.ts and src/metrics/transactions.ts (the Prometheus test does not
// ask these panels for series: its traffic makes no recurrence):
//   pix_recurrences_active                   gauge, read from PostgreSQL at scrape time: recurrences active
//   pix_recurrence_cycles_total{outcome}     counter: cycles by outcome (approved, failed, cancelled, retried)
import { RowBuilder } from '@grafana/grafana-foundation-sdk/dashboard';
import { stat, timeseries, type Query } from './panels.js';

export const RECURRENCES_ROW = 'Recurrences (Pix Automático)';

export function recurrencePanels() {
  const cycles: Query = [
    'sum by (outcome) (increase(pix_recurrence_cycles_total{outcome=~"failed|retried"}[1h]))',
    '{{outcome}} in the last hour',
  ];
  return {
    row: new RowBuilder(RECURRENCES_ROW),
    panels: [
      stat({
        title: 'Active recurrences',
        description: 'Pix Automático authorizations active, whose cycles the engine charges on their days.',
        unit: 'short',
        queries: [['max(pix_recurrences_active)', 'active']],
        span: 8,
      }),
      timeseries({
        title: 'Recurrence cycles failed and retried',
        description:
          "Cycles whose charge failed, and cycles retried after a failure, over the last hour: a rise means payers' banks refuse.",
        unit: 'short',
        queries: [cycles],
        span: 16,
      }),
    ],
  };
}
