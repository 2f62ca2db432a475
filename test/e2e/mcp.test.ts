import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { generatePrivateKey } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIntelClient } from '../../client/index.ts';
import { boardTokens } from '../../client/usage.ts';
import { toolName } from '../../mcp/tools.ts';
import { startStack } from './harness.ts';
import type { Stack } from './harness.ts';

/**
 * The MCP server (mcp/, `npm run mcp`) driven by the SDK's own client, over stdio and over
 * Streamable HTTP, against the running app: one tool per operation of the catalog, a call answers
 * the HTTP answer's fields, an API error is a tool error with its code, and the calls are billed
 * to the key like HTTP calls (`/v1/usage`).
 */
const ROOT = resolve(import.meta.dirname, '../..');
const MAIN = [resolve(ROOT, 'node_modules/tsx/dist/loader.mjs'), resolve(ROOT, 'mcp/main.ts')];
const DAYS = 2;

type ToolAnswer = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: Record<string, unknown> };
const env = (vars: Record<string, string>) => ({ ...(process.env as Record<string, string>), ...vars });

/** `npm run mcp -- --http 0`: resolves the URL it prints once it listens */
async function startHttpServer(vars: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', MAIN[0]!, MAIN[1]!, '--http', '0'], { env: env(vars), stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  const url = await new Promise<string>((ok, fail) => {
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(err);
      if (m) ok(m[1]!);
    });
    child.on('exit', (code) => fail(new Error(`mcp exited ${code}: ${err}`)));
  });
  return { child, url };
}

describe('the MCP server against the running app', () => {
  let stack: Stack;
  let apiKey: string;
  let token: string;
  let catalogOperations: string[];
  let http: { child: ChildProcess; url: string } | undefined;
  const clients: Client[] = [];

  const connect = async (transport: Transport) => {
    const client = new Client({ name: 'mcp-test', version: '1.0.0' });
    await client.connect(transport);
    clients.push(client);
    return client;
  };
  const stdio = (vars: Record<string, string> = {}) =>
    connect(new StdioClientTransport({ command: process.execPath, args: ['--import', MAIN[0]!, MAIN[1]!], env: env({ INTEL_API_KEY: apiKey, INTEL_BASE_URL: `${stack.url}/v1`, ...vars }), stderr: 'ignore' }));
  const usage = async () => (await stack.call('GET', '/v1/usage', apiKey)).json as { requestsToday: number; byOperation: Record<string, number> };

  beforeAll(async () => {
    stack = await startStack({ seed: 5, days: DAYS });
    await stack.advanceTo(stack.sim.truth.genesisTime + DAYS * 86400);
    apiKey = await stack.newKey();
    const [top] = await boardTokens(createIntelClient({ baseUrl: `${stack.url}/v1`, apiKey: await stack.newKey() }), 1);
    token = top!.token;
    const catalog = (await stack.call('GET', '/v1', undefined)).json as { endpoints: { path: string }[] };
    catalogOperations = catalog.endpoints.map((e) => e.path).filter((p) => p !== '/stream');
    http = await startHttpServer({ INTEL_API_KEY: apiKey, INTEL_BASE_URL: `${stack.url}/v1` });
  }, 300_000);
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    http?.child.kill();
    await stack?.stop();
  });

  for (const transport of ['stdio', 'Streamable HTTP'] as const) {
    it(`over ${transport}: one tool per operation, token-intel answers the HTTP fields, a bad address is a tool error, and the calls are billed`, async () => {
      const client = transport === 'stdio' ? await stdio() : await connect(new StreamableHTTPClientTransport(new URL(http!.url)));
      const { tools } = await client.listTools();
      // without a wallet the relay's tools are not listed: every other operation is one tool
      const keyOnly = catalogOperations.filter((p) => !p.startsWith('/copy/agent/'));
      expect(tools.map((t) => t.name).sort()).toEqual(keyOnly.map(toolName).sort());
      const intelTool = tools.find((t) => t.name === 'token-intel')!;
      expect(intelTool.description).toMatch(/Cost: \d+ units? per call/);
      expect(intelTool.inputSchema.required).toContain('token');

      const before = await usage();
      const answer = (await client.callTool({ name: 'token-intel', arguments: { token } })) as ToolAnswer;
      expect(answer.isError ?? false).toBe(false);
      const direct = (await stack.call('POST', '/v1/token-intel', await stack.newKey(), { token })).json as Record<string, unknown>;
      expect(Object.keys(answer.structuredContent!).sort()).toEqual(Object.keys(direct).sort());
      expect(answer.structuredContent).toMatchObject({ token: direct.token, verdict: direct.verdict });
      expect(JSON.parse(answer.content[0]!.text)).toEqual(answer.structuredContent);

      const bad = (await client.callTool({ name: 'token-intel', arguments: { token: '0x1234' } })) as ToolAnswer;
      expect(bad.isError).toBe(true);
      expect(JSON.parse(bad.content[0]!.text)).toMatchObject({ status: 400, error: 'invalid_address' });

      const after = await usage();
      expect(after.byOperation.tokenIntel ?? 0).toBe((before.byOperation.tokenIntel ?? 0) + 1);
      // the refused call is not billed, as over HTTP
      expect(after.requestsToday).toBe(before.requestsToday + 1);
    }, 120_000);
  }

  it("the copy relay's tools are listed once a wallet signs them; an unknown tool is an error, not a call", async () => {
    const partner = (await stack.keys.resolve(apiKey, Date.now()))!.orgId;
    const client = await stdio({ INTEL_WALLET_PRIVATE_KEY: generatePrivateKey(), INTEL_PARTNER: partner });
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names.sort()).toEqual(catalogOperations.map(toolName).sort());
    expect(names).toContain('copy-agent-create');
    const listed = (await client.callTool({ name: 'copy-agent-list', arguments: {} })) as ToolAnswer;
    expect(listed.isError ?? false, listed.content[0]?.text).toBe(false);
    expect(listed.structuredContent).toHaveProperty('agents');
    const unknown = (await client.callTool({ name: 'drain-wallet', arguments: {} })) as ToolAnswer;
    expect(JSON.parse(unknown.content[0]!.text)).toMatchObject({ error: 'unknown_tool' });
  }, 120_000);

  it('the HTTP transport refuses a request naming another host (DNS rebinding) and serves nothing but /mcp', async () => {
    const { port } = new URL(http!.url);
    const init = { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) };
    // fetch sets Host itself: a raw request names the attacker's host as a rebound browser would
    const rebound = await new Promise<number>((ok, fail) => {
      const req = request(http!.url, { method: 'POST', headers: { ...init.headers, host: `evil.example:${port}` } }, (res) => {
        res.resume();
        ok(res.statusCode ?? 0);
      });
      req.on('error', fail);
      req.end(init.body);
    });
    expect(rebound).toBe(403);
    expect((await fetch(`http://127.0.0.1:${port}/other`, init)).status).toBe(404);
  });
});
