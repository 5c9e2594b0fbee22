// pixctl charges pay|decline: play the payer's bank on the simulated Pix network: pay a pending charge, or
// fail a recurrence cycle's debit attempt for lack of funds.
import { compact, pathOf, type CommandGroup } from '../cli/command.js';

export const charges: CommandGroup = {
  name: 'charges',
  summary: 'pay charges (or decline a recurrence cycle debit) at the simulated Pix network',
  commands: [
    {
      name: 'pay',
      summary: 'pay a pending charge of the simulator route (by transaction id or BR Code txid); the engine approves it',
      args: ['transactionId'],
      options: {
        name: { type: 'string', description: "payer's name (default: the payer the charge names)" },
        document: { type: 'string', description: "payer's CPF or CNPJ" },
        email: { type: 'string', description: "payer's e-mail" },
        bank: { type: 'string', description: "payer's institution (default Banco Simulado S.A.)" },
        state: { type: 'string', description: "payer's state, two letters (default SP)" },
        'paid-on': {
          type: 'string',
          description: 'a due-date charge: the day it is paid on, YYYY-MM-DD (default today); it pays what is due that day',
        },
      },
      run: ({ args, options, admin }) => {
        const payer = compact({
          name: options.name,
          document: options.document,
          email: options.email,
          bankName: options.bank,
          state: options.state,
        });
        const paidOn = options['paid-on'];
        const body = { ...(payer ? { payer } : {}), ...(paidOn === undefined ? {} : { paidOn }) };
        return admin.request('POST', pathOf('/simulator/charges/:transactionId/pay', args), Object.keys(body).length ? body : undefined);
      },
    },
    {
      name: 'decline',
      summary: "a recurrence cycle charge's debit attempt fails for lack of funds (the engine retries it or fails the cycle)",
      args: ['transactionId'],
      options: {},
      run: ({ args, admin }) => admin.request('POST', pathOf('/simulator/charges/:transactionId/decline', args)),
    },
  ],
};
