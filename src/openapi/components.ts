// Collects the schemas of the document under `components.schemas`. A schema that was given a name
// (`name()`), or that carries a `$id` (typebox `{ $id: 'Pagination' }`), is stored once under that
// name and referenced by `$ref` wherever it appears. Typebox copies schemas when it composes them
// (`Type.Array(TransactionSchema)`), so a named schema is recognised by its content, not its identity.
import type { TSchema } from 'typebox';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Keywords whose values are data, not sub-schemas. */
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples', 'required']);

export class SchemaComponents {
  readonly schemas: Record<string, Json> = {};
  readonly requestBodies: Record<string, Json> = {};
  /** Name of each named schema, by its JSON text. */
  private readonly names = new Map<string, string>();

  /** A plain JSON copy of `schema`, with its named parts replaced by references (typebox symbols dropped). */
  inline(schema: TSchema): Json {
    return this.copy(schema);
  }

  /** Gives `schema` a name: it and every later appearance of an equal schema become a `$ref`. */
  name(name: string, schema: TSchema): Json {
    return this.store(name, this.body(schema));
  }

  /**
   * A JSON request body under `components.requestBodies`, its schema written inline there rather than
   * under `schemas`: generators (openapi-typescript) then keep a property with a `default` optional, as a
   * request may leave it out, where in a response schema a `default` makes it always present.
   */
  requestBody(name: string, schema: TSchema, required: boolean): Json {
    this.requestBodies[name] = { required, content: { 'application/json': { schema: this.inline(schema) } } };
    return { $ref: `#/components/requestBodies/${encodeURIComponent(name)}` };
  }

  private copy(node: unknown): Json {
    if (Array.isArray(node)) return node.map((item) => this.copy(item));
    if (node === null || typeof node !== 'object') return node as Json;
    const body = this.body(node);
    const $id = (node as { $id?: unknown }).$id;
    const name = typeof $id === 'string' ? $id : this.names.get(JSON.stringify(body));
    return name === undefined ? body : this.store(name, body);
  }

  /** The object's keywords, copied, without `$id`. */
  private body(node: object): { [key: string]: Json } {
    const body: { [key: string]: Json } = {};
    for (const [key, value] of Object.entries(node)) {
      if (value === undefined || key === '$id') continue;
      body[key] = DATA_KEYWORDS.has(key) ? (JSON.parse(JSON.stringify(value)) as Json) : this.copy(value);
    }
    return body;
  }

  private store(name: string, body: { [key: string]: Json }): Json {
    const text = JSON.stringify(body);
    const known = this.schemas[name];
    if (known !== undefined && JSON.stringify(known) !== text) throw new Error(`two different schemas are both named ${name}`);
    this.schemas[name] = body;
    // Equal content found later is referenced by the first name given to it.
    if (!this.names.has(text)) this.names.set(text, name);
    return { $ref: `#/components/schemas/${encodeURIComponent(name)}` };
  }
}

export type { Json };
