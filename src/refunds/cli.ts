// pixctl refunds create | list | show | complete: return a received Pix to its payer, and settle a
// refund at the simulated Pix network.
import { choiceOption, compact, numberOption, pathOf, type CommandGroup } from '../cli/command.js';

const OUTCOMES = ['approved', 'failed'];

export const refunds: CommandGroup = {
  name: 'refunds',
  summary: 'refund approved charges to their payers (devolução)',
  commands: [
    {
      name: 'create',
      summary: 'refund all or part of an approved charge; the amount is reserved from the account until the network answers',
      args: ['transactionId'],
      options: {
        amount: { type: 'string', description: 'amount to refund, reais (default: everything still refundable)' },
        reason: { type: 'string', description: 'why the money goes back (at most 140 characters)' },
        'idempotency-key': {
          type: 'string',
          description: 'required: repeating the command with the same key answers the same refund',
          required: true,
        },
      },
      run: ({ args, options, admin }) => {
        const body = compact({ amount: numberOption(options, 'amount'), reason: options.reason });
        return admin.request('POST', pathOf('/transactions/:transactionId/refunds', args), body, {
          'Idempotency-Key': options['idempotency-key'] as string,
        });
      },
    },
    {
      name: 'list',
      summary: 'list the refunds of a charge',
      args: ['transactionId'],
      run: ({ args, admin }) => admin.request('GET', pathOf('/transactions/:transactionId/refunds', args)),
    },
    {
      name: 'show',
      summary: 'show a refund',
      args: ['refundId'],
      run: ({ args, admin }) => admin.request('GET', pathOf('/refunds/:refundId', args)),
    },
    {
      name: 'complete',
      summary: 'settle a pending refund of the simulator route as approved or failed',
      args: ['refundId'],
      options: {
        outcome: { type: 'string', description: 'approved or failed', required: true },
      },
      run: ({ args, options, admin }) =>
        admin.request('POST', pathOf('/simulator/refunds/:refundId/complete', args), {
          outcome: choiceOption(options, 'outcome', OUTCOMES),
        }),
    },
  ],
};
