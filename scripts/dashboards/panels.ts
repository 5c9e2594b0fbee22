// The few panel shapes the engine's dashboards use, on Grafana's typed builders: every panel names a
// unit and says in one line what it shows; every query reads the provisioned Prometheus datasource.
import {
  VizLegendOptionsBuilder,
  ReduceDataOptionsBuilder,
  LegendDisplayMode,
  LegendPlacement,
} from '@grafana/grafana-foundation-sdk/common';
import { ThresholdsConfigBuilder, ThresholdsMode, type DataSourceRef } from '@grafana/grafana-foundation-sdk/dashboard';
import { DataqueryBuilder } from '@grafana/grafana-foundation-sdk/prometheus';
import { PanelBuilder as StatPanelBuilder } from '@grafana/grafana-foundation-sdk/stat';
import { PanelBuilder as TimeseriesPanelBuilder } from '@grafana/grafana-foundation-sdk/timeseries';

/** docker/grafana/provisioning/datasources/prometheus.yml */
export const PROMETHEUS: DataSourceRef = { type: 'prometheus', uid: 'prometheus' };

/** A PromQL expression and the legend of its series (Grafana's `{{label}}` templates). */
export type Query = [expr: string, legend: string];

export interface PanelSpec {
  title: string;
  description: string;
  /** A Grafana unit id: ops, s, h, percentunit, short, currencyBRL, bool_yes_no… */
  unit: string;
  queries: Query[];
  /** Grid columns out of 24 (default 12). */
  span?: number;
}

const targets = (queries: Query[], instant: boolean) =>
  queries.map(([expr, legend], i) => {
    const query = new DataqueryBuilder()
      .datasource(PROMETHEUS)
      .refId(String.fromCharCode(65 + i))
      .expr(expr)
      .legendFormat(legend);
    return instant ? query.instant() : query.range();
  });

export function timeseries(spec: PanelSpec): TimeseriesPanelBuilder {
  const panel = new TimeseriesPanelBuilder()
    .title(spec.title)
    .description(spec.description)
    .unit(spec.unit)
    .datasource(PROMETHEUS)
    .span(spec.span ?? 12)
    .height(8)
    .legend(new VizLegendOptionsBuilder().showLegend(true).displayMode(LegendDisplayMode.List).placement(LegendPlacement.Bottom).calcs([]));
  for (const target of targets(spec.queries, false)) panel.withTarget(target);
  return panel;
}

/** One number (the last value), red from `redFrom` on when it is given. */
export function stat(spec: PanelSpec & { redFrom?: number; redBelow?: number }): StatPanelBuilder {
  const steps =
    spec.redBelow !== undefined
      ? [
          { value: null, color: 'red' },
          { value: spec.redBelow, color: 'green' },
        ]
      : [{ value: null, color: 'green' }, ...(spec.redFrom !== undefined ? [{ value: spec.redFrom, color: 'red' }] : [])];
  const panel = new StatPanelBuilder()
    .title(spec.title)
    .description(spec.description)
    .unit(spec.unit)
    .datasource(PROMETHEUS)
    .span(spec.span ?? 6)
    .height(8)
    .reduceOptions(new ReduceDataOptionsBuilder().calcs(['lastNotNull']))
    .thresholds(new ThresholdsConfigBuilder().mode(ThresholdsMode.Absolute).steps(steps));
  for (const target of targets(spec.queries, true)) panel.withTarget(target);
  return panel;
}
