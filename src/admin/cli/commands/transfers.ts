// pixctl transfers complete: play the Pix network and settle a pending transfer.
import { UsageError, type CommandGroup } from '../command.js';

const OUTCOMES = ['approved', 'failed'];

export const transfers: CommandGroup = {
  name: 'transfers',
  summary: 'settle transfers at the simulated Pix network',
  commands: [
    {
      name: 'complete',
      summary: 'settle a pending transfer of the simulator route as approved or failed',
      args: ['transferId'],
      options: {
        outcome: { type: 'string', description: 'approved or failed', required: true },
      },
      run: ({ args, options, admin }) => {
        const outcome = options.outcome;
        if (typeof outcome !== 'string' || !OUTCOMES.includes(outcome)) throw new UsageError('--outcome must be approved or failed');
        return admin.request('POST', `/simulator/transfers/${encodeURIComponent(args.transferId!)}/complete`, { outcome });
      },
    },
  ],
};
