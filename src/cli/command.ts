// What a pixctl command is. Each command group lives in its own file under commands/ and is
// registered by one line in commands/index.ts.
import type { CliConfig } from '../config/config.js';
import type { AdminClient } from './client.js';

export interface OptionSpec {
  type: 'string' | 'boolean';
  description: string;
  required?: boolean;
}

export type OptionValues = Record<string, string | boolean | undefined>;

export interface Command {
  name: string;
  summary: string;
  /** Names of the positional arguments, all required, in order. */
  args?: string[];
  options?: Record<string, OptionSpec>;
  run(input: { args: Record<string, string>; options: OptionValues; admin: AdminClient; config: CliConfig }): Promise<unknown>;
  /** Human form of the result; the default prints it as a table. */
  render?(data: unknown): string;
  /** True when the result itself reports a failure (a ledger check that found violations): printed, then exit status 1. */
  failed?(data: unknown): boolean;
}

/** A group of commands (`pixctl refunds create`), or a command of its own when its one command is named '' (`pixctl listen`). */
export interface CommandGroup {
  name: string;
  summary: string;
  commands: Command[];
}

/** A mistake in the command line: printed with the command's usage, exit status 2. */
export class UsageError extends Error {}

/** Reads `--flag true|false`. */
export function booleanOption(options: OptionValues, name: string): boolean | undefined {
  const value = options[name];
  if (value === undefined) return undefined;
  if (value === 'true' || value === 'false') return value === 'true';
  throw new UsageError(`--${name} must be true or false`);
}

/** Reads a decimal number option (reais or percent); the admin API checks its range and decimals. */
export function numberOption(options: OptionValues, name: string): number | undefined {
  const value = options[name];
  if (value === undefined) return undefined;
  const number = Number(value);
  if (typeof value !== 'string' || value.trim() === '' || !Number.isFinite(number)) throw new UsageError(`--${name} must be a number`);
  return number;
}

/** Reads a comma-separated list option. */
export function listOption(options: OptionValues, name: string): string[] | undefined {
  const value = options[name];
  if (typeof value !== 'string') return undefined;
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** Drops undefined fields, and objects left empty by that, so only what the operator set is sent. */
export function compact(value: Record<string, unknown>): Record<string, unknown> | undefined {
  const entries = Object.entries(value)
    .map(
      ([key, item]) =>
        [key, item !== null && typeof item === 'object' && !Array.isArray(item) ? compact(item as Record<string, unknown>) : item] as const,
    )
    .filter(([, item]) => item !== undefined);
  return entries.length ? Object.fromEntries(entries) : undefined;
}

/** Reads an option that must be one of `choices`. */
export function choiceOption<T extends string>(options: OptionValues, name: string, choices: readonly T[]): T | undefined {
  const value = options[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !choices.includes(value as T)) throw new UsageError(`--${name} must be ${choices.join(' or ')}`);
  return value as T;
}

/** `route` with each `:name` segment replaced by the URL-encoded positional argument of that name. */
export function pathOf(route: string, args: Record<string, string>): string {
  return route.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(args[name]!));
}

/** A command that calls `method route` of the admin API, the route's `:name` segments being its arguments, in order. */
export function adminCall(name: string, summary: string, method: string, route: string): Command {
  return {
    name,
    summary,
    args: [...route.matchAll(/:(\w+)/g)].map((match) => match[1]!),
    run: ({ args, admin }) => admin.request(method, pathOf(route, args)),
  };
}
