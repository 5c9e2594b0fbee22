// The MED record of the public API, MCP and the med.* webhooks, as a typebox schema.
import Type, { type Static } from 'typebox';
import { MED_STATUSES } from './row.js';

const reais = (description: string) => Type.Number({ description: `${description} (reais)` });
const dateTime = (description: string) => Type.String({ format: 'date-time', description: `${description} (ISO 8601 UTC, milissegundos)` });

export const MedSchema = Type.Object(
  {
    id: Type.String({ description: 'Identificador da MED (med_…)' }),
    transactionId: Type.String({ description: 'Cobrança contestada (txn_…)' }),
    externalId: Type.String({ description: 'externalId (chave de idempotência) do pedido contestado' }),
    status: Type.Enum([...MED_STATUSES], {
      description:
        'open: em análise, valor retido; accepted: devolução aceita, o valor retido voltou ao pagador; rejected: contestação recusada, a retenção foi liberada',
    }),
    reason: Type.String({ description: 'Motivo informado pela instituição do pagador (por exemplo fraud, operational_failure)' }),
    amount: reais('Valor contestado'),
    retainedAmount: reais('Valor efetivamente retido do saldo disponível ao abrir (limitado ao disponível naquele momento)'),
    returnedAmount: reais('Valor devolvido ao pagador; 0 até a MED ser aceita'),
    deadlineAt: dateTime('Prazo para a decisão'),
    overdue: Type.Boolean({ description: 'true quando o prazo passou sem decisão (os operadores foram alertados)' }),
    decidedAt: Type.Union([dateTime('Quando foi decidida'), Type.Null()]),
    createdAt: dateTime('Abertura'),
    updatedAt: dateTime('Última alteração'),
  },
  { description: 'MED (Mecanismo Especial de Devolução): contestação de uma cobrança Pix aprovada aberta pela instituição do pagador' },
);

export type Med = Static<typeof MedSchema>;
