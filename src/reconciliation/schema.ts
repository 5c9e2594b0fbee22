// A reconciliation run and its items as the admin API and pixctl show them (books.md), as typebox
// schemas, and their values in reais and ISO dates.
import Type, { type Static } from 'typebox';
import { centsToReais } from '../domain/money.js';
import { ITEM_KINDS } from './match.js';
import type { ItemRow, RunRow } from './repository.js';

const dateTime = (description: string) => Type.String({ format: 'date-time', description: `${description} (ISO 8601 UTC, milissegundos)` });
const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);
const reais = (description: string) => nullable(Type.Number({ description: `${description} (reais)` }));

export const ResolutionSchema = Type.Object(
  {
    action: Type.Enum(['credit', 'refund', 'dismiss']),
    accountId: Type.Optional(Type.String({ description: 'credit: a conta creditada (acc_…)' })),
    transactionId: Type.Optional(Type.String({ description: 'credit: o depósito criado (txn_…, type deposit)' })),
    note: Type.Optional(Type.String({ description: 'dismiss: a nota do operador' })),
    refund: Type.Optional(
      Type.Object(
        {
          status: Type.Enum(['pending', 'approved', 'failed']),
          reason: nullable(Type.String({ description: 'Por que a devolução não foi realizada (failed)' })),
        },
        { description: 'refund: a devolução (natureza ORIGINAL) do valor em suspense ao pagador', additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false, description: 'Como um operador resolveu o item' },
);

export const ItemSchema = Type.Object(
  {
    id: Type.String({ description: 'Identificador do item (rci_…), o mesmo em toda execução que encontre o registro do PSP' }),
    runId: Type.String({ description: 'A execução que o encontrou primeiro (rcn_…)' }),
    kind: Type.Enum([...ITEM_KINDS], {
      description:
        'late_settlement: Pix do valor integral de uma cobrança pendente (aprovada); paid_after_cancel: Pix de uma cobrança cancelada (em suspense); amount_mismatch: Pix de outro valor de uma cobrança não paga (em suspense); unmatched_received: Pix sem txid ou com txid que o motor não emitiu (em suspense); transfer_unsettled / refund_unsettled: envio ou devolução concluídos no PSP e pendentes no motor (liquidados); med_unrecorded: devolução MED não registrada (registrada); missing_at_psp: operação aprovada no motor que o PSP não lista (nada se move)',
    }),
    status: Type.Enum(['corrected', 'open', 'resolved'], {
      description: 'corrected: a execução corrigiu o motor; open: espera um operador; resolved: um operador o resolveu',
    }),
    transactionId: nullable(Type.String({ description: 'A cobrança ou transferência de que trata (txn_…, out_…)' })),
    endToEndId: nullable(Type.String({ description: 'O Pix recebido ou enviado de que trata' })),
    txid: nullable(Type.String({ description: 'O txid que o Pix recebido informou' })),
    idEnvio: nullable(Type.String({ description: 'O envio de que trata' })),
    pspAmount: reais('O valor segundo o PSP'),
    engineAmount: reais('O valor segundo o motor'),
    detail: Type.String(),
    resolution: nullable(ResolutionSchema),
    createdAt: dateTime('Quando foi encontrado'),
    resolvedAt: nullable(dateTime('Quando foi resolvido')),
  },
  { additionalProperties: false, description: 'Uma divergência entre um registro do PSP e o motor' },
);

const Counts = Type.Object(
  {
    pspReceived: Type.Integer({ description: 'Pix recebidos que o PSP lista na janela' }),
    pspSent: Type.Integer({ description: 'Envios que o PSP lista na janela' }),
    pspRefunds: Type.Integer({ description: 'Devoluções dos Pix recebidos na janela' }),
    matched: Type.Integer({ description: 'Registros do PSP que concordam com o motor (os demais são assunto de um item cada)' }),
    corrected: Type.Integer({ description: 'Itens da execução corrigidos' }),
    open: Type.Integer({ description: 'Itens da execução abertos' }),
  },
  { additionalProperties: false },
);

const runProperties = {
  id: Type.String({ description: 'Identificador da execução (rcn_…)' }),
  route: Type.String({ description: 'A rota Pix conciliada' }),
  from: dateTime('Início da janela, incluído'),
  to: dateTime('Fim da janela, excluído'),
  status: Type.Enum(['running', 'completed', 'failed']),
  startedAt: dateTime('Início'),
  completedAt: nullable(dateTime('Quando terminou (completed ou failed)')),
  counts: Counts,
};

export const RunSchema = Type.Object(runProperties, {
  additionalProperties: false,
  description: 'Uma execução da conciliação de uma rota com os registros do PSP',
});

export const RunWithItemsSchema = Type.Object(
  { ...runProperties, items: Type.Array(ItemSchema, { description: 'Os itens que a execução encontrou' }) },
  { additionalProperties: false, description: 'Uma execução da conciliação, com seus itens' },
);

export type Item = Static<typeof ItemSchema>;
export type Run = Static<typeof RunSchema>;

const iso = (date: Date | null) => (date === null ? null : date.toISOString());
const amount = (cents: number | null) => (cents === null ? null : centsToReais(cents));

export function serializeItem(item: ItemRow): Item {
  return {
    id: item.id,
    runId: item.runId,
    kind: item.kind,
    status: item.status,
    transactionId: item.transactionId,
    endToEndId: item.endToEndId,
    txid: item.txid,
    idEnvio: item.idEnvio,
    pspAmount: amount(item.pspAmountCents),
    engineAmount: amount(item.engineAmountCents),
    detail: item.detail,
    resolution: item.resolution,
    createdAt: item.createdAt.toISOString(),
    resolvedAt: iso(item.resolvedAt),
  };
}

export function serializeRun(run: RunRow): Run {
  return {
    id: run.id,
    route: run.route,
    from: run.from.toISOString(),
    to: run.to.toISOString(),
    status: run.status,
    startedAt: run.startedAt.toISOString(),
    completedAt: iso(run.completedAt),
    counts: run.counts,
  };
}
