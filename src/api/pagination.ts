// `page` and `limit` of the list routes (GET /transactions, GET /meds): their query schema, their
// checks (400 invalid_request outside the spec's ranges) and the `pagination` object of the answer.
import Type from 'typebox';
import { invalidRequest } from '../http/errors.js';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

export const PageQuerySchema = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, default: 1, description: 'Página, a partir de 1; além da última, a lista vem vazia' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT, description: 'Itens por página, de 1 a 100' })),
};

export interface Page {
  page: number;
  limit: number;
}

/** A single query value: a repeated parameter (`?a=1&a=2`) is refused like any malformed value. */
export function queryValue(query: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = query[name];
  if (Array.isArray(value)) throw invalidRequest(`O parâmetro ${name} deve aparecer uma única vez`);
  return value;
}

function integerParam(raw: string | undefined, name: string, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  // Up to 16 digits: every integer to 2^53−1 (9007199254740991) is exact as a number; more cannot be.
  const value = /^\d{1,16}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= min && value <= max)) {
    throw invalidRequest(`${name} deve ser um inteiro de ${min} a ${max}`);
  }
  return value;
}

export function parsePage(query: Record<string, string | string[] | undefined>): Page {
  return {
    page: integerParam(queryValue(query, 'page'), 'page', 1, 1, Number.MAX_SAFE_INTEGER),
    limit: integerParam(queryValue(query, 'limit'), 'limit', DEFAULT_LIMIT, 1, MAX_LIMIT),
  };
}

export function pagination(page: Page, total: number) {
  return { page: page.page, limit: page.limit, total, pages: Math.ceil(total / page.limit) };
}
