// Bounds on the shape of a JSON body, checked before any handler walks it. Nesting depth is counted
// on the raw text, before JSON.parse (which spends about a second building a 1 MB body of nested
// arrays, and any recursive walk of it overflows the stack). Then, on the parsed value, keys per
// object, items per array, and the text rule (text-rule.ts) on every key and string, in an iterative
// walk that stops at the first problem and names it by JSON pointer (RFC 6901), e.g. /split/0/description.
import { invalidRequest } from './errors.js';
import { jsonPointer } from './pointer.js';
import { checkText } from './text-rule.js';

// Far above any body of this API (its deepest is about 5 levels, its longest list a 10-item split).
export const JSON_LIMITS = { depth: 32, keys: 1000, items: 1000 } as const;

/** Throws a 400 `invalid_request` when brackets nest deeper than the limit (text in strings aside). */
export function checkJsonDepth(raw: string): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > JSON_LIMITS.depth) throw invalidRequest(`JSON aninhado demais no corpo (máximo de ${JSON_LIMITS.depth} níveis)`);
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
}

interface Node {
  value: unknown;
  parent: Node | null;
  /** The key or index under the parent. */
  step: string;
}

function pointerOf(node: Node): string {
  const steps: string[] = [];
  for (let at: Node | null = node; at !== null && at.parent !== null; at = at.parent) steps.push(at.step);
  return jsonPointer(...steps.reverse());
}

const fieldName = (node: Node) => (node.parent === null ? 'O corpo' : `Campo ${pointerOf(node)}`);
/** The field to blame: the node's pointer, none for the body as a whole. */
const paramOf = (node: Node) => (node.parent === null ? undefined : pointerOf(node));

/** Throws a 400 `invalid_request` at the first part of a parsed body out of bounds (depth aside: checkJsonDepth). */
export function checkJsonShape(body: unknown): void {
  const stack: Node[] = [{ value: body, parent: null, step: '' }];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const { value } = node;
    if (typeof value === 'string') {
      checkText(value, fieldName(node), paramOf(node));
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (Array.isArray(value)) {
      if (value.length > JSON_LIMITS.items) throw invalidRequest(`${fieldName(node)} tem itens demais (máximo de ${JSON_LIMITS.items})`, paramOf(node));
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], parent: node, step: String(i) });
      continue;
    }
    const keys = Object.keys(value);
    if (keys.length > JSON_LIMITS.keys) throw invalidRequest(`${fieldName(node)} tem campos demais (máximo de ${JSON_LIMITS.keys})`, paramOf(node));
    // A bad key is named by its object: echoing the key would echo the character refused (so no `param` either).
    const where = `Nome de campo ${node.parent === null ? 'no corpo' : `em ${pointerOf(node)}`}`;
    for (const key of keys) checkText(key, where);
    for (let i = keys.length - 1; i >= 0; i--) stack.push({ value: (value as Record<string, unknown>)[keys[i]!], parent: node, step: keys[i]! });
  }
}
