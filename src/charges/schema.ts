// POST /transactions: the body's typebox schema (validation and the OpenAPI document come from it)
// and the checks a schema cannot express (CPF check digits, a name of 3 letters once trimmed, a public webhook address),
// each failure mapped to the spec's code and a Portuguese message. parseChargeRequest reads a body the route's
// schema accepted into the one typed request the rest of the path takes; parseChargeBody names the refusal
// of a body it refused.
import Type, { type Static } from 'typebox';
import { isValidCpf, normalizeDocument, documentKind } from '../domain/documents.js';
import { reaisToCents } from '../domain/money.js';
import { invalidRequest, Refusal } from '../domain/refusal.js';
import { checkReceiverUrl, parseReceiverUrl } from '../webhooks/ssrf.js';
import { compileRequestSchema, reais, TWO_DECIMALS_KEYWORD, unknownFieldRefusal } from '../http/request-schema.js';
import { errorPath } from '../json/pointer.js';
import { checkBodyExternalId, IDEMPOTENCY_KEY_PATTERN } from '../transactions/idempotency.js';
import type { DueDateTerms, SplitRequestItem } from './contract.js';
import { checkMetadata, comparedMetadata, MetadataRequestSchema, type Metadata } from '../transactions/metadata.js';
import type { CycleTerms } from '../recurrences/contract.js';
import { DUE_DATE_BODY_FIELDS, dueDateSchemaRefusal, parseDueDateTerms } from './due-date/body.js';

export const SPLIT_MAX_RECIPIENTS = 10;

export const SplitItemSchema = Type.Object(
  {
    recipient: Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'Conta recebedora: e-mail, CPF/CNPJ ou identificador da conta (acc_…)',
    }),
    amount: Type.Optional(
      reais({ minimum: 0.01, description: 'Valor em reais (mínimo 0,01, até duas casas decimais); informe amount ou percent' }),
    ),
    percent: Type.Optional(
      Type.Number({ minimum: 0.01, maximum: 100, description: 'Percentual do valor da venda (0,01 a 100); informe amount ou percent' }),
    ),
    description: Type.Optional(Type.String({ maxLength: 140 })),
  },
  {
    description: 'Cada item leva amount ou percent, nunca os dois e nunca nenhum',
    oneOf: [
      { title: 'Comissão em reais', required: ['amount'], not: { required: ['percent'] } },
      { title: 'Comissão em percentual', required: ['percent'], not: { required: ['amount'] } },
    ],
  },
);

/** An idempotency key in a body: the rules of the `Idempotency-Key` header. */
export const ExternalIdSchema = Type.String({
  maxLength: 100,
  pattern: IDEMPOTENCY_KEY_PATTERN.source,
  description: 'Chave de idempotência; alternativa ao cabeçalho Idempotency-Key (até 100 caracteres: letras, dígitos e . _ : / -)',
});

export const ChargeBodySchema = Type.Object({
  amount: reais({
    exclusiveMinimum: 0,
    description: 'Valor em reais, até duas casas decimais; de 1 a 10000 (limites ajustáveis por conta)',
  }),
  payer: Type.Object({
    name: Type.String({ minLength: 3, maxLength: 200, description: 'Nome completo (mínimo 3 caracteres)' }),
    document: Type.String({
      minLength: 1,
      maxLength: 20,
      description: 'CPF válido, com ou sem pontuação; numa cobrança com vencimento (dueDate), CPF ou CNPJ (numérico ou alfanumérico)',
    }),
    email: Type.Optional(Type.Union([Type.String({ format: 'email', maxLength: 254 }), Type.Null()])),
  }),
  externalId: Type.Optional(ExternalIdSchema),
  description: Type.Optional(Type.Union([Type.String({ maxLength: 140 }), Type.Null()])),
  metadata: Type.Optional(MetadataRequestSchema),
  coverFee: Type.Optional(
    Type.Boolean({
      default: false,
      description:
        'true: o pagador paga também a taxa, e o valor com ela fica dentro dos limites da conta (não se aplica a cobranças com vencimento)',
    }),
  ),
  split: Type.Optional(Type.Array(SplitItemSchema, { maxItems: SPLIT_MAX_RECIPIENTS })),
  webhookUrl: Type.Optional(
    Type.Union([
      Type.String({ format: 'uri', maxLength: 2048, description: 'URL HTTPS que recebe os eventos desta cobrança' }),
      Type.Null(),
    ]),
  ),
  ...DUE_DATE_BODY_FIELDS,
});

export type ChargeBody = Static<typeof ChargeBodySchema>;

const validators = compileRequestSchema(ChargeBodySchema);

/** The request as the engine uses it: centavos, a normalised document, defaults applied. */
export interface ChargeRequest {
  amountCents: number;
  payer: { name: string; document: string; email?: string };
  externalId?: string;
  description: string | null;
  metadata: Metadata;
  coverFee: boolean;
  split: SplitRequestItem[];
  webhookUrl: string | null;
  /** A due-date charge's terms (the body had `dueDate`). */
  due?: DueDateTerms;
  /** A recurrence's cycle charge (src/recurrences/cycle-charges.ts); never from a body. */
  cycle?: CycleTerms;
}

