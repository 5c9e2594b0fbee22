// What an operator gives the engine at start (the environment, the routes file, the payload keys) is
// checked against TypeBox schemas whose nodes word their own refusal: `x-refusal` for a value the node's
// keywords refuse, a refinement's message for what JSON Schema cannot say, and, for a field a closed
// object does not declare, the fields it knows. Of all the errors, the one reported is the first a person
// reading the input meets: in an object its unknown fields (a misspelt field is named, not reported
// missing), then its declared fields in the schema's order; in a record its entries in the input's
// order, each key before its value.
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { errorPath, pointerSteps } from '../json/pointer.js';

/** The annotation of a schema node that words its refusal: a phrase, or one made from the value refused. */
export const REFUSAL = 'x-refusal';

type Refusal = string | ((value: unknown) => string);

export interface Failure {
  /** The path from the root to the field at fault, or to the key at fault when `key` is true. */
  steps: string[];
  /** The key itself is refused (a record's `propertyNames`), not its value. */
  key: boolean;
  /** What is wrong, to follow the field's name: `is required (a non-empty string)`. */
  phrase: string;
}

interface Node {
  properties?: Record<string, Node>;
  patternProperties?: Record<string, Node>;
  propertyNames?: Node;
  items?: Node;
  [REFUSAL]?: Refusal;
}

interface SchemaError {
  keyword: string;
  schemaPath: string;
  instancePath: string;
  params: object;
  message: string;
}

const isUnknownField = (error: SchemaError) => error.keyword === 'boolean' && error.schemaPath.endsWith('/additionalProperties');
const isKeyError = (error: SchemaError) => error.schemaPath.endsWith('/propertyNames');
/** What `additionalProperties` and `propertyNames` say once for an object, after an error for each key. */
const isSummary = (error: SchemaError) => error.keyword === 'additionalProperties' || error.keyword === 'propertyNames';

const entries = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};

function childOf(node: Node | undefined, step: string): Node | undefined {
  if (node?.properties && Object.hasOwn(node.properties, step)) return node.properties[step];
  return Object.values(node?.patternProperties ?? {})[0] ?? node?.items;
}

function nodeAt(schema: Node, steps: string[]): Node | undefined {
  return steps.reduce<Node | undefined>(childOf, schema);
}

/**
 * Where an error stands in reading order, compared position by position along its path: at each step a
 * key present in the input (an unknown field, a record's entry) by its place there, a declared field after
 * them all by its place in the schema; last, a key's own error before its value's.
 */
function readingPlace(schema: Node, value: unknown, steps: string[], key: boolean): number[] {
  const place: number[] = [];
  let node: Node | undefined = schema;
  let data = value;
  for (const step of steps) {
    const present = Object.keys(entries(data));
    const declared = Object.keys(node?.properties ?? {});
    place.push(declared.includes(step) ? present.length + declared.indexOf(step) : present.indexOf(step));
    node = childOf(node, step);
    data = entries(data)[step];
  }
  return [...place, key ? 0 : 1];
}

function before(a: number[], b: number[]): number {
  const differing = a.findIndex((position, index) => index < b.length && position !== b[index]);
  return differing === -1 ? a.length - b.length : a[differing]! - b[differing]!;
}

/**
 * The first failure of `value` against `schema` in reading order, or null when it is valid. A refusal
 * made from the value is given the value at the path, or what `shown` gives for the path.
 */
export function firstFailure(schema: TSchema, value: unknown, shown?: (steps: string[]) => unknown): Failure | null {
  const [first] = Value.Errors(schema, value)
    .filter((error) => !isSummary(error))
    .map((error) => {
      const steps = pointerSteps(errorPath(error));
      return { error, steps, place: readingPlace(schema as Node, value, steps, isKeyError(error)) };
    })
    .sort((a, b) => before(a.place, b.place));
  if (!first) return null;
  const { error, steps } = first;
  const key = isKeyError(error);
  const refused = shown ? shown(steps) : key ? steps.at(-1) : steps.reduce<unknown>((data, step) => entries(data)[step], value);
  return { steps, key, phrase: phraseOf(schema as Node, error, steps, key, refused) };
}

function phraseOf(schema: Node, error: SchemaError, steps: string[], key: boolean, value: unknown): string {
  if (error.keyword === '~refine') return (error.params as { message: string }).message;
  const parent = nodeAt(schema, steps.slice(0, -1));
  if (isUnknownField(error)) return `is not a known field (known: ${Object.keys(parent?.properties ?? {}).join(', ')})`;
  const refusal = (key ? parent?.propertyNames : nodeAt(schema, steps))?.[REFUSAL];
  return typeof refusal === 'function' ? refusal(value) : (refusal ?? error.message);
}
