// The one validation middleware, on a route of its own: path parameters, the query read from text
// (integers, booleans, enums with their own codes, defaults, repeats) and the body, each refusal a 400
// with `param` pointing at the field and a message naming it.
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import Koa from 'koa';
import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import type { OperationSpec } from '../../src/routing/operation.js';
import { reais } from '../../src/http/request-schema.js';
import { ERROR_CODE_KEYWORD, expectation, validateRequest } from '../../src/routing/validate-request.js';
import { fieldLabel } from '../../src/json/pointer.js';
import type { Deps } from '../../src/runtime/deps.js';
import { ApiError } from '../../src/http/errors.js';

const app = new Koa();
const deps = {} as Deps;

const ROUTE: OperationSpec = {
  method: 'POST',
  path: '/things/:id',
  summary: 'A thing',
  operationId: 'makeThing',
  request: {
    params: Type.Object({ id: Type.String({ pattern: '^thg_[a-z]+$' }) }),
    query: Type.Object({
      n: Type.Optional(Type.Integer({ minimum: 1, maximum: 5, default: 2 })),
      flag: Type.Optional(Type.Boolean()),
      kind: Type.Optional(Type.Enum(['a', 'b'], { [ERROR_CODE_KEYWORD]: 'invalid_kind' })),
    }),
    body: Type.Object(
      {
        amount: reais({ exclusiveMinimum: 0 }),
        items: Type.Optional(Type.Array(Type.Object({ qty: Type.Integer({ minimum: 1 }) }, { additionalProperties: false }))),
      },
      { additionalProperties: false },
    ),
  },
  handler: async () => {},
};

interface Outcome {
  error?: ApiError;
  query?: Record<string, unknown>;
}

async function run(route: OperationSpec, options: { id?: string; query?: string; body?: unknown } = {}): Promise<Outcome> {
  const { id = 'thg_x', query = '' } = options;
  const body = 'body' in options ? options.body : { amount: 10 };
  const req = new IncomingMessage(new Socket());
  req.method = route.method;
  req.url = `/things/${id}${query ? `?${query}` : ''}`;
  const ctx = app.createContext(req, new ServerResponse(req));
  ctx.params = { id };
  ctx.request.body = body as never;
  try {
    await validateRequest(route, deps)(ctx, async () => {});
    return { query: ctx.state.query };
  } catch (err) {
    if (err instanceof ApiError) return { error: err };
    throw err;
  }
}

const refusal = async (options: Parameters<typeof run>[1]) => {
  const { error } = await run(ROUTE, options);
  expect(error, JSON.stringify(options)).toBeInstanceOf(ApiError);
  return error!;
};

describe('the query, read from text', () => {
  it('coerces integers and booleans and fills defaults', async () => {
    expect((await run(ROUTE, { query: 'n=3&flag=true&kind=b' })).query).toEqual({ n: 3, flag: true, kind: 'b' });
    expect((await run(ROUTE, { query: 'flag=false' })).query).toEqual({ n: 2, flag: false });
    expect((await run(ROUTE, {})).query).toEqual({ n: 2 });
    expect((await run(ROUTE, { query: 'n=03' })).query).toEqual({ n: 3 });
  });

  it.each(['yes', 'TRUE', '1', ''])('refuses flag=%s naming the parameter', async (value) => {
    const err = await refusal({ query: `flag=${value}` });
    expect([err.status, err.code, err.param, err.message]).toEqual([400, 'invalid_request', '/flag', 'flag deve ser true ou false']);
  });

  it.each(['0', '6', '-1', '1.5', '3.0', '1e3', '+3', ' 3', '0x3', 'true', 'abc', '99999999999999999'])(
    'refuses n=%s with the range',
    async (value) => {
      const err = await refusal({ query: `n=${value}` });
      expect([err.code, err.param, err.message]).toEqual(['invalid_request', '/n', 'n deve ser um inteiro de 1 a 5']);
    },
  );

  it('refuses an undeclared parameter naming it and the declared ones: a typo never widens a list', async () => {
    const err = await refusal({ query: 'n=3&from=2026-11-25' });
    expect([err.status, err.code, err.param, err.message]).toEqual([
      400,
      'invalid_request',
      '/from',
      'Parâmetro desconhecido: from (os parâmetros aceitos são n, flag, kind)',
    ]);
  });

  it('refuses a repeated parameter, and an enum value with the code its schema names', async () => {
    const repeated = await refusal({ query: 'n=1&n=2' });
    expect([repeated.code, repeated.param]).toEqual(['invalid_request', '/n']);
    const kind = await refusal({ query: 'kind=c' });
    expect([kind.status, kind.code, kind.param, kind.message]).toEqual([400, 'invalid_kind', '/kind', 'kind deve ser um de: a, b']);
  });
});

