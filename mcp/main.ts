/**
 * `npm run mcp -- [--http <port>] [<base URL>]`: the MCP server of the intel API, over stdio (the
 * default: an MCP client starts it) or Streamable HTTP on 127.0.0.1 (`--http`, path /mcp).
 *
 * Environment: INTEL_API_KEY (required: every call is billed to it), INTEL_BASE_URL (default
 * http://127.0.0.1:8080/v1); the copy relay's tools are listed only with the end user's wallet:
 * INTEL_WALLET_PRIVATE_KEY and INTEL_PARTNER (the key's organisation id).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { privateKeyToAccount } from 'viem/accounts';
import { createIntelClient } from '../client/index.ts';
import type { IntelClient } from '../client/index.ts';
import { createMcpServer } from './server.ts';
import { loadTools } from './tools.ts';
import type { IntelTool } from './tools.ts';

export const MCP_PATH = '/mcp';

function clientFromEnv(env: NodeJS.ProcessEnv, baseUrl: string): { client: IntelClient; relay: boolean } {
  const apiKey = env.INTEL_API_KEY;
  if (!apiKey) throw new Error('INTEL_API_KEY is not set: the key every tool call is billed to');
  const privateKey = env.INTEL_WALLET_PRIVATE_KEY as `0x${string}` | undefined;
  if (privateKey && !env.INTEL_PARTNER) throw new Error('INTEL_WALLET_PRIVATE_KEY needs INTEL_PARTNER, the organisation id of the key');
  const walletSigner = privateKey ? privateKeyToAccount(privateKey) : undefined;
  return { client: createIntelClient({ baseUrl, apiKey, walletSigner, partner: env.INTEL_PARTNER }), relay: walletSigner !== undefined };
}

/**
 * Streamable HTTP, stateless: each POST is served by a server of its own over the same tools.
 * Only 127.0.0.1 listens, and a request naming another host is refused (DNS rebinding: a web
 * page must not spend the key through a browser on this machine).
 */
async function serveHttp(client: IntelClient, tools: IntelTool[], port: number): Promise<void> {
  const http = createServer((req, res) => {
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== MCP_PATH) {
      res.writeHead(404).end();
      return;
    }
    const { port: bound } = http.address() as AddressInfo;
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true, enableDnsRebindingProtection: true, allowedHosts: [`127.0.0.1:${bound}`, `localhost:${bound}`] });
    const server = createMcpServer(client, tools);
    res.on('close', () => void Promise.all([transport.close(), server.close()]));
    void server.connect(transport).then(() => transport.handleRequest(req, res));
  });
  await new Promise<void>((resolve) => http.listen(port, '127.0.0.1', resolve));
  process.stderr.write(`mcp: Streamable HTTP on http://127.0.0.1:${(http.address() as AddressInfo).port}${MCP_PATH} (${tools.length} tools)\n`);
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({ options: { http: { type: 'string' } }, allowPositionals: true });
  const baseUrl = positionals[0] ?? process.env.INTEL_BASE_URL ?? 'http://127.0.0.1:8080/v1';
  const { client, relay } = clientFromEnv(process.env, baseUrl);
  const tools = await loadTools(client, { baseUrl, relay });
  if (values.http !== undefined) return serveHttp(client, tools, Number(values.http));
  await createMcpServer(client, tools).connect(new StdioServerTransport());
  process.stderr.write(`mcp: stdio, ${tools.length} tools of ${baseUrl}\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`mcp: ${(e as Error).message}\n`);
  process.exit(1);
});
