// POST /transfers: the body's typebox schema (validation and the OpenAPI document come from it) for
// both shapes, the modern `destination {type, value}` and the legacy `pixKey` + `pixKeyType`, and the
// checks a schema cannot express (DICT key formats, BR Code CRC), each refusal a 400 `invalid_request`
// with a Portuguese message that names the field. The schema's `oneOf` says which fields go together
// (destination, or pixKey with pixKeyType); resolveDestination names what is missing or extra. A text
// `externalId` is an idempotency key, so the idempotency rules judge it first (400 `invalid_idempotency_key`).
import Type, { type Static } from 'typebox';
import { compileRequestSchema, reais, TWO_DECIMALS_KEYWORD, unknownFieldRefusal } from '../http/request-schema.js';
import { errorPath } from '../json/pointer.js';
import { checkExternalId, ExternalIdSchema } from '../charges/schema.js';
import { reaisToCents } from '../domain/money.js';
import { PIX_KEY_TYPES } from '../domain/pix-keys.js';
import { invalidRequest } from '../domain/refusal.js';
import { requiredAmountCents } from './amounts.js';
import type { TransferDestination } from './contract.js';
import { resolveDestination } from './destination.js';
import { checkMetadata, MetadataRequestSchema, type Metadata } from '../transactions/metadata.js';

export const DESTINATION_TYPES = ['pix_key', 'pix_copy_paste', 'qr_code'] as const;
export type DestinationType = (typeof DESTINATION_TYPES)[number];

/** A base64 PNG of a QR code is far larger than a BR Code; 200 kB leaves room for big images. */
const DESTINATION_VALUE_MAX = 200_000;

const destinationType = (type: object) => ({ properties: { destination: { properties: { type } } } });

/**
 * The body's two shapes, as JSON Schema `oneOf` (resolveDestination names what is missing or extra):
 * `destination` (a Pix key, with `amount` and an optional `pixKeyType`; or a BR Code), or the legacy
 * `pixKey` with `pixKeyType` and `amount`.
 */
const TRANSFER_SHAPES = {
  oneOf: [
    {
      title: 'Destino (forma moderna)',
      required: ['destination'],
      not: { required: ['pixKey'] },
      oneOf: [
        { title: 'Chave Pix', required: ['amount'], ...destinationType({ const: 'pix_key' }) },
        {
          title: 'BR Code (copia e cola ou QR code)',
          not: { required: ['pixKeyType'] },
          ...destinationType({ enum: ['pix_copy_paste', 'qr_code'] }),
        },
      ],
    },
    { title: 'Chave Pix (forma legada)', required: ['pixKey', 'pixKeyType', 'amount'], not: { required: ['destination'] } },
  ],
};

export const TransferBodySchema = Type.Object(
  {
    amount: Type.Optional(
      reais({
        exclusiveMinimum: 0,
        description:
          'Valor em reais, até duas casas decimais, mínimo 3 (ajustável por conta). Obrigatório para chave Pix e para BR Code estático sem valor; quando o código define o valor, o valor do código prevalece',
      }),
    ),
    destination: Type.Optional(
      Type.Object(
        {
          type: Type.Union(
            DESTINATION_TYPES.map((t) => Type.Literal(t)),
            { description: 'pix_key, pix_copy_paste ou qr_code' },
          ),
          value: Type.String({
            minLength: 1,
            maxLength: DESTINATION_VALUE_MAX,
            description: 'Chave Pix, BR Code (copia e cola) ou, para qr_code, o BR Code ou a imagem PNG do QR code em base64',
          }),
        },
        { description: 'Destino (forma moderna); alternativa a pixKey + pixKeyType' },
      ),
    ),
    pixKey: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Chave Pix de destino (forma legada)' })),
    pixKeyType: Type.Optional(
      Type.Union(
        PIX_KEY_TYPES.map((t) => Type.Literal(t)),
        { description: 'Tipo da chave: cpf, cnpj, email, phone (+55…) ou random' },
      ),
    ),
    externalId: Type.Optional(ExternalIdSchema),
    description: Type.Optional(
      Type.Union([Type.String({ maxLength: 140 }), Type.Null()], { description: 'Até 140 caracteres; null equivale a não enviar' }),
    ),
    metadata: Type.Optional(MetadataRequestSchema),
    coverFee: Type.Optional(
      Type.Boolean({
        default: false,
        description:
          'true: a conta paga a taxa além do valor; false: o recebedor recebe o valor menos a taxa. Um BR Code que define o valor recebe sempre esse valor inteiro: a taxa é debitada além dele, qualquer que seja coverFee',
      }),
    ),
  },
  TRANSFER_SHAPES,
);

export type TransferBody = Static<typeof TransferBodySchema>;

/** The request as the engine uses it: centavos, a resolved destination, defaults applied. */
export interface TransferRequest {
  /** The amount the body sent, in centavos; null when omitted (allowed when the BR Code defines it). */
  amountCents: number | null;
  destination: TransferDestination;
  externalId?: string;
  description: string | null;
  metadata: Metadata;
  coverFee: boolean;
}

const validators = compileRequestSchema(TransferBodySchema);

const MESSAGES: Record<string, string> = {
  '': 'O corpo deve ser um objeto JSON com os campos da transferência',
  '/amount': 'amount deve ser um número em reais maior que zero, com até duas casas decimais',
  [`/amount ${TWO_DECIMALS_KEYWORD}`]: 'amount deve ter no máximo duas casas decimais',
  '/destination': 'destination deve ser um objeto com type e value',
  '/destination/type': 'destination.type deve ser pix_key, pix_copy_paste ou qr_code',
  '/destination/value': `destination.value é obrigatório (texto de até ${DESTINATION_VALUE_MAX} caracteres)`,
  '/pixKey': 'pixKey deve ser um texto de até 100 caracteres',
  '/pixKeyType': 'pixKeyType deve ser cpf, cnpj, email, phone ou random',
  '/externalId': 'externalId deve ser um texto de até 100 caracteres',
  '/description': 'description deve ser um texto de até 140 caracteres',
  '/coverFee': 'coverFee deve ser true ou false',
};

/**
 * Checks everything about a POST /transfers body that does not depend on the account and returns
 * it resolved: amount in centavos, destination validated and normalised, a null description as
 * none. Throws a 400 on the first problem.
 */
export function parseTransferBody(body: unknown): TransferRequest {
  checkExternalId(body);
  const metadata = checkMetadata(body);
  if (!validators.fields.Check(body)) {
    const first = validators.fields.Errors(body)[0];
    const path = first ? errorPath(first) : '';
    throw (
      (first && unknownFieldRefusal(first)) ??
      invalidRequest(
        MESSAGES[`${path} ${first?.keyword}`] ?? MESSAGES[path] ?? MESSAGES['']!,
        MESSAGES[path] ? path || undefined : undefined,
      )
    );
  }
  const destination = resolveDestination(body);
  if (!destination.ok) throw invalidRequest(destination.reason);
  const request: TransferRequest = {
    // The schema checked the two decimals exactly (compileRequestSchema).
    amountCents: body.amount === undefined ? null : reaisToCents(body.amount)!,
    destination: destination.destination,
    ...(body.externalId !== undefined ? { externalId: body.externalId } : {}),
    description: body.description ?? null,
    metadata,
    coverFee: body.coverFee ?? false,
  };
  if (!validators.all.Check(body)) {
    // Past resolveDestination, the one shape rule left is the amount a Pix key needs.
    requiredAmountCents(request);
    throw invalidRequest(MESSAGES['']!);
  }
  return request;
}
