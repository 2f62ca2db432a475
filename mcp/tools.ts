/**
 * The MCP tools of the intel API: one per operation of the catalog the API serves (`GET /v1`),
 * named by its path (`/token-intel` → `token-intel`), described by the catalog (what it returns,
 * its units), and taking the input the OpenAPI document declares for it: the JSON Schema the
 * HTTP request's zod schema is published as, so a tool's input is the request's.
 */
import type { IntelClient, Schemas } from '../client/index.ts';
import { RELAY_PATH_PREFIX } from '../client/index.ts';

type JsonSchema = Record<string, unknown>;

export interface IntelTool {
  name: string;
  description: string;
  inputSchema: { type: 'object'; properties?: Record<string, JsonSchema>; required?: string[] } & JsonSchema;
  method: 'GET' | 'POST';
  /** path below the base, as the catalog and the document name it */
  path: string;
  /** the copy relay: signed by the end user's wallet besides the key */
  relay: boolean;
}

interface DocumentOperation {
  summary?: string;
  parameters?: { name: string; in: string; required?: boolean; schema?: JsonSchema; description?: string }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, unknown>;
}
export interface ToolDocument {
  paths: Record<string, Record<string, DocumentOperation>>;
}

/** `/copy/agent/create` → `copy-agent-create` */
export const toolName = (path: string) => path.replace(/^\/+/, '').replace(/[^A-Za-z0-9]+/g, '-');

/** a GET's query parameters as one object schema (the HTTP request's query schema) */
function querySchema(op: DocumentOperation): IntelTool['inputSchema'] {
  const params = (op.parameters ?? []).filter((p) => p.in === 'query');
  const required = params.filter((p) => p.required).map((p) => p.name);
  return {
    type: 'object',
    properties: Object.fromEntries(params.map((p) => [p.name, { ...(p.schema ?? {}), ...(p.description ? { description: p.description } : {}) }])),
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}

function inputSchemaOf(method: 'GET' | 'POST', op: DocumentOperation): IntelTool['inputSchema'] {
  if (method === 'GET') return querySchema(op);
  const body = op.requestBody?.content?.['application/json']?.schema;
  return { type: 'object', ...(body ?? {}) } as IntelTool['inputSchema'];
}

type CatalogEndpoint = Schemas['Catalog']['endpoints'][number];

function describe(endpoint: CatalogEndpoint, op: DocumentOperation): string {
  const units = `${endpoint.cost} unit${endpoint.cost === 1 ? '' : 's'} per call`;
  return `${op.summary ?? endpoint.path}. Returns ${endpoint.returns}. Cost: ${units} (billed to the API key like the HTTP call).`;
}

/**
 * The tools of every catalog operation the document describes as an HTTP call (the live stream,
 * a WebSocket, is not a tool); the relay's only when a wallet signs them.
 */
export function toolsOf(catalog: Schemas['Catalog'], doc: ToolDocument, opts: { relay: boolean }): IntelTool[] {
  const tools: IntelTool[] = [];
  for (const endpoint of catalog.endpoints) {
    const op = doc.paths[endpoint.path]?.[endpoint.method.toLowerCase()];
    // a call that answers JSON (the stream's GET upgrades to a WebSocket instead)
    if (!op?.responses?.['200'] || (endpoint.method === 'POST' && !op.requestBody)) continue;
    const relay = endpoint.path.startsWith(RELAY_PATH_PREFIX);
    if (relay && !opts.relay) continue;
    tools.push({ name: toolName(endpoint.path), description: describe(endpoint, op), inputSchema: inputSchemaOf(endpoint.method, op), method: endpoint.method, path: endpoint.path, relay });
  }
  return tools;
}

/** the catalog and the document of the API the client calls */
export async function loadTools(client: IntelClient, opts: { baseUrl: string; relay: boolean; fetch?: (r: Request) => Promise<Response> }): Promise<IntelTool[]> {
  const { data: catalog, error, response } = await client.GET('/');
  if (!catalog) throw new Error(`the catalog at ${opts.baseUrl}: ${response.status} ${JSON.stringify(error)}`);
  const res = await (opts.fetch ?? globalThis.fetch)(new Request(`${opts.baseUrl.replace(/\/+$/, '')}/openapi.json`));
  if (!res.ok) throw new Error(`the OpenAPI document at ${opts.baseUrl}: ${res.status}`);
  return toolsOf(catalog, (await res.json()) as ToolDocument, opts);
}
