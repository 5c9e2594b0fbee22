// The conformance fake PSP itself: mTLS, OAuth, schema checks with the reference file's repairs,
// the standard's answers (checked against the standard's response schemas), its controls.
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { request, type RequestOptions } from 'node:https';
import type { TLSSocket } from 'node:tls';
import { getPixPayloadInfo } from '@brazilian-utils/brazilian-utils';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.js';
import { startFakePsp, type FakePsp } from '../helpers/fake-psp/index.js';
import { saoPauloDay } from '../helpers/fake-psp/recurrences.js';
import { violations } from '../helpers/fake-psp/schemas.js';
import { createTestCa, issueCertificate } from '../helpers/tls-certs.js';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

interface CallOptions {
  token?: string;
  body?: unknown;
  /** Raw body and its content type, instead of JSON. */
  raw?: { text: string; contentType: string };
  basic?: { id: string; secret: string };
  /** The client certificate to present: the engine's (default), another, or none. */
  clientCert?: { certPem: string; keyPem: string } | null;
}

function call(psp: FakePsp, method: string, url: string, options: CallOptions = {}): Promise<Reply> {
  const text = options.raw?.text ?? (options.body === undefined ? '' : JSON.stringify(options.body));
  const headers: Record<string, string | number> = { 'content-length': Buffer.byteLength(text) };
  if (text) headers['content-type'] = options.raw?.contentType ?? 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.basic) headers.authorization = `Basic ${Buffer.from(`${options.basic.id}:${options.basic.secret}`).toString('base64')}`;
  const clientCert =
    options.clientCert === undefined
      ? { certPem: readFileSync(psp.certs.clientCertFile, 'utf8'), keyPem: readFileSync(psp.certs.clientKeyFile, 'utf8') }
      : options.clientCert;
  const tls: RequestOptions = {
    ca: readFileSync(psp.certs.pspCaFile, 'utf8'),
    ...(clientCert ? { cert: clientCert.certPem, key: clientCert.keyPem } : {}),
  };
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent: false, ...tls }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: raw ? JSON.parse(raw) : undefined });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(text);
  });
}

async function tokenOf(psp: FakePsp): Promise<string> {
  const reply = await call(psp, 'POST', psp.tokenUrl, {
    basic: { id: psp.clientId, secret: psp.clientSecret },
    raw: { text: 'grant_type=client_credentials', contentType: 'application/x-www-form-urlencoded' },
  });
  expect(reply.status).toBe(200);
  return reply.body.access_token;
}

const lastRequest = (psp: FakePsp) => psp.requests.at(-1)!;
const txidOf = (n: number) => `txn${String(n).padStart(24, '0')}`;
const cobBody = (psp: FakePsp, original = '12.34') => ({
  calendario: { expiracao: 900 },
  devedor: { cpf: '52998224725', nome: 'Fulana de Tal' },
  valor: { original },
  chave: psp.pixKey,
  solicitacaoPagador: 'Pedido 42',
});

