// pixctl keys create | list | revoke
import { listOption, type CommandGroup } from '../command.js';
import { table } from '../output.js';

export const keys: CommandGroup = {
  name: 'keys',
  summary: 'create, list and revoke API keys',
  commands: [
    {
      name: 'create',
      summary: 'create an API key; the key is printed this once and never again',
      args: ['accountId'],
      options: {
        permissions: { type: 'string', description: 'comma-separated: payments:write,transactions:read,transfers:write,balance:read', required: true },
        'allowed-ips': { type: 'string', description: 'comma-separated IPs or CIDRs the key may be used from (default: any)' },
      },
      run: ({ args, options, admin }) =>
        admin.request('POST', `/accounts/${encodeURIComponent(args.accountId!)}/api-keys`, {
          permissions: listOption(options, 'permissions'),
          ...(options['allowed-ips'] === undefined ? {} : { allowedIps: listOption(options, 'allowed-ips') }),
        }),
      render: (data) => `${table(data)}\n\nStore the key now: it is shown only this once.`,
    },
    {
      name: 'list',
      summary: 'list the keys of an account (without secrets)',
      args: ['accountId'],
      run: ({ args, admin }) => admin.request('GET', `/accounts/${encodeURIComponent(args.accountId!)}/api-keys`),
    },
    {
      name: 'revoke',
      summary: 'revoke a key; it stops working on the next request',
      args: ['keyId'],
      run: ({ args, admin }) => admin.request('DELETE', `/api-keys/${encodeURIComponent(args.keyId!)}`),
    },
  ],
};
