// The workflow boundary of eslint.config.js, through ESLint's own API: workflow code (workflows/, a kind's
// workflow.ts and <name>.workflow.ts) imports no Node built-in, no value but a contract's or a shared workflow
// helper's, and leaves no promise floating; src/ reaches a workflow only through its contract, which imports
// nothing from src/ but other contracts; and the core's boundary: a domain folder (a kind's edge files aside),
// activities/ and workflow code import no edge (not even a type) and no ApiError; and no edge handler runs SQL. The code is linted as if it were an existing
// file (the type-aware rules need a file the TypeScript project knows); nothing is written.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const A_WORKFLOW = 'src/meds/workflow.ts';
const A_SHARED_WORKFLOW_FILE = 'workflows/outgoing.ts';
const A_CONTRACT = 'src/meds/contract.ts';
const A_SHARED_CONTRACT = 'contracts/transaction.contract.ts';
const A_SRC_FILE = 'src/charges/create.ts';

let eslint: ESLint;

/** The rules an error names when `code` is linted as the file at `filePath`. */
async function errors(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, filePath) });
  return result!.messages.filter((m) => m.severity === 2).map((m) => m.ruleId ?? `fatal: ${m.message}`);
}

describe('lint boundary of workflow code', { timeout: 60_000 }, () => {
  beforeAll(() => {
    eslint = new ESLint({ cwd: ROOT });
  });

  it('refuses a Node built-in in a workflow file, with or without the node: prefix', async () => {
    expect(await errors("import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n", A_WORKFLOW)).toEqual([
      '@typescript-eslint/no-restricted-imports',
    ]);
    expect(await errors("import { randomUUID } from 'crypto';\nexport const id = randomUUID;\n", A_WORKFLOW)).toEqual([
      '@typescript-eslint/no-restricted-imports',
    ]);
  });

  it('refuses a value from src/ or activities/ in a workflow file, and allows their types', async () => {
    expect(
      await errors("import { chargeTransactionId } from '../transactions/ids.js';\nexport const id = chargeTransactionId;\n", A_WORKFLOW),
    ).toEqual(['@typescript-eslint/no-restricted-imports']);
    expect(
      await errors("import { createActivities } from '../../activities/index.js';\nexport const all = createActivities;\n", A_WORKFLOW),
    ).toEqual(['@typescript-eslint/no-restricted-imports']);
    expect(await errors("import { medActivities } from './activities.js';\nexport const all = medActivities;\n", A_WORKFLOW)).toEqual([
      '@typescript-eslint/no-restricted-imports',
    ]);
    expect(await errors("import type { Deps } from '../runtime/deps.js';\nexport type D = Deps;\n", A_WORKFLOW)).toEqual([]);
    expect(
      await errors(
        "import { chargeTransactionId } from '../src/transactions/ids.js';\nexport const id = chargeTransactionId;\n",
        A_SHARED_WORKFLOW_FILE,
      ),
    ).toEqual(['@typescript-eslint/no-restricted-imports']);
    expect(await errors("import type { Deps } from '../src/runtime/deps.js';\nexport type D = Deps;\n", A_SHARED_WORKFLOW_FILE)).toEqual(
      [],
    );
  });

  it('refuses a floating promise in a workflow file', async () => {
    const code = "import { sleep } from '@temporalio/workflow';\nexport async function nap(): Promise<void> {\n  sleep(1000);\n}\n";
    expect(await errors(code, A_WORKFLOW)).toEqual(['@typescript-eslint/no-floating-promises']);
    expect(await errors(code.replace('  sleep', '  await sleep'), A_WORKFLOW)).toEqual([]);
  });

  it('lets a workflow file import a contract and the shared workflow code, not another workflow file', async () => {
    for (const contract of [
      '../../contracts/transaction.contract.js',
      './contract.js',
      './returns.contract.js',
      '../charges/contract.js',
    ]) {
      expect(await errors(`import { x } from '${contract}';\nexport const y = x;\n`, A_WORKFLOW), contract).toEqual([]);
    }
    expect(
      await errors("import { runOutgoing } from '../../workflows/outgoing.js';\nexport const run = runOutgoing;\n", A_WORKFLOW),
    ).toEqual([]);
    for (const workflow of ['../charges/workflow.js', './returns.workflow.js', '../../workflows/webhook-delivery.js']) {
      expect(await errors(`import { x } from '${workflow}';\nexport const y = x;\n`, A_WORKFLOW), workflow).toEqual([
        '@typescript-eslint/no-restricted-imports',
      ]);
    }
    expect(
      await errors(
        "import { networkAnsweredSignal } from '../src/transfers/contract.js';\nexport const s = networkAnsweredSignal;\n",
        A_SHARED_WORKFLOW_FILE,
      ),
    ).toEqual([]);
    expect(
      await errors("import { showStatus } from './transaction-status.js';\nexport const s = showStatus;\n", A_SHARED_WORKFLOW_FILE),
    ).toEqual([]);
    expect(
      await errors(
        "import { chargeWorkflow } from '../src/charges/workflow.js';\nexport const run = chargeWorkflow;\n",
        A_SHARED_WORKFLOW_FILE,
      ),
    ).toEqual(['@typescript-eslint/no-restricted-imports']);
    expect(
      await errors(
        "import { webhookDeliveryWorkflow } from './webhook-delivery.js';\nexport const run = webhookDeliveryWorkflow;\n",
        A_SHARED_WORKFLOW_FILE,
      ),
    ).toEqual(['@typescript-eslint/no-restricted-imports']);
  });

  it('keeps a contract to Temporal definitions and other contracts: not even a type from src/', async () => {
    expect(
      await errors(
        "import { defineSignal } from '@temporalio/workflow';\nimport { ROUTE_REFUSED } from '../../contracts/transaction.contract.js';\nexport const s = defineSignal(ROUTE_REFUSED);\n",
        A_CONTRACT,
      ),
    ).toEqual([]);
    expect(
      await errors("import type { RouteState } from './transaction.contract.js';\nexport type S = RouteState;\n", A_SHARED_CONTRACT),
    ).toEqual([]);
    expect(
      await errors("import type { CycleTerms } from '../recurrences/contract.js';\nexport type T = CycleTerms;\n", A_CONTRACT),
    ).toEqual([]);
    expect(
      await errors("import { chargeTransactionId } from '../transactions/ids.js';\nexport const id = chargeTransactionId;\n", A_CONTRACT),
    ).toEqual(['@typescript-eslint/no-restricted-imports']);
    expect(
      await errors("import type { TransactionRow } from '../transactions/row.js';\nexport type Row = TransactionRow;\n", A_CONTRACT),
    ).toEqual(['@typescript-eslint/no-restricted-imports']);
    expect(
      await errors(
        "import type { TransactionRow } from '../src/transactions/row.js';\nexport type Row = TransactionRow;\n",
        A_SHARED_CONTRACT,
      ),
    ).toEqual(['@typescript-eslint/no-restricted-imports']);
  });

  it('lets src/ import a workflow contract, not a workflow file', async () => {
    expect(
      await errors(
        "import { acceptUpdate } from '../../contracts/transaction.contract.js';\nexport const update = acceptUpdate;\n",
        A_SRC_FILE,
      ),
    ).toEqual([]);
    expect(await errors("import { chargeWorkflow } from './workflow.js';\nexport const run = chargeWorkflow;\n", A_SRC_FILE)).toEqual([
      '@typescript-eslint/no-restricted-imports',
    ]);
    expect(
      await errors(
        "import { medReturnsWorkflow } from '../meds/returns.workflow.js';\nexport const run = medReturnsWorkflow;\n",
        A_SRC_FILE,
      ),
    ).toEqual(['@typescript-eslint/no-restricted-imports']);
    expect(
      await errors(
        "import { webhookDeliveryWorkflow } from '../../workflows/webhook-delivery.js';\nexport const run = webhookDeliveryWorkflow;\n",
        A_SRC_FILE,
      ),
    ).toEqual(['@typescript-eslint/no-restricted-imports']);
  });
});

