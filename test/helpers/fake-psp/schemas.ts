// The schemas the fake PSP checks requests against: the standard's own (API Pix 2.9.0, a verbatim
// copy of the reference file beside this module), repaired where the file is defective, and a small
// hand-written schema for Efí's send API, which the standard does not cover.
import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { parse } from 'yaml';

// ajv-formats is CommonJS with a `default` property: the plugin under either interop.
const addFormats = formats.default;

const REFERENCE_FILE = new URL('../../../src/pix-routes/bcb-api-pix/bcb-api-pix-2.9.0.openapi.yaml', import.meta.url);

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

function visit(node: unknown, fn: (object: Json) => void): void {
  if (Array.isArray(node)) node.forEach((item) => visit(item, fn));
  else if (isObject(node)) {
    fn(node);
    Object.values(node).forEach((value) => visit(value, fn));
  }
}

/**
 * The reference file's known defects (DESIGN.md): the CPF pattern is written between slashes
 * (`/^\d{11}$/`) and matches no CPF; patterns are unanchored (JSON Schema patterns match anywhere,
 * so "x10.00y" would pass); `retirada`'s `oneOf` branches (`saque`, `troco`) and `encerramento`'s (`rejeicao`,
 * `cancelamento`) require nothing, so any object matches both and the `oneOf` never passes; `location` is `format: uri` though the
 * standard's locations carry no scheme; `PixConsultados` requires `cobs`, a property of the list of
 * cobs it has not (its list is `pix`). Pix Automático's: `RecBase` requires `idRec`, which the PSP
 * gives (a `POST /rec` cannot carry it), and `retentativa`, a property it has not (the policy is
 * `politicaRetentativa`); `RecNotification` requires `atualizacao"` (a stray quote); `DadosPagadorRec`
 * requires `ispbParticipante` beside `pagador` instead of in it (and before the payer answered);
 * `PayloadLocationRecGerada` requires `tipo`, a property it has not; `PixAutomatico`'s `valor` is a
 * string that must also match one of the objects of a cob's value components.
 */
