// pixctl accounts create | show | set | statement
import {
  adminCall,
  booleanOption,
  compact,
  numberOption,
  pathOf,
  UsageError,
  type CommandGroup,
  type OptionSpec,
  type OptionValues,
} from '../../../cli/command.js';
import { table } from '../../../cli/output.js';

/** Settings both `create` and `set` accept (reais and percent). */
const SETTINGS: Record<string, OptionSpec> = {
  kyc: { type: 'string', description: 'identity verification: approved | pending' },
  route: { type: 'string', description: 'Pix route: simulator or a route of PIX_ROUTES_FILE (pixctl routes list)' },
  'fees-charge-fixed': { type: 'string', description: 'fixed fee per charge, reais' },
  'fees-charge-percent': { type: 'string', description: 'fee per charge, percent' },
  'fees-transfer-fixed': { type: 'string', description: 'fixed fee per transfer, reais' },
  'fees-transfer-percent': { type: 'string', description: 'fee per transfer, percent' },
};

const CHANGEABLE: Record<string, OptionSpec> = {
  status: { type: 'string', description: 'active | blocked' },
  'withdrawals-blocked': { type: 'string', description: 'true | false' },
  'pix-receiving': { type: 'string', description: 'Pix receiving enabled: true | false' },
  'charge-min': { type: 'string', description: 'minimum charge, reais' },
  'charge-max': { type: 'string', description: 'maximum charge, reais' },
  'transfer-min': { type: 'string', description: 'minimum transfer, reais' },
};

interface Statement {
  openingBalance: number;
  closingBalance: number;
  entries: unknown[];
}

const renderStatement = (data: unknown) => {
  if (typeof data === 'string') return data.replace(/\r\n$/, ''); // the CSV as it came, its last line break printed by the CLI
  const { openingBalance, closingBalance, entries } = data as Statement;
  return `${table({ openingBalance, closingBalance })}\n\n${table(entries)}`;
};

function settingsBody(options: OptionValues) {
  return {
    kycStatus: options.kyc,
    route: options.route,
    fees: {
      charge: { fixed: numberOption(options, 'fees-charge-fixed'), percent: numberOption(options, 'fees-charge-percent') },
      transfer: { fixed: numberOption(options, 'fees-transfer-fixed'), percent: numberOption(options, 'fees-transfer-percent') },
    },
  };
}

export const accounts: CommandGroup = {
  name: 'accounts',
  summary: 'create, show and change accounts, and read their statements',
  commands: [
    {
      name: 'create',
      summary: 'create an account (KYC pending unless --kyc approved)',
      options: {
        name: { type: 'string', description: 'holder name', required: true },
        document: { type: 'string', description: 'CPF or CNPJ (alphanumeric CNPJ too), with or without mask', required: true },
        email: { type: 'string', description: 'contact e-mail', required: true },
        'allow-duplicate': { type: 'boolean', description: 'create it even if another account has this document or e-mail' },
        ...SETTINGS,
      },
      run: ({ options, admin }) =>
        admin.request(
          'POST',
          '/accounts',
          compact({
            name: options.name,
            document: options.document,
            email: options.email,
            allowDuplicate: options['allow-duplicate'] === true || undefined,
            ...settingsBody(options),
          }),
        ),
    },
    adminCall('show', 'show an account with its settings and balance', 'GET', '/accounts/:accountId'),
    {
      name: 'set',
      summary: 'change settings of an account',
      args: ['accountId'],
      options: { ...CHANGEABLE, ...SETTINGS },
      run: ({ args, options, admin }) =>
        admin.request(
          'PATCH',
          pathOf('/accounts/:accountId', args),
          compact({
            status: options.status,
            withdrawalsBlocked: booleanOption(options, 'withdrawals-blocked'),
            pixReceivingEnabled: booleanOption(options, 'pix-receiving'),
            limits: {
              chargeMin: numberOption(options, 'charge-min'),
              chargeMax: numberOption(options, 'charge-max'),
              transferMin: numberOption(options, 'transfer-min'),
            },
            ...settingsBody(options),
          }) ?? {},
        ),
    },
    {
      name: 'statement',
      summary: "the account's available balance over [from, to), entry by entry, from the ledger",
      args: ['accountId'],
      options: {
        from: { type: 'string', description: 'start, included: an ISO 8601 instant (2025-01-01T03:00:00Z)', required: true },
        to: { type: 'string', description: 'end, excluded: an ISO 8601 instant', required: true },
        csv: { type: 'boolean', description: 'print the CSV the admin API answers (header row, one entry per line)' },
      },
      run: ({ args, options, admin }) => {
        const path = `${pathOf('/accounts/:accountId/statement', args)}?${new URLSearchParams({ from: String(options.from), to: String(options.to) })}`;
        if (!options.csv) return admin.request('GET', path);
        if (options.json) throw new UsageError('--csv and --json are two ways to print it: choose one');
        return admin.text(path, 'text/csv');
      },
      render: renderStatement,
    },
  ],
};
