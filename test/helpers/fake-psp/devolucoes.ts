// The fake PSP's devoluções the receiver asks for: the standard's `PUT` and `GET
// /pix/{e2eid}/devolucao/{id}`, both path parameters and the body checked against the standard's
// schemas. A devolução is kept in its received Pix's `devolucoes` (so GET /pix/{e2eid} and the
// webhooks list it) in the standard's Devolucao shape, EM_PROCESSAMENTO until a test settles it
// (DEVOLVIDO, or NAO_REALIZADO with a motivo). A test can also make every PUT on a Pix answer 400,
// with the devolução stored first or not: the engine must read it back before believing the refusal.
import type { Answer, Route } from './server.js';
import { violations, type Violation } from './schemas.js';
import { centsToValor, FAKE_PSP_ISPB, spiId, valorToCents, type Devolucao, type PixRecebido, type PspStore } from './store.js';

/** The server's answer makers (server.ts), handed over so that this module needs nothing of it at run time. */
export interface Answers {
  json(status: number, body: unknown): Answer;
  problem(status: number, type: string, title: string, detail: string, violacoes?: Violation[], prefix?: string): Answer;
  notFound(): Answer;
}

/** How the PUTs on a Pix are refused: `stored`, the devolução is kept first (an earlier attempt reached the PSP). */
export interface DevolucaoRefusal {
  stored: boolean;
}

const refusals = new WeakMap<PspStore, Map<string, DevolucaoRefusal>>();

/** From now on every PUT of a devolução on received Pix `endToEndId` answers 400 (null: as usual again). */
export function refuseDevolucoes(store: PspStore, endToEndId: string, refusal: DevolucaoRefusal | null): void {
  const byPix = refusals.get(store) ?? new Map<string, DevolucaoRefusal>();
  refusals.set(store, byPix);
  if (refusal) byPix.set(endToEndId, refusal);
  else byPix.delete(endToEndId);
}

export function findDevolucao(store: PspStore, endToEndId: string, id: string): Devolucao | undefined {
  return store.received.get(endToEndId)?.devolucoes?.find((devolucao) => devolucao.id === id);
}

/** Ends a devolução EM_PROCESSAMENTO: DEVOLVIDO (liquidated now), or NAO_REALIZADO with `motivo`. */
export function settleDevolucao(
  store: PspStore,
  endToEndId: string,
  id: string,
  status: 'DEVOLVIDO' | 'NAO_REALIZADO',
  motivo?: string,
): Devolucao {
  const devolucao = findDevolucao(store, endToEndId, id);
  if (!devolucao) throw new Error(`fake PSP: no devolução ${id} of Pix ${endToEndId}`);
  if (devolucao.status !== 'EM_PROCESSAMENTO') throw new Error(`fake PSP: devolução ${id} is already ${devolucao.status}`);
  devolucao.status = status;
  if (status === 'DEVOLVIDO') devolucao.horario.liquidacao = new Date().toISOString();
  if (motivo !== undefined) devolucao.motivo = motivo;
  return devolucao;
}

const PATH = /^\/v2\/pix\/([^/]+\/devolucao\/[^/]+)$/;

/** `{e2eid}/devolucao/{id}` as its two parameters, with their violations of the standard's schemas. */
function pathOf(param: string): { e2eid: string; id: string; found: Violation[] } {
  const [e2eid = '', id = ''] = param.split('/devolucao/');
  const found = [
    ...violations('endToEndId', e2eid).map((v) => ({ ...v, path: '/e2eid' })),
    ...violations('devolucaoId', id).map((v) => ({ ...v, path: '/id' })),
  ];
  return { e2eid, id, found };
}

const describe = (found: Violation[]) => found.map((v) => `${v.path} ${v.message}`);

/** What a PSP still has to return of a Pix: its value minus the devoluções not refused. */
const returnableCents = (pix: PixRecebido) =>
  valorToCents(pix.valor) -
  (pix.devolucoes ?? []).filter((d) => d.status !== 'NAO_REALIZADO').reduce((sum, d) => sum + valorToCents(d.valor), 0);

export function devolucaoRoutes({ json, problem, notFound }: Answers): Route[] {
  const invalid = (detail: string, found?: Violation[]) =>
    problem(400, 'PixDevolucaoInvalida', 'Devolução inválida.', detail, found, 'devolucao');
  return [
    {
      method: 'PUT',
      path: PATH,
      body: 'devolucaoSolicitada',
      refuse: (_, found) => invalid('A presente requisição de devolução não respeita o _schema_.', found),
      handle({ param, body }, { store }) {
        const { e2eid, id, found } = pathOf(param);
        if (found.length > 0)
          return { ...invalid('Os parâmetros da requisição não respeitam o _schema_.', found), errors: describe(found) };
        const pix = store.received.get(e2eid);
        if (!pix) return notFound();
        const refusal = refusals.get(store)?.get(e2eid);
        if (refusal && !refusal.stored) return invalid('A devolução foi recusada pelo PSP.');
        if (findDevolucao(store, e2eid, id)) return invalid(`O id ${id} já foi utilizado por outra devolução deste Pix.`);
        const {
          valor,
          natureza = 'ORIGINAL',
          descricao,
        } = body as { valor: string; natureza?: 'ORIGINAL' | 'RETIRADA'; descricao?: string };
        if (natureza === 'RETIRADA') return invalid('O Pix não é um Pix Saque nem um Pix Troco.');
        if (valorToCents(valor) > returnableCents(pix)) {
          return invalid(`A devolução excederia o valor do Pix originário (resta ${centsToValor(returnableCents(pix))}).`);
        }
        const devolucao: Devolucao = {
          id,
          rtrId: spiId('D', FAKE_PSP_ISPB),
          valor,
          natureza,
          ...(descricao === undefined ? {} : { descricao }),
          horario: { solicitacao: new Date().toISOString() },
          status: 'EM_PROCESSAMENTO',
        };
        pix.devolucoes = [...(pix.devolucoes ?? []), devolucao];
        return refusal ? invalid('A devolução foi recusada pelo PSP.') : json(201, devolucao);
      },
    },
    {
      method: 'GET',
      path: PATH,
      handle({ param }, { store }) {
        const { e2eid, id, found } = pathOf(param);
        const devolucao = found.length > 0 ? undefined : findDevolucao(store, e2eid, id);
        if (devolucao) return json(200, devolucao);
        return {
          ...problem(404, 'PixDevolucaoNaoEncontrada', 'Devolução não encontrada.', `Nenhuma devolução ${id} do Pix ${e2eid}.`),
          errors: describe(found),
        };
      },
    },
  ];
}
