// The edge's bounds on a JSON body: nesting depth on the raw text, then list and object sizes and the
// text rule on every key and string, each refusal a 400 invalid_request naming the field.
import { describe, expect, it } from 'vitest';
import { checkRawJson, checkJsonShape, JSON_LIMITS } from '../../src/http/json-shape.js';
import { refusal } from '../helpers/refusal.js';

const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

describe('checkRawJson', () => {
  it('refuses nesting past the limit, however deep, without recursion', () => {
    for (const raw of [nested(JSON_LIMITS.depth + 1), nested(5000), `{"a":${nested(1_000_000)}}`]) {
      const err = refusal(() => checkRawJson(raw));
      expect(err.status).toBe(400);
      expect(err.code).toBe('invalid_request');
      expect(err.message).toMatch(/aninhado demais/);
    }
  });

  it('accepts nesting up to the limit, and does not count brackets inside strings', () => {
    expect(() => checkRawJson(nested(JSON_LIMITS.depth))).not.toThrow();
    expect(() => checkRawJson(JSON.stringify({ text: '['.repeat(100), quoted: '"[{'.repeat(100) }))).not.toThrow();
  });
});

describe('checkJsonShape', () => {
  it('accepts ordinary bodies: accents, emoji (a surrogate pair), every JSON type', () => {
    const body = {
      amount: 10.5,
      payer: { name: 'José da Conceição 😀', document: '529.982.247-25' },
      split: [{ description: 'Ação ✓' }],
      ok: true,
      none: null,
    };
    expect(() => checkJsonShape(body)).not.toThrow();
  });

  it.each([
    ['NUL', 'a\u0000b', 'U+0000, caractere nulo'],
    ['bell', 'Fulano\u0007', 'U+0007, caractere de controle'],
    ['ANSI colour', '\u001b[31mFulano', 'U+001B, caractere de controle, início de sequência ANSI'],
    ['C1 CSI', '\u009b31m', 'U+009B'],
    ['DEL', 'a\u007f', 'U+007F'],
    ['C1 next line', 'a\u0085b', 'U+0085'],
    ['tab', 'a\tb', 'U+0009'],
    ['newline', 'a\nb', 'U+000A'],
    ['right-to-left override', '\u202eFulano', 'U+202E, controle bidirecional'],
    ['left-to-right embedding', '\u202aFulano', 'U+202A'],
    ['first strong isolate', '\u2068Fulano', 'U+2068'],
    ['lone high surrogate', 'Fulano\ud800', 'U+D800, surrogate UTF-16 isolado'],
    ['lone low surrogate', '\udc00Fulano', 'U+DC00, surrogate UTF-16 isolado'],
    ['reversed pair', '\ude00\ud83d', 'U+DE00'],
  ])('refuses a %s, naming the field by JSON pointer', (_name, text, problem) => {
    const err = refusal(() => checkJsonShape({ payer: { name: text } }));
    expect(err.status).toBe(400);
    expect(err.code).toBe('invalid_request');
    expect(err.message).toContain('Campo /payer/name');
    expect(err.message).toContain(problem);
  });

  it('names items of lists, escapes pointers, and checks keys without echoing them', () => {
    expect(refusal(() => checkJsonShape({ split: [{ description: 'ok' }, { description: 'x\u202e' }] })).message).toContain(
      'Campo /split/1/description',
    );
    expect(refusal(() => checkJsonShape({ 'a/b': { 'c~d': 'x\u0007' } })).message).toContain('Campo /a~1b/c~0d');
    const key = refusal(() => checkJsonShape({ payer: { 'name\u001b[2J': 'Fulano' } }));
    expect(key.message).toContain('Nome de campo em /payer');
    expect(key.message).not.toContain('\u001b');
    expect(refusal(() => checkJsonShape({ '\u0000': 1 })).message).toContain('Nome de campo no corpo');
    expect(refusal(() => checkJsonShape('\u0007')).message).toContain('O corpo');
  });

  it('bounds lists and objects far above any real body', () => {
    expect(() => checkJsonShape({ list: Array(JSON_LIMITS.items).fill(1) })).not.toThrow();
    expect(refusal(() => checkJsonShape({ list: Array(JSON_LIMITS.items + 1).fill(1) })).message).toMatch(/Campo \/list tem itens demais/);
    const wide = Object.fromEntries(Array.from({ length: JSON_LIMITS.keys + 1 }, (_, i) => [`k${i}`, i]));
    expect(refusal(() => checkJsonShape({ wide })).message).toMatch(/Campo \/wide tem campos demais/);
  });

  it('walks a value nested far deeper than the limit without overflowing the stack', () => {
    let deep: unknown = 'x\u0007';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(refusal(() => checkJsonShape(deep)).message).toContain('/0/0/0');
  });
});
