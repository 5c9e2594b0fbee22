// pixctl reconciliations run | list | show | resolve: reconcile a route against its PSP's records over
// a window, follow the runs, read a run's items, and resolve an open item (credit, refund, dismiss).
import type { Item, Run } from './schema.js';
import { choiceOption, compact, pathOf, type CommandGroup } from '../cli/command.js';
import { table } from '../cli/output.js';

const ACTIONS = ['credit', 'refund', 'dismiss'];

/** An item in one row: what it is about, the two amounts, its state. */
const itemRow = (item: Item) => ({
  id: item.id,
  kind: item.kind,
  status: item.status,
  transactionId: item.transactionId,
  endToEndId: item.endToEndId,
  pspAmount: item.pspAmount,
  engineAmount: item.engineAmount,
  resolution: item.resolution?.action ?? null,
  detail: item.detail,
});

function renderRun(data: unknown): string {
  const { items, ...run } = data as Run & { items: Item[] };
  return `${table(run)}\n\n${table(items.map(itemRow))}`;
}

export const reconciliations: CommandGroup = {
  name: 'reconciliations',
  summary: "reconcile a Pix route against its PSP's records and resolve what they disagree on",
  commands: [
    {
      name: 'run',
      summary: 'start a run over [from, to) (ISO 8601 instants, at most 7 days); follow it with show',
      args: ['route'],
      options: {
        from: { type: 'string', description: 'start of the window, included (e.g. 2026-11-25T03:00:00Z)', required: true },
        to: { type: 'string', description: 'end of the window, excluded', required: true },
      },
      run: ({ args, options, admin }) =>
        admin.request('POST', '/reconciliations', { route: args.route, from: options.from, to: options.to }),
      render: renderRun,
    },
    {
      name: 'list',
      summary: 'runs, newest first',
      options: {
        route: { type: 'string', description: 'only the runs of this route' },
        page: { type: 'string', description: 'page, from 1' },
        limit: { type: 'string', description: 'runs per page, 1 to 100 (default 20)' },
      },
      run: ({ options, admin }) => {
        const query = new URLSearchParams(
          compact({ route: options.route, page: options.page, limit: options.limit }) as Record<string, string>,
        );
        return admin.request('GET', `/reconciliations${query.size ? `?${query}` : ''}`);
      },
    },
    {
      name: 'show',
      summary: 'a run, its counts and the items it found',
      args: ['runId'],
      run: ({ args, admin }) => admin.request('GET', pathOf('/reconciliations/:runId', args)),
      render: renderRun,
    },
    {
      name: 'resolve',
      summary:
        'resolve an open item: credit the money it holds to an account (--account-id), refund it to the payer, or dismiss an item that holds none (--note)',
      args: ['itemId'],
      options: {
        action: { type: 'string', description: 'credit, refund or dismiss', required: true },
        'account-id': { type: 'string', description: 'credit: the account credited (acc_…)' },
        note: { type: 'string', description: 'dismiss: why the item is closed' },
      },
      run: ({ args, options, admin }) =>
        admin.request(
          'POST',
          pathOf('/reconciliations/items/:itemId/resolve', args),
          compact({ action: choiceOption(options, 'action', ACTIONS), accountId: options['account-id'], note: options.note }),
        ),
    },
  ],
};