export interface ChargeBodyOptions {
  webhookAllowInsecure: boolean;
}

const splitInvalid = (message: string, param: string) => new Refusal('SPLIT_INVALID', message, { param });
const recipientInvalid = (index: number) =>
  new Refusal(
    'SPLIT_RECIPIENT_INVALID',
    `split[${index}].recipient deve ser um e-mail, um CPF/CNPJ válido ou o identificador de uma conta`,
    { param: `/split/${index}/recipient` },
  );

const MESSAGES = {
  body: 'O corpo deve ser um objeto JSON com os campos da cobrança',
  amount: 'amount é obrigatório: número em reais maior que zero, com até duas casas decimais',
  payer: 'payer é obrigatório: objeto com name e document',
  name: 'Informe o nome completo do pagador (payer.name, de 3 a 200 caracteres)',
  cpf: 'Informe um CPF válido para o pagador (payer.document)',
  cpfOrCnpj: 'Informe um CPF ou CNPJ válido para o pagador (payer.document)',
  email: 'payer.email deve ser um endereço de e-mail válido',
  externalId: 'externalId deve ser um texto de até 100 caracteres',
  description: 'description deve ser um texto de até 140 caracteres',
  coverFee: 'coverFee deve ser true ou false',
  split: 'split deve ser uma lista de itens',
  webhookUrl: 'webhookUrl deve ser uma URL HTTPS',
};

/** Maps the schema's first complaint to the spec's code and a message that names the field; `param` points at it. */
function schemaError(path: string, keyword: string): Refusal {
  return schemaRefusal(path, keyword).at(path === '' ? undefined : path);
}

function schemaRefusal(path: string, keyword: string): Refusal {
  const item = /^\/split\/(\d+)(\/(\w+))?$/.exec(path);
  if (item) {
    const index = Number(item[1]);
    const field = item[3];
    if (field === 'recipient') return recipientInvalid(index);
    if (field === 'amount' && keyword === TWO_DECIMALS_KEYWORD)
      return invalidRequest(`split[${index}].amount deve ter no máximo duas casas decimais`);
    if (field === 'amount') return splitInvalid(`split[${index}].amount deve ser um valor em reais de no mínimo 0,01`, path);
    if (field === 'percent') return splitInvalid(`split[${index}].percent deve estar entre 0,01 e 100`, path);
    if (field === 'description') return invalidRequest(`split[${index}].description deve ser um texto de até 140 caracteres`);
    return splitInvalid(`split[${index}] deve ser um objeto com recipient e amount ou percent`, path);
  }
  const dueDateRefusal = dueDateSchemaRefusal(path, keyword);
  if (dueDateRefusal) return dueDateRefusal;
  if (path === '/amount' && keyword === TWO_DECIMALS_KEYWORD) return invalidRequest('amount deve ter no máximo duas casas decimais');
  if (path === '/split' && keyword === 'maxItems') {
    return new Refusal('SPLIT_TOO_MANY_RECIPIENTS', `O split aceita no máximo ${SPLIT_MAX_RECIPIENTS} recebedores`);
  }
  const byPath: Record<string, string> = {
    '': MESSAGES.body,
    '/amount': MESSAGES.amount,
    '/payer': MESSAGES.payer,
    '/payer/name': MESSAGES.name,
    '/payer/document': MESSAGES.cpf,
    '/payer/email': MESSAGES.email,
    '/externalId': MESSAGES.externalId,
    '/description': MESSAGES.description,
    '/coverFee': MESSAGES.coverFee,
    '/split': MESSAGES.split,
    '/webhookUrl': MESSAGES.webhookUrl,
  };
  return invalidRequest(byPath[path] ?? MESSAGES.body);
}

/** A text `externalId` is judged by the idempotency key's rules first, blamed on the field. */
export function checkExternalId(body: unknown): void {
  try {
    checkBodyExternalId(body);
  } catch (err) {
    throw err instanceof Refusal ? err.at('/externalId') : err;
  }
}

/** The split array's own size rule outranks complaints about its items, as the spec gives it its own code. */
const rank = (path: string, keyword: string) => (path === '/split' && keyword === 'maxItems' ? 0 : 1);

const RECIPIENT_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const ACCOUNT_ID = /^acc_[A-Za-z0-9]+$/;

export type RecipientIdentifier = { kind: 'email' | 'document' | 'account'; value: string };

/** What a split `recipient` names: an e-mail, a CPF/CNPJ (normalised) or an account id; null when none. */
export function recipientIdentifier(recipient: string): RecipientIdentifier | null {
  const value = recipient.trim();
  if (ACCOUNT_ID.test(value)) return { kind: 'account', value };
  if (RECIPIENT_EMAIL.test(value)) return { kind: 'email', value: value.toLowerCase() };
  if (documentKind(value)) return { kind: 'document', value: normalizeDocument(value) };
  return null;
}

