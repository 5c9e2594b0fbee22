// The provisioned Grafana dashboards are what scripts/dashboards generates (run `npm run dashboards`
// and commit when this fails), and every panel says what it shows: a unit and a one-line description.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderDashboards } from '../../scripts/dashboards/render.js';

describe('dashboards as code', () => {
  const rendered = renderDashboards();

  it.each([...rendered.keys()])('%s is the JSON its TypeScript generates', (path) => {
    expect(readFileSync(path, 'utf8'), 'run npm run dashboards and commit the result').toBe(rendered.get(path));
  });

  it.each([...rendered.keys()])('%s: every panel has a unit, a one-line description and Prometheus queries', (path) => {
    const dashboard = JSON.parse(rendered.get(path)!);
    const panels = dashboard.panels.filter((panel: any) => panel.type !== 'row');
    expect(panels.length).toBeGreaterThan(0);
    for (const panel of panels) {
      expect(panel.fieldConfig.defaults.unit, panel.title).toMatch(/^\w+$/);
      expect(panel.description, panel.title).toMatch(/^[^\n]{20,200}$/);
      expect(panel.targets.length, panel.title).toBeGreaterThan(0);
      for (const target of panel.targets) {
        expect(target.datasource, panel.title).toEqual({ type: 'prometheus', uid: 'prometheus' });
        expect(target.expr, panel.title).toMatch(/\S/);
      }
    }
    const ids = dashboard.panels.map((panel: any) => panel.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
