// The provisioned dashboard files and their text as `npm run dashboards` writes them.
import { pixEngineDashboard } from './pix-engine.js';

export const DASHBOARDS_DIR = 'docker/grafana/dashboards';

export function renderDashboards(): Map<string, string> {
  return new Map([[`${DASHBOARDS_DIR}/pix-engine.json`, `${JSON.stringify(pixEngineDashboard(), null, 2)}\n`]]);
}