describe('fake PSP', () => {
  let psp: FakePsp;
  let token: string;
  let nextTxid = 1;
  const createCob = async (original = '12.34') => {
    const txid = txidOf(nextTxid++);
    const reply = await call(psp, 'PUT', `${psp.baseUrl}/cob/${txid}`, { token, body: cobBody(psp, original) });
    expect(reply.status).toBe(201);
    return { txid, cob: reply.body };
  };

  beforeAll(async () => {
    psp = await startFakePsp();
    token = await tokenOf(psp);
  });
  afterAll(() => psp.close());

  describe('mTLS', () => {
    it('refuses a caller without a client certificate', async () => {
      await expect(call(psp, 'POST', psp.tokenUrl, { clientCert: null })).rejects.toThrow();
    });

    it('refuses a client certificate from another CA', async () => {
      const stranger = issueCertificate(createTestCa('Stranger CA'), 'pix-engine', 'client');
      await expect(call(psp, 'GET', `${psp.baseUrl}/cob/${txidOf(999)}`, { token, clientCert: stranger })).rejects.toThrow();
    });
  });

  describe('OAuth', () => {
    const form = { text: 'grant_type=client_credentials', contentType: 'application/x-www-form-urlencoded' };

    it('issues a Bearer token for HTTP Basic client credentials and a form body', async () => {
      const before = psp.tokensIssued;
      const reply = await call(psp, 'POST', psp.tokenUrl, { basic: { id: psp.clientId, secret: psp.clientSecret }, raw: form });
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
      expect(reply.body.access_token).toEqual(expect.any(String));
      expect(psp.tokensIssued).toBe(before + 1);
    });

    it('takes client credentials only from HTTP Basic', async () => {
      const inBody = {
        text: `grant_type=client_credentials&client_id=${psp.clientId}&client_secret=${psp.clientSecret}`,
        contentType: form.contentType,
      };
      expect((await call(psp, 'POST', psp.tokenUrl, { raw: inBody })).status).toBe(401);
      expect((await call(psp, 'POST', psp.tokenUrl, { basic: { id: psp.clientId, secret: 'wrong' }, raw: form })).status).toBe(401);
    });

    it('refuses a JSON body when the PSP expects a form', async () => {
      const reply = await call(psp, 'POST', psp.tokenUrl, {
        basic: { id: psp.clientId, secret: psp.clientSecret },
        body: { grant_type: 'client_credentials' },
      });
      expect(reply.status).toBe(400);
      expect(lastRequest(psp)).toMatchObject({ path: '/oauth/token', status: 400, conforms: false });
    });

    it('answers 401 without a token or with an unknown one', async () => {
      const url = `${psp.baseUrl}/cob/${txidOf(998)}`;
      const missing = await call(psp, 'GET', url);
      expect(missing.status).toBe(401);
      expect(missing.headers['www-authenticate']).toMatch(/^Bearer/);
      expect((await call(psp, 'GET', url, { token: 'not-a-token' })).status).toBe(401);
    });

    it('with tokenBody json: takes only a JSON body, and a token expires after expires_in', async () => {
      const efi = await startFakePsp({ tokenBody: 'json', tokenTtlSeconds: 1 });
      try {
        const basic = { id: efi.clientId, secret: efi.clientSecret };
        expect((await call(efi, 'POST', efi.tokenUrl, { basic, raw: form })).status).toBe(400);
        const issued = await call(efi, 'POST', efi.tokenUrl, { basic, body: { grant_type: 'client_credentials' } });
        expect(issued.status).toBe(200);
        expect(issued.body.expires_in).toBe(1);
        const url = `${efi.baseUrl}/cob/${txidOf(997)}`;
        expect((await call(efi, 'GET', url, { token: issued.body.access_token })).status).toBe(404);
        await new Promise((resolve) => setTimeout(resolve, 1100));
        expect((await call(efi, 'GET', url, { token: issued.body.access_token })).status).toBe(401);
      } finally {
        await efi.close();
      }
    });

    it('revokeTokens makes a valid token answer 401', async () => {
      const own = await startFakePsp();
      try {
        const ownToken = await tokenOf(own);
        const url = `${own.baseUrl}/cob/${txidOf(996)}`;
        expect((await call(own, 'GET', url, { token: ownToken })).status).toBe(404);
        own.revokeTokens();
        expect((await call(own, 'GET', url, { token: ownToken })).status).toBe(401);
      } finally {
        await own.close();
      }
    });
  });

  describe('cob', () => {
    it('PUT /cob/{txid} with a conforming body → 201 CobGerada, ATIVA, with a valid dynamic BR Code of its location', async () => {
      const { txid, cob } = await createCob();
      expect(lastRequest(psp)).toMatchObject({ method: 'PUT', path: `/v2/cob/${txid}`, conforms: true, errors: [], status: 201 });
      expect(violations('cobGerada', cob)).toEqual([]);
      expect(cob).toMatchObject({
        txid,
        status: 'ATIVA',
        revisao: 0,
        valor: { original: '12.34' },
        chave: psp.pixKey,
        calendario: { expiracao: 900 },
      });
      const code = getPixPayloadInfo(cob.pixCopiaECola);
      expect(code).toMatchObject({ url: cob.location, pointOfInitiation: 'dynamic' });
      // The CRC is checked: the same code with another CRC is refused.
      const crc = cob.pixCopiaECola.slice(-4);
      expect(getPixPayloadInfo(`${cob.pixCopiaECola.slice(0, -4)}${crc === '0000' ? '0001' : '0000'}`)).toBeNull();
      expect(psp.cob(txid)).toEqual(cob);
    });

    it('a txid already used → 400', async () => {
      const { txid } = await createCob();
      const again = await call(psp, 'PUT', `${psp.baseUrl}/cob/${txid}`, { token, body: cobBody(psp) });
      expect(again.status).toBe(400);
      expect(again.body.type).toBe('https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida');
    });

    it.each([
      ['valor.original without decimals', (body: any) => ({ ...body, valor: { original: '10' } }), txidOf(900), 'cob.valor.original'],
      [
        'valor.original with characters around it (unanchored pattern)',
        (body: any) => ({ ...body, valor: { original: 'R$10.00' } }),
        txidOf(901),
        'cob.valor.original',
      ],
      ['a CPF that is not 11 digits', (body: any) => ({ ...body, devedor: { cpf: '1234', nome: 'X' } }), txidOf(902), 'cob.devedor.cpf'],
      ['no chave', ({ chave: _, ...body }: any) => body, txidOf(903), 'cob'],
      ['a txid of 20 characters', (body: any) => body, 'a'.repeat(20), 'cob.txid'],
    ])('a non-conforming request (%s) → 400 problem, recorded with conforms=false', async (_, change, txid, propriedade) => {
      const reply = await call(psp, 'PUT', `${psp.baseUrl}/cob/${txid}`, { token, body: change(cobBody(psp)) });
      expect(reply.status).toBe(400);
      expect(reply.headers['content-type']).toBe('application/problem+json');
      expect(violations('problema', reply.body)).toEqual([]);
      expect(reply.body.violacoes).toContainEqual({ razao: expect.any(String), propriedade });
      expect(lastRequest(psp)).toMatchObject({ method: 'PUT', status: 400, conforms: false });
      expect(lastRequest(psp).errors.length).toBeGreaterThan(0);
      expect(psp.cob(txid)).toBeUndefined();
    });

    it('a body that is not sent as JSON → 400 recorded with conforms=false', async () => {
      const txid = txidOf(904);
      const raw = { text: JSON.stringify(cobBody(psp)), contentType: 'text/plain' };
      expect((await call(psp, 'PUT', `${psp.baseUrl}/cob/${txid}`, { token, raw })).status).toBe(400);
      expect(lastRequest(psp)).toMatchObject({ conforms: false, errors: ['(root) must be sent as Content-Type application/json'] });
      const broken = { text: '{"valor":', contentType: 'application/json' };
      expect((await call(psp, 'PUT', `${psp.baseUrl}/cob/${txid}`, { token, raw: broken })).status).toBe(400);
      expect(lastRequest(psp)).toMatchObject({ conforms: false, body: '{"valor":' });
    });

    it('accepts a retirada with troco (the repaired oneOf) and a devedor with a CNPJ', async () => {
      const txid = txidOf(nextTxid++);
      const troco = { valor: '5.00', modalidadeAgente: 'AGTEC', prestadorDoServicoDeSaque: '12345678' };
      const body = {
        ...cobBody(psp),
        devedor: { cnpj: '12345678000195', nome: 'Empresa SA' },
        valor: { original: '10.00', retirada: { troco } },
      };
      expect((await call(psp, 'PUT', `${psp.baseUrl}/cob/${txid}`, { token, body })).status).toBe(201);
      const both = { ...body, valor: { original: '10.00', retirada: { troco, saque: { ...troco, modalidadeAgente: 'AGPSS' } } } };
      expect((await call(psp, 'PUT', `${psp.baseUrl}/cob/${txidOf(nextTxid++)}`, { token, body: both })).status).toBe(400);
    });

    it('pay → GET /cob CONCLUIDA with pix; PATCH after that → 400', async () => {
      const { txid } = await createCob('50.00');
      const payer = { nome: 'Pagador', cpf: '52998224725' };
      const { endToEndId } = psp.pay(txid, { payer });
      expect(endToEndId).toMatch(/^E[0-9]{8}[0-9]{12}[a-zA-Z0-9]{11}$/);
      const read = await call(psp, 'GET', `${psp.baseUrl}/cob/${txid}`, { token });
      expect(read.status).toBe(200);
      expect(violations('cobCompleta', read.body)).toEqual([]);
      expect(read.body).toMatchObject({ status: 'CONCLUIDA', pix: [{ endToEndId, txid, valor: '50.00', pagador: payer }] });
      const patch = await call(psp, 'PATCH', `${psp.baseUrl}/cob/${txid}`, { token, body: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' } });
      expect(patch.status).toBe(400);
      expect(patch.body.type).toBe('https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida');
      expect(lastRequest(psp).conforms).toBe(true);
    });

    it('pay with another amount: CONCLUIDA with a pix of that amount', async () => {
      const { txid } = await createCob('50.00');
      psp.pay(txid, { amountCents: 4999 });
      expect(psp.cob(txid)).toMatchObject({ status: 'CONCLUIDA', pix: [{ valor: '49.99' }] });
    });

    it('PATCH REMOVIDA_PELO_USUARIO_RECEBEDOR while ATIVA → 200, and the cob can no longer be paid', async () => {
      const { txid } = await createCob();
      const patch = await call(psp, 'PATCH', `${psp.baseUrl}/cob/${txid}`, { token, body: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' } });
      expect(patch.status).toBe(200);
      expect(violations('cobGerada', patch.body)).toEqual([]);
      expect(patch.body).toMatchObject({ status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', revisao: 1 });
      expect(() => psp.pay(txid)).toThrow(/not ATIVA/);
    });

    it('GET /cob of an unknown txid → 404', async () => {
      expect((await call(psp, 'GET', `${psp.baseUrl}/cob/${txidOf(995)}`, { token })).status).toBe(404);
    });
  });

  it('a devolução is visible in GET /pix/{e2eid} and in the cob', async () => {
    const { txid } = await createCob('30.00');
    const { endToEndId } = psp.pay(txid);
    psp.addDevolucao(endToEndId, { id: 'med1', amountCents: 1000, natureza: 'MED_FRAUDE' });
    const read = await call(psp, 'GET', `${psp.baseUrl}/pix/${endToEndId}`, { token });
    expect(read.status).toBe(200);
    expect(violations('pix', read.body)).toEqual([]);
    expect(read.body).toMatchObject({
      endToEndId,
      txid,
      valor: '30.00',
      devolucoes: [{ id: 'med1', valor: '10.00', natureza: 'MED_FRAUDE', status: 'DEVOLVIDO' }],
    });
    expect(psp.cob(txid)?.pix?.[0]?.devolucoes).toHaveLength(1);
    expect((await call(psp, 'GET', `${psp.baseUrl}/pix/E12345678202601010000aaaaaaaaaaa`, { token })).status).toBe(404);
  });

  describe('devoluções asked for (PUT and GET /pix/{e2eid}/devolucao/{id})', () => {
    const paidPix = async (original = '30.00') => psp.pay((await createCob(original)).txid).endToEndId;
    const devolucaoUrl = (endToEndId: string, id: string) => `${psp.baseUrl}/pix/${endToEndId}/devolucao/${id}`;

    it('201 Devolucao EM_PROCESSAMENTO, listed in GET /pix/{e2eid}; settled DEVOLVIDO or NAO_REALIZADO with a motivo', async () => {
      const endToEndId = await paidPix();
      const body = { valor: '12.00', natureza: 'ORIGINAL', descricao: 'Pedido cancelado' };
      const asked = await call(psp, 'PUT', devolucaoUrl(endToEndId, 'rfd1'), { token, body });
      expect(asked.status).toBe(201);
      expect(lastRequest(psp)).toMatchObject({ conforms: true, errors: [] });
      expect(violations('devolucao', asked.body)).toEqual([]);
      expect(asked.body).toMatchObject({ id: 'rfd1', rtrId: expect.stringMatching(/^D09089356/), ...body, status: 'EM_PROCESSAMENTO' });
      const pix = await call(psp, 'GET', `${psp.baseUrl}/pix/${endToEndId}`, { token });
      expect(violations('pix', pix.body)).toEqual([]);
      expect(pix.body.devolucoes).toEqual([asked.body]);

      psp.settleDevolucao(endToEndId, 'rfd1', 'DEVOLVIDO');
      const returned = await call(psp, 'GET', devolucaoUrl(endToEndId, 'rfd1'), { token });
      expect(violations('devolucao', returned.body)).toEqual([]);
      expect(returned.body).toMatchObject({ status: 'DEVOLVIDO', horario: { liquidacao: expect.any(String) } });

      expect((await call(psp, 'PUT', devolucaoUrl(endToEndId, 'rfd2'), { token, body: { valor: '1.00' } })).status).toBe(201);
      psp.settleDevolucao(endToEndId, 'rfd2', 'NAO_REALIZADO', 'Negado por timeout');
      const refused = await call(psp, 'GET', devolucaoUrl(endToEndId, 'rfd2'), { token });
      expect(violations('devolucao', refused.body)).toEqual([]);
      expect(refused.body).toMatchObject({ natureza: 'ORIGINAL', status: 'NAO_REALIZADO', motivo: 'Negado por timeout' });
      expect(() => psp.settleDevolucao(endToEndId, 'rfd2', 'DEVOLVIDO')).toThrow(/already NAO_REALIZADO/);
    });

    it('refuses, as the standard says, an id already used, more than the Pix has left, a non-conforming body or id, an unknown Pix', async () => {
      const endToEndId = await paidPix('10.00');
      expect((await call(psp, 'PUT', devolucaoUrl(endToEndId, 'a1'), { token, body: { valor: '6.00' } })).status).toBe(201);
      const invalid = async (url: string, body: unknown, conforms: boolean) => {
        const reply = await call(psp, 'PUT', url, { token, body });
        expect(reply.status).toBe(400);
        expect(violations('problema', reply.body)).toEqual([]);
        expect(reply.body.type).toBe('https://pix.bcb.gov.br/api/v2/error/PixDevolucaoInvalida');
        expect(lastRequest(psp).conforms).toBe(conforms);
        return reply.body;
      };
      expect((await invalid(devolucaoUrl(endToEndId, 'a1'), { valor: '1.00' }, true)).detail).toMatch(/já foi utilizado/);
      expect((await invalid(devolucaoUrl(endToEndId, 'a2'), { valor: '4.01' }, true)).detail).toMatch(/excederia o valor/);
      expect((await invalid(devolucaoUrl(endToEndId, 'a3'), { valor: '4' }, false)).violacoes).toContainEqual({
        razao: expect.any(String),
        propriedade: 'devolucao.valor',
      });
      await invalid(devolucaoUrl(endToEndId, 'rfd_1'), { valor: '1.00' }, false);
      const unknownPix = await call(psp, 'PUT', devolucaoUrl('E12345678202601010000aaaaaaaaaaa', 'a4'), { token, body: { valor: '1.00' } });
      expect(unknownPix.status).toBe(404);
      const unknown = await call(psp, 'GET', devolucaoUrl(endToEndId, 'a9'), { token });
      expect(unknown.status).toBe(404);
      expect(unknown.body.type).toBe('https://pix.bcb.gov.br/api/v2/error/PixDevolucaoNaoEncontrada');
    });

    it('refuseDevolucoes: every PUT on the Pix answers 400, the devolução stored first or not', async () => {
      const endToEndId = await paidPix();
      psp.refuseDevolucoes(endToEndId, { stored: true });
      expect((await call(psp, 'PUT', devolucaoUrl(endToEndId, 'kept'), { token, body: { valor: '1.00' } })).status).toBe(400);
      expect(psp.devolucao(endToEndId, 'kept')).toMatchObject({ status: 'EM_PROCESSAMENTO', valor: '1.00' });
      psp.refuseDevolucoes(endToEndId, { stored: false });
      expect((await call(psp, 'PUT', devolucaoUrl(endToEndId, 'lost'), { token, body: { valor: '1.00' } })).status).toBe(400);
      expect(psp.devolucao(endToEndId, 'lost')).toBeUndefined();
      psp.refuseDevolucoes(endToEndId, null);
      expect((await call(psp, 'PUT', devolucaoUrl(endToEndId, 'lost'), { token, body: { valor: '1.00' } })).status).toBe(201);
    });
  });

  describe('Pix Automático (locrec, rec, cobr)', () => {
    const recBody = (loc: number, extra: Record<string, unknown> = {}) => ({
      vinculo: { objeto: 'Academia', contrato: 'C-42', devedor: { cpf: '52998224725', nome: 'Fulana de Tal' } },
      calendario: { dataInicial: saoPauloDay(5), periodicidade: 'MENSAL' },
      valor: { valorRec: '49.90' },
      politicaRetentativa: 'PERMITE_3R_7D',
      loc,
      ...extra,
    });
    const newLocation = async (): Promise<number> => {
      const location = await call(psp, 'POST', `${psp.baseUrl}/locrec`, { token });
      expect(location.status).toBe(201);
      return location.body.id;
    };
    const createRec = async (extra: Record<string, unknown> = {}): Promise<string> => {
      const created = await call(psp, 'POST', `${psp.baseUrl}/rec`, { token, body: recBody(await newLocation(), extra) });
      expect(created.status).toBe(201);
      return created.body.idRec;
    };
    const cobrBody = (idRec: string, original = '49.90', due = saoPauloDay(5)) => ({
      idRec,
      calendario: { dataDeVencimento: due },
      valor: { original },
      ajusteDiaUtil: true,
      recebedor: { conta: '123456', tipoConta: 'CORRENTE', agencia: '0001' },
    });
    const putCobr = (txid: string, body: unknown) => call(psp, 'PUT', `${psp.baseUrl}/cobr/${txid}`, { token, body });
    const approvedRec = async (extra: Record<string, unknown> = {}) => {
      const idRec = await createRec(extra);
      psp.answerRecurrence(idRec, 'APROVADA');
      return idRec;
    };

    it('POST /locrec, then POST /rec on it → CRIADA with an idRec; GET /rec has the BR Code of its location (journey 2)', async () => {
      const idRec = await createRec();
      expect(lastRequest(psp)).toMatchObject({ method: 'POST', path: '/v2/rec', conforms: true, status: 201 });
      expect(idRec).toMatch(/^RR09089356\d{8}[a-zA-Z0-9]{11}$/);
      const read = await call(psp, 'GET', `${psp.baseUrl}/rec/${idRec}`, { token });
      expect(read.status).toBe(200);
      expect(violations('recCompleta', read.body)).toEqual([]);
      expect(read.body).toMatchObject({
        status: 'CRIADA',
        dadosQR: { jornada: 'JORNADA_2' },
        ativacao: { tipoJornada: 'AGUARDANDO_DEFINICAO' },
      });
      expect(getPixPayloadInfo(read.body.dadosQR.pixCopiaECola)).toMatchObject({
        url: read.body.loc.location,
        pointOfInitiation: 'dynamic',
      });
      const location = await call(psp, 'GET', `${psp.baseUrl}/locrec/${read.body.loc.id}`, { token });
      expect(location.body).toMatchObject({ id: read.body.loc.id, idRec });
      expect(psp.recurrences().at(-1)).toEqual(read.body);
    });

    it('journey 3 names an ATIVA cob; refuses a location used twice or unknown, an unknown cob, a body without a contract', async () => {
      const { txid } = await createCob();
      const idRec = await createRec({ ativacao: { dadosJornada: { txid } }, politicaRetentativa: 'NAO_PERMITE' });
      expect(idRec.startsWith('RN')).toBe(true);
      expect((await call(psp, 'GET', `${psp.baseUrl}/rec/${idRec}`, { token })).body.dadosQR.jornada).toBe('JORNADA_3');

      const loc = psp.recurrences().at(-1)!.loc.id;
      const refusals = [recBody(loc), recBody(1), recBody(await newLocation(), { ativacao: { dadosJornada: { txid: txidOf(999_999) } } })];
      for (const body of refusals) {
        const refused = await call(psp, 'POST', `${psp.baseUrl}/rec`, { token, body });
        expect(refused.status).toBe(400);
        expect(refused.body.type).toBe('https://pix.bcb.gov.br/api/v2/error/RecOperacaoInvalida');
      }
      const noContract = recBody(await newLocation());
      delete (noContract.vinculo as Partial<typeof noContract.vinculo>).contrato;
      expect((await call(psp, 'POST', `${psp.baseUrl}/rec`, { token, body: noContract })).status).toBe(400);
      expect(lastRequest(psp).conforms).toBe(false);
    });

    it('the payer answers in the app; PATCH /rec CANCELADA is the receiver’s cancellation, once', async () => {
      const idRec = await approvedRec();
      expect(psp.recurrences().at(-1)).toMatchObject({
        status: 'APROVADA',
        pagador: { cpf: '52998224725' },
        ativacao: { tipoJornada: 'JORNADA_2' },
      });
      const cancelled = await call(psp, 'PATCH', `${psp.baseUrl}/rec/${idRec}`, { token, body: { status: 'CANCELADA' } });
      expect(cancelled.status).toBe(200);
      expect(cancelled.body).toMatchObject({ status: 'CANCELADA', encerramento: { cancelamento: { solicitante: 'USUARIO_RECEBEDOR' } } });
      expect((await call(psp, 'PATCH', `${psp.baseUrl}/rec/${idRec}`, { token, body: { status: 'CANCELADA' } })).status).toBe(400);

      const rejected = await createRec();
      psp.answerRecurrence(rejected, 'REJEITADA');
      const read = await call(psp, 'GET', `${psp.baseUrl}/rec/${rejected}`, { token });
      expect(read.body).toMatchObject({ status: 'REJEITADA', encerramento: { rejeicao: { codigo: 'AP13' } } });
      expect(violations('recCompleta', read.body)).toEqual([]);
    });

    it('a cobr: on an APROVADA rec, of its amount, due 2 to 10 days ahead; ATIVA with its attempt scheduled; paid → CONCLUIDA with a received Pix', async () => {
      const pending = await createRec();
      expect((await putCobr(txidOf(nextTxid++), cobrBody(pending))).status).toBe(400);
      const idRec = await approvedRec();
      for (const body of [cobrBody(idRec, '50.00'), cobrBody(idRec, '49.90', saoPauloDay(1)), cobrBody(idRec, '49.90', saoPauloDay(11))]) {
        const refused = await putCobr(txidOf(nextTxid++), body);
        expect(refused.status).toBe(400);
        expect(refused.body.type).toBe('https://pix.bcb.gov.br/api/v2/error/CobROperacaoInvalida');
      }
      const noAdjustment: Partial<ReturnType<typeof cobrBody>> = cobrBody(idRec);
      delete noAdjustment.ajusteDiaUtil;
      expect((await putCobr(txidOf(nextTxid++), noAdjustment)).status).toBe(400);
      expect(lastRequest(psp).conforms).toBe(false);

      const txid = txidOf(nextTxid++);
      const created = await putCobr(txid, cobrBody(idRec));
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        idRec,
        txid,
        status: 'ATIVA',
        tentativas: [{ status: 'AGENDADA', dataLiquidacao: saoPauloDay(5) }],
      });
      expect((await putCobr(txid, cobrBody(idRec))).status).toBe(400);

      psp.debitCobr(txid, 'PAGA');
      const paid = await call(psp, 'GET', `${psp.baseUrl}/cobr/${txid}`, { token });
      expect(violations('cobRCompleta', paid.body)).toEqual([]);
      expect(paid.body).toMatchObject({ status: 'CONCLUIDA', pix: [{ txid, valor: '49.90' }], tentativas: [{ status: 'PAGA' }] });
      const pix = await call(psp, 'GET', `${psp.baseUrl}/pix/${paid.body.pix[0].endToEndId}`, { token });
      expect(pix.body).toMatchObject({ txid, valor: '49.90', chave: psp.pixKey });
    });

    it('a refused attempt is retried within the 7 days after the due date, at most 3 times; NAO_PERMITE takes no retry; with none left the cobr is REJEITADA', async () => {
      const idRec = await approvedRec();
      const txid = txidOf(nextTxid++);
      expect((await putCobr(txid, cobrBody(idRec))).status).toBe(201);
      const retry = (on: string) => call(psp, 'POST', `${psp.baseUrl}/cobr/${txid}/retentativa/${on}`, { token });
      expect((await retry(saoPauloDay(6))).status).toBe(400);
      for (const on of [saoPauloDay(6), saoPauloDay(8), saoPauloDay(11)]) {
        psp.debitCobr(txid, 'REJEITADA');
        expect((await retry(saoPauloDay(5))).status).toBe(400);
        expect((await retry(saoPauloDay(13))).status).toBe(400);
        const asked = await retry(on);
        expect(asked.status).toBe(201);
        expect(asked.body.tentativas.at(-1)).toMatchObject({ status: 'AGENDADA', tipo: 'NTAG', dataLiquidacao: on });
        expect(psp.cobr(txid)!.status).toBe('ATIVA');
      }
      psp.debitCobr(txid, 'REJEITADA');
      expect(psp.cobr(txid)).toMatchObject({ status: 'REJEITADA', encerramento: { rejeicao: { codigo: 'AM02' } } });
      expect((await retry(saoPauloDay(12))).status).toBe(400);
      expect(violations('cobRCompleta', psp.cobr(txid))).toEqual([]);
      expect((await call(psp, 'POST', `${psp.baseUrl}/cobr/${txid}/retentativa/2025-13-01`, { token })).status).toBe(400);
      expect(lastRequest(psp).conforms).toBe(false);

      const once = await approvedRec({ politicaRetentativa: 'NAO_PERMITE' });
      const other = txidOf(nextTxid++);
      expect((await putCobr(other, cobrBody(once))).status).toBe(201);
      psp.debitCobr(other, 'REJEITADA');
      expect(psp.cobr(other)!.status).toBe('REJEITADA');
      expect(violations('cobRCompleta', psp.cobr(other))).toEqual([]);
      expect((await call(psp, 'POST', `${psp.baseUrl}/cobr/${other}/retentativa/${saoPauloDay(6)}`, { token })).status).toBe(400);
    });

    it('PATCH /cobr CANCELADA withdraws it and its scheduled attempt, once', async () => {
      const idRec = await approvedRec();
      const txid = txidOf(nextTxid++);
      await putCobr(txid, cobrBody(idRec));
      const cancelled = await call(psp, 'PATCH', `${psp.baseUrl}/cobr/${txid}`, { token, body: { status: 'CANCELADA' } });
      expect(cancelled.status).toBe(200);
      expect(cancelled.body).toMatchObject({ status: 'CANCELADA', tentativas: [{ status: 'CANCELADA' }] });
      expect((await call(psp, 'PATCH', `${psp.baseUrl}/cobr/${txid}`, { token, body: { status: 'CANCELADA' } })).status).toBe(400);
      expect(() => psp.debitCobr(txid, 'PAGA')).toThrow(/no attempt scheduled/);
    });

    it('a cobr whose rec was cancelled is not revised: PATCH /cobr is refused and it stays ATIVA (the payer’s PSP drops it)', async () => {
      const idRec = await approvedRec();
      const txid = txidOf(nextTxid++);
      await putCobr(txid, cobrBody(idRec));
      expect((await call(psp, 'PATCH', `${psp.baseUrl}/rec/${idRec}`, { token, body: { status: 'CANCELADA' } })).status).toBe(200);
      const refused = await call(psp, 'PATCH', `${psp.baseUrl}/cobr/${txid}`, { token, body: { status: 'CANCELADA' } });
      expect(refused.status).toBe(400);
      expect(refused.body.type).toBe('https://pix.bcb.gov.br/api/v2/error/CobROperacaoInvalida');
      expect(psp.cobr(txid)!.status).toBe('ATIVA');
    });
  });

  describe('Efí send', () => {
    const pagador = () => ({ chave: psp.pixKey, infoPagador: 'Saque 7' });

    it('a Pix to a key: 201 EM_PROCESSAMENTO, then REALIZADO with its endToEndId', async () => {
      const idEnvio = 'out000000000000000000000001';
      const sent = await call(psp, 'PUT', `${psp.sendBaseUrl}/v3/gn/pix/${idEnvio}`, {
        token,
        body: { valor: '25.10', pagador: pagador(), favorecido: { chave: 'fulana@example.com' } },
      });
      expect(sent.status).toBe(201);
      expect(sent.body).toMatchObject({ idEnvio, valor: '25.10', status: 'EM_PROCESSAMENTO' });
      const url = `${psp.sendBaseUrl}/v2/gn/pix/enviados/id-envio/${idEnvio}`;
      expect((await call(psp, 'GET', url, { token })).body.status).toBe('EM_PROCESSAMENTO');
      const { endToEndId } = psp.completeEnvio(idEnvio, 'REALIZADO');
      expect(endToEndId).toBe(sent.body.e2eId);
      const done = await call(psp, 'GET', url, { token });
      expect(done.body).toMatchObject({
        idEnvio,
        endToEndId,
        valor: '25.10',
        status: 'REALIZADO',
        horario: { liquidacao: expect.any(String) },
      });
      const again = await call(psp, 'PUT', `${psp.sendBaseUrl}/v3/gn/pix/${idEnvio}`, {
        token,
        body: { valor: '25.10', pagador: pagador(), favorecido: { chave: 'fulana@example.com' } },
      });
      expect(again.status).toBe(409);
    });

    it('a Pix paying a copy-and-paste: 201, then NAO_REALIZADO', async () => {
      const { cob } = await createCob('7.00');
      const idEnvio = 'out000000000000000000000002';
      const sent = await call(psp, 'PUT', `${psp.sendBaseUrl}/v2/gn/pix/${idEnvio}/qrcode`, {
        token,
        body: { pagador: pagador(), pixCopiaECola: cob.pixCopiaECola },
      });
      expect(sent.status).toBe(201);
      expect(sent.body.status).toBe('EM_PROCESSAMENTO');
      psp.completeEnvio(idEnvio, 'NAO_REALIZADO');
      const done = await call(psp, 'GET', `${psp.sendBaseUrl}/v2/gn/pix/enviados/id-envio/${idEnvio}`, { token });
      expect(done.body.status).toBe('NAO_REALIZADO');
      const bad = await call(psp, 'PUT', `${psp.sendBaseUrl}/v2/gn/pix/out3/qrcode`, {
        token,
        body: { pagador: pagador(), pixCopiaECola: 'not a BR Code' },
      });
      expect(bad.status).toBe(400);
    });

    it('a non-conforming envio (valor without decimals) → 400 recorded with conforms=false; an unknown one → 404', async () => {
      const reply = await call(psp, 'PUT', `${psp.sendBaseUrl}/v3/gn/pix/out4`, {
        token,
        body: { valor: '10', pagador: pagador(), favorecido: { chave: 'x@example.com' } },
      });
      expect(reply.status).toBe(400);
      expect(lastRequest(psp)).toMatchObject({ status: 400, conforms: false });
      expect((await call(psp, 'GET', `${psp.sendBaseUrl}/v2/gn/pix/enviados/id-envio/out4`, { token })).status).toBe(404);
    });
  });

  // Each outage first lasts longer than any call below can take, then is given a short time left: the
  // calls during it cannot outlive it, and the recovery is waited for, not slept past.
  describe('down', () => {
    const OUTLASTS_THE_TEST_MS = 10 * 60_000;
    afterEach(() => psp.down(0)); // a failed test leaves no outage to the next ones

    it("mode '503': every call answers 503 for the time, then the PSP recovers", async () => {
      psp.down(OUTLASTS_THE_TEST_MS);
      const url = `${psp.baseUrl}/cob/${txidOf(994)}`;
      for (let i = 0; i < 2; i += 1) {
        const during = await call(psp, 'GET', url, { token });
        expect(during.status).toBe(503);
        expect(during.body.type).toBe('https://pix.bcb.gov.br/api/v2/error/ServicoIndisponivel');
      }
      psp.down(100);
      const after = await eventually(async () => {
        const { status } = await call(psp, 'GET', url, { token });
        return status !== 503 && status;
      });
      expect(after).toBe(404);
    });

    it("mode 'reset': the connection is dropped for the time, then the PSP recovers", async () => {
      psp.down(OUTLASTS_THE_TEST_MS, 'reset');
      await expect(tokenOf(psp)).rejects.toThrow();
      expect(lastRequest(psp).status).toBe(0);
      await expect(tokenOf(psp)).rejects.toThrow();
      psp.down(100, 'reset');
      expect(await eventually(() => tokenOf(psp).catch(() => undefined))).toEqual(expect.any(String));
    });
  });

  describe('webhooks', () => {
    let listener: ReturnType<typeof createServer>;
    let listenerUrl: string;
    const received: Array<{ path: string; body: any; peer: string | string[] | undefined }> = [];

    beforeAll(async () => {
      listener = createServer(
        {
          cert: readFileSync(psp.certs.listenerCertFile),
          key: readFileSync(psp.certs.listenerKeyFile),
          ca: readFileSync(psp.certs.listenerClientCaFile),
          requestCert: true,
          rejectUnauthorized: true,
        },
        (req, res) => {
          const chunks: Buffer[] = [];
          req.on('data', (chunk: Buffer) => chunks.push(chunk));
          req.on('end', () => {
            const peer = (req.socket as TLSSocket).getPeerCertificate().subject?.CN;
            received.push({ path: req.url ?? '', body: JSON.parse(Buffer.concat(chunks).toString('utf8')), peer });
            res.writeHead(200).end();
          });
        },
      );
      listener.listen(0, '127.0.0.1');
      await once(listener, 'listening');
      listenerUrl = `https://127.0.0.1:${(listener.address() as AddressInfo).port}/psp-webhooks/psp`;
    });
    afterAll(() => {
      listener.closeAllConnections();
      listener.close();
    });

    it('PUT /webhook/{chave} registers the URL; sendWebhook POSTs the pix entries to URL + /pix with the PSP client certificate', async () => {
      const registered = await call(psp, 'PUT', `${psp.baseUrl}/webhook/${psp.pixKey}`, { token, body: { webhookUrl: listenerUrl } });
      expect(registered.status).toBe(200);
      expect(psp.webhookUrl).toBe(listenerUrl);

      const { txid } = await createCob('9.99');
      const { endToEndId } = psp.pay(txid);
      expect(await psp.sendWebhook({ endToEndIds: [endToEndId] })).toBe(200);
      const delivery = received.at(-1)!;
      expect(delivery.path).toBe('/psp-webhooks/psp/pix');
      expect(delivery.peer).toBe('fake-psp-webhooks');
      expect(delivery.body).toMatchObject({ pix: [{ endToEndId, txid, valor: '9.99' }] });
      expect(violations('pix', delivery.body.pix[0])).toEqual([]);
    });

    it('an envio webhook carries gnExtras.idEnvio; a custom body is sent as given', async () => {
      const idEnvio = 'out000000000000000000000005';
      await call(psp, 'PUT', `${psp.sendBaseUrl}/v3/gn/pix/${idEnvio}`, {
        token,
        body: { valor: '1.00', pagador: { chave: psp.pixKey }, favorecido: { chave: 'x@example.com' } },
      });
      const { endToEndId } = psp.completeEnvio(idEnvio, 'REALIZADO');
      expect(await psp.sendWebhook({ endToEndIds: [endToEndId] })).toBe(200);
      expect(received.at(-1)!.body).toMatchObject({ pix: [{ endToEndId, gnExtras: { idEnvio }, status: 'REALIZADO' }] });
      expect(await psp.sendWebhook({ body: { pix: [] }, url: `${listenerUrl}/pix` })).toBe(200);
      expect(received.at(-1)!.body).toEqual({ pix: [] });
    });

    it('PUT /webhookrec and /webhookcobr register the URL; their webhooks POST {recs} to URL + /rec and {cobsr} to URL + /cobr', async () => {
      for (const resource of ['webhookrec', 'webhookcobr']) {
        expect((await call(psp, 'PUT', `${psp.baseUrl}/${resource}`, { token, body: { webhookUrl: listenerUrl } })).status).toBe(200);
      }
      expect(psp.recurrenceWebhookUrls).toEqual({ rec: listenerUrl, cobr: listenerUrl });
      const location = await call(psp, 'POST', `${psp.baseUrl}/locrec`, { token });
      const due = saoPauloDay(4);
      const { idRec } = (
        await call(psp, 'POST', `${psp.baseUrl}/rec`, {
          token,
          body: {
            vinculo: { contrato: 'C-7', devedor: { cnpj: '11222333000181', nome: 'Empresa Pagadora' } },
            calendario: { dataInicial: due, periodicidade: 'SEMANAL' },
            valor: { valorMinimoRecebedor: '10.00' },
            politicaRetentativa: 'NAO_PERMITE',
            loc: location.body.id,
          },
        })
      ).body;
      psp.answerRecurrence(idRec, 'APROVADA');
      expect(await psp.sendRecurrenceWebhook({ kind: 'rec', ids: [idRec] })).toBe(200);
      expect(received.at(-1)!.path).toBe('/psp-webhooks/psp/rec');
      expect(received.at(-1)!.body).toMatchObject({ recs: [{ idRec, status: 'APROVADA' }] });
      expect(violations('recNotification', received.at(-1)!.body.recs[0])).toEqual([]);

      const txid = txidOf(nextTxid++);
      const body = {
        idRec,
        calendario: { dataDeVencimento: due },
        valor: { original: '12.00' },
        ajusteDiaUtil: true,
        recebedor: { conta: '1', tipoConta: 'PAGAMENTO' },
      };
      expect((await call(psp, 'PUT', `${psp.baseUrl}/cobr/${txid}`, { token, body })).status).toBe(201);
      psp.debitCobr(txid, 'PAGA');
      expect(await psp.sendRecurrenceWebhook({ kind: 'cobr', ids: [txid] })).toBe(200);
      expect(received.at(-1)!).toMatchObject({ path: '/psp-webhooks/psp/cobr', peer: 'fake-psp-webhooks' });
      expect(received.at(-1)!.body).toMatchObject({ cobsr: [{ idRec, txid, status: 'CONCLUIDA', pix: [{ valor: '12.00' }] }] });
      expect(violations('cobRNotification', received.at(-1)!.body.cobsr[0])).toEqual([]);
    });

    it('without the client certificate the listener refuses the handshake', async () => {
      const count = received.length;
      await expect(psp.sendWebhook({ endToEndIds: [], withClientCert: false })).rejects.toThrow();
      expect(received).toHaveLength(count);
    });

    it('PUT /webhook with a URL that is not one → 400 recorded with conforms=false', async () => {
      const reply = await call(psp, 'PUT', `${psp.baseUrl}/webhook/${psp.pixKey}`, { token, body: { webhookUrl: 'not a url' } });
      expect(reply.status).toBe(400);
      expect(lastRequest(psp).conforms).toBe(false);
      expect(psp.webhookUrl).toBe(listenerUrl);
    });
  });

  it('writeRoutesFile writes DESIGN.md’s format, with overrides merged and undefined ones removed', () => {
    const route = JSON.parse(readFileSync(psp.writeRoutesFile(), 'utf8')).routes.psp;
    expect(route).toEqual({
      type: 'bcb-api-pix',
      baseUrl: psp.baseUrl,
      tokenUrl: psp.tokenUrl,
      clientId: psp.clientId,
      clientSecret: psp.clientSecret,
      tls: { certFile: psp.certs.clientCertFile, keyFile: psp.certs.clientKeyFile, caFile: psp.certs.pspCaFile },
      pixKey: psp.pixKey,
      send: { type: 'efi', baseUrl: psp.sendBaseUrl },
    });
    const other = JSON.parse(
      readFileSync(psp.writeRoutesFile({ send: undefined, webhookUrl: 'https://e.example/psp-webhooks/b' }, 'b'), 'utf8'),
    ).routes.b;
    expect(other.send).toBeUndefined();
    expect(other.webhookUrl).toBe('https://e.example/psp-webhooks/b');
  });
});
