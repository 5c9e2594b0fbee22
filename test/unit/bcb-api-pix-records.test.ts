// The bcb-api-pix route's records for reconciliation (GET /pix?inicio&fim and Efí's GET
// /v2/gn/pix/enviados?inicio&fim, every page) against the conformance fake PSP over mTLS and OAuth:
// what it asks, how it maps the answers, its failures; and the fake's lists themselves.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadRoutesFile } from '../../src/config/routes-file.js';
import { PspClient } from '../../src/pix-routes/bcb-api-pix/client.js';
import { EfiTransferRoute } from '../../src/pix-routes/bcb-api-pix/efi-send.js';
import { PspRejected, PspUnavailable } from '../../src/pix-routes/bcb-api-pix/errors.js';
import { BcbApiPixRecords } from '../../src/pix-routes/bcb-api-pix/records.js';
import type { RouteRecords } from '../../src/pix-routes/route-records.js';
import { startFakePsp, type FakePsp } from '../helpers/fake-psp/index.js';
import { seededEnvio, seededReceived } from '../helpers/fake-psp/lists.js';
import { violations } from '../helpers/fake-psp/schemas.js';

let psp: FakePsp;
let clients: PspClient[] = [];

/** A window of its own for each test, so that the records of one are not in another's lists. */
let windows = 0;
function newWindow(): { from: Date; to: Date } {
  const from = new Date(Date.UTC(2031, 0, 1 + ++windows * 2));
  return { from, to: new Date(from.getTime() + 24 * 3600_000) };
}
const at = (window: { from: Date }, minutes: number) => new Date(window.from.getTime() + minutes * 60_000);

function clientOf(overrides: Record<string, unknown> = {}): PspClient {
  const [route] = loadRoutesFile(psp.writeRoutesFile(overrides));
  const client = new PspClient(route!);
  clients.push(client);
  return client;
}

function recordsOf(overrides: Record<string, unknown> = {}, itemsPerPage?: number): BcbApiPixRecords {
  const client = clientOf(overrides);
  return new BcbApiPixRecords(client, { sendBaseUrl: client.route.send?.baseUrl ?? null, itemsPerPage });
}

async function pagesOf<T>(pages: AsyncIterable<T[]>): Promise<T[][]> {
  const read: T[][] = [];
  for await (const page of pages) read.push(page);
  return read;
}

/** The list requests made since `since`: path, page asked, and whether they conformed. */
const listRequests = (since: number, path: string) =>
  psp.requests
    .slice(since)
    .filter((request) => request.method === 'GET' && request.path === path)
    .map((request) => ({
      page: new URLSearchParams(request.query).get('paginacao.paginaAtual'),
      status: request.status,
      conforms: request.conforms,
    }));

beforeAll(async () => {
  psp = await startFakePsp();
});

afterEach(async () => {
  psp.down(0);
  await Promise.all(clients.map((client) => client.close()));
  clients = [];
});

afterAll(async () => {
  await psp.close();
});

