// Bounds on the shape of a JSON body, checked before any handler walks it. Nesting depth and the
// number of values are counted on the raw text, before JSON.parse (which spends about a second
// building a 1 MB body of nested arrays, and any recursive walk of it overflows the stack). Then, on
// the parsed value, keys per object, items per array, and the text rule (text-rule.ts) on every key
// and string, in an iterative walk that stops at the first problem and names it by JSON pointer
// (RFC 6901), e.g. /split/0/description. Both passes are linear in the body: the pointer and the
// field's name are built for the one node that fails, never for the nodes that pass.
import { invalidRequest } from './errors.js';
import { jsonPointer } from '../json/pointer.js';
import { forbiddenCharacter, textRefusal } from './text-rule.js';

// Far above any body of this API (its deepest is about 5 levels, its longest list a 10-item split; a
// PSP webhook's `pix` list of 400 entries holds about 8,000 values). The values bound what JSON.parse
// and the walk may cost: 10,000 of the most expensive kind (keys of wide objects) take about 4 ms.
export const JSON_LIMITS = { depth: 32, keys: 1000, items: 1000, values: 10_000 } as const;

/**
 * Throws a 400 `invalid_request` when brackets nest deeper than the limit, or when the text holds more
 * values than the limit (counted as brackets and commas; text in strings aside).
 */
export function checkRawJson(raw: string): void {
  let depth = 0;
  let values = 0;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === 0x22) {
      // A string: on to its closing quote, past escaped characters.
      for (i++; i < raw.length; i++) {
        const s = raw.charCodeAt(i);
        if (s === 0x5c) i++;
        else if (s === 0x22) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > JSON_LIMITS.depth) throw invalidRequest(`JSON aninhado demais no corpo (máximo de ${JSON_LIMITS.depth} níveis)`);
      if (++values > JSON_LIMITS.values) throw tooManyValues();
    } else if (c === 0x5d || c === 0x7d) depth--;
    else if (c === 0x2c && ++values > JSON_LIMITS.values) throw tooManyValues();
  }
}

const tooManyValues = () => invalidRequest(`O corpo tem valores demais (máximo de ${JSON_LIMITS.values})`);

/** An array or object being walked: its children are visited in document order. */
interface Frame {
  container: Record<string, unknown>;
  /** The object's keys; null for an array. */
  keys: string[] | null;
  length: number;
  next: number;
  parent: Frame | null;
  /** The key or index under the parent. */
  step: string | number;
}

function framePointer(frame: Frame): string {
  const steps: Array<string | number> = [];
  for (let at: Frame | null = frame; at.parent !== null; at = at.parent) steps.push(at.step);
  return jsonPointer(...steps.reverse());
}

/** The pointer of the child at `step` of `parent`; '' for the body itself (parent null). */
const pointerOf = (parent: Frame | null, step: string | number) => (parent === null ? '' : `${framePointer(parent)}${jsonPointer(step)}`);
const fieldName = (pointer: string) => (pointer === '' ? 'O corpo' : `Campo ${pointer}`);
/** The field to blame: the node's pointer, none for the body as a whole. */
const paramOf = (pointer: string) => (pointer === '' ? undefined : pointer);

/** Checks one value; returns the frame to walk when it is an array or object. */
function visit(value: unknown, parent: Frame | null, step: string | number): Frame | null {
  if (typeof value === 'string') {
    const problem = forbiddenCharacter(value);
    if (problem === null) return null;
    const pointer = pointerOf(parent, step);
    throw textRefusal(problem, fieldName(pointer), paramOf(pointer));
  }
  if (value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    if (value.length > JSON_LIMITS.items) {
      const pointer = pointerOf(parent, step);
      throw invalidRequest(`${fieldName(pointer)} tem itens demais (máximo de ${JSON_LIMITS.items})`, paramOf(pointer));
    }
    return { container: value as unknown as Record<string, unknown>, keys: null, length: value.length, next: 0, parent, step };
  }
  const keys = Object.keys(value);
  if (keys.length > JSON_LIMITS.keys) {
    const pointer = pointerOf(parent, step);
    throw invalidRequest(`${fieldName(pointer)} tem campos demais (máximo de ${JSON_LIMITS.keys})`, paramOf(pointer));
  }
  for (const key of keys) {
    const problem = forbiddenCharacter(key);
    if (problem === null) continue;
    // A bad key is named by its object: echoing the key would echo the character refused (so no `param` either).
    const pointer = pointerOf(parent, step);
    throw textRefusal(problem, `Nome de campo ${pointer === '' ? 'no corpo' : `em ${pointer}`}`);
  }
  return { container: value as Record<string, unknown>, keys, length: keys.length, next: 0, parent, step };
}

/** Throws a 400 `invalid_request` at the first part of a parsed body out of bounds (depth aside: checkRawJson). */
export function checkJsonShape(body: unknown): void {
  const root = visit(body, null, '');
  const stack: Frame[] = root === null ? [] : [root];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.next === frame.length) {
      stack.pop();
      continue;
    }
    const index = frame.next++;
    const step = frame.keys === null ? index : frame.keys[index]!;
    const child = visit(frame.container[step], frame, step);
    if (child !== null) stack.push(child);
  }
}
