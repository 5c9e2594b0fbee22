// pixctl: the operators' CLI over the admin API. `pixctl <group> <command> [args] [--options] [--json]`.
// Exit status: 0 done, 1 the admin API refused or could not be reached (or the result reports a failure),
// 2 a mistake in the command line.
import { parseArgs } from 'node:util';
import { DEFAULT_ADMIN_URL, loadCliConfig, type CliConfig } from '../../config/config.js';
import { AdminClient, AdminError } from '../../cli/client.js';
import { UsageError, type Command, type CommandGroup, type OptionValues } from '../../cli/command.js';
import { COMMAND_GROUPS as GROUPS } from './commands/index.js';
import { json, table } from '../../cli/output.js';

const GLOBAL_OPTIONS = {
  json: { type: 'boolean', description: 'print the raw JSON data instead of a table' },
  help: { type: 'boolean', description: 'show this help' },
} as const;

function commandLine(group: CommandGroup, command: Command): string {
  const args = (command.args ?? []).map((name) => `<${name}>`);
  const options = Object.entries(command.options ?? {}).map(([name, spec]) => {
    const flag = spec.type === 'boolean' ? `--${name}` : `--${name} <value>`;
    return spec.required ? flag : `[${flag}]`;
  });
  return ['pixctl', group.name, command.name, ...args, ...options].filter((word) => word !== '').join(' ');
}

function commandHelp(group: CommandGroup, command: Command): string {
  const options = Object.entries({ ...command.options, ...GLOBAL_OPTIONS });
  const width = Math.max(...options.map(([name]) => name.length)) + 2;
  return [
    `Usage: ${commandLine(group, command)}`,
    '',
    command.summary,
    '',
    'Options:',
    ...options.map(([name, spec]) => `  --${name.padEnd(width)}${spec.description}`),
  ].join('\n');
}

function groupHelp(group: CommandGroup): string {
  return [
    `pixctl ${group.name}: ${group.summary}`,
    '',
    ...group.commands.map((c) => `  ${commandLine(group, c)}\n      ${c.summary}`),
  ].join('\n');
}

function overallHelp(): string {
  return [
    'pixctl: operate the Pix engine through its admin API.',
    `Environment: PIX_ADMIN_URL (default ${DEFAULT_ADMIN_URL}), ADMIN_TOKEN (required).`,
    '',
    'Usage: pixctl <group> <command> [arguments] [options] [--json]',
    '       pixctl <group> <command> --help',
    '',
    ...GROUPS.map((group) => {
      const names = group.commands.map((c) => c.name).filter((name) => name !== '');
      return `  ${group.name.padEnd(17)}${group.summary}${names.length ? ` (${names.join(', ')})` : ''}`;
    }),
  ].join('\n');
}

async function runCommand(
  group: CommandGroup,
  command: Command,
  argv: string[],
  config: CliConfig,
): Promise<{ text: string; status: number }> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { ...command.options, ...GLOBAL_OPTIONS }, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const values = parsed.values as OptionValues;
  const positionals = parsed.positionals;
  if (values.help) return { text: commandHelp(group, command), status: 0 };
  const names = command.args ?? [];
  if (positionals.length !== names.length) {
    throw new UsageError(names.length ? `expected ${names.map((n) => `<${n}>`).join(' ')}` : `unexpected argument ${positionals[0]}`);
  }
  for (const [name, spec] of Object.entries(command.options ?? {})) {
    if (spec.required && values[name] === undefined) throw new UsageError(`--${name} is required`);
  }
  const args = Object.fromEntries(names.map((name, i) => [name, positionals[i]!]));
  const data = await command.run({ args, options: values, admin: AdminClient.of(config), config });
  const text = values.json ? json(data) : command.render ? command.render(data) : table(data);
  return { text, status: command.failed?.(data) ? 1 : 0 };
}

/** Runs one command line; returns the exit status. */
export async function main(argv: string[], config: CliConfig): Promise<number> {
  const [groupName, ...afterGroup] = argv;
  if (groupName === undefined || groupName === 'help' || groupName === '--help' || groupName === '-h') {
    console.log(overallHelp());
    return groupName === undefined ? 2 : 0;
  }
  const group = GROUPS.find((g) => g.name === groupName);
  if (!group) {
    console.error(`pixctl: unknown command group "${groupName}"\n\n${overallHelp()}`);
    return 2;
  }
  const single = group.commands.length === 1 && group.commands[0]!.name === '';
  const [commandName, ...rest] = single ? ['', ...afterGroup] : afterGroup;
  const command = group.commands.find((c) => c.name === commandName);
  if (!command) {
    const help = commandName === '--help' || commandName === '-h';
    (help ? console.log : console.error)(
      `${help || commandName === undefined ? '' : `pixctl: unknown command "${group.name} ${commandName}"\n\n`}${groupHelp(group)}`,
    );
    return help ? 0 : 2;
  }
  try {
    const { text, status } = await runCommand(group, command, rest, config);
    console.log(text);
    return status;
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`pixctl: ${err.message}\n\n${commandHelp(group, command)}`);
      return 2;
    }
    console.error(`pixctl: ${err instanceof AdminError ? err.message : String(err)}`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2), loadCliConfig());
