// The fake PSP's Pix Automático: the standard's locations (`POST /locrec`, `GET /locrec/{id}`),
// recurrences (`POST /rec`, `GET` and `PATCH /rec/{idRec}`), recurring charges (`PUT`, `GET`, `PATCH
// /cobr/{txid}`, `POST /cobr/{txid}/retentativa/{data}`) and the webhooks' registrations
// (`PUT /webhookrec`, `PUT /webhookcobr`), every path parameter and body checked against the standard's
// schemas and kept in its shapes (RecCompleta, CobRCompleta). A test plays the payer's side: answers a
// recurrence in the bank's app, has a cobr's debit attempt paid or refused, and sends the webhooks.
// A refused attempt with no retry left (NAO_PERMITE, or the third retry's) ends the cobr REJEITADA. A cobr
// is revised (PATCH) only while its rec is APROVADA: once the rec is cancelled its schedule is the payer's
// PSP's to drop, in its own time, and the fake leaves it ATIVA.
import { randomUUID } from 'node:crypto';
import { generatePixPayload } from '@brazilian-utils/brazilian-utils';
import type { Answer, Route } from './server.js';
import { violations, type Violation } from './schemas.js';
import { FAKE_PSP_ISPB, PAYER_ISPB, randomAlphanumeric, spiId, type PixRecebido, type PspStore } from './store.js';
import type { Answers } from './devolucoes.js';

type RecStatus = 'CRIADA' | 'APROVADA' | 'REJEITADA' | 'EXPIRADA' | 'CANCELADA';
type CobRStatus = 'CRIADA' | 'ATIVA' | 'CONCLUIDA' | 'EXPIRADA' | 'REJEITADA' | 'CANCELADA';
type AttemptStatus = 'SOLICITADA' | 'AGENDADA' | 'PAGA' | 'CANCELADA' | 'REJEITADA' | 'EXPIRADA';

interface Location {
  id: number;
  location: string;
  criacao: string;
  idRec?: string;
}

/** The standard's RecCompleta, as the fake keeps it. */
export interface Rec {
  idRec: string;
  vinculo: { objeto?: string; contrato: string; devedor: { cpf?: string; cnpj?: string; nome: string } };
  calendario: { dataInicial: string; dataFinal?: string; periodicidade: string };
  valor: { valorRec?: string; valorMinimoRecebedor?: string };
  recebedor: { cnpj: string; nome: string };
  politicaRetentativa: 'NAO_PERMITE' | 'PERMITE_3R_7D';
  loc: Location;
  status: RecStatus;
  atualizacao: { status: RecStatus; data: string }[];
  ativacao: { tipoJornada: 'JORNADA_2' | 'JORNADA_3' | 'AGUARDANDO_DEFINICAO'; dadosJornada?: { txid: string } };
  dadosQR: { jornada: 'JORNADA_2' | 'JORNADA_3'; pixCopiaECola: string };
  pagador?: { ispbParticipante: string; cpf?: string; cnpj?: string };
  encerramento?:
    { rejeicao: { codigo: string; descricao: string } } | { cancelamento: { solicitante: string; codigo: string; descricao: string } };
}

interface Attempt {
  dataLiquidacao: string;
  tipo: 'AGND' | 'NTAG';
  status: AttemptStatus;
  endToEndId: string;
  atualizacao: { status: AttemptStatus; data: string }[];
  rejeicao?: { codigo: string; descricao: string };
}

/** The standard's CobRCompleta, as the fake keeps it. */
export interface CobR {
  idRec: string;
  txid: string;
  calendario: { criacao: string; dataDeVencimento: string };
  valor: { original: string };
  ajusteDiaUtil: boolean;
  recebedor: { conta: string; tipoConta: string; agencia?: string; cnpj: string; nome: string };
  devedor?: Record<string, unknown>;
  politicaRetentativa: Rec['politicaRetentativa'];
  status: CobRStatus;
  atualizacao: { status: CobRStatus; data: string }[];
  tentativas: Attempt[];
  pix?: PixRecebido[];
  encerramento?:
    { cancelamento: { solicitante: string; codigo: string; descricao: string } } | { rejeicao: { codigo: string; descricao: string } };
}

interface RecurrenceState {
  locations: Map<number, Location>;
  recs: Map<string, Rec>;
  cobrs: Map<string, CobR>;
  webhookRecUrl: string | null;
  webhookCobrUrl: string | null;
}

/** Who the fake PSP says receives its recurrences (the standard requires a company). */
const RECEBEDOR = { cnpj: '11222333000181', nome: 'FAKE PSP RECEBEDOR LTDA' };

