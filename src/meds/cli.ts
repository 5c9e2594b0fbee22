// pixctl meds open | decide: play the payer's institution opening a MED, and decide one as the
// receiving side's analyst.
import { MED_OUTCOMES } from './row.js';
import { choiceOption, compact, numberOption, pathOf, type CommandGroup } from '../cli/command.js';

export const meds: CommandGroup = {
  name: 'meds',
  summary: 'open MED disputes (simulated payer institution) and decide them',
  commands: [
    {
      name: 'open',
      summary: 'open a MED against an approved charge; the amount is retained from the account until a decision',
      args: ['transactionId'],
      options: {
        amount: { type: 'string', description: 'disputed amount, reais (default: everything not yet returned)' },
        reason: {
          type: 'string',
          description: 'reason reported by the payer institution, e.g. fraud or operational_failure (default fraud)',
        },
        'idempotency-key': {
          type: 'string',
          description: 'repeating the command with the same key answers the same MED instead of opening another',
        },
      },
      run: ({ args, options, admin }) => {
        const key = options['idempotency-key'];
        const body = compact({ transactionId: args.transactionId, amount: numberOption(options, 'amount'), reason: options.reason });
        return admin.request('POST', '/simulator/meds', body, typeof key === 'string' ? { 'Idempotency-Key': key } : {});
      },
    },
    {
      name: 'decide',
      summary: 'decide an open MED: accepted returns the retained amount to the payer, rejected releases it',
      args: ['medId'],
      options: {
        outcome: { type: 'string', description: 'accepted or rejected', required: true },
      },
      run: ({ args, options, admin }) =>
        admin.request('POST', pathOf('/meds/:medId/decision', args), { outcome: choiceOption(options, 'outcome', MED_OUTCOMES) }),
    },
  ],
};