describe('lint boundary of the core', { timeout: 60_000 }, () => {
  beforeAll(() => {
    eslint = new ESLint({ cwd: ROOT });
  });

  it('refuses an edge (src/api, src/admin, src/mcp, src/openapi, src/routing), even a type, or ApiError in the core', async () => {
    for (const [code, file] of [
      ["import { ROUTES } from '../api/routes/index.js';\nexport const all = ROUTES;\n", 'src/transactions/creation.ts'],
      ["import type { AdminRoute } from '../admin/routes/index.js';\nexport type R = AdminRoute;\n", 'src/ledger/check.ts'],
      ["import { mcpRouter } from '../mcp/http.js';\nexport const r = mcpRouter;\n", 'src/meds/open.ts'],
      [
        "import { buildOpenApiDocument } from '../openapi/document.js';\nexport const d = buildOpenApiDocument;\n",
        'src/pix-routes/registry.ts',
      ],
      ["import { ApiError } from '../http/errors.js';\nexport const e = ApiError;\n", 'src/transfers/terms.ts'],
      ["import { ApiError } from '../../http/errors.js';\nexport const e = ApiError;\n", 'src/pix-routes/bcb-api-pix/charges.ts'],
      ["import { ApiError } from '../http/errors.js';\nexport const e = ApiError;\n", 'src/recurrences/workflow-client.ts'],
      ["import { ApiError } from '../http/errors.js';\nexport const e = ApiError;\n", 'src/refunds/create.ts'],
      ["import { ROUTES } from '../api/routes/index.js';\nexport const all = ROUTES;\n", 'src/returns/budget.ts'],
      ["import type { AdminRoute } from '../admin/routes/index.js';\nexport type R = AdminRoute;\n", 'src/config/config.ts'],
      ["import { ApiError } from '../http/errors.js';\nexport const e = ApiError;\n", 'src/json/pointer.ts'],
      ["import type { RouteSpec } from '../routing/public-route.js';\nexport type R = RouteSpec;\n", 'src/db/group-commit.ts'],
      ["import { validateRequest } from '../routing/validate-request.js';\nexport const v = validateRequest;\n", 'src/async/within.ts'],
      ["import { mcpRouter } from '../mcp/http.js';\nexport const r = mcpRouter;\n", 'src/tracing/spans.ts'],
      ["import type { AdminRoute } from '../admin/routes/index.js';\nexport type R = AdminRoute;\n", 'src/runtime/deps.ts'],
      ["import { createApiApp } from '../api/app.js';\nexport const app = createApiApp;\n", 'src/meds/activities.ts'],
      ["import { createApiApp } from '../src/api/app.js';\nexport const app = createApiApp;\n", 'activities/webhooks.ts'],
      ["import { MED_ROUTES } from './admin-routes.js';\nexport const all = MED_ROUTES;\n", 'src/meds/open.ts'],
      ["import { KINDS } from '../kinds/index.js';\nexport const all = KINDS;\n", 'src/meds/open.ts'],
      ["import type { CommandGroup } from '../cli/command.js';\nexport type G = CommandGroup;\n", 'src/meds/open.ts'],
      ["import type { AdminRoute } from '../routing/operation.js';\nexport type R = AdminRoute;\n", A_WORKFLOW],
      ["import type { AdminRoute } from '../src/routing/operation.js';\nexport type R = AdminRoute;\n", A_SHARED_WORKFLOW_FILE],
      ["import type { ServiceCatalogue } from '../openapi/summary.js';\nexport type S = ServiceCatalogue;\n", A_CONTRACT],
    ]) {
      expect(await errors(code!, file!), file).toEqual(['@typescript-eslint/no-restricted-imports']);
    }
  });

  it('lets a domain folder refuse with the domain refusal and use the neutral helpers of src/http', async () => {
    expect(
      await errors("import { invalidRequest } from '../domain/refusal.js';\nexport const r = invalidRequest;\n", 'src/transfers/terms.ts'),
    ).toEqual([]);
    expect(
      await errors("import { checkText } from '../http/text-rule.js';\nexport const c = checkText;\n", 'src/transfers/terms.ts'),
    ).toEqual([]);
    expect(
      await errors(
        "import { chargeWorkflow } from '../charges/workflow.js';\nexport const run = chargeWorkflow;\n",
        'src/transfers/terms.ts',
      ),
    ).toEqual(['@typescript-eslint/no-restricted-imports']);
  });

  it("lets an edge, a kind's edge files included, use ApiError and the route-table framework", async () => {
    expect(await errors("import { ApiError } from '../http/errors.js';\nexport const e = ApiError;\n", 'src/api/guard.ts')).toEqual([]);
    for (const file of [
      'src/meds/routes.ts',
      'src/meds/admin-routes.ts',
      'src/refunds/simulator-routes.ts',
      'src/meds/cli.ts',
      'src/meds/kind.ts',
    ]) {
      expect(
        await errors(
          "import { ApiError } from '../http/errors.js';\nimport type { AdminRoute } from '../routing/operation.js';\nexport const e = ApiError;\nexport type R = AdminRoute;\n",
          file,
        ),
        file,
      ).toEqual([]);
    }
  });

  it('refuses SQL in an edge handler, typed or not, and lets the store modules of the core run it', async () => {
    const code =
      "import type { Deps } from '../../runtime/deps.js';\nexport const read = (deps: Deps) => deps.sql<{ id: string }[]>`select id from refunds`;\n";
    for (const file of [
      'src/refunds/admin-routes.ts',
      'src/meds/routes.ts',
      'src/admin/routes/ledger.ts',
      'src/api/routes/balance.ts',
      'src/mcp/tools.ts',
    ]) {
      expect(await errors(code, file), file).toEqual(['no-restricted-syntax']);
    }
    expect(await errors(code, 'src/refunds/repository.ts')).toEqual([]);
  });
});