function parseSplitItem(item: Static<typeof SplitItemSchema>, index: number): SplitRequestItem {
  const hasAmount = item.amount !== undefined;
  const hasPercent = item.percent !== undefined;
  if (hasAmount === hasPercent) {
    throw splitInvalid(`split[${index}] deve informar amount ou percent (um dos dois, não ambos)`, `/split/${index}`);
  }
  if (!recipientIdentifier(item.recipient)) throw recipientInvalid(index);
  const parsed: SplitRequestItem = { recipient: item.recipient.trim() };
  // The schema checked the two decimals exactly (compileRequestSchema).
  if (hasAmount) parsed.amountCents = reaisToCents(item.amount)!;
  else parsed.percent = item.percent!;
  if (item.description !== undefined) parsed.description = item.description;
  return parsed;
}

/**
 * Checks everything about a POST /transactions body that does not depend on the account or the network, in
 * the order of the body table, and returns it in centavos. Throws the spec's 400 on the first problem: the
 * route asks it to name the refusal of a body its schema refused.
 */
export function parseChargeBody(body: unknown, options: ChargeBodyOptions): ChargeRequest {
  checkExternalId(body);
  const metadata = checkMetadata(body);
  if (!validators.fields.Check(body)) {
    const errors = validators.fields
      .Errors(body)
      .map((e) => ({ path: errorPath(e), keyword: e.keyword }))
      .sort((a, b) => rank(a.path, a.keyword) - rank(b.path, b.keyword));
    const first = errors[0] ?? { path: '', keyword: 'type' };
    throw unknownFieldRefusal({ keyword: first.keyword, instancePath: first.path }) ?? schemaError(first.path, first.keyword);
  }
  // A split item's amount-or-percent rule (the schema's `oneOf`) is named by parseSplitItem; the last
  // check only makes sure the engine never takes a body its published schema refuses.
  const request = chargeRequest(body, metadata, options);
  if (!validators.all.Check(body)) throw invalidRequest(MESSAGES.body);
  return request;
}

/**
 * The request of a body the route's schema accepted: parseChargeBody's checks without the schema's, then
 * the webhook's host resolved, so that a receiver on a private address is refused now rather than failing
 * every delivery.
 */
export async function parseChargeRequest(body: ChargeBody, options: ChargeBodyOptions): Promise<ChargeRequest> {
  checkExternalId(body);
  const request = chargeRequest(body, checkMetadata(body), options);
  if (request.webhookUrl !== null) {
    const receiver = await checkReceiverUrl(request.webhookUrl, options.webhookAllowInsecure);
    if (!receiver.ok) throw invalidRequest(`webhookUrl deve ser uma URL HTTPS pública: ${receiver.reason}`);
  }
  return request;
}

function chargeRequest(body: ChargeBody, metadata: Metadata, options: ChargeBodyOptions): ChargeRequest {
  const amountCents = reaisToCents(body.amount)!;
  const name = body.payer.name.trim();
  if (name.length < 3) throw invalidRequest(MESSAGES.name, '/payer/name');
  const dueDateCharge = body.dueDate !== undefined && body.dueDate !== null;
  // A due-date charge bills companies too: its payer may be a CNPJ.
  if (dueDateCharge ? documentKind(body.payer.document) === null : !isValidCpf(body.payer.document)) {
    throw invalidRequest(dueDateCharge ? MESSAGES.cpfOrCnpj : MESSAGES.cpf, '/payer/document');
  }
  if (typeof body.webhookUrl === 'string') {
    const check = parseReceiverUrl(body.webhookUrl, options.webhookAllowInsecure);
    if (!check.ok) throw invalidRequest(`webhookUrl deve ser uma URL HTTPS pública: ${check.reason}`, '/webhookUrl');
  }
  const payer: ChargeRequest['payer'] = { name, document: normalizeDocument(body.payer.document) };
  if (typeof body.payer.email === 'string') payer.email = body.payer.email.trim();
  const due = parseDueDateTerms(body, amountCents);
  return {
    amountCents,
    payer,
    ...(body.externalId !== undefined ? { externalId: body.externalId } : {}),
    description: body.description ?? null,
    metadata,
    coverFee: body.coverFee ?? false,
    split: (body.split ?? []).map(parseSplitItem),
    webhookUrl: body.webhookUrl ?? null,
    ...(due ? { due } : {}),
  };
}

/** The fields the idempotency rules compare for a charge (spec rule 6); `webhookUrl` is not one of them. */
export function chargeComparedFields(request: ChargeRequest): Record<string, unknown> {
  return {
    amount: request.amountCents,
    payer: { name: request.payer.name, document: request.payer.document, email: request.payer.email?.toLowerCase() ?? null },
    description: request.description,
    coverFee: request.coverFee,
    split: request.split.map((item) => ({
      recipient: recipientIdentifier(item.recipient)?.value ?? item.recipient,
      amount: item.amountCents ?? null,
      percent: item.percent ?? null,
      description: item.description ?? null,
    })),
    // Only a due-date charge compares these: an immediate charge's fingerprint stays what it always was.
    ...(request.due ? { dueDate: request.due.dueDate, billing: request.due.billing } : {}),
    ...comparedMetadata(request.metadata),
    ...(request.cycle ? { recurrenceId: request.cycle.recurrenceId } : {}),
  };
}
