// The refund record of the admin API, pixctl and the refund.* webhooks, as a typebox schema.
import Type, { type Static } from 'typebox';
import { REFUND_STATUSES } from './row.js';

const dateTime = (description: string) => Type.String({ format: 'date-time', description: `${description} (ISO 8601 UTC, milissegundos)` });

export const RefundSchema = Type.Object(
  {
    id: Type.String({ description: 'Identificador da devolução (rfd_…)' }),
    transactionId: Type.String({ description: 'Cobrança devolvida (txn_…)' }),
    amount: Type.Number({ description: 'Valor devolvido ao pagador (reais)' }),
    reason: Type.Union([Type.String({ description: 'Motivo informado pelo operador' }), Type.Null()]),
    status: Type.Enum([...REFUND_STATUSES], {
      description:
        'pending: reservado, a caminho do pagador; approved: devolvido ao pagador; failed: não realizado, a reserva voltou ao saldo disponível',
    }),
    failureReason: Type.Union([Type.String({ description: 'Por que a devolução não foi realizada (failed)' }), Type.Null()]),
    endToEndId: Type.Union([Type.String({ description: 'Identificador da devolução na rede Pix' }), Type.Null()]),
    createdAt: dateTime('Criação'),
    updatedAt: dateTime('Última alteração'),
    settledAt: Type.Union([dateTime('Quando foi concluída'), Type.Null()]),
  },
  { description: 'Devolução (ao pagador) de uma cobrança Pix recebida, feita pela administração da conta' },
);

export type Refund = Static<typeof RefundSchema>;
