// pixctl transfers complete: play the Pix network and settle a pending transfer.
import { choiceOption, pathOf, type CommandGroup } from '../cli/command.js';

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
      run: ({ args, options, admin }) =>
        admin.request('POST', pathOf('/simulator/transfers/:transferId/complete', args), {
          outcome: choiceOption(options, 'outcome', OUTCOMES),
        }),
    },
  ],
};