export function repairReference(document: Json): Json {
  visit(document, (node) => {
    if (typeof node.pattern === 'string') {
      const inner = /^\/(.*)\/$/.exec(node.pattern)?.[1] ?? node.pattern;
      node.pattern = `^(?:${inner.replace(/^\^/, '').replace(/\$$/, '')})$`;
    }
    const properties = node.properties;
    if (!isObject(properties)) return;
    for (const name of ['retirada', 'encerramento']) {
      const choice = properties[name];
      if (isObject(choice) && Array.isArray(choice.oneOf)) {
        for (const branch of choice.oneOf as Json[]) branch.required = Object.keys(branch.properties as Json);
      }
    }
    const location = properties.location;
    if (isObject(location) && location.format === 'uri') delete location.format;
  });
  const schemas = (document.components as Json).schemas as Json;
  const pixConsultados = schemas.PixConsultados as Json;
  pixConsultados.required = (pixConsultados.required as string[]).filter((name) => name !== 'cobs');
  const recBase = schemas.RecBase as Json;
  recBase.required = (recBase.required as string[]).filter((name) => name !== 'idRec' && name !== 'retentativa');
  const recNotification = schemas.RecNotification as Json;
  recNotification.required = (recNotification.required as string[]).map((name) => name.replace(/"$/, ''));
  delete (schemas.DadosPagadorRec as Json).required;
  const locationRec = schemas.PayloadLocationRecGerada as Json;
  locationRec.required = (locationRec.required as string[]).filter((name) => name !== 'tipo');
  delete (((schemas.PixAutomatico as Json).properties as Json).valor as Json).anyOf;
  return document;
}

const ref = (name: string) => ({ $ref: `bcb-api-pix#/components/schemas/${name}` });

const efiValor = { type: 'string', pattern: '^\\d{1,10}\\.\\d{2}$' };
const efiChave = { type: 'string', minLength: 1, maxLength: 77 };
const efiPagador = {
  type: 'object',
  required: ['chave'],
  properties: { chave: efiChave, infoPagador: { type: 'string', maxLength: 140 } },
};

const SCHEMAS = {
  // Path parameters.
  txid: ref('TxId'),
  endToEndId: ref('EndToEndId'),
  chave: { type: 'string', minLength: 1, maxLength: 77 },
  idEnvio: { type: 'string', pattern: '^[a-zA-Z0-9]{1,35}$' },
  devolucaoId: ref('DevolucaoId'),
  idRec: ref('RecId'),
  locationId: { type: 'string', pattern: '^[0-9]{1,18}$' },
  day: { type: 'string', format: 'date' },
  // Request bodies of the standard.
  cobSolicitada: ref('CobSolicitada'),
  cobRevisada: ref('CobRevisada'),
  cobVSolicitada: ref('CobVSolicitada'),
  cobVRevisada: ref('CobVRevisada'),
  webhookSolicitado: ref('WebhookSolicitado'),
  devolucaoSolicitada: ref('DevolucaoSolicitada'),
  recSolicitada: ref('RecSolicitada'),
  recRevisada: ref('RecRevisada'),
  cobRSolicitada: ref('CobRSolicitada'),
  cobRRevisada: ref('CobRRevisada'),
  webhookRecSolicitado: ref('WebhookRecSolicitado'),
  webhookCobRSolicitado: ref('WebhookCobRSolicitado'),
  // Answers of the standard (the fake's own conformance tests check what it sends).
  cobGerada: ref('CobGerada'),
  cobCompleta: ref('CobCompleta'),
  cobVCompleta: ref('CobVCompleta'),
  pix: ref('Pix'),
  devolucao: ref('Devolucao'),
  pixConsultados: ref('PixConsultados'),
  problema: ref('Problema'),
  recCompleta: ref('RecCompleta'),
  cobRCompleta: ref('CobRCompleta'),
  recNotification: ref('RecNotification'),
  cobRNotification: ref('CobRNotification'),
  // Efí's send API: a Pix to a key, and a Pix paying a copy-and-paste (BR Code).
  efiEnvioChave: {
    type: 'object',
    required: ['valor', 'pagador', 'favorecido'],
    properties: {
      valor: efiValor,
      pagador: efiPagador,
      favorecido: { type: 'object', required: ['chave'], properties: { chave: efiChave } },
    },
  },
  efiEnvioQrCode: {
    type: 'object',
    required: ['pagador', 'pixCopiaECola'],
    properties: { pagador: efiPagador, pixCopiaECola: { type: 'string', minLength: 1, maxLength: 512 } },
  },
} as const;

export type SchemaName = keyof typeof SCHEMAS;

const reference = repairReference(parse(readFileSync(REFERENCE_FILE, 'utf8')) as Json);
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(reference, 'bcb-api-pix');

const compiled = new Map<SchemaName, ValidateFunction>();

/** Where (a JSON pointer, empty for the value itself) and what. */
export interface Violation {
  path: string;
  message: string;
}

const violation = (error: ErrorObject): Violation => ({ path: error.instancePath, message: error.message ?? 'is invalid' });

/** The violations of `value` against the named schema; empty when it conforms. */
export function violations(name: SchemaName, value: unknown): Violation[] {
  let validate = compiled.get(name);
  if (!validate) {
    validate = ajv.compile(SCHEMAS[name]);
    compiled.set(name, validate);
  }
  return validate(value) ? [] : (validate.errors ?? []).map(violation);
}

// Query strings: the parameters an operation declares, as one object schema (the standard's, or Efí's
// written the standard's way), checked by an instance that turns the query's texts into the integers
// and booleans the parameters declare (the body checks above never coerce).
const queryAjv = new Ajv2020({ strict: false, allErrors: true, coerceTypes: true });
addFormats(queryAjv);
queryAjv.addSchema(reference, 'bcb-api-pix');

/** The query parameters the standard declares for `GET path`, each by a reference to its own schema. */
function standardQuery(path: string): Json {
  const declaredAt = `#/paths/${path.replace(/\//g, '~1')}/get/parameters`;
  const declared = ((reference.paths as Json)[path] as { get: { parameters: Json[] } }).get.parameters;
  const required: string[] = [];
  const properties: Json = {};
  declared.forEach((parameter, index) => {
    const at = typeof parameter.$ref === 'string' ? parameter.$ref : `${declaredAt}/${index}`;
    const {
      in: where,
      name,
      required: needed,
    } = at
      .slice(2)
      .split('/')
      .reduce<any>((node, key) => node[key.replace(/~1/g, '/')], reference) as { in: string; name: string; required?: boolean };
    if (where !== 'query') return;
    properties[name] = { $ref: `bcb-api-pix${at}/schema` };
    if (needed) required.push(name);
  });
  return { type: 'object', required, properties };
}

const QUERIES = {
  pix: standardQuery('/pix'),
  // Efí's list of envios: `inicio` and `fim` required, paginated as the standard's lists.
  efiEnviados: {
    type: 'object',
    required: ['inicio', 'fim'],
    properties: {
      inicio: { $ref: 'bcb-api-pix#/components/schemas/Inicio' },
      fim: { $ref: 'bcb-api-pix#/components/schemas/Fim' },
      status: { enum: ['EM_PROCESSAMENTO', 'REALIZADO', 'NAO_REALIZADO'] },
      'paginacao.paginaAtual': { $ref: 'bcb-api-pix#/components/parameters/paginaAtual/schema' },
      'paginacao.itensPorPagina': { $ref: 'bcb-api-pix#/components/parameters/itensPorPagina/schema' },
    },
  },
} as const;

export type QueryName = keyof typeof QUERIES;

const compiledQueries = new Map<QueryName, ValidateFunction>();

/** The violations of a query string against the named operation's parameters; empty when it conforms. */
export function queryViolations(name: QueryName, query: URLSearchParams): Violation[] {
  let validate = compiledQueries.get(name);
  if (!validate) {
    validate = queryAjv.compile(QUERIES[name]);
    compiledQueries.set(name, validate);
  }
  return validate(Object.fromEntries(query)) ? [] : (validate.errors ?? []).map(violation);
}
