import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { embeddedStores } from './test-stores.ts';
import { checkpointBody } from './test-writer.ts';
import type { Store } from './types.ts';
import { Tables } from './types.ts';

/**
 * A process killed (SIGKILL) while it writes to the embedded store, as the engine, the ingest or
 * the keys CLI can be: the store opens again with every write that resolved before the kill, each
 * row whole, nothing counted twice, and takes writes after it. A process killed holding the write
 * lock (in the middle of a transaction) does not stop the others from writing.
 */
const { tmp, open, closeAll } = embeddedStores('store-crash-');
const WRITER = new URL('./test-writer.ts', import.meta.url).pathname;
const DAY = '2026-03-01';

/** the writer in `mode` over `dir`; resolves once its output matches `until`, with the last `acked` index */
function writer(dir: string, mode: 'write' | 'hold', until: RegExp): Promise<{ child: ChildProcess; acked: () => number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', WRITER, dir, mode], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const acked = () => Number([...out.matchAll(/acked (\d+)/g)].pop()?.[1] ?? -1);
  return new Promise((ok, fail) => {
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (until.test(out)) ok({ child, acked });
    });
    child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code, signal) => fail(new Error(`writer exited (${code ?? signal}):\n${out}`)));
  });
}

async function kill(child: ChildProcess): Promise<void> {
  // the exit is expected now: not the failure `writer` reports
  child.removeAllListeners('exit');
  const gone = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await gone;
}

/** every write acknowledged up to `acked` is in `store`, whole; one not acknowledged may be there too */
async function expectAcked(store: Store, acked: number): Promise<void> {
  for (let k = 0; k < 20; k++) {
    const last = acked - ((((acked - k) % 20) + 20) % 20);
    const row = await store.get(Tables.cursors, `c${k}`);
    if (last < 0) continue;
    expect(row?.version, `c${k}`).toBeGreaterThanOrEqual(last);
    expect(JSON.parse(row?.body ?? '{}')).toEqual({ i: row?.version });
  }
  const versions = (await store.history(Tables.snapshotHistory, 'token:1:0xa')).map((r) => r.version);
  const newest = versions[0] ?? -1;
  expect(newest === acked || newest === acked + 1, `newest history version ${newest}, acked ${acked}`).toBe(true);
  expect(versions).toEqual(Array.from({ length: newest + 1 }, (_, i) => newest - i));
  const [usage] = await store.usage(DAY);
  expect(usage?.requests).toBeGreaterThanOrEqual(acked + 1);
  expect(usage?.requests).toBeLessThanOrEqual(acked + 2);
  const checkpoint = await store.get(Tables.checkpoints, 'engine:0');
  expect(checkpoint?.version).toBeGreaterThanOrEqual(acked - (acked % 10));
  expect(checkpoint?.body).toBe(checkpointBody(checkpoint?.version ?? -1));
}

describe('a writer process killed while it writes (embedded store)', () => {
  it.each([40, 120])('killed after %i acknowledged writes: every acknowledged write is there, whole, after the reopen, and writes go on', async (after) => {
    const dir = tmp();
    const { child, acked } = await writer(dir, 'write', new RegExp(`acked ${after}\\b`));
    await kill(child);
    const last = acked();
    let store = await open(dir);
    await expectAcked(store, last);
    // the replayed usage of the acknowledged calls is counted once
    const before = (await store.usage(DAY))[0]?.requests;
    await store.addUsage(Array.from({ length: last + 1 }, (_, i) => ({ id: `req-${i}`, day: DAY, keyId: 'key', orgId: 'org', operation: 'tokenIntel', units: 1, requests: 1 })));
    expect((await store.usage(DAY))[0]?.requests).toBe(before);
    // written after the restart, there after the next one, once
    await store.upsert(Tables.cursors, [{ key: 'c0', version: 10_000, body: '{"i":10000}' }]);
    await store.upsert(Tables.snapshotHistory, [{ key: 'token:1:0xa', version: 10_000, body: 'after' }]);
    await closeAll();
    store = await open(dir);
    expect((await store.get(Tables.cursors, 'c0'))?.body).toBe('{"i":10000}');
    const history = await store.history(Tables.snapshotHistory, 'token:1:0xa');
    expect(history.filter((r) => r.version === 10_000).map((r) => r.body)).toEqual(['after']);
  });

  it('a writer killed while this process has the store open: this one sees its acknowledged writes and keeps writing', async () => {
    const dir = tmp();
    const store = await open(dir);
    await store.upsert(Tables.orgs, [{ key: 'o1', version: 1, body: '{}' }]);
    const { child, acked } = await writer(dir, 'write', /acked 30\b/);
    await kill(child);
    await expectAcked(store, acked());
    await store.upsert(Tables.orgs, [{ key: 'o3', version: 1, body: '{}' }]);
    expect((await store.list(Tables.orgs)).map((r) => r.key)).toEqual(['o1', 'o3']);
  });

  it('a process killed holding the write lock, mid-transaction: its write is gone, and the other processes write and claim on', async () => {
    const dir = tmp();
    const store = await open(dir);
    const { child } = await writer(dir, 'hold', /holding/);
    // killed while it holds LMDB's writer lock: the lock is released with it (writes take it synchronously, so none is tried while it lives)
    await kill(child);
    await store.upsert(Tables.orgs, [{ key: 'o1', version: 1, body: '{}' }]);
    expect(await store.claim(Tables.walletAuthGuard, { key: 'm1', version: 1, body: '{}', expiresAt: Date.now() + 60_000 })).toBe(true);
    expect(await store.claim(Tables.walletAuthGuard, { key: 'm1', version: 1, body: '{}', expiresAt: Date.now() + 60_000 })).toBe(false);
    await closeAll();
    const reopened = await open(dir);
    expect((await reopened.get(Tables.orgs, 'o1'))?.body).toBe('{}');
    expect(await reopened.get(Tables.orgs, 'o-held')).toBeUndefined();
    expect(await reopened.get(Tables.walletAuthGuard, 'm1')).toBeDefined();
  });
});
