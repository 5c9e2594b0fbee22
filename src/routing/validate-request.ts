// The one middleware that validates a request against its route's declared schemas: path parameters,
// then the query, then the body, each compiled once from the route table (http/request-schema.ts), so that
// what the OpenAPI document says is what is checked. A query is text: TypeBox converts each value to its
// schema's type (integers, `true`/`false`) where the text is exactly that value, before validation; a
// repeated parameter is refused, and so is an undeclared one (as is an unknown body field: every request
// object is closed), and TypeBox fills in the declared defaults (`ctx.state.query`). A refusal is a 400 whose `param` is the field's JSON pointer and whose code is
// `invalid_request` unless the field's schema names its own (`x-error-code`, e.g. `invalid_status`); a
// route whose spec has its own codes for its body (`refuseBody`) answers those.
import type Koa from 'koa';
import type { Static, TSchema } from 'typebox';
import Value from 'typebox/value';
import type { Deps } from '../runtime/deps.js';
import { ApiError, invalidRequest } from '../http/errors.js';
import { errorPath, fieldLabel, jsonPointer, pointerSteps } from '../json/pointer.js';
import type { OperationSpec } from './operation.js';
import { compileRequestSchema, refinementsOf } from '../http/request-schema.js';

/** The annotation of a query or path parameter's schema that names the spec's code for its refusal. */
export const ERROR_CODE_KEYWORD = 'x-error-code';

type Schema = {
  type?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  properties?: Record<string, Schema>;
  additionalProperties?: unknown;
  items?: Schema;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  [ERROR_CODE_KEYWORD]?: string;
};

interface SchemaError {
  keyword: string;
  instancePath: string;
  params: object;
}

/** The field's schema at `steps` under `root`, walking properties and items. */
function schemaAt(root: Schema, steps: string[]): Schema | undefined {
  let at: Schema | undefined = root;
  for (const step of steps) {
    if (at === undefined) return undefined;
    if (at.type === 'array') at = at.items;
    else at = at.properties?.[step] ?? (typeof at.additionalProperties === 'object' ? (at.additionalProperties as Schema) : undefined);
  }
  return at;
}

const listed = (values: unknown[]) => values.map(String).join(', ');

/** What a valid value of `schema` is, in Portuguese, after "deve ser": "um inteiro de 1 a 100". */
export function expectation(schema: Schema, value?: unknown): string {
  // A refined field says itself what it expects (its refinements hold what JSON Schema cannot).
  const [refinement] = refinementsOf(schema);
  if (refinement) return refinement.error(value);
  if (schema.enum) return `um de: ${listed(schema.enum)}`;
  if (schema.anyOf?.every((branch) => 'const' in branch)) return `um de: ${listed(schema.anyOf.map((branch) => branch.const))}`;
  switch (schema.type) {
    case 'boolean':
      return 'true ou false';
    case 'integer':
      if (schema.minimum !== undefined && schema.maximum !== undefined) return `um inteiro de ${schema.minimum} a ${schema.maximum}`;
      return schema.minimum !== undefined ? `um inteiro maior ou igual a ${schema.minimum}` : 'um inteiro';
    case 'number':
      if (schema.multipleOf === 0.01) {
        return `um valor em reais ${schema.exclusiveMinimum === 0 ? 'maior que zero' : 'não negativo'} com até 2 casas decimais`;
      }
      return schema.minimum !== undefined && schema.maximum !== undefined
        ? `um número de ${schema.minimum} a ${schema.maximum}`
        : 'um número';
    case 'string':
      return `um texto${schema.minLength ? ' não vazio' : ''}${schema.maxLength !== undefined ? ` de até ${schema.maxLength} caracteres` : ''}`;
    case 'array': {
      const items = schema.items ? expectation(schema.items) : '';
      const of = items.startsWith('um de: ') ? ` de: ${items.slice('um de: '.length)}` : '';
      return `uma lista${schema.minItems ? ' não vazia' : ''}${schema.maxItems !== undefined ? ` de até ${schema.maxItems} itens` : ''}${of}`;
    }
    case 'object':
      return 'um objeto';
    default:
      return 'um valor válido';
  }
}

type Naming = (steps: string[]) => string;

