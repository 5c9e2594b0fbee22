// ESLint: a small base for the whole project, and the boundary between workflow code and the rest
// (as the Temporal samples do): workflow files (workflows/, a kind's workflow.ts and <name>.workflow.ts) run in
// Temporal's deterministic sandbox, so they import no Node built-in and no value but a contract's and the shared
// workflow helpers', and leave no promise floating; src/ and activities/ reach a workflow only through its
// contract (contracts/*.contract.ts, a kind's contract.ts and <name>.contract.ts), which imports nothing of
// theirs, not even a type: a workflow's contract owns the state and the data it carries. And the boundary
// between the core and its edges: the core's folders, activities/ and workflows/ import no edge and no
// ApiError (they refuse in domain terms). A kind's folder (src/charges, src/transfers…, docs/architecture.md)
// holds both: its routes, admin routes, simulator routes, CLI commands and kind.ts are edge files, the rest is core.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const NODE_BUILTINS = builtinModules.filter((name) => !name.startsWith('_'));

/** A kind's workflow code and contracts: `src/<kind>/workflow.ts`, `src/<kind>/<name>.workflow.ts`, and the same for contract. */
const KIND_WORKFLOW_FILES = ['src/*/workflow.ts', 'src/*/*.workflow.ts'];
const KIND_CONTRACT_FILES = ['src/*/contract.ts', 'src/*/*.contract.ts'];

/** A kind's edge files: what the REST API, the admin API and pixctl take from it, and its kind.ts, which lists them. */
const KIND_EDGE_NAMES = ['routes', 'admin-routes', 'simulator-routes', 'cli', 'kind'];
const KIND_EDGE_FILES = KIND_EDGE_NAMES.map((name) => `src/*/${name}.ts`);

/** src/ and activities/ reach a workflow only through its contract. */
const WORKFLOW_THROUGH_CONTRACT = {
  group: ['**/workflows/*', '**/workflow.js', '**/*.workflow.js'],
  message: 'src/ and activities/ reach a workflow only through its contract (src/<kind>/contract.js, contracts/<name>.contract.js).',
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
const EDGES = ['api', 'admin', 'mcp', 'openapi', 'routing', 'cli', 'kinds'];
const NO_EDGE = {
  group: [...EDGES.map((edge) => `**/${edge}/*`), ...KIND_EDGE_NAMES.map((name) => `**/${name}.js`)],
  message:
    "The core does not import an edge (src/api, src/admin, src/mcp, src/openapi, src/routing, src/cli, src/kinds, a kind's routes, admin-routes, simulator-routes, cli or kind): the edge calls the core.",
};

/** Relative imports of workflow code that may bring values: contracts and the modules of shared workflow code, which are no workflow. */
const CONTRACT = '(?:[\\w-]+\\.)?contract\\.js$';
const SHARED_WORKFLOW_CODE = '(?:transaction-activities|outgoing|transaction-status)\\.js$';
const EDGE_FOLDERS = `(?:${EDGES.join('|')})/`;

/** The rule of workflow code: `valueImports` match the relative imports that may bring only types. */
function workflowImports(valueImports) {
  return {
    'no-restricted-imports': 'off',
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        paths: NODE_BUILTINS.map((name) => ({ name, message: 'Workflow code runs in the deterministic sandbox: no Node built-ins.' })),
        patterns: [
          { group: ['node:*'], message: 'Workflow code runs in the deterministic sandbox: no Node built-ins.' },
          NO_EDGE,
          // A type import matching a pattern that allows types is not checked against the others: edges left out.
          ...valueImports.map((regex) => ({
            regex,
            allowTypeImports: true,
            message:
              'Workflow code imports values only from contracts and the shared workflow helpers (workflows/transaction-activities, outgoing, transaction-status), types from anywhere but an edge (`import type`): another workflow only through its contract.',
          })),
        ],
      },
    ],
  };
}

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
    // The worker's list of every kind's activities reads src/kinds.
    ignores: [...KIND_EDGE_FILES, 'activities/index.ts'],
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
    files: [...HANDLER_FOLDERS.map((folder) => `src/${folder}/**/*.ts`), ...KIND_EDGE_FILES],
    ignores: ['src/api/checkout/repository.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'TaggedTemplateExpression[tag.type="Identifier"][tag.name=/^(sql|tx)$/]', ...NO_SQL },
        { selector: 'TaggedTemplateExpression[tag.type="MemberExpression"][tag.property.name=/^(sql|tx)$/]', ...NO_SQL },
      ],
    },
  },
  {
    // Last, so that they hold for a kind's workflow and contract files over the src/ blocks above.
    files: ['workflows/**/*.ts', ...KIND_WORKFLOW_FILES],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: { '@typescript-eslint/no-floating-promises': 'error' },
  },
  {
    // workflows/: a value from src/ only from a kind's contract, none from activities/ or another workflow file.
    files: ['workflows/**/*.ts'],
    rules: workflowImports([`^\\.\\./(?:src/(?!${EDGE_FOLDERS})(?![\\w-]+/${CONTRACT})|activities/)`, `^\\./(?!${SHARED_WORKFLOW_CODE})`]),
  },
  {
    // A kind's workflow file: values from its own and other kinds' contracts, contracts/ and the shared workflow helpers of workflows/.
    files: KIND_WORKFLOW_FILES,
    rules: workflowImports([
      `^\\./(?!${CONTRACT})`,
      `^\\.\\./(?!\\.\\./|${EDGE_FOLDERS})(?![\\w-]+/${CONTRACT})`,
      `^\\.\\./\\.\\./(?!contracts/|workflows/${SHARED_WORKFLOW_CODE})`,
    ]),
  },
  {
    // The bundle's entry: it names every workflow file.
    files: ['workflows/index.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': 'off' },
  },
  {
    files: ['contracts/**/*.ts', ...KIND_CONTRACT_FILES],
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*', ...NODE_BUILTINS], message: 'Contracts are imported by workflow code: no Node built-ins.' },
            {
              // From contracts/: its siblings, a kind's contract; from a kind: its own, another kind's, contracts/.
              regex: `^(?!@temporalio/(?:workflow|common)$|\\./${CONTRACT}|\\./calendar\\.js$|\\.\\./(?:src/)?[\\w-]+/${CONTRACT}|\\.\\./\\.\\./contracts/(?:${CONTRACT}|calendar\\.js$))`,
              message:
                'A contract imports only @temporalio/workflow, @temporalio/common, other contracts and the calendar: it defines the types it carries, and src/ imports them.',
            },
          ],
        },
      ],
    },
  },
);
