// pixctl trigger <event> --account <accId>: makes the event happen for real on an account of the
// simulator route (POST /admin/simulator/trigger), so `pixctl listen` and the account's webhook
// endpoints receive it as they would in production.
import { TRIGGER_EVENTS } from '../../trigger-events.js';
import { UsageError, type CommandGroup } from '../../../cli/command.js';

export const triggerCommand: CommandGroup = {
  name: 'trigger',
  summary: `make an event happen on the simulator for an account (${TRIGGER_EVENTS.join(', ')})`,
  commands: [
    {
      name: '',
      summary: `make an event happen on the simulator for an account: ${TRIGGER_EVENTS.join(', ')}`,
      args: ['event'],
      options: { account: { type: 'string', description: 'the account (acc_…), of the simulator route', required: true } },
      run: ({ args, options, admin }) => {
        if (!(TRIGGER_EVENTS as readonly string[]).includes(args.event!)) {
          throw new UsageError(`unknown event ${args.event}; one of ${TRIGGER_EVENTS.join(', ')}`);
        }
        return admin.request('POST', '/simulator/trigger', { event: args.event, accountId: options.account });
      },
    },
  ],
};