const states = new WeakMap<PspStore, RecurrenceState>();

export function recurrenceState(store: PspStore): RecurrenceState {
  let state = states.get(store);
  if (!state) {
    state = { locations: new Map(), recs: new Map(), cobrs: new Map(), webhookRecUrl: null, webhookCobrUrl: null };
    states.set(store, state);
  }
  return state;
}

let lastLocationId = 2_000_000;
const now = () => new Date().toISOString();
/** The day `offset` days from today in São Paulo (UTC−3), where the standard's dates are counted. */
export const saoPauloDay = (offset = 0) => new Date(Date.now() - 3 * 3_600_000 + offset * 86_400_000).toISOString().slice(0, 10);
const today = () => saoPauloDay();
const plusDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** The receiver's cancellation (PATCH CANCELADA), as a rec's and a cobr's `encerramento` record it. */
const CANCELLED_BY_RECEIVER = {
  cancelamento: { solicitante: 'USUARIO_RECEBEDOR', codigo: 'SLCR', descricao: 'Cancelada pelo usuário recebedor.' },
};

/** A rec as POST and PATCH /rec answer it (the standard's RecGerada): without the QR data GET /rec adds. */
function recGerada(rec: Rec): Omit<Rec, 'dadosQR'> {
  const { dadosQR: _, ...gerada } = rec;
  return gerada;
}

/** RxISPByyyyMMdd + 11: R, then R (retries allowed) or N, the receiver's ISPB, the day, a sequence. */
function recId(policy: Rec['politicaRetentativa']): string {
  return `R${policy === 'PERMITE_3R_7D' ? 'R' : 'N'}${FAKE_PSP_ISPB}${today().replace(/-/g, '')}${randomAlphanumeric(11)}`;
}

function setRecStatus(rec: Rec, status: RecStatus): void {
  rec.status = status;
  rec.atualizacao.push({ status, data: now() });
}

function setCobrStatus(cobr: CobR, status: CobRStatus): void {
  cobr.status = status;
  cobr.atualizacao.push({ status, data: now() });
}

function setAttemptStatus(attempt: Attempt, status: AttemptStatus): void {
  attempt.status = status;
  attempt.atualizacao.push({ status, data: now() });
}

function newAttempt(day: string, tipo: Attempt['tipo']): Attempt {
  return {
    dataLiquidacao: day,
    tipo,
    status: 'AGENDADA',
    endToEndId: spiId('E', PAYER_ISPB),
    atualizacao: [{ status: 'AGENDADA', data: now() }],
  };
}

/** The payer's answer in the bank's app: authorized (with the first payment's cob in journey 3), refused, or a cancellation. */
export function answerRec(store: PspStore, idRec: string, answer: 'APROVADA' | 'REJEITADA' | 'CANCELADA'): Rec {
  const rec = recurrenceState(store).recs.get(idRec);
  if (!rec) throw new Error(`fake PSP: no rec ${idRec}`);
  const open = answer === 'CANCELADA' ? ['CRIADA', 'APROVADA'] : ['CRIADA'];
  if (!open.includes(rec.status)) throw new Error(`fake PSP: rec ${idRec} is ${rec.status}`);
  if (answer === 'APROVADA') {
    rec.ativacao.tipoJornada = rec.dadosQR.jornada;
    const { cpf, cnpj } = rec.vinculo.devedor;
    rec.pagador = { ispbParticipante: PAYER_ISPB, ...(cpf ? { cpf } : { cnpj: cnpj! }) };
  } else if (answer === 'REJEITADA') {
    rec.encerramento = { rejeicao: { codigo: 'AP13', descricao: 'Recorrência rejeitada pelo usuário pagador.' } };
  } else {
    rec.encerramento = { cancelamento: { solicitante: 'USUARIO_PAGADOR', codigo: 'ACCL', descricao: 'Cancelada pelo usuário pagador.' } };
  }
  setRecStatus(rec, answer);
  return rec;
}

