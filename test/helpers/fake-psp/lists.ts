// The fake PSP's lists, which reconciliation reads: the standard's GET /pix?inicio&fim (received Pix with
// their devoluções) and Efí's GET /v2/gn/pix/enviados?inicio&fim, both paginated the standard's way
// (`paginacao.paginaAtual` from 0, `paginacao.itensPorPagina` up to 1000). A list holds the store's
// records whose time is in [inicio, fim] (both ends, as the standard says), oldest first, then those of
// the seeded windows: a seeded record is computed from its window's seed and its index when a page asks
// for it, so a list of a million records costs no memory and reads the same pages every time.
//
// What reconciliation must find, and how a test puts it there: a Pix without a txid or with a txid no
// cob has (receiveUnasked), a Pix of another amount (FakePsp.pay with amountCents), a Pix after the cob
// was removed (payAfterRemoval), an envio ended at the PSP whose webhook was lost (FakePsp.completeEnvio,
// no sendWebhook), a devolução of any status and nature, MED_OPERACIONAL and MED_FRAUDE among them
// (putDevolucao), and bulk records (seedReceived, seedEnvios).
import type { components } from '../../../src/pix-routes/bcb-api-pix/api-pix.js';
import type { Violation } from './schemas.js';
import type { Answer, Route } from './server.js';
import { centsToValor, FAKE_PSP_ISPB, PAYER_ISPB, spiId, type Devolucao, type Envio, type PixRecebido, type PspStore } from './store.js';

type StandardDevolucao = components['schemas']['Devolucao'];
type Problem = (status: number, type: string, title: string, detail: string, violacoes?: Violation[]) => Answer;

/** `count` records spread evenly over [from, to), generated from `seed` (an unsigned 32-bit integer). */
export interface SeededWindow {
  from: Date;
  to: Date;
  count: number;
  seed: number;
  /** Every n-th received Pix (index 0 included) has a devolução (ORIGINAL, DEVOLVIDO) of half its value; 0 for none. */
  devolucaoEvery?: number;
}

/** An envio as Efí's list of envios shows it. */
export interface ListedEnvio {
  endToEndId: string;
  idEnvio: string;
  valor: string;
  chave: string;
  status: Envio['status'];
  infoPagador?: string;
  horario: { solicitacao: string; liquidacao?: string };
  favorecido: Envio['favorecido'];
}

const hex = (value: number, width: number) => value.toString(16).padStart(width, '0');
/** yyyyMMddHHmm of an ISO instant, as the SPI's ids carry it. */
const stampOf = (iso: string) => iso.replace(/\D/g, '').slice(0, 12);
/** The 11 letters and digits that end a seeded record's SPI id. */
const suffixOf = (window: SeededWindow, index: number) =>
  (window.seed % 36 ** 3).toString(36).padStart(3, '0') + index.toString(36).padStart(8, '0');
const timeOf = (window: SeededWindow, index: number) =>
  window.from.getTime() + Math.floor((index * (window.to.getTime() - window.from.getTime())) / window.count);
const centsOf = (window: SeededWindow, index: number) => 100 + ((index * 7919 + window.seed) % 100_000);
/** The engine's shape of id (`txn`/`out` and 24 hex digits, its transaction id without `_`). */
const engineIdOf = (prefix: 'txn' | 'out', window: SeededWindow, index: number) => `${prefix}${hex(window.seed, 8)}${hex(index, 16)}`;

/** Received Pix `index` of a seeded window, paying the cob whose txid is `txn` + seed (8 hex) + index (16 hex). */
export function seededReceived(window: SeededWindow, index: number, chave: string): PixRecebido {
  const horario = new Date(timeOf(window, index)).toISOString();
  const cents = centsOf(window, index);
  const pix: PixRecebido = {
    endToEndId: `E${PAYER_ISPB}${stampOf(horario)}${suffixOf(window, index)}`,
    txid: engineIdOf('txn', window, index),
    valor: centsToValor(cents),
    chave,
    horario,
    pagador: { nome: 'Pagador Semeado', cpf: '52998224725' },
  };
  const every = window.devolucaoEvery ?? 0;
  if (every > 0 && index % every === 0) {
    pix.devolucoes = [
      {
        id: `dev${hex(window.seed, 8)}${hex(index, 16)}`,
        rtrId: `D${FAKE_PSP_ISPB}${stampOf(horario)}${suffixOf(window, index)}`,
        valor: centsToValor(Math.floor(cents / 2)),
        natureza: 'ORIGINAL',
        horario: { solicitacao: horario, liquidacao: horario },
        status: 'DEVOLVIDO',
      },
    ];
  }
  return pix;
}

