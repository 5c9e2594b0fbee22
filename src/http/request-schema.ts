// What the request schemas (POST /transactions, POST /transfers) share: their compilation and the reading
// of their errors.
//
// Amounts in reais with at most two decimal places: JSON Schema says "two decimals"
// with `multipleOf: 0.01` (no other keyword can), so that is what the schemas and the OpenAPI document
// carry. Validators that divide binary floats misjudge it both ways: a plain division refuses 1.15
// (114.99999999999999), typebox's 1e-10 tolerance refuses most amounts above R$ 1 million and accepts
// 0.1 + 0.2. So the engine compiles its validators with each `multipleOf: 0.01` checked exactly instead,
// on the number's shortest decimal form (`reaisToCents`), the rule the amounts are parsed by.
import Type, { type TNumberOptions, type TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { parseInstant } from '../domain/instant.js';
import { reaisToCents } from '../domain/money.js';
import { invalidRequest, type Refusal } from '../domain/refusal.js';
import { fieldLabel, pointerSteps } from '../json/pointer.js';

const CENT = 0.01;

/** The keyword of the exact check in typebox's errors. */
export const TWO_DECIMALS_KEYWORD = '~refine';

/** A number of reais with at most two decimal places. */
export const reais = (options: TNumberOptions) => Type.Number({ ...options, multipleOf: CENT });

const hasTwoDecimalsAtMost = (value: unknown) => typeof value !== 'number' || reaisToCents(Math.abs(value)) !== null;

/**
 * A plain copy of `node` with every `multipleOf: 0.01` replaced by the exact check, and without `oneOf`
 * when `withOneOf` is false. The schema's own refinements (`Type.Refine`, not enumerable) are kept.
 */
function forEngine(node: unknown, withOneOf: boolean): unknown {
  if (Array.isArray(node)) return node.map((item) => forEngine(item, withOneOf));
  if (node === null || typeof node !== 'object') return node;
  let copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if ((key === 'multipleOf' && value === CENT) || (key === 'oneOf' && !withOneOf)) continue;
    copy[key] = forEngine(value, withOneOf);
  }
  if (isOpenObject(copy)) copy.additionalProperties = false;
  if ((node as { multipleOf?: unknown }).multipleOf === CENT) {
    copy = Type.Refine(copy as unknown as TSchema, hasTwoDecimalsAtMost, () => 'no máximo duas casas decimais') as unknown as Record<
      string,
      unknown
    >;
  }
  for (const { check, error } of refinementsOf(node))
    copy = Type.Refine(copy as unknown as TSchema, check, error) as unknown as Record<string, unknown>;
  return copy;
}

/** An instant in a query or body: ISO 8601 with a time zone, read to the millisecond (`parseInstant`). */
export const instant = (description: string) =>
  Type.Refine(
    Type.String({
      format: 'date-time',
      description: `${description} (ISO 8601 com fuso, por exemplo 2025-01-31T03:00:00.000Z; lido até o milissegundo)`,
    }),
    (value) => typeof value === 'string' && parseInstant(value) !== null,
    () => 'um instante ISO 8601 com data, hora e fuso (por exemplo 2025-01-31T03:00:00.000Z)',
  );

/** An object schema with declared properties that says nothing of others: a request's such object takes no others. */
const isOpenObject = (node: Record<string, unknown>) =>
  node.type === 'object' && node.properties !== undefined && node.additionalProperties === undefined;

/**
 * `schema` as requests are held to it: every object with declared properties is closed (an unknown field is
 * a 400 naming it, so a typo never silently changes what a request does). The OpenAPI document shows it so.
 */
export function closedRequestSchema(schema: TSchema): TSchema {
  const close = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(close);
    if (node === null || typeof node !== 'object') return node;
    const copy: Record<string, unknown> = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, close(value)]));
    if (isOpenObject(copy)) copy.additionalProperties = false;
    return copy;
  };
  return close(schema) as TSchema;
}

/** The refusal of a field a closed object does not declare (typebox's `boolean` error: the schema `false`), or null. */
export function unknownFieldRefusal(error: { keyword: string; instancePath: string }): Refusal | null {
  if (error.keyword !== 'boolean') return null;
  return invalidRequest(`Campo desconhecido: ${fieldLabel(pointerSteps(error.instancePath))}`, error.instancePath);
}

/** The refinements (`Type.Refine`) of a schema: checks JSON Schema cannot say, each with its message. */
export function refinementsOf(schema: unknown): Array<{ check: (value: unknown) => boolean; error: (value: unknown) => string }> {
  const refinements = (schema as { '~refine'?: unknown } | null)?.['~refine'];
  return Array.isArray(refinements) ? refinements : [];
}

/**
 * typebox's validators of a request schema, with the two-decimal rule of `reais()` evaluated exactly:
 * `all` checks every rule; `fields` leaves out the `oneOf` rules that say which fields go together, so
 * that its errors name a field (the code that resolves the request names the others more precisely,
 * and typebox keeps only the first 8 errors, which the branches of a `oneOf` would crowd).
 */
export function compileRequestSchema<const T extends TSchema>(schema: T) {
  return { all: Compile(forEngine(schema, true) as T), fields: Compile(forEngine(schema, false) as T) };
}
