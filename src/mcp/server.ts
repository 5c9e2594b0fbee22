// One MCP server per HTTP request (stateless Streamable HTTP), bound to the authenticated caller.
// tools/list answers the tools derived from the route table; tools/call checks the route's permission
// exactly as the REST guard does and runs the route's handler. A refusal or a failure of the handler
// is a tool result with `isError` carrying the REST error envelope, so the model can read the code.
import type Koa from 'koa';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { Caller } from '../accounts/account.js';
import { authorize } from '../routing/auth.js';
import { KEY_QUOTA_LIMIT, KEY_QUOTA_WINDOW_SECONDS } from '../routing/rate-limit.js';
import type { Deps } from '../runtime/deps.js';
import { SERVICE_VERSION } from '../http/edge.js';
import { answerOf, type ApiError, errorDetail, internalError, warnIfUnreachable } from '../http/errors.js';
import { invokeRoute } from './invoke.js';
import type { ToolSpec } from './tools.js';

const INSTRUCTIONS = `Read-only access to the Pix payments account of the API key: balance, transactions and disputes (MED). Amounts are decimal reais (BRL); only status \`approved\` means paid. Every request to this server (tool calls, listing tools, ping, initialize) counts against the key quota of ${KEY_QUOTA_LIMIT} requests per ${KEY_QUOTA_WINDOW_SECONDS} seconds, shared with the REST API.`;

function errorResult(err: ApiError): CallToolResult {
  const envelope = { success: false, error: errorDetail(err) };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(envelope) }] };
}

/** Throws the guard's 403 when `caller` may not use the tool's route. */
function authorizeTool(caller: Caller, tool: ToolSpec): void {
  authorize(caller, { permission: tool.route.permission!, financial: tool.route.financial });
}

export function createMcpServer(app: Koa, deps: Deps, tools: Map<string, ToolSpec>, caller: Caller): Server {
  const server = new Server(
    { name: 'pix-payments', version: SERVICE_VERSION },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [...tools.values()].map(({ name, description, inputSchema, outputSchema }) => ({
      name,
      description,
      inputSchema,
      outputSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = tools.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Ferramenta desconhecida: ${request.params.name}`);
    try {
      authorizeTool(caller, tool);
      const answer = await invokeRoute(app, deps, tool.route, caller, request.params.arguments ?? {});
      const body = answer.body as Record<string, unknown>;
      return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
    } catch (err) {
      warnIfUnreachable(deps.log, err, { tool: tool.name });
      const answer = answerOf(err);
      if (answer) return errorResult(answer);
      deps.log.error({ err, tool: tool.name }, 'mcp tool failed');
      return errorResult(internalError());
    }
  });
  return server;
}
