// The field schemas the admin routes' bodies are made of. Each says what a valid value is twice: in
// JSON Schema for the document, and, where JSON Schema cannot (a CPF's check digits, an IP or CIDR,
// text judged once trimmed), in a refinement whose message completes "<field> deve ser …". Every
// refusal is then a 400 invalid_request naming the field (validate-request.ts); unknown fields are
// refused by `additionalProperties: false`. Amounts are reais here and centavos once read (reaisToCents).
import Type, { type TSchema } from 'typebox';
import { normalizeAllowlistEntry } from '../accounts/ip-allowlist.js';
import { reais } from '../http/request-schema.js';
import { documentKind } from '../domain/documents.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PERCENT = /^\d{1,2}(?:\.\d{1,4})?$/;

const isText = (value: unknown): value is string => typeof value === 'string';

/** A closed object: a field it does not declare is refused by name. */
export const closed = <T extends Record<string, TSchema>>(properties: T, options: object = {}) =>
  Type.Object(properties, { additionalProperties: false, ...options });

/** Text judged once trimmed: not blank and, given `maxLength`, at most that many characters. */
export const trimmedText = (maxLength: number | null, description: string) =>
  Type.Refine(
    Type.String({
      minLength: 1,
      description: maxLength === null ? description : `${description} (de 1 a ${maxLength} caracteres, sem contar os espaços das pontas)`,
    }),
    (value) => isText(value) && value.trim() !== '' && (maxLength === null || value.trim().length <= maxLength),
    () => (maxLength === null ? 'um texto não vazio' : `um texto não vazio de até ${maxLength} caracteres`),
  );

/** A CPF or CNPJ (numeric or alphanumeric), with or without its mask. */
export const documentField = (description: string) =>
  Type.Refine(
    Type.String({ description }),
    (value) => isText(value) && documentKind(value) !== null,
    () => 'um CPF ou CNPJ válido',
  );

/** An e-mail address, judged once trimmed. */
export const emailField = (description: string) =>
  Type.Refine(
    Type.String({ maxLength: 254, description }),
    (value) => isText(value) && value.trim().length <= 254 && EMAIL.test(value.trim()),
    () => 'um endereço de e-mail válido',
  );

/** Reais, at most two decimal places; `positive` excludes zero; `maximum` in reais when there is one. */
export const reaisField = (positive: boolean, description: string, maximum?: number) =>
  reais({ ...(positive ? { exclusiveMinimum: 0 } : { minimum: 0 }), ...(maximum === undefined ? {} : { maximum }), description });

/** A percent from 0 to 99.9999 with at most four decimal places (the decimal text is judged, not a float). */
export const percentField = (description: string) =>
  Type.Refine(
    Type.Number({ minimum: 0, maximum: 99.9999, description }),
    (value) => typeof value === 'number' && PERCENT.test(String(value)),
    () => 'um percentual de 0 a 99.9999 com até 4 casas decimais',
  );

/** An IPv4 or IPv6 address or CIDR range. */
export const ipOrCidr = Type.Refine(
  Type.String({ description: 'IP (IPv4 ou IPv6) ou faixa CIDR' }),
  (value) => isText(value) && normalizeAllowlistEntry(value) !== null,
  () => 'um IP ou uma faixa CIDR (IPv4 ou IPv6)',
);

/** The path parameter of a resource addressed by id. */
export const idParam = (description: string) => Type.Object({ id: Type.String({ description }) });