/** The payer's bank's debit attempt of cobr `txid`: paid (CONCLUIDA with its Pix, received on `chave`) or refused. */
export function debitCobr(store: PspStore, chave: string, txid: string, outcome: 'PAGA' | 'REJEITADA'): CobR {
  const cobr = recurrenceState(store).cobrs.get(txid);
  if (!cobr) throw new Error(`fake PSP: no cobr ${txid}`);
  const attempt = cobr.tentativas.at(-1);
  if (cobr.status !== 'ATIVA' || attempt?.status !== 'AGENDADA') throw new Error(`fake PSP: cobr ${txid} has no attempt scheduled`);
  if (outcome === 'REJEITADA') {
    attempt.rejeicao = { codigo: 'AM02', descricao: 'Tentativa recusada pelo PSP pagador.' };
    setAttemptStatus(attempt, 'REJEITADA');
    if (cobr.politicaRetentativa === 'NAO_PERMITE' || cobr.tentativas.length > MAX_RETRIES) {
      cobr.encerramento = { rejeicao: { ...attempt.rejeicao } };
      setCobrStatus(cobr, 'REJEITADA');
    }
    return cobr;
  }
  setAttemptStatus(attempt, 'PAGA');
  const pix: PixRecebido = { endToEndId: attempt.endToEndId, txid, valor: cobr.valor.original, chave, horario: now() };
  cobr.pix = [pix];
  store.received.set(pix.endToEndId, pix);
  setCobrStatus(cobr, 'CONCLUIDA');
  return cobr;
}

/** A webhookrec's entry (the standard's RecNotification) and a webhookcobr's (CobRNotification). */
export const recNotification = (rec: Rec) => ({ idRec: rec.idRec, status: rec.status, atualizacao: rec.atualizacao });
export const cobrNotification = (cobr: CobR) => ({
  idRec: cobr.idRec,
  txid: cobr.txid,
  status: cobr.status,
  atualizacao: cobr.atualizacao,
  tentativas: cobr.tentativas,
  ...(cobr.pix ? { pix: cobr.pix } : {}),
});

function createRec(state: RecurrenceState, body: Record<string, any>, location: Location, firstPayment: string | null): Rec {
  const idRec = recId(body.politicaRetentativa);
  location.idRec = idRec;
  const pixCopiaECola = generatePixPayload({ url: location.location, merchantName: 'FAKE PSP RECEBEDOR', merchantCity: 'SAO PAULO' });
  if (pixCopiaECola === null) throw new Error(`fake PSP: no BR Code for ${location.location}`);
  const rec: Rec = {
    idRec,
    vinculo: body.vinculo,
    calendario: body.calendario,
    valor: body.valor,
    recebedor: RECEBEDOR,
    politicaRetentativa: body.politicaRetentativa,
    loc: location,
    status: 'CRIADA',
    atualizacao: [{ status: 'CRIADA', data: now() }],
    ativacao: { tipoJornada: 'AGUARDANDO_DEFINICAO', ...(firstPayment ? { dadosJornada: { txid: firstPayment } } : {}) },
    dadosQR: { jornada: firstPayment ? 'JORNADA_3' : 'JORNADA_2', pixCopiaECola },
  };
  state.recs.set(idRec, rec);
  return rec;
}

/** PERMITE_3R_7D: the retries after the first attempt. */
const MAX_RETRIES = 3;

const valorCents = (valor: string | undefined) => (valor === undefined ? null : Math.round(Number(valor) * 100));

/** What the standard asks of a cobr beyond its schema: an authorized recurrence, its amount, 2 to 10 days ahead. */
function cobrProblem(rec: Rec | undefined, body: Record<string, any>): string | null {
  if (!rec) return `A recorrência ${String(body.idRec)} não existe.`;
  if (rec.status !== 'APROVADA') return `A recorrência ${rec.idRec} não está APROVADA: ${rec.status}.`;
  const cents = valorCents(body.valor.original)!;
  const fixed = valorCents(rec.valor.valorRec);
  if (fixed !== null && cents !== fixed) return `O valor ${body.valor.original} difere do valor da recorrência ${rec.valor.valorRec}.`;
  const minimum = valorCents(rec.valor.valorMinimoRecebedor);
  if (minimum !== null && cents < minimum) return `O valor ${body.valor.original} é menor que o mínimo ${rec.valor.valorMinimoRecebedor}.`;
  const due: string = body.calendario.dataDeVencimento;
  if (due < plusDays(today(), 2) || due > plusDays(today(), 10))
    return `A data de vencimento ${due} não está entre 2 e 10 dias a partir de hoje.`;
  if (rec.calendario.dataFinal !== undefined && due > rec.calendario.dataFinal)
    return `A data de vencimento ${due} é posterior ao fim da recorrência.`;
  return null;
}

