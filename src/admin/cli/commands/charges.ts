// pixctl charges pay: play the payer and pay a pending charge on the simulated Pix network.
import { compact, pathOf, type CommandGroup } from '../command.js';

export const charges: CommandGroup = {
  name: 'charges',
  summary: 'pay charges at the simulated Pix network',
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
  ],
};
