// Every pixctl command group, in the order of the help: the engine's own and each kind's (src/kinds).
import type { CommandGroup } from '../../../cli/command.js';
import { KINDS } from '../../../kinds/index.js';
import { accounts } from './accounts.js';
import { keys } from './keys.js';
import { listenCommand } from './listen.js';
import { ledger } from './ledger.js';
import { routes } from './routes.js';
import { deliveries, webhooks } from './webhooks.js';
import { triggerCommand } from './trigger.js';

export const COMMAND_GROUPS: CommandGroup[] = [
  accounts,
  keys,
  listenCommand,
  ledger,
  routes,
  deliveries,
  webhooks,
  triggerCommand,
  ...KINDS.flatMap((kind) => kind.commands),
].sort((a, b) => a.name.localeCompare(b.name));