/** Envio `index` of a seeded window, REALIZADO, whose idEnvio is `out` + seed (8 hex) + index (16 hex). */
export function seededEnvio(window: SeededWindow, index: number, chave: string): ListedEnvio {
  const horario = new Date(timeOf(window, index)).toISOString();
  return {
    endToEndId: `E${FAKE_PSP_ISPB}${stampOf(horario)}${suffixOf(window, index)}`,
    idEnvio: engineIdOf('out', window, index),
    valor: centsToValor(centsOf(window, index)),
    chave,
    status: 'REALIZADO',
    horario: { solicitacao: horario, liquidacao: horario },
    favorecido: { chave: `favorecido${index}@example.com` },
  };
}

const listedEnvio = (envio: Envio): ListedEnvio => ({
  endToEndId: envio.endToEndId,
  idEnvio: envio.idEnvio,
  valor: envio.valor,
  chave: envio.pagador.chave,
  status: envio.status,
  ...(envio.pagador.infoPagador ? { infoPagador: envio.pagador.infoPagador } : {}),
  horario: envio.horario,
  favorecido: envio.favorecido,
});

/** A run of a list's records: `length` of them, the one at `index` built on demand. */
interface Run<T> {
  length: number;
  at(index: number): T;
}

/** The first index in [0, count) whose time is not before `ms` (count when none). */
function firstAtOrAfter(window: SeededWindow, ms: number): number {
  let [low, high] = [0, window.count];
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (timeOf(window, middle) < ms) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The records of the seeded windows whose time is in [inicio, fim]. */
const seededRuns = <T>(windows: SeededWindow[], inicio: number, fim: number, build: (window: SeededWindow, index: number) => T): Run<T>[] =>
  windows.map((window) => {
    const first = firstAtOrAfter(window, inicio);
    return { length: firstAtOrAfter(window, fim + 1) - first, at: (index) => build(window, first + index) };
  });

function storedRun<T>(records: Iterable<T>, timeOfRecord: (record: T) => string, inicio: number, fim: number): Run<T> {
  const within = [...records]
    .map((record) => ({ record, ms: Date.parse(timeOfRecord(record)) }))
    .filter(({ ms }) => ms >= inicio && ms <= fim)
    .sort((a, b) => a.ms - b.ms)
    .map(({ record }) => record);
  return { length: within.length, at: (index) => within[index]! };
}

/** Page `page` of `size` of the runs put end to end, with the standard's `parametros`. */
function listPage<T>(runs: Run<T>[], query: URLSearchParams, page: number, size: number): { parametros: unknown; items: T[] } {
  const total = runs.reduce((sum, run) => sum + run.length, 0);
  const items: T[] = [];
  let skip = page * size;
  for (const run of runs) {
    for (let index = Math.min(skip, run.length); index < run.length && items.length < size; index += 1) items.push(run.at(index));
    skip = Math.max(0, skip - run.length);
  }
  return {
    parametros: {
      inicio: query.get('inicio'),
      fim: query.get('fim'),
      paginacao: {
        paginaAtual: page,
        itensPorPagina: size,
        quantidadeDePaginas: Math.max(1, Math.ceil(total / size)),
        quantidadeTotalDeItens: total,
      },
    },
    items,
  };
}

/** The window and page a conforming list query asks for (the standard's defaults: page 0 of 100). */
function listQuery(query: URLSearchParams) {
  return {
    inicio: Date.parse(query.get('inicio')!),
    fim: Date.parse(query.get('fim')!),
    page: Number(query.get('paginacao.paginaAtual') ?? 0),
    size: Number(query.get('paginacao.itensPorPagina') ?? 100),
  };
}

/** The list operations, answering their refusals with the server's `problem`. */
export function listRoutes(problem: Problem): Route[] {
  const invalid = (detail: string, found?: Violation[]) =>
    problem(
      400,
      'PixConsultaInvalida',
      'Consulta inválida.',
      detail,
      found?.map((v) => ({ ...v, path: v.path.slice(1) })),
    );
  return [
    {
      method: 'GET',
      path: /^\/v2\/pix$/,
      query: 'pix',
      refuse: (_, found) => invalid('Os parâmetros da consulta de Pix recebidos não respeitam o _schema_.', found),
      handle({ query }, { store, pixKey }) {
        const { inicio, fim, page, size } = listQuery(query);
        if (fim < inicio) return { ...invalid('O parâmetro fim é anterior ao parâmetro inicio.'), errors: ['fim before inicio'] };
        const runs = [
          storedRun(store.received.values(), (pix) => pix.horario, inicio, fim),
          ...seededRuns(store.seeded.received, inicio, fim, (window, index) => seededReceived(window, index, pixKey)),
        ];
        const { parametros, items } = listPage(runs, query, page, size);
        return { status: 200, body: { parametros, pix: items } };
      },
    },
    {
      method: 'GET',
      path: /^\/v2\/gn\/pix\/enviados$/,
      query: 'efiEnviados',
      refuse: (errors) => ({ status: 400, body: { nome: 'valor_invalido', mensagem: errors.join('; ') } }),
      handle({ query }, { store, pixKey }) {
        const { inicio, fim, page, size } = listQuery(query);
        if (fim < inicio) {
          return {
            status: 400,
            body: { nome: 'valor_invalido', mensagem: 'O parâmetro fim é anterior ao inicio.' },
            errors: ['fim before inicio'],
          };
        }
        const runs = [
          storedRun([...store.envios.values()].map(listedEnvio), (envio) => envio.horario.solicitacao, inicio, fim),
          ...seededRuns(store.seeded.envios, inicio, fim, (window, index) => seededEnvio(window, index, pixKey)),
        ];
        const { parametros, items } = listPage(runs, query, page, size);
        return { status: 200, body: { parametros, pix: items } };
      },
    },
  ];
}

/** What tests put in the lists (see the top of this file). */
export interface FakePspLists {
  /** A Pix received on the key outside any cob: without a txid (none given), or naming `txid`, which no cob has. */
  receiveUnasked(pix: { amountCents: number; txid?: string; payer?: PixRecebido['pagador']; at?: Date }): { endToEndId: string };
  /** A Pix naming cob `txid` after the cob was removed (the cob stays as it is); the cob's amount unless amountCents. */
  payAfterRemoval(txid: string, options?: { amountCents?: number }): { endToEndId: string };
  /** A devolução as the standard allows it (any status and nature, a motivo) on received Pix `endToEndId`. */
  putDevolucao(endToEndId: string, devolucao: StandardDevolucao): void;
  /** Received Pix generated when read (seededReceived); `seed` tells windows apart and defaults to 1. */
  seedReceived(window: Omit<SeededWindow, 'seed'> & { seed?: number }): void;
  /** Envios generated when read (seededEnvio); `seed` defaults to 1. */
  seedEnvios(window: Omit<SeededWindow, 'seed'> & { seed?: number }): void;
}

export function listControls(store: PspStore, pixKey: string): FakePspLists {
  const receive = (pix: Omit<PixRecebido, 'endToEndId' | 'chave'>) => {
    const received: PixRecebido = { endToEndId: spiId('E', PAYER_ISPB), chave: pixKey, ...pix };
    store.received.set(received.endToEndId, received);
    return { endToEndId: received.endToEndId };
  };
  const seeded = (window: Omit<SeededWindow, 'seed'> & { seed?: number }): SeededWindow => {
    const seed = window.seed ?? 1;
    if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff)
      throw new Error(`fake PSP: seed ${seed} is not an unsigned 32-bit integer`);
    if (!(window.to > window.from) || !Number.isInteger(window.count) || window.count < 0)
      throw new Error('fake PSP: a seeded window is [from, to) with a count ≥ 0');
    return { ...window, seed };
  };
  return {
    receiveUnasked({ amountCents, txid, payer, at = new Date() }) {
      return receive({
        ...(txid === undefined ? {} : { txid }),
        valor: centsToValor(amountCents),
        horario: at.toISOString(),
        ...(payer ? { pagador: payer } : {}),
      });
    },

    payAfterRemoval(txid, { amountCents } = {}) {
      const cob = store.cobs.get(txid);
      if (!cob?.status.startsWith('REMOVIDA')) throw new Error(`fake PSP: cob ${txid} is ${cob?.status ?? 'absent'}, not removed`);
      return receive({
        txid,
        valor: amountCents === undefined ? cob.valor.original : centsToValor(amountCents),
        horario: new Date().toISOString(),
      });
    },

    putDevolucao(endToEndId, devolucao) {
      const pix = store.received.get(endToEndId);
      if (!pix) throw new Error(`fake PSP: no received Pix ${endToEndId}`);
      // The store's own devoluções are the settled ones it makes; a test's may be of any state the standard allows.
      pix.devolucoes = [...(pix.devolucoes ?? []), devolucao as Devolucao];
    },

    seedReceived(window) {
      store.seeded.received.push(seeded(window));
    },

    seedEnvios(window) {
      store.seeded.envios.push(seeded(window));
    },
  };
}
