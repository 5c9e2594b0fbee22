// The spec's Transaction resource as a typebox schema: the shape of every transaction in responses
// and webhook payloads (the OpenAPI document is generated from it).
import Type, { type Static, type TSchema } from 'typebox';
import { PIX_KEY_TYPES } from '../domain/pix-keys.js';
import { TRANSACTION_STATUSES, TRANSACTION_TYPES } from './row.js';
import { MetadataSchema } from './metadata.js';

const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const reais = (description: string) => Type.Number({ description: `${description} (reais)` });
const dateTime = (description: string) => Type.String({ format: 'date-time', description: `${description} (ISO 8601 UTC, milissegundos)` });

export const SplitShareSchema = Type.Object({
  recipient: Type.String({ description: 'Recebedor como enviado na criação: e-mail, CPF/CNPJ ou identificador da conta' }),
  accountId: Type.String({ description: 'Conta recebedora (acc_…)' }),
  amount: reais('Comissão creditada ao recebedor'),
  percent: nullable(Type.Number({ description: 'Percentual do valor da venda, quando o item foi enviado em percentual' })),
  description: nullable(Type.String()),
});

export const PayerSchema = Type.Object(
  {
    name: Type.String(),
    document: Type.String({ description: 'CPF ou CNPJ, apenas dígitos' }),
    email: nullable(Type.String()),
    bankName: Type.Optional(Type.String({ description: 'Instituição do pagador, quando a rede informa' })),
    state: Type.Optional(Type.String({ description: 'UF do pagador, quando a rede informa' })),
  },
  { description: 'Cobrança: quem paga; transferência: a conta que paga' },
);

const failureReason = Type.Optional(Type.String({ description: 'Motivo da falha, quando a transferência falhou' }));

/** The public `counterparty` of a transfer: its destination as resolved (src/transfers/terms.ts), null on charges. */
export const CounterpartySchema = Type.Union(
  [
    Type.Object(
      {
        type: Type.Literal('pix_key'),
        keyType: Type.Enum([...PIX_KEY_TYPES], { description: 'Tipo da chave no DICT' }),
        key: Type.String({ description: 'A chave Pix, normalizada' }),
        failureReason,
      },
      { additionalProperties: false, description: 'Transferência para uma chave Pix' },
    ),
    Type.Object(
      {
        type: Type.Literal('br_code'),
        pixKey: nullable(Type.String({ description: 'Chave do BR Code estático' })),
        url: nullable(Type.String({ description: 'Endereço do payload do BR Code dinâmico' })),
        txid: nullable(Type.String()),
        merchantName: Type.String(),
        merchantCity: Type.String(),
        internal: Type.Boolean({ description: 'true quando o código é de uma cobrança deste serviço, paga sem sair dele' }),
        failureReason,
      },
      { additionalProperties: false, description: 'Transferência que paga um BR Code (copia e cola ou QR code)' },
    ),
    Type.Object(
      {},
      { additionalProperties: false, description: 'Destino ainda não avaliado (resposta 202 de uma transferência em reconciliação)' },
    ),
  ],
  { description: 'Destino de uma transferência' },
);

export type Counterparty = Static<typeof CounterpartySchema>;

export const PixSchema = Type.Object({
  copyPaste: Type.String({ description: 'Código Pix copia e cola (BR Code); use exatamente como recebido' }),
  qrCodeBase64: Type.String({ description: 'Imagem PNG do QR code em base64, sem o prefixo data:' }),
});

const billingValue = (modes: string[], description: string) =>
  Type.Object(
    { mode: Type.Enum(modes), value: Type.Number({ description: 'Reais nos modos fixos; percentual nos demais' }) },
    { description },
  );

