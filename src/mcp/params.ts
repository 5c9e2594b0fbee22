// Requests whose params the SDK's own schemas refuse (a tools/call whose `arguments` is not an object,
// a name that is not a text, …) are answered here with JSON-RPC -32602 and a short message naming the
// field. Left to the SDK they would be answered with the whole Zod error as the message.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  isJSONRPCRequest,
  ListToolsRequestSchema,
  PingRequestSchema,
  type JSONRPCRequest,
} from '@modelcontextprotocol/sdk/types.js';

const SCHEMAS = {
  'tools/call': CallToolRequestSchema,
  'tools/list': ListToolsRequestSchema,
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
} as const;

const EXPECTED: Record<string, string> = {
  object: 'um objeto',
  record: 'um objeto',
  string: 'um texto',
  number: 'um número',
  int: 'um número inteiro',
  array: 'uma lista',
  boolean: 'true ou false',
};

/** What is wrong with the request's params, in one short sentence, or null when the SDK will accept them. */
export function paramsProblem(request: JSONRPCRequest): string | null {
  const schema = SCHEMAS[request.method as keyof typeof SCHEMAS];
  const parsed = schema?.safeParse(request);
  const issue = parsed && !parsed.success ? parsed.error.issues[0] : undefined;
  if (!issue) return null;
  const field = issue.path.join('.') || 'params';
  const expected = issue.code === 'invalid_type' ? EXPECTED[issue.expected] : undefined;
  return `Parâmetros inválidos em ${request.method}: ${field} ${expected ? `deve ser ${expected}` : 'tem um valor inválido'}`;
}

/** Makes `transport` answer requests with invalid params itself, before the server sees them. */
export function refuseInvalidParams(transport: Transport): void {
  const deliver = transport.onmessage;
  if (!deliver) throw new Error('connect the server to the transport first');
  transport.onmessage = (message, extra) => {
    const problem = isJSONRPCRequest(message) ? paramsProblem(message) : null;
    if (problem === null) return deliver(message, extra);
    void transport.send({ jsonrpc: '2.0', id: (message as JSONRPCRequest).id, error: { code: ErrorCode.InvalidParams, message: problem } });
  };
}
