import { createPublicClient, http } from 'viem';
import { describe, expect, it } from 'vitest';
import { REDACTED, redact, redactedError } from './redact.ts';

const KEY = 'Zk3vQ9pL2xW7mN4bR8tY1uE6';

describe('redacting library errors for the log', () => {
  it("viem's error for an RPC URL with a provider key in its path keeps the host and loses the key", async () => {
    const client = createPublicClient({ transport: http(`http://user:pw@127.0.0.1:9/v2/${KEY}?apikey=${KEY}`, { retryCount: 0, timeout: 2000 }) });
    const err = await client.getBlockNumber().catch((e: unknown) => e);
    // the library's own text names the URL, key and credentials included
    expect((err as Error).message).toContain(KEY);
    const line = redactedError(err);
    expect(line).toContain('http://127.0.0.1:9/');
    expect(line).not.toContain(KEY);
    expect(line).not.toMatch(/user:pw/);
  });

  it('an attacker who read the rules: keys outside URLs, in pairs, in hex, in quotes are replaced too; addresses and sentences stay', () => {
    const pk = `0x${'ab12'.repeat(16)}`;
    const text = `failed: {"apiKey":"short1"} token=abc Bearer ${KEY} key '${KEY}' private ${pk} ${pk.slice(2)} wss://node.example/${KEY} for 0x${'1f'.repeat(20)}`;
    const out = redact(text);
    for (const secret of ['short1', 'abc', KEY, pk.slice(2)]) expect(out).not.toContain(secret);
    expect(out).toContain(`0x${'1f'.repeat(20)}`);
    expect(out).toContain('wss://node.example/');
    expect(out.startsWith('failed: ')).toBe(true);
    expect(out.split(REDACTED).length).toBeGreaterThan(5);
  });

  it('a plain sentence is left as it is', () => {
    const s = "the venue no longer accepts the agent's key: the account holds no ETH long of the agent's to reduce";
    expect(redact(s)).toBe(s);
  });
});
