// Every kind of operation: the one list the public and admin route tables (and so the OpenAPI documents and
// the MCP tools), pixctl, the worker's activities and /metrics read. A kind's workflow code is listed in
// workflows/index.ts (docs/architecture.md, "Adding a kind of operation").
import { charges } from '../charges/kind.js';
import { meds } from '../meds/kind.js';
import { reconciliation } from '../reconciliation/kind.js';
import { recurrences } from '../recurrences/kind.js';
import { refunds } from '../refunds/kind.js';
import { transfers } from '../transfers/kind.js';
import type { OperationKind } from './kind.js';

export const KINDS: OperationKind[] = [charges, transfers, refunds, recurrences, meds, reconciliation];
