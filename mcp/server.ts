/**
 * The MCP server of the intel API: every operation of the catalog is a tool, and a call is the
 * HTTP call made through the typed client (client/), so billing, rate limits and errors are the
 * API's own. An API error is the tool's error, with its status, code and detail.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { IntelClient } from '../client/index.ts';
import type { IntelTool } from './tools.ts';

export const SERVER_INFO = { name: 'intel', version: '1.0.0' };

/** the text of a tool's answer: the API's JSON */
const text = (value: unknown) => [{ type: 'text' as const, text: JSON.stringify(value) }];

function toolError(value: unknown): CallToolResult {
  return { isError: true, content: text(value) };
}

/** one call of a tool: the HTTP call its operation is, with the arguments as its body or query */
export async function callTool(client: IntelClient, tool: IntelTool, args: Record<string, unknown>): Promise<CallToolResult> {
  // the paths are the document's, known only at run time: the typed client is called by its untyped signature
  const call = client.request as (method: string, path: string, init: unknown) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
  const init = tool.method === 'GET' ? { params: { query: args } } : { body: args };
  let result: Awaited<ReturnType<typeof call>>;
  try {
    result = await call(tool.method.toLowerCase(), tool.path, init);
  } catch (e) {
    return toolError({ error: 'unreachable', detail: (e as Error).message });
  }
  const { data, error, response } = result;
  if (error !== undefined || !response.ok) {
    const body = (error ?? {}) as { error?: string; detail?: string };
    return toolError({ status: response.status, error: body.error ?? 'http_error', detail: body.detail ?? response.statusText });
  }
  const units = Number(response.headers.get('x-usage-units') ?? 0);
  return { content: text(data), structuredContent: data as Record<string, unknown>, _meta: { units } };
}

/** an MCP server over these tools; each connection (stdio, or one HTTP request) gets its own */
export function createMcpServer(client: IntelClient, tools: IntelTool[]): Server {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const server = new Server(SERVER_INFO, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const tool = byName.get(req.params.name);
    if (!tool) return toolError({ error: 'unknown_tool', detail: `no tool named ${req.params.name}` });
    return callTool(client, tool, req.params.arguments ?? {});
  });
  return server;
}