describe('received: GET /pix?inicio&fim', () => {
  it('reads every page in order, the store’s Pix then the seeded ones, amounts in centavos, [from, to) kept', async () => {
    const window = newWindow();
    const noTxid = psp.lists.receiveUnasked({ amountCents: 12_345, at: at(window, 10), payer: { nome: 'Ana Lima', cpf: '52998224725' } });
    const unknownTxid = psp.lists.receiveUnasked({ amountCents: 1, txid: 'naoemitidopelomotor0000001', at: at(window, 20) });
    const atStart = psp.lists.receiveUnasked({ amountCents: 10_000_000_000, at: window.from });
    psp.lists.receiveUnasked({ amountCents: 500, at: window.to });
    psp.lists.seedReceived({ ...window, count: 4, seed: 7 });
    const records = recordsOf({}, 3);
    const since = psp.requests.length;

    const pages = await pagesOf(records.received(window.from, window.to));

    // 4 + 4 Pix in [inicio, fim] (the standard's fim is inclusive): 3 pages of 3; the one at `to` is left out of the second.
    expect(listRequests(since, '/v2/pix')).toEqual(['0', '1', '2'].map((page) => ({ page, status: 200, conforms: true })));
    expect(pages.map((page) => page.length)).toEqual([3, 2, 2]);
    const seeded = [0, 1, 2, 3].map((index) => seededReceived({ ...window, count: 4, seed: 7 }, index, psp.pixKey));
    expect(pages.flat().map((record) => record.endToEndId)).toEqual([
      atStart.endToEndId,
      noTxid.endToEndId,
      unknownTxid.endToEndId,
      ...seeded.map((pix) => pix.endToEndId),
    ]);
    const [first, second, third] = pages.flat();
    expect(first).toEqual({
      endToEndId: atStart.endToEndId,
      txid: null,
      amountCents: 10_000_000_000,
      at: window.from,
      payer: { name: null, document: null },
      refunds: [],
    });
    expect(second).toMatchObject({
      txid: null,
      amountCents: 12_345,
      at: at(window, 10),
      payer: { name: 'Ana Lima', document: '52998224725' },
    });
    expect(third).toMatchObject({ txid: 'naoemitidopelomotor0000001', amountCents: 1 });
    expect(pages.flat().slice(3)).toEqual(
      seeded.map((pix) =>
        expect.objectContaining({ txid: pix.txid, amountCents: Math.round(Number(pix.valor) * 100), at: new Date(pix.horario) }),
      ),
    );
  });

  it('maps each devolução: nature (ORIGINAL when the PSP gives none), status, motivo, times, rtrId', async () => {
    const window = newWindow();
    const { endToEndId } = psp.lists.receiveUnasked({ amountCents: 10_000, txid: 'txn0000000000000000000000aa', at: at(window, 30) });
    const requested = at(window, 40).toISOString();
    const settled = at(window, 41).toISOString();
    psp.lists.putDevolucao(endToEndId, {
      id: 'rfd0000000000000000000000a1',
      rtrId: 'D09089356203101050040abcdefghijk',
      valor: '10.00',
      horario: { solicitacao: requested, liquidacao: settled },
      status: 'DEVOLVIDO',
    });
    psp.lists.putDevolucao(endToEndId, {
      id: 'rfd0000000000000000000000a2',
      rtrId: 'D09089356203101050040abcdefghijl',
      valor: '5.50',
      natureza: 'ORIGINAL',
      horario: { solicitacao: requested },
      status: 'EM_PROCESSAMENTO',
    });
    psp.lists.putDevolucao(endToEndId, {
      id: 'rfd0000000000000000000000a3',
      rtrId: 'D09089356203101050040abcdefghijm',
      valor: '1.00',
      natureza: 'ORIGINAL',
      horario: { solicitacao: requested },
      status: 'NAO_REALIZADO',
      motivo: 'Conta do pagador encerrada',
    });
    psp.addDevolucao(endToEndId, { id: 'med1', amountCents: 2_000, natureza: 'MED_FRAUDE' });
    psp.addDevolucao(endToEndId, { id: 'med2', amountCents: 300, natureza: 'MED_OPERACIONAL' });

    const [[record]] = (await pagesOf(recordsOf().received(window.from, window.to))) as [[any]];

    expect(record.refunds).toEqual([
      {
        id: 'rfd0000000000000000000000a1',
        rtrId: 'D09089356203101050040abcdefghijk',
        amountCents: 1_000,
        nature: 'ORIGINAL',
        status: 'DEVOLVIDO',
        reason: null,
        requestedAt: new Date(requested),
        settledAt: new Date(settled),
      },
      expect.objectContaining({ id: 'rfd0000000000000000000000a2', amountCents: 550, status: 'EM_PROCESSAMENTO', settledAt: null }),
      expect.objectContaining({ id: 'rfd0000000000000000000000a3', status: 'NAO_REALIZADO', reason: 'Conta do pagador encerrada' }),
      expect.objectContaining({ id: 'med1', amountCents: 2_000, nature: 'MED_FRAUDE', status: 'DEVOLVIDO', settledAt: expect.any(Date) }),
      expect.objectContaining({ id: 'med2', amountCents: 300, nature: 'MED_OPERACIONAL', status: 'DEVOLVIDO' }),
    ]);
    expect(record.refunds[3].rtrId).toMatch(/^D09089356\w{23}$/);
  });

  it('lists a Pix of another amount and a Pix after the cob was removed with the cob’s txid', async () => {
    const client = clientOf();
    const from = new Date(Date.now() - 60_000);
    const txids = ['txn00000000000000000000c0b1', 'txn00000000000000000000c0b2'];
    for (const txid of txids) {
      const cob = await client.api.PUT('/cob/{txid}', {
        params: { path: { txid } },
        body: { calendario: { expiracao: 900 }, valor: { original: '20.00' }, chave: psp.pixKey },
      });
      expect(cob.response.status).toBe(201);
    }
    const short = psp.pay(txids[0]!, { amountCents: 1_999 });
    const removed = await client.api.PATCH('/cob/{txid}', {
      params: { path: { txid: txids[1]! } },
      body: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' },
    });
    expect(removed.response.status).toBe(200);
    const late = psp.lists.payAfterRemoval(txids[1]!);
    expect(() => psp.lists.payAfterRemoval(txids[0]!)).toThrow(/CONCLUIDA, not removed/);

    const records = (await pagesOf(recordsOf().received(from, new Date(Date.now() + 60_000)))).flat();

    expect(records.find((record) => record.endToEndId === short.endToEndId)).toMatchObject({ txid: txids[0], amountCents: 1_999 });
    expect(records.find((record) => record.endToEndId === late.endToEndId)).toMatchObject({ txid: txids[1], amountCents: 2_000 });
    expect(psp.cob(txids[1]!)).toMatchObject({ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' });
  });

  it('an empty window: one page asked, nothing yielded', async () => {
    const window = newWindow();
    const since = psp.requests.length;
    expect(await pagesOf(recordsOf().received(window.from, window.to))).toEqual([]);
    expect(listRequests(since, '/v2/pix')).toEqual([{ page: '0', status: 200, conforms: true }]);
  });

  it('a page the PSP does not answer is PspUnavailable (retried), after the pages already read', async () => {
    const window = newWindow();
    psp.lists.seedReceived({ ...window, count: 5, seed: 11 });
    const pages = recordsOf({}, 2).received(window.from, window.to)[Symbol.asyncIterator]();
    expect((await pages.next()).value).toHaveLength(2);
    psp.down(60_000, '503');
    const failure = await pages.next().catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(PspUnavailable);
    expect((failure as Error).message).toMatch(/GET \/pix page 1: the PSP answered 503/);
  });

  it('a devolução of a nature reconciliation does not read fails the page instead of dropping it', async () => {
    const window = newWindow();
    const { endToEndId } = psp.lists.receiveUnasked({ amountCents: 1_000, at: at(window, 5) });
    psp.lists.putDevolucao(endToEndId, {
      id: 'auto1',
      rtrId: 'D09089356203101050040abcdefghijn',
      valor: '1.00',
      natureza: 'MED_DESCONHECIDA' as 'MED_FRAUDE',
      horario: {},
      status: 'DEVOLVIDO',
    });
    const failure = await pagesOf(recordsOf().received(window.from, window.to)).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(PspUnavailable);
    expect((failure as Error).message).toContain(`Pix ${endToEndId} devolução auto1: natureza MED_DESCONHECIDA`);
  });

  it('reads a devolução of the MED of Pix Automático (MED_PIX_AUTOMATICO), a nature of the standard', async () => {
    const window = newWindow();
    const { endToEndId } = psp.lists.receiveUnasked({ amountCents: 1_000, at: at(window, 5) });
    psp.addDevolucao(endToEndId, { id: 'auto2', amountCents: 400, natureza: 'MED_PIX_AUTOMATICO' });
    const [[record]] = (await pagesOf(recordsOf().received(window.from, window.to))) as [[any]];
    expect(record.refunds).toEqual([
      expect.objectContaining({ id: 'auto2', amountCents: 400, nature: 'MED_PIX_AUTOMATICO', status: 'DEVOLVIDO' }),
    ]);
  });

  it('reads a seeded window the same every time', async () => {
    const window = newWindow();
    psp.lists.seedReceived({ ...window, count: 50, seed: 3, devolucaoEvery: 10 });
    const records = recordsOf({}, 7);
    const first = await pagesOf(records.received(window.from, window.to));
    expect(first.flat()).toHaveLength(50);
    expect(first.flat().filter((record) => record.refunds.length === 1)).toHaveLength(5);
    expect(await pagesOf(records.received(window.from, window.to))).toEqual(first);
  });
});

describe('sent: Efí’s GET /v2/gn/pix/enviados?inicio&fim', () => {
  it('reads every page of envios: the engine’s (one ended at the PSP whose webhook was lost) and seeded ones', async () => {
    const from = new Date(Date.now() - 60_000);
    const client = clientOf();
    const sender = new EfiTransferRoute(client, { sendBaseUrl: psp.sendBaseUrl });
    const ids = ['out00000000000000000000e0a1', 'out00000000000000000000e0a2'];
    for (const [index, idEnvio] of ids.entries()) {
      await sender.sendTransfer({
        transactionId: `out_${idEnvio.slice(3)}`,
        amountCents: 1_000 + index,
        destination: { type: 'pix_key', value: 'ana@example.com', keyType: 'email' },
        description: 'Aluguel',
      });
    }
    const done = psp.completeEnvio(ids[1]!, 'REALIZADO');
    const to = new Date(Date.now() + 60_000);
    const window = { from: new Date(to.getTime() + 3600_000), to: new Date(to.getTime() + 7200_000) };
    psp.lists.seedEnvios({ ...window, count: 3, seed: 5 });
    const records = recordsOf({}, 2);
    const since = psp.requests.length;

    const sent = (await pagesOf(records.sent(from, to))).flat().filter((record) => ids.includes(record.idEnvio));
    const seeded = await pagesOf(records.sent(window.from, window.to));

    expect(sent).toEqual([
      {
        idEnvio: ids[0],
        endToEndId: expect.stringMatching(/^E09089356\w{23}$/),
        amountCents: 1_000,
        status: 'EM_PROCESSAMENTO',
        at: expect.any(Date),
      },
      { idEnvio: ids[1], endToEndId: done.endToEndId, amountCents: 1_001, status: 'REALIZADO', at: expect.any(Date) },
    ]);
    expect(seeded.map((page) => page.length)).toEqual([2, 1]);
    expect(seeded.flat()).toEqual(
      [0, 1, 2].map((index) => {
        const envio = seededEnvio({ ...window, count: 3, seed: 5 }, index, psp.pixKey);
        return {
          idEnvio: envio.idEnvio,
          endToEndId: envio.endToEndId,
          amountCents: Math.round(Number(envio.valor) * 100),
          status: 'REALIZADO',
          at: new Date(envio.horario.solicitacao),
        };
      }),
    );
    expect(listRequests(since, '/v2/gn/pix/enviados').every((request) => request.status === 200 && request.conforms)).toBe(true);
    expect(
      listRequests(since, '/v2/gn/pix/enviados')
        .slice(-2)
        .map((request) => request.page),
    ).toEqual(['0', '1']);
  });

  it('an empty window yields nothing; a page the PSP does not answer is PspUnavailable', async () => {
    const window = newWindow();
    const records: RouteRecords = recordsOf({}, 1);
    expect(await pagesOf(records.sent(window.from, window.to))).toEqual([]);
    psp.lists.seedEnvios({ ...window, count: 2, seed: 9 });
    const pages = records.sent(window.from, window.to)[Symbol.asyncIterator]();
    expect((await pages.next()).value).toHaveLength(1);
    psp.down(60_000, 'reset');
    await expect(pages.next()).rejects.toBeInstanceOf(PspUnavailable);
  });

  it('a route without send yields no sent page and asks nothing', async () => {
    const window = newWindow();
    psp.lists.seedEnvios({ ...window, count: 2, seed: 13 });
    const since = psp.requests.length;
    expect(await pagesOf(recordsOf({ send: undefined }).sent(window.from, window.to))).toEqual([]);
    expect(psp.requests.length).toBe(since);
  });
});

describe('the fake PSP’s lists', () => {
  const url = (path: string, query: Record<string, string>) => `${path}?${new URLSearchParams(query)}`;
  const window = { inicio: '2031-06-01T00:00:00Z', fim: '2031-06-02T00:00:00Z' };

  it('refuses a list request without inicio or fim, or with a page size over 1000, recorded as not conforming', async () => {
    const client = clientOf();
    const withoutInicio = await client.json('GET', url(`${psp.baseUrl}/pix`, { fim: window.fim }), 'list');
    expect(withoutInicio).toMatchObject({ ok: false, rejected: { status: 400, problem: { title: 'Consulta inválida.' } } });
    expect(!withoutInicio.ok && withoutInicio.rejected).toBeInstanceOf(PspRejected);
    expect(psp.requests.at(-1)).toMatchObject({
      path: '/v2/pix',
      status: 400,
      conforms: false,
      errors: ["(root) must have required property 'inicio'"],
    });

    const tooLarge = await client.json('GET', url(`${psp.baseUrl}/pix`, { ...window, 'paginacao.itensPorPagina': '1001' }), 'list');
    expect(!tooLarge.ok && tooLarge.rejected.status).toBe(400);
    expect(psp.requests.at(-1)!.errors).toEqual(['/paginacao.itensPorPagina must be <= 1000']);

    const withoutFim = await client.json('GET', url(`${psp.sendBaseUrl}/v2/gn/pix/enviados`, { inicio: window.inicio }), 'list');
    expect(!withoutFim.ok && withoutFim.rejected).toMatchObject({ status: 400, problem: { title: 'valor_invalido' } });
    expect(psp.requests.at(-1)).toMatchObject({ conforms: false, errors: ["(root) must have required property 'fim'"] });

    const backwards = await client.json('GET', url(`${psp.baseUrl}/pix`, { inicio: window.fim, fim: window.inicio }), 'list');
    expect(!backwards.ok && backwards.rejected.status).toBe(400);
  });

  it('answers the standard’s PixConsultados', async () => {
    psp.lists.seedReceived({ from: new Date(window.inicio), to: new Date(window.fim), count: 3, seed: 17, devolucaoEvery: 2 });
    const answer = await clientOf().json<any>('GET', url(`${psp.baseUrl}/pix`, { ...window, 'paginacao.itensPorPagina': '2' }), 'list');
    expect(answer.ok && answer.data.parametros.paginacao).toEqual({
      paginaAtual: 0,
      itensPorPagina: 2,
      quantidadeDePaginas: 2,
      quantidadeTotalDeItens: 3,
    });
    expect(answer.ok && violations('pixConsultados', answer.data)).toEqual([]);
    expect(answer.ok && answer.data.pix[0].devolucoes).toHaveLength(1);
  });
});
