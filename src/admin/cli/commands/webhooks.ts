// pixctl webhooks add | list | disable (endpoints) and pixctl deliveries list | show | retry (the delivery log).
import type { AttemptView, DeliveryView } from '../../../webhooks/deliveries.js';
import { adminCall, pathOf, UsageError, type CommandGroup } from '../../../cli/command.js';
import { shownOnce, table } from '../../../cli/output.js';

/** One row per attempt (a delivery without attempts yet gets one row), so the log reads top to bottom. */
function attemptsTable(deliveries: DeliveryView[]): string {
  const rows = deliveries.flatMap((d) =>
    (d.attempts.length ? d.attempts : [null]).map((a: AttemptView | null) => ({
      delivery: d.id,
      event: d.event,
      url: d.url,
      status: d.status,
      attempt: a?.number ?? null,
      trigger: a?.trigger ?? null,
      result: a === null ? null : a.success ? 'ok' : a.errorCode,
      statusCode: a?.statusCode ?? null,
      ms: a?.durationMs ?? null,
      at: a?.startedAt ?? null,
    })),
  );
  return table(rows);
}

const oneDelivery = (data: unknown) => attemptsTable([data as DeliveryView]);

export const webhooks: CommandGroup = {
  name: 'webhooks',
  summary: 'register, list and disable the webhook endpoints of an account',
  commands: [
    {
      name: 'add',
      summary: 'register an endpoint (https on a public address); its signing secret is printed this once',
      args: ['accountId'],
      options: { url: { type: 'string', description: 'receiver URL', required: true } },
      run: ({ args, options, admin }) =>
        admin.request('POST', pathOf('/accounts/:accountId/webhook-endpoints', args), { url: options.url }),
      render: shownOnce('secret'),
    },
    adminCall('list', 'list the endpoints of an account (without secrets)', 'GET', '/accounts/:accountId/webhook-endpoints'),
    adminCall(
      'disable',
      'stop delivering to an endpoint; its pending deliveries are cancelled',
      'DELETE',
      '/webhook-endpoints/:endpointId',
    ),
  ],
};

export const deliveries: CommandGroup = {
  name: 'deliveries',
  summary: 'inspect webhook deliveries and their attempts, redeliver',
  commands: [
    {
      name: 'list',
      summary: 'deliveries of a transaction or of an event, one row per attempt',
      options: {
        transaction: { type: 'string', description: 'transaction id (txn_… or out_…)' },
        event: { type: 'string', description: 'event id (evt_…)' },
      },
      run: ({ options, admin }) => {
        const query = new URLSearchParams();
        if (typeof options.transaction === 'string') query.set('transactionId', options.transaction);
        if (typeof options.event === 'string') query.set('eventId', options.event);
        if ([...query.keys()].length === 0) throw new UsageError('give --transaction or --event');
        return admin.request('GET', `/webhook-deliveries?${query}`);
      },
      render: (data) => attemptsTable(data as DeliveryView[]),
    },
    { ...adminCall('show', 'one delivery with its attempts', 'GET', '/webhook-deliveries/:deliveryId'), render: oneDelivery },
    {
      ...adminCall(
        'retry',
        'redeliver now: one more signed attempt with the same delivery id; prints the outcome',
        'POST',
        '/webhook-deliveries/:deliveryId/retry',
      ),
      render: oneDelivery,
    },
  ],
};