describe('path parameters and the body', () => {
  it('refuses a path parameter its schema refuses, pointing at it', async () => {
    const err = await refusal({ id: 'nope' });
    expect([err.code, err.param]).toEqual(['invalid_request', '/id']);
  });

  it('points at the body field to blame, nested or missing, and names it as operators read it', async () => {
    const cases: Array<[unknown, string, string]> = [
      [{ amount: 0 }, '/amount', 'amount deve ser um valor em reais maior que zero com até 2 casas decimais'],
      [{ amount: 1.001 }, '/amount', 'amount deve ser um valor em reais maior que zero com até 2 casas decimais'],
      [{}, '/amount', 'amount é obrigatório e deve ser um valor em reais maior que zero com até 2 casas decimais'],
      [{ amount: 1, items: [{ qty: 1 }, { qty: 0 }] }, '/items/1/qty', 'items[1].qty deve ser um inteiro maior ou igual a 1'],
      [{ amount: 1, items: [{ qty: 1, x: 2 }] }, '/items/0/x', 'Campo desconhecido: items[0].x'],
      [{ amount: 1, extra: true }, '/extra', 'Campo desconhecido: extra'],
    ];
    for (const [body, param, message] of cases) {
      const err = await refusal({ body });
      expect([err.code, err.param, err.message], JSON.stringify(body)).toEqual(['invalid_request', param, message]);
    }
  });

  it('holds every object of a body closed even where its schema says nothing of other fields', async () => {
    const open = Type.Object({ a: Type.Optional(Type.String()), nested: Type.Optional(Type.Object({ b: Type.String() })) });
    const route: OperationSpec = { ...ROUTE, request: { body: open } };
    expect((await run(route, { body: { a: 'x', nested: { b: 'y' } } })).error).toBeUndefined();
    for (const [body, param, message] of [
      [{ a: 'x', metadata: {} }, '/metadata', 'Campo desconhecido: metadata'],
      [{ nested: { b: 'y', c: 2 } }, '/nested/c', 'Campo desconhecido: nested.c'],
    ] as const) {
      const { error } = await run(route, { body });
      expect([error?.status, error?.code, error?.param, error?.message]).toEqual([400, 'invalid_request', param, message]);
    }
  });

  it('blames no single field for a body that is not an object', async () => {
    for (const body of [[1], 'text', undefined]) {
      const err = await refusal({ body });
      expect([err.code, err.param, err.message]).toEqual(['invalid_request', undefined, 'O corpo deve ser um objeto JSON']);
    }
  });

  it("answers a route's own refusal of a body its schema refuses, and lets a valid body through untouched", async () => {
    const own = new ApiError(400, 'THING_INVALID', 'coisa inválida', {}, {}, '/amount');
    const route: OperationSpec = { ...ROUTE, refuseBody: async () => Promise.reject(own) };
    expect((await run(route, { body: { amount: -1 } })).error).toBe(own);
    expect((await run(route, { body: { amount: 1 } })).error).toBeUndefined();
  });

  it('validates an absent optional body as {}', async () => {
    const route: OperationSpec = { ...ROUTE, request: { body: Type.Object({ a: Type.Optional(Type.String()) }), optionalBody: true } };
    expect((await run(route, { body: undefined })).error).toBeUndefined();
  });
});

describe('messages', () => {
  it('say what a valid value is, from the schema', () => {
    expect(expectation(Type.Array(Type.Enum(['x', 'y']), { minItems: 1 }) as never)).toBe('uma lista não vazia de: x, y');
    expect(expectation(Type.String({ minLength: 1, maxLength: 10 }) as never)).toBe('um texto não vazio de até 10 caracteres');
    expect(
      expectation(
        Type.Refine(
          Type.String(),
          () => false,
          () => 'um CPF válido',
        ) as never,
      ),
    ).toBe('um CPF válido');
    expect(fieldLabel(['fees', 'charge', 'fixed'])).toBe('fees.charge.fixed');
    expect(fieldLabel(['permissions', '1'])).toBe('permissions[1]');
  });
});
