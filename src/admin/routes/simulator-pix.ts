// POST /admin/simulator/pix: the simulated Pix network receives a Pix that no charge asked for — to
// the key of an account, or naming a txid (a charge's is the one in its BR Code, field 62-05) — and
// the engine is not told (src/pix-routes/simulator-received.ts). Reconciliation finds it: so every
// kind of item can be produced without a PSP.
import type Koa from 'koa';
import Type, { type Static } from 'typebox';
import { getAccount } from '../../accounts/repository.js';
import type { Deps } from '../../runtime/deps.js';
import { normalizeDocument } from '../../domain/documents.js';
import { centsToReais, reaisToCents } from '../../domain/money.js';
import { ok } from '../../http/edge.js';
import { receiveUnaskedPix } from '../../pix-routes/simulator-received.js';
import { closed, documentField, reaisField, trimmedText } from '../../routing/admin-fields.js';
import { accountNotFound } from './accounts.js';
import { NOT_FOUND } from '../../routing/admin-errors.js';
import type { AdminRoute } from '../../routing/operation.js';

const TXID = '^[A-Za-z0-9]{1,35}$';

const PixBody = closed({
  accountId: Type.Optional(Type.String({ minLength: 1, description: 'A conta a cuja chave o pagador enviou (acc_…)' })),
  amount: reaisField(true, 'Valor do Pix em reais'),
  txid: Type.Optional(
    Type.String({
      pattern: TXID,
      description:
        'O txid que o Pix informa (de 1 a 35 letras e dígitos): o de uma cobrança é o do seu BR Code (campo 62-05); sem ele, um Pix à chave',
    }),
  ),
  payer: closed(
    { name: trimmedText(200, 'Nome do pagador'), document: documentField('CPF ou CNPJ do pagador') },
    { description: 'Quem paga' },
  ),
});

const ReceivedPixSchema = Type.Object(
  {
    endToEndId: Type.String({ description: 'O identificador do Pix na rede' }),
    txid: Type.Union([Type.String(), Type.Null()]),
    amount: Type.Number({ description: 'Reais' }),
  },
  { additionalProperties: false, description: 'O Pix como a rede simulada o recebeu' },
);

async function receive(ctx: Koa.Context, deps: Deps) {
  const body = ctx.request.body as Static<typeof PixBody>;
  if (body.accountId !== undefined && !(await getAccount(deps.sql, body.accountId))) throw accountNotFound().at('/accountId');
  const received = await receiveUnaskedPix(deps.sql, {
    txid: body.txid ?? null,
    accountId: body.accountId ?? null,
    amountCents: reaisToCents(body.amount)!,
    payer: { name: body.payer.name.trim(), document: normalizeDocument(body.payer.document) },
  });
  deps.log.info({ endToEndId: received.endToEndId, txid: received.txid }, 'simulator: Pix received that no charge asked for');
  ok(ctx, { endToEndId: received.endToEndId, txid: received.txid, amount: centsToReais(received.amountCents) }, 201);
}

export const SIMULATOR_PIX_ROUTES: AdminRoute[] = [
  {
    method: 'POST',
    path: '/simulator/pix',
    summary:
      'Simulador: a rede simulada recebe um Pix que nenhuma cobrança pediu (à chave de uma conta, ou com um txid), sem avisar o motor',
    operationId: 'receiveSimulatorPix',
    request: { body: PixBody },
    response: ReceivedPixSchema,
    successStatuses: [201],
    errors: [NOT_FOUND],
    handler: receive,
  },
];
