/**
 * The client in use: typed calls whose paths, inputs and answers the compiler checks against the
 * generated types (test/e2e/client.test.ts compiles this file with the client and runs it
 * against the app).
 */
import type { IntelClient, Schemas } from './index.ts';

/** what a call answered: its data, or an Error carrying the API's error code and sentence */
export function answered<T>(what: string, r: { data?: T; error?: { error: string; detail: string }; response: Response }): T {
  if (r.data !== undefined) return r.data;
  throw new Error(`${what}: ${r.response.status} ${r.error?.error ?? 'no body'}: ${r.error?.detail ?? ''}`);
}

/** a token's verdict and signal, and the units the two calls cost */
export async function tokenVerdict(client: IntelClient, token: string): Promise<{ verdict: Schemas['Verdict']; signal: Schemas['TokenSignalValue']; units: number }> {
  const intel = await client.POST('/token-intel', { body: { token, sizeUsd: 5000 } });
  const signal = await client.POST('/token-signal', { body: { token } });
  const units = [intel, signal].reduce((sum, r) => sum + Number(r.response.headers.get('x-usage-units') ?? 0), 0);
  return { verdict: answered('token-intel', intel).verdict, signal: answered('token-signal', signal).signal, units };
}

/** the conviction board's first tokens */
export async function boardTokens(client: IntelClient, limit: number): Promise<Schemas['BoardItem'][]> {
  return answered('conviction-board', await client.GET('/conviction-board', { params: { query: { limit } } })).board;
}

/** a copy agent following a leader in paper mode, then the signing wallet's agents (the relay: the client signs) */
export async function followInPaper(client: IntelClient, leader: string, expiresAt: number): Promise<{ created: Schemas['CopyAgentCreateResponse']['agent']; listed: Schemas['CopyAgentListResponse']['agents'] }> {
  const limits = { maxNotionalUsd: 100, dailyCapUsd: 500, minLeaderGrade: 'unrated' as const, expiresAt };
  const created = answered('copy/agent/create', await client.POST('/copy/agent/create', { body: { venue: 'evm-spot', leader, mode: 'paper', limits } })).agent;
  const listed = answered('copy/agent/list', await client.POST('/copy/agent/list', { body: { state: 'active' } })).agents;
  return { created, listed };
}