/** Why a retry of `cobr` on `day` is refused (the standard: PERMITE_3R_7D, after a refused attempt, 3 within 7 days), or null. */
function retryProblem(cobr: CobR, day: string): string | null {
  if (cobr.politicaRetentativa !== 'PERMITE_3R_7D') return `A recorrência ${cobr.idRec} não permite retentativas.`;
  if (cobr.status !== 'ATIVA') return `A cobrança ${cobr.txid} não está ATIVA: ${cobr.status}.`;
  if (cobr.tentativas.at(-1)?.status !== 'REJEITADA') return `A última tentativa da cobrança ${cobr.txid} não foi rejeitada.`;
  if (cobr.tentativas.length > MAX_RETRIES) return `A cobrança ${cobr.txid} já teve 3 retentativas.`;
  const due = cobr.calendario.dataDeVencimento;
  if (day <= due || day > plusDays(due, 7)) return `A data ${day} não está nos 7 dias após o vencimento ${due}.`;
  if (day < today()) return `A data ${day} já passou.`;
  return null;
}

export function recurrenceRoutes({ json, problem, notFound }: Answers, refuseWebhook: NonNullable<Route['refuse']>): Route[] {
  const recInvalid = (detail: string, found?: Violation[]): Answer =>
    problem(400, 'RecOperacaoInvalida', 'Recorrência inválida.', detail, found, 'rec');
  const cobrInvalid = (detail: string, found?: Violation[]): Answer =>
    problem(400, 'CobROperacaoInvalida', 'Cobrança recorrente inválida.', detail, found, 'cobr');
  const refuseRec = (_: string[], found: Violation[]) =>
    recInvalid('A requisição que busca alterar ou criar uma recorrência não respeita o _schema_ ou está semanticamente errada.', found);
  const refuseCobr = (_: string[], found: Violation[]) =>
    cobrInvalid(
      'A requisição que busca alterar ou criar uma cobrança recorrente não respeita o _schema_ ou está semanticamente errada.',
      found,
    );
  const rec = /^\/v2\/rec\/([^/]+)$/;
  const cobr = /^\/v2\/cobr\/([^/]+)$/;
  return [
    {
      method: 'POST',
      path: /^\/v2\/locrec$/,
      handle(_, { store }) {
        const criacao = now();
        const location: Location = {
          id: ++lastLocationId,
          location: `pix.fake-psp.example/qr/v2/rec/${randomUUID().replace(/-/g, '')}`,
          criacao,
        };
        recurrenceState(store).locations.set(location.id, location);
        return json(201, { id: location.id, location: location.location, criacao });
      },
    },
    {
      method: 'GET',
      path: /^\/v2\/locrec\/([^/]+)$/,
      param: 'locationId',
      refuse: () => notFound(),
      handle: ({ param }, { store }) => {
        const location = recurrenceState(store).locations.get(Number(param));
        return location ? json(200, location) : notFound();
      },
    },
    {
      method: 'POST',
      path: /^\/v2\/rec$/,
      body: 'recSolicitada',
      refuse: refuseRec,
      handle({ body }, { store }) {
        const request = body as Record<string, any>;
        const state = recurrenceState(store);
        const location = state.locations.get(request.loc);
        if (request.loc === undefined || !location) return recInvalid(`A location ${String(request.loc)} não existe.`);
        if (location.idRec) return recInvalid(`A location ${location.id} já está vinculada à recorrência ${location.idRec}.`);
        const firstPayment: string | null = request.ativacao?.dadosJornada?.txid ?? null;
        if (firstPayment !== null && store.cobs.get(firstPayment)?.status !== 'ATIVA')
          return recInvalid(`A cobrança ${firstPayment} da jornada 3 não existe ou não está ATIVA.`);
        if (request.calendario.dataFinal !== undefined && request.calendario.dataFinal < request.calendario.dataInicial)
          return recInvalid('A data final é anterior à data inicial.');
        return json(201, recGerada(createRec(state, request, location, firstPayment)));
      },
    },
    {
      method: 'GET',
      path: rec,
      param: 'idRec',
      refuse: () => notFound(),
      handle: ({ param }, { store }) => {
        const found = recurrenceState(store).recs.get(param);
        return found ? json(200, found) : notFound();
      },
    },
    {
      method: 'PATCH',
      path: rec,
      param: 'idRec',
      body: 'recRevisada',
      refuse: refuseRec,
      handle({ param, body }, { store }) {
        const found = recurrenceState(store).recs.get(param);
        if (!found) return notFound();
        if ((body as { status?: string }).status !== 'CANCELADA') return recInvalid('Só o cancelamento é aceito pelo PSP.');
        if (found.status !== 'CRIADA' && found.status !== 'APROVADA')
          return recInvalid(`A recorrência ${param} não pode ser cancelada: ${found.status}.`);
        found.encerramento = structuredClone(CANCELLED_BY_RECEIVER);
        setRecStatus(found, 'CANCELADA');
        return json(200, recGerada(found));
      },
    },
    {
      method: 'PUT',
      path: cobr,
      param: 'txid',
      body: 'cobRSolicitada',
      refuse: refuseCobr,
      handle({ param: txid, body }, { store }) {
        const request = body as Record<string, any>;
        const state = recurrenceState(store);
        if (state.cobrs.has(txid) || store.cobs.has(txid)) return cobrInvalid(`O txid ${txid} já foi utilizado.`);
        const of = state.recs.get(request.idRec);
        const semantic = cobrProblem(of, request);
        if (semantic) return { ...cobrInvalid(semantic), errors: [semantic] };
        const created: CobR = {
          idRec: of!.idRec,
          txid,
          calendario: { criacao: today(), dataDeVencimento: request.calendario.dataDeVencimento },
          valor: { original: request.valor.original },
          ajusteDiaUtil: request.ajusteDiaUtil,
          recebedor: { ...request.recebedor, ...RECEBEDOR },
          ...(request.devedor === undefined ? {} : { devedor: request.devedor }),
          politicaRetentativa: of!.politicaRetentativa,
          status: 'CRIADA',
          atualizacao: [{ status: 'CRIADA', data: now() }],
          tentativas: [newAttempt(request.calendario.dataDeVencimento, 'AGND')],
        };
        // The payer's PSP took the schedule at once.
        setCobrStatus(created, 'ATIVA');
        state.cobrs.set(txid, created);
        return json(201, created);
      },
    },
    {
      method: 'GET',
      path: cobr,
      param: 'txid',
      refuse: refuseCobr,
      handle: ({ param: txid }, { store }) => {
        const found = recurrenceState(store).cobrs.get(txid);
        return found ? json(200, found) : notFound();
      },
    },
    {
      method: 'PATCH',
      path: cobr,
      param: 'txid',
      body: 'cobRRevisada',
      refuse: refuseCobr,
      handle({ param: txid }, { store }) {
        const state = recurrenceState(store);
        const found = state.cobrs.get(txid);
        if (!found) return notFound();
        if (found.status !== 'CRIADA' && found.status !== 'ATIVA')
          return cobrInvalid(`A cobrança ${txid} não pode ser cancelada: ${found.status}.`);
        const of = state.recs.get(found.idRec)!;
        if (of.status !== 'APROVADA') return cobrInvalid(`A recorrência ${of.idRec} não está APROVADA: ${of.status}.`);
        const attempt = found.tentativas.at(-1);
        if (attempt?.status === 'AGENDADA') setAttemptStatus(attempt, 'CANCELADA');
        found.encerramento = structuredClone(CANCELLED_BY_RECEIVER);
        setCobrStatus(found, 'CANCELADA');
        return json(200, found);
      },
    },
    {
      method: 'POST',
      path: /^\/v2\/cobr\/([^/]+\/retentativa\/[^/]+)$/,
      handle({ param }, { store }) {
        const [txid = '', day = ''] = param.split('/retentativa/');
        const found = [
          ...violations('txid', txid).map((v) => ({ ...v, path: '/txid' })),
          ...violations('day', day).map((v) => ({ ...v, path: '/data' })),
        ];
        if (found.length > 0) return { ...refuseCobr([], found), errors: found.map((v) => `${v.path} ${v.message}`) };
        const cobrFound = recurrenceState(store).cobrs.get(txid);
        if (!cobrFound) return notFound();
        const refused = retryProblem(cobrFound, day);
        if (refused) return cobrInvalid(refused);
        cobrFound.tentativas.push(newAttempt(day, 'NTAG'));
        return json(201, cobrFound);
      },
    },
    {
      method: 'PUT',
      path: /^\/v2\/webhookrec$/,
      body: 'webhookRecSolicitado',
      refuse: refuseWebhook,
      handle({ body }, { store }) {
        recurrenceState(store).webhookRecUrl = (body as { webhookUrl: string }).webhookUrl;
        return { status: 200 };
      },
    },
    {
      method: 'PUT',
      path: /^\/v2\/webhookcobr$/,
      body: 'webhookCobRSolicitado',
      refuse: refuseWebhook,
      handle({ body }, { store }) {
        recurrenceState(store).webhookCobrUrl = (body as { webhookUrl: string }).webhookUrl;
        return { status: 200 };
      },
    },
  ];
}
