// What the engine takes of a kind of operation (a charge, a transfer, a refund…): each kind's folder
// exports one in its kind.ts, and src/kinds/index.ts lists them (KINDS). The kinds are typed at that list,
// not in their own files: a kind's folder imports nothing of src/kinds, which imports it. A kind's workflow
// code is listed in workflows/index.ts instead: the workflow bundle cannot load a kind.ts, which loads the
// kind's routes and activities.
import type { CommandGroup } from '../cli/command.js';
import type { ScrapedGauges } from '../metrics/scraped.js';
import type { AdminRoute } from '../routing/operation.js';
import type { RouteSpec } from '../routing/public-route.js';
import type { Deps } from '../runtime/deps.js';

export interface OperationKind {
  /** The kind, in the singular. */
  name: string;
  /** Its routes of the public API under /v1 (src/api/routes/index.ts), hence of its OpenAPI document and MCP tools. */
  routes: RouteSpec[];
  /** Its routes of the admin API, the simulator's included (src/admin/routes/index.ts), hence of /admin/openapi.json. */
  adminRoutes: AdminRoute[];
  /** Its pixctl command groups (src/admin/cli/commands/index.ts). */
  commands: CommandGroup[];
  /** Its activities, which the worker registers by name (activities/index.ts). */
  activities: (deps: Deps) => Record<string, (...args: any[]) => unknown>;
  /** Its gauges read from PostgreSQL at each scrape of /metrics (src/admin/metrics.ts). */
  gauges: ScrapedGauges[];
}
