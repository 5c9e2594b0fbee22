// The edge's refusal of a key repeated in one object of a JSON body: keys compared decoded, at any depth
// and in lists of objects, never confused by braces, quotes or commas inside strings; a 400
// invalid_request whose message and `param` name the key by JSON pointer.
import { describe, expect, it } from 'vitest';
import { checkDuplicateKeys } from '../../src/http/duplicate-keys.js';
import { refusal } from '../helpers/refusal.js';

/** The pointer of the key the body is refused for. */
function refusedAt(raw: string): string | undefined {
  JSON.parse(raw); // the detector's precondition: what JSON.parse accepts
  const err = refusal(() => checkDuplicateKeys(raw));
  expect(err.status).toBe(400);
  expect(err.code).toBe('invalid_request');
  expect(err.message).toBe(`Campo ${err.param} repetido no corpo: cada campo pode aparecer uma só vez em um objeto`);
  return err.param;
}

function accepted(raw: string): void {
  JSON.parse(raw);
  expect(() => checkDuplicateKeys(raw)).not.toThrow();
}

describe('checkDuplicateKeys', () => {
  it('refuses a key written twice, the second meaning what JSON.parse would keep', () => {
    expect(refusedAt('{"amount":1,"amount":5000}')).toBe('/amount');
    expect(refusedAt('{ "amount" : 1 ,\n "description" : "x" , "amount" : 5000 }')).toBe('/amount');
    expect(refusedAt('{"__proto__":1,"__proto__":2}')).toBe('/__proto__');
    expect(refusedAt('{"":1,"":2}')).toBe('/');
  });

  it('compares keys decoded: an escape is the character it stands for', () => {
    expect(refusedAt('{"amount":1,"\\u0061mount":5000}')).toBe('/amount');
    expect(refusedAt('{"\\u0061\\u006D\\u006f\\u0075\\u006e\\u0074":1,"amount":5000}')).toBe('/amount');
    expect(refusedAt('{"a/b":1,"a\\/b":2}')).toBe('/a~1b');
    expect(refusedAt('{"dé":1,"d\\u00e9":2}')).toBe('/dé');
    expect(refusedAt('{"😀":1,"\\ud83d\\ude00":2}')).toBe('/😀');
    expect(refusedAt('{"q\\"":1,"q\\u0022":2}')).toBe('/q"');
    // Escaped differently, decoded differently: two keys.
    accepted('{"a\\\\":1,"a\\"":2,"a":3}');
  });

  it('refuses at any depth, naming the object the key repeats in', () => {
    expect(refusedAt('{"payer":{"name":"Maria","document":"1","name":"José"}}')).toBe('/payer/name');
    expect(refusedAt('{"limits":{"chargeMax":500,"chargeMax":50000}}')).toBe('/limits/chargeMax');
    expect(refusedAt('{"a":{"b":{"c":{"d":1,"d":2}}}}')).toBe('/a/b/c/d');
  });

  it('refuses in lists of objects, naming the item', () => {
    expect(refusedAt('{"split":[{"amount":1},{"amount":1,"percent":2,"amount":3}]}')).toBe('/split/1/amount');
    expect(refusedAt('[[1,[2,3]],{"a":[{},{}]},[{"k":1,"k":2}]]')).toBe('/2/0/k');
    expect(refusedAt('[{"a":[1,{"x":[]},"s"],"b":{},"c":[],"c":0}]')).toBe('/0/c');
  });

  it('accepts the same key in different objects, and any body without a repeat', () => {
    accepted('{"a":1,"b":{"a":2,"b":[{"a":3},{"a":4}]},"c":[{"a":5,"b":6}]}');
    accepted('[{"amount":1},{"amount":2}]');
    accepted('{"a":{"b":1},"b":2}');
    accepted('{"a":{},"b":[],"c":[{}],"d":{"e":{}}}');
    for (const raw of ['"x"', '1', 'null', '[]', '{}', '["a","a"]']) accepted(raw);
  });

  it('is not misled by braces, brackets, commas, colons and quotes inside strings', () => {
    accepted(JSON.stringify({ d: '{"d":1,"d":2}', e: '}', f: '\\', g: '[{,:', h: '\\"}', i: ',"d":' }));
    accepted(JSON.stringify({ a: '","a":"' }));
    expect(refusedAt('{"x":"}{[,\\"x\\":","x":2}')).toBe('/x');
    expect(refusedAt('{"x":"\\\\","y":"\\\\\\"","x":1}')).toBe('/x');
    expect(refusedAt(`{"long":"${'\\\\'.repeat(1000)}","long":1}`)).toBe('/long');
    expect(refusedAt('{"d":["{\\"a\\":1}",{"k}":1,"k}":2}]}')).toBe('/d/1/k}');
  });

  it('scans text nested far deeper than the edge allows without overflowing the stack', () => {
    const levels = 100_000;
    expect(() => checkDuplicateKeys(`${'{"a":['.repeat(levels)}${']}'.repeat(levels)}`)).not.toThrow();
    const deep = `${'{"a":'.repeat(levels)}{"k":1,"k":2}${'}'.repeat(levels)}`;
    const err = refusal(() => checkDuplicateKeys(deep));
    expect(err.param).toBe(`${'/a'.repeat(levels)}/k`);
  });
});
