// pixctl keys create | list | revoke
import { adminCall, listOption, pathOf, type CommandGroup } from '../../../cli/command.js';
import { shownOnce } from '../../../cli/output.js';

export const keys: CommandGroup = {
  name: 'keys',
  summary: 'create, list and revoke API keys',
  commands: [
    {
      name: 'create',
      summary: 'create an API key; the key is printed this once and never again',
      args: ['accountId'],
      options: {
        permissions: {
          type: 'string',
          description: 'comma-separated: payments:write,transactions:read,transfers:write,balance:read',
          required: true,
        },
        'allowed-ips': { type: 'string', description: 'comma-separated IPs or CIDRs the key may be used from (default: any)' },
      },
      run: ({ args, options, admin }) =>
        admin.request('POST', pathOf('/accounts/:accountId/api-keys', args), {
          permissions: listOption(options, 'permissions'),
          ...(options['allowed-ips'] === undefined ? {} : { allowedIps: listOption(options, 'allowed-ips') }),
        }),
      render: shownOnce('key'),
    },
    adminCall('list', 'list the keys of an account (without secrets)', 'GET', '/accounts/:accountId/api-keys'),
    adminCall('revoke', 'revoke a key; it stops working on the next request', 'DELETE', '/api-keys/:keyId'),
  ],
};
