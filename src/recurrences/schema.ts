// The public Recurrence resource and the bodies of POST /v1/recurrences and POST
// /v1/recurrences/{id}/charges as typebox schemas (validation and the OpenAPI document come from them).
import { MetadataRequestSchema, MetadataSchema } from '../transactions/metadata.js';
import Type, { type TSchema } from 'typebox';
import { reais } from '../http/request-schema.js';
import { RECURRENCE_FREQUENCIES, RECURRENCE_STATUSES, RETRY_POLICIES } from './contract.js';
import { ExternalIdSchema } from '../charges/schema.js';

const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const dateTime = (description: string) => Type.String({ format: 'date-time', description: `${description} (ISO 8601 UTC, milissegundos)` });
const calendarDay = (description: string) =>
  Type.String({ format: 'date', description: `${description} (AAAA-MM-DD, horário de Brasília)` });
const amount = (description: string) => reais({ exclusiveMinimum: 0, description: `${description} (reais, até duas casas decimais)` });

export const CONTRACT_PATTERN = '^[A-Za-z0-9-]{1,35}$';

export const RecurrenceBodySchema = Type.Object({
  payer: Type.Object({
    name: Type.String({ minLength: 3, maxLength: 140, description: 'Nome do pagador (mínimo 3 caracteres)' }),
    document: Type.String({ minLength: 1, maxLength: 20, description: 'CPF ou CNPJ válido do pagador' }),
  }),
  contract: Type.String({ pattern: CONTRACT_PATTERN, description: 'Número do contrato do recebedor: 1 a 35 letras, dígitos ou -' }),
  description: Type.String({
    minLength: 1,
    maxLength: 35,
    description: 'O que se paga (1 a 35 caracteres), mostrado ao pagador no app do banco (vinculo.objeto)',
  }),
  frequency: Type.Enum([...RECURRENCE_FREQUENCIES], { description: 'Periodicidade dos ciclos' }),
  firstDueDate: calendarDay('Vencimento do primeiro ciclo, ao menos 3 dias depois de hoje'),
  endDate: Type.Optional(nullable(calendarDay('Fim da recorrência, depois de firstDueDate; ausente: até o cancelamento'))),
  amount: Type.Optional(amount('Valor fixo de cada ciclo; informe amount ou minimumAmount')),
  minimumAmount: Type.Optional(amount('Valor variável: cada ciclo é criado pelo recebedor com o seu valor, ao menos este')),
  retryPolicy: Type.Optional(
    Type.Enum([...RETRY_POLICIES], { default: 'none', description: 'three_in_seven_days: até 3 novas tentativas em 7 dias após falha' }),
  ),
  firstPayment: Type.Optional(
    Type.Object(
      { amount: amount('Valor do pagamento imediato') },
      { description: 'Pagamento imediato junto com a autorização (jornada 3); ausente: o QR só autoriza (jornada 2)' },
    ),
  ),
  externalId: Type.Optional(ExternalIdSchema),
  webhookUrl: Type.Optional(
    nullable(Type.String({ format: 'uri', maxLength: 2048, description: 'URL HTTPS que recebe os eventos desta recorrência' })),
  ),
  metadata: Type.Optional(MetadataRequestSchema),
});

export const CycleChargeBodySchema = Type.Object({
  dueDate: calendarDay('Vencimento do ciclo'),
  amount: amount('Valor do ciclo, entre minimumAmount e payerMaximumAmount'),
  description: Type.Optional(Type.String({ minLength: 1, maxLength: 140, description: 'Descrição da cobrança do ciclo' })),
});

export const RecurrenceSchema = Type.Object(
  {
    id: Type.String({ description: 'Identificador da recorrência (rec_…)' }),
    externalId: Type.String(),
    status: Type.Enum([...RECURRENCE_STATUSES]),
    payer: Type.Object({ name: Type.String(), document: Type.String({ description: 'CPF ou CNPJ, apenas dígitos' }) }),
    contract: Type.String(),
    description: Type.String(),
    frequency: Type.Enum([...RECURRENCE_FREQUENCIES]),
    firstDueDate: Type.String({ format: 'date' }),
    endDate: nullable(Type.String({ format: 'date' })),
    amount: nullable(Type.Number({ description: 'Valor fixo de cada ciclo (reais)' })),
    minimumAmount: nullable(Type.Number({ description: 'Valor mínimo de um ciclo de valor variável (reais)' })),
    payerMaximumAmount: nullable(Type.Number({ description: 'Valor máximo que o pagador autorizou (reais)' })),
    retryPolicy: Type.Enum([...RETRY_POLICIES]),
    authorization: Type.Object({
      copyPaste: Type.String({ description: 'BR Code da autorização (copia e cola)' }),
      qrCodeBase64: Type.String({ description: 'PNG, base64, exatamente de copyPaste' }),
      expiresAt: dateTime('Fim do prazo de autorização (criação + RECURRENCE_AUTHORIZATION_DAYS)'),
    }),
    firstPaymentTransactionId: nullable(Type.String({ description: 'A cobrança imediata paga com a autorização (jornada 3)' })),
    checkoutUrl: Type.String({
      format: 'uri',
      description:
        'A página de autorização hospedada pelo serviço ({PUBLIC_BASE_URL}/pay/{token}, token aleatório e secreto): o que o pagador autoriza, QR code e copia e cola da autorização (na jornada 3, junto com o pagamento imediato) e situação ao vivo, para enviar ao pagador',
    }),
    metadata: MetadataSchema,
    nextDueDate: nullable(Type.String({ format: 'date', description: 'Próximo vencimento de um ciclo' })),
    cancelledBy: nullable(Type.Enum(['merchant', 'payer', 'route'])),
    createdAt: dateTime('Criação'),
    updatedAt: dateTime('Última mudança'),
    authorizedAt: nullable(dateTime('Autorização pelo pagador')),
  },
  { description: 'Recorrência do Pix Automático' },
);