export const BillingSchema = Type.Object(
  {
    validityAfterDue: Type.Integer({ description: 'Dias depois do vencimento em que ainda pode ser paga' }),
    fine: nullable(billingValue(['fixed', 'percent'], 'Multa por atraso (percentual da base)')),
    interest: nullable(
      billingValue(['fixed_per_day', 'percent_per_day', 'percent_per_month', 'percent_per_year'], 'Juros por dia de atraso'),
    ),
    discounts: Type.Array(
      Type.Object({
        until: Type.String({ format: 'date' }),
        mode: Type.Enum(['fixed', 'percent']),
        value: Type.Number({ description: 'Reais, ou percentual da base' }),
      }),
      { description: 'Descontos por data; vazio quando não há' },
    ),
    abatement: nullable(billingValue(['fixed', 'percent'], 'Abatimento (percentual de amount)')),
  },
  { description: 'Regras de uma cobrança com vencimento, como enviadas, com os padrões aplicados' },
);

export const TransactionSchema = Type.Object(
  {
    id: Type.String({ description: 'txn_… para cobranças, out_… para transferências' }),
    externalId: nullable(Type.String({ maxLength: 100, description: 'Chave de idempotência enviada pelo cliente' })),
    acquirer: Type.String({ description: 'Nome da rota de processamento' }),
    direction: Type.Enum(['in', 'out']),
    type: Type.Enum([...TRANSACTION_TYPES]),
    method: Type.Enum(['pix', 'internal']),
    status: Type.Enum([...TRANSACTION_STATUSES]),
    expired: Type.Boolean({ description: 'true quando a cobrança foi cancelada por expirar' }),
    processingState: Type.String({ description: 'monitoring enquanto pendente, completed quando final' }),
    amount: reais(
      'Para cobranças, o valor que o pagador paga; numa cobrança com vencimento, o valor enviado (antes de multa, juros, descontos e abatimento)',
    ),
    fee: reais('Taxa do serviço; numa cobrança com vencimento, calculada sobre paidAmount na aprovação (sobre amount antes dela)'),
    netAmount: reais('Valor que a conta recebe depois da taxa e do split'),
    debitedAmount: nullable(reais('Valor debitado do saldo (transferências)')),
    recipientAmount: nullable(reais('Valor que chega ao destino (transferências)')),
    description: nullable(Type.String({ maxLength: 140 })),
    metadata: MetadataSchema,
    splitAmount: reais('Total de comissões do split; 0 sem split'),
    split: Type.Array(SplitShareSchema),
    refundedAmount: reais('Total devolvido ao pagador (MED aceita); 0 quando nada foi devolvido'),
    payer: PayerSchema,
    counterparty: nullable(CounterpartySchema),
    pix: nullable(PixSchema),
    expiresAt: dateTime(
      'Criação mais a validade (CHARGE_TTL_SECONDS, 15 minutos por padrão); numa cobrança com vencimento, 00:00 (horário de Brasília) do dia seguinte a dueDate + validityAfterDue; só a cobrança expira, na transferência é informativo',
    ),
    approvedAt: nullable(dateTime('Quando foi aprovada')),
    dueDate: nullable(
      Type.String({
        format: 'date',
        description: 'Vencimento (AAAA-MM-DD, horário de Brasília); null na cobrança imediata e na transferência',
      }),
    ),
    billing: nullable(BillingSchema),
    amountDue: nullable(
      reais(
        'Cobrança com vencimento pendente: o valor a pagar hoje (horário de Brasília), com multa, juros, descontos e abatimento; senão null',
      ),
    ),
    paidAmount: nullable(
      reais('Cobrança aprovada: o valor que chegou (numa cobrança com vencimento, o devido no dia do pagamento); senão null'),
    ),
    checkoutUrl: nullable(
      Type.String({
        format: 'uri',
        description:
          'Cobrança: a página de pagamento hospedada pelo serviço ({PUBLIC_BASE_URL}/pay/{token}, token aleatório e secreto), com QR code, copia e cola e situação ao vivo, para enviar ao pagador; null na transferência e enquanto a cobrança é aceita (resposta 202)',
      }),
    ),
    recurrenceId: nullable(
      Type.String({ description: 'Cobrança de um ciclo de recorrência do Pix Automático: a recorrência (rec_…); senão null' }),
    ),
    createdAt: dateTime('Criação'),
    updatedAt: dateTime('Última alteração'),
  },
  { description: 'Transação: cobrança Pix (txn_) ou transferência Pix (out_)' },
);

export type Transaction = Static<typeof TransactionSchema>;
