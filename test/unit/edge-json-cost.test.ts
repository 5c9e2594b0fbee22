// What the edge's JSON checks cost, counted rather than timed: the shape check builds a JSON pointer
// only for the node it refuses (a body of many strings deep down once cost seconds of pointers), and
// the raw-text scan refuses a body of too many values before JSON.parse builds them.
import { describe, expect, it, vi } from 'vitest';
import { checkJsonShape, checkRawJson, JSON_LIMITS } from '../../src/http/json-shape.js';
import { jsonPointer } from '../../src/json/pointer.js';
import { refusal } from '../helpers/refusal.js';

vi.mock('../../src/json/pointer.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/json/pointer.js')>();
  return { ...actual, jsonPointer: vi.fn(actual.jsonPointer) };
});

/** `levels` objects, each under key `a`, around `value`. */
function nestedIn(levels: number, value: unknown): unknown {
  let body = value;
  for (let i = 0; i < levels; i++) body = { a: body };
  return body;
}

const manyStrings = (last: string) =>
  Array.from({ length: 100 }, (_, i) => Array.from({ length: 100 }, (_, j) => (i === 99 && j === 99 ? last : '')));

describe('checkJsonShape builds pointers only for what it refuses', () => {
  it('builds none for a body of 10,000 strings and 10,000 objects 28 levels deep that passes', () => {
    vi.mocked(jsonPointer).mockClear();
    checkJsonShape(nestedIn(28, [manyStrings(''), Array.from({ length: 1000 }, () => Array(10).fill({ b: {} }))]));
    expect(vi.mocked(jsonPointer)).not.toHaveBeenCalled();
  });

  it('builds the one of the string it refuses, as before', () => {
    vi.mocked(jsonPointer).mockClear();
    const err = refusal(() => checkJsonShape(nestedIn(2, manyStrings('x\u0007'))));
    expect(err.message).toContain('Campo /a/a/99/99 contém caractere não permitido (U+0007');
    expect(err.param).toBe('/a/a/99/99');
    expect(vi.mocked(jsonPointer).mock.calls.length).toBeLessThanOrEqual(2);
  });
});

describe('checkRawJson bounds the values before JSON.parse', () => {
  const list = (count: number, item: string) => `[${Array(count).fill(item).join(',')}]`;

  it('refuses more values than the limit, however small each is', () => {
    for (const raw of [list(JSON_LIMITS.values + 1, '""'), list(JSON_LIMITS.values, '[]'), list(30_000, '{}')]) {
      const err = refusal(() => checkRawJson(raw));
      expect(err.status).toBe(400);
      expect(err.code).toBe('invalid_request');
      expect(err.message).toBe(`O corpo tem valores demais (máximo de ${JSON_LIMITS.values})`);
    }
  });

  it('accepts up to the limit, and does not count commas or brackets inside strings', () => {
    expect(() => checkRawJson(list(JSON_LIMITS.values - 1, '1'))).not.toThrow();
    expect(() => checkRawJson(JSON.stringify({ text: ',['.repeat(100_000), quoted: '\\",{'.repeat(100_000) }))).not.toThrow();
  });
});
