// ESLint: a small base for the whole project, and the boundary between workflow code and the rest
// (as the Temporal samples do): workflow files run in Temporal's deterministic sandbox, so they import
// no Node built-in and no value from src/ or activities/, and leave no promise floating; src/ and
// activities/ reach a workflow only through its contract (contracts/*.contract.ts), which imports nothing
// of theirs, not even a type: a workflow's contract owns the state and the data it carries. And the boundary
// between the core and its edges: the core's folders, activities/ and workflows/ import no edge and no
// ApiError (they refuse in domain terms).
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const NODE_BUILTINS = builtinModules.filter((name) => !name.startsWith('_'));

/** src/ and activities/ reach a workflow only through its contract. */
const WORKFLOW_THROUGH_CONTRACT = {
  group: ['**/workflows/*'],
  message: 'src/ and activities/ reach a workflow only through its contract (contracts/<name>.contract.js).',
};

/** The core: what the engine does, whichever edge (REST API, admin API, MCP) asks it, and what it runs on. */
const DOMAIN_FOLDERS = [
  ...[
    'accounts',
    'charges',
    'transfers',
    'transactions',
    'ledger',
    'meds',
    'webhooks',
    'domain',
    'events',
    'pix-routes',
    'reconciliation',
    'refunds',
    'recurrences',
    'returns',
  ],
  ...['temporal', 'db', 'async', 'tracing', 'metrics', 'runtime', 'config', 'json'],
];

/** The edges, and the route-table framework they share (src/routing): the core never imports them, not even a type. */
const EDGES = ['api', 'admin', 'mcp', 'openapi', 'routing'];
const NO_EDGE = {
  group: EDGES.map((edge) => `**/${edge}/*`),
  message: 'The core does not import an edge (src/api, src/admin, src/mcp, src/openapi, src/routing): the edge calls the core.',
};

/** The handler folders of the edges: they read and write through the core's store modules, never with SQL of their own. */
const HANDLER_FOLDERS = ['api', 'admin', 'mcp'];
const NO_SQL = {
  message:
    'A handler runs no SQL: the query belongs in the store module of its kind (src/<kind>/repository.ts, src/pix-routes/simulator*.ts), named for what it reads or writes.',
};

export default tseslint.config(
  { ignores: ['node_modules/**', '.tools/**', '.data/**', 'dist/**', 'coverage/**', '**/*.d.ts', '**/*.d.mts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: globals.node },
    rules: {
      // Names starting with _ are deliberately unused (a callback's position, a destructured rest).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Tests, scripts and the typed boundaries with untyped libraries read JSON of any shape.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      // Flags initial values a try/catch overwrites on both paths: style, not a defect.
      'no-useless-assignment': 'off',
    },
  },
  {
    // The edge refuses control characters in text on purpose.
    files: ['src/http/text-rule.ts'],
    rules: { 'no-control-regex': 'off' },
  },
  {
    // A test may keep a result it does not assert on, to show the step it stands for. No test is focused
    // or skipped (a stray .only would run one file's share and pass), and no promise floats: an
    // expectation or request not awaited can fail after its test has passed, or never.
    files: ['test/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['warn', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-floating-promises': 'error',
      'no-restricted-properties': [
        'error',
        ...['describe', 'it', 'test'].flatMap((object) =>
          ['only', 'skip', 'todo', 'skipIf', 'runIf'].map((property) => ({
            object,
            property,
            message: 'Every test runs in CI: no focused, skipped or conditional test.',
          })),
        ),
      ],
    },
  },
  {
    files: ['workflows/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: NODE_BUILTINS.map((name) => ({ name, message: 'Workflow code runs in the deterministic sandbox: no Node built-ins.' })),
          patterns: [
            { group: ['node:*'], message: 'Workflow code runs in the deterministic sandbox: no Node built-ins.' },
            NO_EDGE,
            {
              // A type import matching a pattern that allows types is not checked against the others: edges left out.
              regex: `^(?:\\.\\./)+(?:src/(?!(?:${EDGES.join('|')})/)|activities/)`,
              allowTypeImports: true,
              message: 'Workflow code imports only types from src/ and activities/ (`import type`); shared values belong in a contract.',
            },
            {
              // The modules of shared workflow code, which are no workflow.
              group: ['./*', '!./transaction-activities.js', '!./outgoing.js', '!./transaction-status.js'],
              allowTypeImports: true,
              message: 'A workflow file imports another workflow only through its contract (contracts/*.contract.js).',
            },
          ],
        },
      ],
    },
  },
  {
    // The bundle's entry: it names every workflow file.
    files: ['workflows/index.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': 'off' },
  },
  {
    files: ['contracts/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*', ...NODE_BUILTINS], message: 'Contracts are imported by workflow code: no Node built-ins.' },
            {
              regex: '^(?!@temporalio/(?:workflow|common)$|\\./[\\w-]+\\.contract\\.js$|\\./calendar\\.js$)',
              message:
                'A contract imports only @temporalio/workflow, @temporalio/common, other contracts and the calendar: it defines the types it carries, and src/ imports them.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/**/*.ts', 'activities/**/*.ts'],
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [WORKFLOW_THROUGH_CONTRACT] }],
    },
  },
  {
    // The core speaks in domain terms: it refuses with src/domain/refusal.ts and the edges answer in HTTP
    // (src/http/errors.ts maps the refusals, src/http/refusal-status.ts holds their statuses). It may use
    // the edge's neutral helpers of src/http (the text rule, request schemas, pointers), never an edge itself.
    // Workflow code keeps to the same side (its own blocks above).
    files: [...DOMAIN_FOLDERS.map((folder) => `src/${folder}/**/*.ts`), 'activities/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            WORKFLOW_THROUGH_CONTRACT,
            NO_EDGE,
            {
              group: ['**/http/errors.js'],
              message: 'The core throws a Refusal (src/domain/refusal.ts), never an ApiError: the edge gives it its HTTP status.',
            },
          ],
        },
      ],
    },
  },
  {
    // No tagged-template SQL (`sql`, `tx`, `deps.sql`, with or without a row type) in the edges' handlers;
    // the checkout page's read model is the one store module of an edge.
    files: HANDLER_FOLDERS.map((folder) => `src/${folder}/**/*.ts`),
    ignores: ['src/api/checkout/repository.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'TaggedTemplateExpression[tag.type="Identifier"][tag.name=/^(sql|tx)$/]', ...NO_SQL },
        { selector: 'TaggedTemplateExpression[tag.type="MemberExpression"][tag.property.name=/^(sql|tx)$/]', ...NO_SQL },
      ],
    },
  },
);
