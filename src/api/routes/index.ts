import type { RouteSpec } from '../routes.js';

/** Every public route under /v1, in the order of the spec's endpoint summary. */
export const ROUTES: RouteSpec[] = [];
