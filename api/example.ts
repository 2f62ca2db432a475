import type { Replica } from './replica.ts';

/** A token the engine has a snapshot of, for the printed curl; waits for the first ones. */
export async function pickExampleToken(replica: Replica, chain: string, timeoutMs: number): Promise<string | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const tokens = replica.list<{ token: string; verdict?: string; activity?: unknown }>('token', chain);
    if (tokens.length > 0) {
      const rated = tokens.find((t) => t.verdict && t.verdict !== 'unrated') ?? tokens[0];
      return rated?.token;
    }
    if (Date.now() > deadline) return undefined;
    await new Promise((r) => setTimeout(r, 200));
  }
}
