// pixctl routes list: the Pix routes an account can pick (GET /admin/routes), without secrets.
import { adminCall, type CommandGroup } from '../../../cli/command.js';

export const routes: CommandGroup = {
  name: 'routes',
  summary: 'list the Pix routes accounts can use',
  commands: [
    adminCall(
      'list',
      'the simulator and the routes of PIX_ROUTES_FILE: type, PSP addresses, whether it sends transfers, webhook URL',
      'GET',
      '/routes',
    ),
  ],
};
