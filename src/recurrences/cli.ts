// pixctl recurrences authorize|reject|cancel: play the payer of a Pix Automático recurrence in the
// simulated network's bank app (simulator route only).
import { numberOption, pathOf, type CommandGroup } from '../cli/command.js';

export const recurrences: CommandGroup = {
  name: 'recurrences',
  summary: 'answer a recurrence (Pix Automático) as its payer at the simulated Pix network',
  commands: [
    {
      name: 'authorize',
      summary: 'the payer authorizes the recurrence (active); its cycles start',
      args: ['recurrenceId'],
      options: { 'maximum-amount': { type: 'string', description: 'the most the payer allows per cycle, in reais (default: no limit)' } },
      run: ({ args, options, admin }) => {
        const maximumAmount = numberOption(options, 'maximum-amount');
        return admin.request(
          'POST',
          pathOf('/simulator/recurrences/:recurrenceId/authorize', args),
          maximumAmount === undefined ? undefined : { maximumAmount },
        );
      },
    },
    {
      name: 'reject',
      summary: 'the payer refuses the recurrence (rejected)',
      args: ['recurrenceId'],
      options: {},
      run: ({ args, admin }) => admin.request('POST', pathOf('/simulator/recurrences/:recurrenceId/reject', args)),
    },
    {
      name: 'cancel',
      summary: 'the payer cancels the recurrence (cancelled, cancelledBy payer); its cycles not yet due are cancelled',
      args: ['recurrenceId'],
      options: {},
      run: ({ args, admin }) => admin.request('POST', pathOf('/simulator/recurrences/:recurrenceId/cancel', args)),
    },
  ],
};