/** The refusal of `value` for its first schema error: message naming the field, `param` pointing at it. */
function refusalOf(schema: Schema, value: unknown, error: SchemaError, name: Naming): ApiError {
  const unknownField = (error.params as { additionalProperties?: string[] }).additionalProperties?.[0];
  if (error.keyword === 'additionalProperties' && unknownField !== undefined) {
    const steps = [...pointerSteps(error.instancePath), unknownField];
    return invalidRequest(`Campo desconhecido: ${name(steps)}`, jsonPointer(...steps));
  }
  if (error.keyword === 'boolean')
    return invalidRequest(`Campo desconhecido: ${name(pointerSteps(error.instancePath))}`, error.instancePath);
  const pointer = errorPath(error);
  const steps = pointerSteps(pointer);
  const field = schemaAt(schema, steps);
  if (error.keyword === 'minProperties' && field?.properties) {
    const where = steps.length ? ` em ${name(steps)}` : '';
    return invalidRequest(
      `Informe ao menos um campo${where}: ${Object.keys(field.properties).join(', ')}`,
      steps.length ? pointer : undefined,
    );
  }
  if (steps.length === 0) return invalidRequest('O corpo deve ser um objeto JSON');
  const given = steps.reduce<unknown>(
    (at, step) => (at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[step] : undefined),
    value,
  );
  const wanted = field ? expectation(field, given) : 'um valor válido';
  const message = error.keyword === 'required' ? `${name(steps)} é obrigatório e deve ser ${wanted}` : `${name(steps)} deve ser ${wanted}`;
  const code = field?.[ERROR_CODE_KEYWORD];
  return (code ? new ApiError(400, code, message) : invalidRequest(message)).at(pointer);
}

interface Validator {
  schema: Schema;
  check(value: unknown): boolean;
  errors(value: unknown): SchemaError[];
}

function validatorOf(schema: TSchema): Validator {
  const compiled = compileRequestSchema(schema).all;
  return { schema: schema as Schema, check: (value) => compiled.Check(value), errors: (value) => [...compiled.Errors(value)] };
}

/** `value` as the validator sees it; throws the refusal of its first error. */
function validated(validator: Validator, value: unknown, name: Naming): void {
  if (validator.check(value)) return;
  const [first] = validator.errors(value);
  throw refusalOf(validator.schema, value, first ?? { keyword: 'type', instancePath: '', params: {} }, name);
}

/**
 * TypeBox's conversion of a query value, kept only when it is exact: the value written back is the text
 * sent, zeros before an integer aside. TypeBox reads "1.5" and "1.0" as 1, "1e3" as 1000 and "1" as true;
 * the API refuses them: the text is left as is, for validation to refuse.
 */
function exactly(text: string, converted: unknown): unknown {
  return String(converted) === text.replace(/^0+(?=\d)/, '') ? converted : text;
}

/** A query parameter the route does not declare is refused: a typo never silently changes what a request does. */
function refuseUndeclared(query: Koa.Context['query'], schema: Schema | undefined): void {
  const undeclared = Object.keys(query).find((name) => !Object.hasOwn(schema?.properties ?? {}, name));
  if (undeclared === undefined) return;
  const declared = Object.keys(schema?.properties ?? {});
  const accepted = declared.length ? `os parâmetros aceitos são ${declared.join(', ')}` : 'esta rota não aceita parâmetros';
  throw invalidRequest(`Parâmetro desconhecido: ${undeclared} (${accepted})`, jsonPointer(undeclared));
}

/** The declared parameters of a query, read as their schemas' types; a repeated one is refused. */
function queryOf(query: Koa.Context['query'], schema: Schema): Record<string, unknown> {
  const texts: Record<string, string> = {};
  for (const name of Object.keys(schema.properties ?? {})) {
    const raw = query[name];
    if (raw === undefined) continue;
    if (Array.isArray(raw)) throw invalidRequest(`O parâmetro ${name} deve aparecer uma única vez`, jsonPointer(name));
    texts[name] = raw;
  }
  const converted = Value.Convert(schema as TSchema, { ...texts }) as Record<string, unknown>;
  return Object.fromEntries(Object.entries(texts).map(([name, text]) => [name, exactly(text, converted[name])]));
}

/** The query `validateRequest` validated against `schema`, typed by it. */
export function validQuery<T extends TSchema>(ctx: Koa.Context, _schema: T): Static<T> {
  return ctx.state.query as Static<T>;
}

const parameterName: Naming = (steps) => steps.join('/');

/** The validation of `operation`'s requests, compiled once; put it in front of the handler. */
export function validateRequest(operation: OperationSpec, deps: Deps): Koa.Middleware {
  const { request = {} } = operation;
  const params = request.params && validatorOf(request.params);
  const query = request.query && validatorOf(request.query);
  const body = request.body && validatorOf(request.body);
  return async (ctx, next) => {
    if (params) validated(params, { ...ctx.params }, parameterName);
    refuseUndeclared(ctx.query, query?.schema);
    if (query) {
      const values = queryOf(ctx.query, query.schema);
      validated(query, values, parameterName);
      ctx.state.query = Value.Default(query.schema as TSchema, values);
    } else ctx.state.query = {};
    if (body) {
      const given = ctx.request.body === undefined && request.optionalBody ? {} : ctx.request.body;
      if (!body.check(given)) {
        await operation.refuseBody?.(given, deps, ctx);
        validated(body, given, fieldLabel);
      }
      ctx.request.body = given as typeof ctx.request.body;
    }
    return next();
  };
}
