import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { IMPORTED_DIR } from './jsonl-import.ts';
import { embeddedStores } from './test-stores.ts';
import type { Row, UsageRecord } from './types.ts';
import { Tables } from './types.ts';

/**
 * Upgrading a data dir written by the JSON-lines store: the first open imports it, so nothing is
 * lost (latest versions, deletions, history, usage counted once, checkpoints in both file layouts,
 * expiring rows); a torn last line (a crash of the old store) is left out; a damaged line in the
 * middle stops the open, naming the file and byte, and leaves the old files as they were.
 */
const { tmp, open, closeAll } = embeddedStores('jsonl-import-');
const lines = (values: unknown[]) => values.map((v) => `${JSON.stringify(v)}\n`).join('');
const usage = (id: string, units: number): UsageRecord => ({ id, day: '2026-03-01', keyId: 'key', orgId: 'org', operation: 'tokenIntel', units, requests: 1 });
const big = JSON.stringify({ states: Array.from({ length: 2_000 }, (_, i) => `s${i}`) });

/** a data dir as the JSON-lines store left it, its last orgs line torn by a crash */
function oldDataDir(): string {
  const dir = tmp();
  const store = join(dir, 'store');
  mkdirSync(join(store, Tables.checkpoints), { recursive: true });
  const orgs: Row[] = [
    { key: 'o1', version: 1, body: '{"name":"one"}' },
    { key: 'o2', version: 1, body: '{"name":"two"}' },
    { key: 'o1', version: 2, body: '{"name":"one, renamed"}' },
    { key: 'o2', version: 2, deleted: true, body: '{}' },
  ];
  writeFileSync(join(store, `${Tables.orgs}.jsonl`), `${lines(orgs)}{"key":"o3","vers`);
  writeFileSync(join(store, `${Tables.snapshotHistory}.jsonl`), lines([1, 2, 3].map((v) => ({ key: 'token:1:0xa', version: v, body: `v${v}` }))));
  const guard: Row[] = [
    { key: 'old', version: 1, body: '{}', expiresAt: 1_000 },
    { key: 'young', version: 1, body: '{}', expiresAt: 9_000 },
  ];
  writeFileSync(join(store, `${Tables.walletAuthGuard}.jsonl`), lines(guard));
  writeFileSync(join(store, 'usage.jsonl'), lines([usage('r1', 2), usage('r2', 3), usage('r1', 2)]));
  const file = (key: string) => join(store, Tables.checkpoints, `${encodeURIComponent(key)}.json`);
  writeFileSync(file('engine:token-events:0'), `${JSON.stringify({ key: 'engine:token-events:0', version: 7 })}\n${big}`);
  writeFileSync(file('engine:token-events:1'), JSON.stringify({ key: 'engine:token-events:1', version: 3, body: '{"old":"layout"}' }));
  return dir;
}

describe('upgrading a JSON-lines data dir (embedded store)', () => {
  it('the first open imports every table, usage and checkpoint; the torn last line is left out; the old files are kept aside', async () => {
    const dir = oldDataDir();
    const store = await open(dir);
    expect((await store.list(Tables.orgs)).map((r) => [r.key, r.version, r.body])).toEqual([['o1', 2, '{"name":"one, renamed"}']]);
    expect((await store.history(Tables.snapshotHistory, 'token:1:0xa')).map((r) => r.body)).toEqual(['v3', 'v2', 'v1']);
    expect((await store.usage('2026-03-01')).map((u) => [u.units, u.requests])).toEqual([[5, 2]]);
    expect((await store.get(Tables.checkpoints, 'engine:token-events:0'))?.body).toBe(big);
    expect((await store.get(Tables.checkpoints, 'engine:token-events:1'))?.body).toBe('{"old":"layout"}');
    await store.expire(Tables.walletAuthGuard, 5_000);
    expect((await store.list(Tables.walletAuthGuard)).map((r) => r.key)).toEqual(['young']);
    expect(existsSync(join(dir, 'store'))).toBe(false);
    expect(readFileSync(join(dir, IMPORTED_DIR, `${Tables.orgs}.jsonl`), 'utf8')).toContain('one, renamed');
  });

  it('two clients opening the old data dir at once import it once, and a write after the import stays across reopen', async () => {
    const dir = oldDataDir();
    const [a, b] = await Promise.all([open(dir), open(dir)]);
    expect((await a.usage('2026-03-01'))[0]?.requests).toBe(2);
    expect((await b.get(Tables.orgs, 'o1'))?.version).toBe(2);
    await a.upsert(Tables.orgs, [{ key: 'o1', version: 3, body: '{"name":"after"}' }]);
    await a.addUsage([usage('r3', 1)]);
    await closeAll();
    const reopened = await open(dir);
    expect((await reopened.get(Tables.orgs, 'o1'))?.body).toBe('{"name":"after"}');
    expect((await reopened.usage('2026-03-01'))[0]).toMatchObject({ units: 6, requests: 3 });
  });

  it('a damaged line in the middle of a table file stops the open, naming the file and the byte, and leaves the old files in place', async () => {
    const dir = oldDataDir();
    const file = join(dir, 'store', `${Tables.snapshotHistory}.jsonl`);
    const text = readFileSync(file, 'utf8');
    const second = text.indexOf('\n') + 1;
    writeFileSync(file, `${text.slice(0, second)}#${text.slice(second + 1)}`);
    const escaped = file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    await expect(open(dir)).rejects.toThrow(new RegExp(`${escaped}.*byte ${second}`));
    expect(existsSync(file)).toBe(true);
    // mended, it imports
    writeFileSync(file, text);
    expect((await (await open(dir)).history(Tables.snapshotHistory, 'token:1:0xa')).length).toBe(3);
  });
});
