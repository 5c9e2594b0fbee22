// npm run dashboards: writes the Grafana dashboards docker-compose.yml provisions from their TypeScript
// (scripts/dashboards). Commit the result: test/unit/dashboards.test.ts fails when it differs.
import { writeFileSync } from 'node:fs';
import { renderDashboards } from './dashboards/render.js';

for (const [path, text] of renderDashboards()) {
  writeFileSync(path, text);
  console.log(`wrote ${path}`);
}
