// GET /admin/accounts/{id}/statement: an account's statement for operators (books.md, "Statements"),
// as JSON or, with `Accept: text/csv`, as CSV. Both are written as the ledger is read, batch by batch
// (src/ledger/statement.ts), so that a statement of a million entries is never held in memory.
import { Readable } from 'node:stream';
import type Koa from 'koa';
import Type, { type Static } from 'typebox';
import { getAccount } from '../../accounts/repository.js';
import type { Deps } from '../../runtime/deps.js';
import { centsToReais } from '../../domain/money.js';
import { statementLines, type StatementEntry, type StatementLine } from '../../ledger/statement.js';
import { statementEntryJson, statementSchema, statementWindow, statementWindowQuery } from '../../ledger/statement-schema.js';
import { alsoServedAs } from '../../openapi/envelopes.js';
import { AccountParams, accountNotFound } from './accounts.js';
import { NOT_FOUND } from '../../routing/admin-errors.js';
import type { AdminRoute } from '../../routing/operation.js';

const CSV = 'text/csv';
const CSV_HEADER = 'at,kind,transactionId,description,amount,balanceAfter';

const StatementCsv = Type.String({
  pattern: `^${CSV_HEADER}\r\n`,
  description: `Com Accept: ${CSV}. Uma linha de cabeçalho (${CSV_HEADER}), depois um lançamento por linha (CRLF), valores em reais com ponto decimal e duas casas (-12.50), descrição entre aspas quando tem vírgula, aspas ou quebra de linha e com ' à frente quando começaria uma fórmula de planilha (=, +, -, @); o saldo inicial é o balanceAfter menos o amount da primeira linha`,
});

const StatementQuery = Type.Object(statementWindowQuery());

/**
 * A text field: quoted when it holds a comma, a quote or a line break; with a leading `'` when it starts as
 * a spreadsheet formula would (`=`, `+`, `-`, `@`), so that opening the file never runs one.
 */
const csvField = (text: string) => {
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
};

/** Centavos as CSV reais: -1250 → "-12.50". */
function csvReais(cents: number): string {
  const abs = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

export function csvLine(entry: StatementEntry): string {
  const { at, kind, transactionId, description, amountCents, balanceAfterCents } = entry;
  return `${[at.toISOString(), kind, transactionId ?? '', csvField(description), csvReais(amountCents), csvReais(balanceAfterCents)].join(',')}\r\n`;
}

/** The JSON envelope `{success, data: {openingBalance, entries, closingBalance}, requestId}`, piece by piece. */
function* jsonPieces(line: StatementLine, requestId: string, first: boolean): Generator<string> {
  if (line.line === 'opening') yield `{"success":true,"data":{"openingBalance":${centsToReais(line.balanceCents)},"entries":[`;
  else if (line.line === 'entry') yield `${first ? '' : ','}${JSON.stringify(statementEntryJson(line))}`;
  else yield `],"closingBalance":${centsToReais(line.balanceCents)}},"requestId":${JSON.stringify(requestId)}}`;
}

function* csvPieces(line: StatementLine): Generator<string> {
  if (line.line === 'opening') yield `${CSV_HEADER}\r\n`;
  else if (line.line === 'entry') yield csvLine(line);
}

const CHUNK_CHARS = 64 * 1024;

/** The body's text in chunks of about 64 KiB, from the statement's lines (the first one already read). */
async function* body(
  first: StatementLine,
  rest: AsyncIterator<StatementLine>,
  pieces: (line: StatementLine, isFirstEntry: boolean) => Iterable<string>,
) {
  let chunk = '';
  let entries = 0;
  for (let line: StatementLine | undefined = first; line;) {
    for (const piece of pieces(line, entries === 0)) chunk += piece;
    if (line.line === 'entry') entries += 1;
    if (chunk.length >= CHUNK_CHARS) {
      yield chunk;
      chunk = '';
    }
    const next = await rest.next();
    line = next.done ? undefined : next.value;
  }
  if (chunk) yield chunk;
}

async function statement(ctx: Koa.Context, deps: Deps) {
  const window = statementWindow(ctx.state.query as Static<typeof StatementQuery>);
  const account = await getAccount(deps.sql, ctx.params.id!);
  if (!account) throw accountNotFound();
  const lines = statementLines(deps.sql, account.id, window);
  // The first line is read before answering: a failure to start is still an error answer.
  const opening = await lines.next();
  const asCsv = ctx.accepts('application/json', CSV) === CSV;
  const requestId = ctx.state.requestId as string;
  const stream = Readable.from(
    body(opening.value as StatementLine, lines, asCsv ? csvPieces : (line, firstEntry) => jsonPieces(line, requestId, firstEntry)),
  );
  stream.on('error', (err) => deps.log.error({ err, requestId, accountId: account.id }, 'statement stream failed'));
  ctx.status = 200;
  ctx.type = asCsv ? `${CSV}; charset=utf-8` : 'application/json; charset=utf-8';
  if (asCsv) ctx.attachment(`statement-${account.id}.csv`);
  ctx.body = stream;
}

export const STATEMENT_ROUTES: AdminRoute[] = [
  {
    method: 'GET',
    path: '/accounts/:id/statement',
    summary: `Extrato do saldo disponível da conta num período [from, to), lido do razão: saldo inicial, lançamentos com o saldo após cada um, saldo final; em CSV com Accept: ${CSV}`,
    operationId: 'getAccountStatement',
    request: { params: AccountParams, query: StatementQuery },
    response: alsoServedAs(statementSchema(), CSV, StatementCsv),
    errors: [NOT_FOUND],
    handler: statement,
  },
];
