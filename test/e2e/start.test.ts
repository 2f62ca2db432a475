import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startCli } from './cli.ts';
import type { Started } from './cli.ts';

/** every file below a directory, recursively */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

async function call(url: string, path: string, key: string | undefined, body?: unknown) {
  const headers: Record<string, string> = {};
  if (key) headers.authorization = `Bearer ${key}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${url}${path}`, { method: body === undefined ? 'GET' : 'POST', headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, headers: res.headers, json: (await res.json()) as Record<string, unknown> };
}

describe('npm start on the embedded default', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'intel-start-'));
  const env = { DATA_DIR: dataDir, SIM_HISTORY_DAYS: '2', SIM_SEED: '7' };
  let first: Started | undefined;
  let second: Started | undefined;
  afterAll(async () => {
    await first?.stop();
    await second?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves, bills, limits, and keeps keys and usage across a restart without leaking the key', async () => {
    first = await startCli(env);
    const key = first.key as string;
    expect(key).toMatch(/^key_test_[A-Za-z0-9]{38}$/);
    const token = /"token":"(0x[0-9a-f]{40})"/.exec(first.curl)?.[1] as string;
    expect(token).toMatch(/^0x[0-9a-f]{40}$/);

    // the printed curl: 200 with a verdict and X-Usage-Units: 1
    const ok = await call(first.url, '/v1/token-intel', key, { token });
    expect(ok.status).toBe(200);
    expect(['mirror-worthy', 'watch', 'avoid', 'unrated']).toContain(ok.json.verdict);
    expect(ok.headers.get('x-usage-units')).toBe('1');
    expect(ok.headers.get('x-ratelimit-limit')).toBe('60');

    // no key: 401 invalid_api_key; unknown path: 404 JSON with hint and docs
    const noKey = await call(first.url, '/v1/token-intel', undefined, { token });
    expect(noKey.status).toBe(401);
    expect(noKey.json.error).toBe('invalid_api_key');
    const unknown = await call(first.url, '/v1/no-such-thing', key);
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ error: 'not_found' });
    expect(typeof unknown.json.hint).toBe('string');
    expect(typeof unknown.json.docs).toBe('string');

    // the 61st token-intel call within a minute answers 429; usage still answers
    const statuses: number[] = [ok.status];
    for (let i = 0; i < 60; i++) statuses.push((await call(first.url, '/v1/token-intel', key, { token })).status);
    expect(statuses.slice(0, 60).every((s) => s === 200)).toBe(true);
    expect(statuses[60]).toBe(429);
    const limited = await call(first.url, '/v1/token-intel', key, { token });
    expect(limited.json.error).toBe('rate_limited');
    expect(limited.headers.get('retry-after')).toBeTruthy();
    const usage = await call(first.url, '/v1/usage', key);
    expect(usage.status).toBe(200);
    expect(usage.json.unitsToday).toBe(60);
    expect(usage.json.requestsToday).toBe(60);

    const firstOutput = first.output();
    expect(await first.stop()).toBe(0);
    first = undefined;

    // restart: the same key works, usage today is kept, no new key is printed
    second = await startCli(env);
    expect(second.key).toBeUndefined();
    expect(second.output()).toContain('npm run keys -- create --plan sandbox');
    const usage2 = await call(second.url, '/v1/usage', key);
    expect(usage2.status).toBe(200);
    expect(usage2.json.unitsToday).toBe(60);
    const again = await call(second.url, '/v1/token-intel', key, { token });
    expect(again.status).toBe(429); // still the same minute: the limit holds across the restart
    const usage3 = await call(second.url, '/v1/usage', key);
    expect((usage3.json.byOperation as Record<string, number>).tokenIntel).toBe(60);

    // the plaintext key is nowhere in the data dir, and in no log line (only in the one-time banner)
    for (const f of filesUnder(dataDir)) expect(readFileSync(f, 'utf8').includes(key), f).toBe(false);
    const logLines = (firstOutput + second.output()).split('\n').filter((l) => l.startsWith('{'));
    expect(logLines.length).toBeGreaterThan(0);
    for (const l of logLines) expect(l.includes(key)).toBe(false);
    expect(firstOutput.split(key).length - 1).toBe(2); // the banner's key line and its curl
  }, 240_000);
});
