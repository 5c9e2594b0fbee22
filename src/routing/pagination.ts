// `page` and `limit` of the list routes (GET /transactions, GET /meds): their query schema (validated
// by validate-request.ts: 400 invalid_request outside the spec's ranges) and the `pagination` object of
// the answer. A route whose query has `page` answers a list with `pagination`.
import type Koa from 'koa';
import Type from 'typebox';
import { ok } from '../http/edge.js';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

export const PageQuerySchema = {
  // 2^53−1: every integer to it is exact as a number.
  page: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: Number.MAX_SAFE_INTEGER,
      default: 1,
      description: 'Página, a partir de 1; além da última, a lista vem vazia',
    }),
  ),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT, description: `Itens por página, de 1 a ${MAX_LIMIT}` }),
  ),
};

export interface Page {
  page: number;
  limit: number;
}

export function pagination(page: Page, total: number) {
  return { page: page.page, limit: page.limit, total, pages: Math.ceil(total / page.limit) };
}

/** Answers one page of a list: its rows as the API shows them, and its `pagination`. */
export function okPage<Row>(ctx: Koa.Context, page: Page, listed: { rows: Row[]; total: number }, show: (row: Row) => unknown): void {
  // show(row) alone: map's index would reach a serializer's optional `now` (serializeTransaction's).
  ok(
    ctx,
    listed.rows.map((row) => show(row)),
    200,
    { pagination: pagination(page, listed.total) },
  );
}
