import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryLog } from '../infra/log/memory.ts';
import type { Log } from '../infra/log/types.ts';
import { createEmbeddedStore } from '../infra/store/embedded.ts';
import type { Store } from '../infra/store/types.ts';
import { UsageSinkMarkRow, rowOf } from '../infra/rows.ts';
import { Topics } from '../schemas/events.ts';
import { waitFor } from '../test/contract/wait.ts';
import { createKeyService } from '../infra/keys.ts';
import { createMeter, utcDay } from './metering.ts';
import type { Meter } from './metering.ts';

const until = (what: string, ok: () => Promise<boolean> | boolean, ms = 10_000) => waitFor(ok, what, ms, 20);

describe('usage view bootstrap', () => {
  let dir: string;
  let log: Log;
  let store: Store;
  const meters: Meter[] = [];
  let n = 0;
  const bill = (m: Meter, keyId: string, operation: string, units: number) =>
    m.bill({ keyId, orgId: 'org', operation, units, requestId: `req-${++n}` }, Date.now());
  const storeUnits = async () => (await store.usage(utcDay(Date.now()))).reduce((a, t) => a + t.units, 0);

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'metering-test-'));
    log = createMemoryLog({ dataDir: dir, defaultPartitions: 2, idlePollMs: 10 });
    store = await createEmbeddedStore({ dataDir: dir });
    await store.migrate();
  });
  afterEach(async () => {
    for (const m of meters.splice(0)) await m.stop();
    await log.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const meter = async (runSink: boolean) => {
    const m = await createMeter({ log, store, runSink, flushMs: 10 });
    meters.push(m);
    return m;
  };

  it('bill answers at once and the record reaches the topic and the store in the next batch', async () => {
    const a = await meter(true);
    bill(a, 'k1', 'tokenIntel', 1);
    expect(a.keyDay('k1', Date.now()).units).toBe(1);
    await until('the sink to land the record', async () => (await storeUnits()) === 1);
  });

  it('publishes one message per key and operation of a flush interval, and the store sums them exactly', async () => {
    const a = await createMeter({ log, store, runSink: true, flushMs: 60_000 });
    meters.push(a);
    for (let i = 0; i < 300; i++) bill(a, i % 2 ? 'k1' : 'k2', i % 3 ? 'tokenIntel' : 'tokenSignal', i % 3 ? 1 : 2);
    await a.flush();
    let messages = 0;
    const probe = await log.consume({
      groupId: 'ephemeral-count',
      topics: [Topics.usage],
      eachBatch: async (b) => {
        messages += b.records.length;
      },
    });
    await until('the sink to land 400 units', async () => (await storeUnits()) === 400);
    await probe.stop();
    expect(messages).toBe(4);
    const totals = await store.usage(utcDay(Date.now()));
    expect(totals.reduce((n, t) => n + t.requests, 0)).toBe(300);
    expect(totals.find((t) => t.keyId === 'k1' && t.operation === 'tokenIntel')).toMatchObject({ units: 100, requests: 100 });
  });

  it('a restart with usage in the store and a tail on the topic gives exact totals', async () => {
    // an API process with the sink bills, and the sink lands its records and marks its offsets
    const a = await meter(true);
    for (let i = 0; i < 30; i++) bill(a, `k${i % 3}`, i % 2 ? 'tokenIntel' : 'tokenSignal', i % 2 ? 1 : 2);
    await a.flush();
    await until('the sink to land 45 units', async () => (await storeUnits()) === 45);
    await a.stop();
    meters.splice(meters.indexOf(a), 1);
    // another process bills after the sink stopped: a tail on the topic the store does not have
    const b = await meter(false);
    for (let i = 0; i < 7; i++) bill(b, 'k1', 'exitRisk', 1);
    await b.flush();
    await b.stop();
    meters.splice(meters.indexOf(b), 1);
    expect(await storeUnits()).toBe(45);

    const c = await meter(false);
    const now = Date.now();
    await until('the view to fold the tail', () => c.budgetUsed(now) >= 52);
    await new Promise((r) => setTimeout(r, 100));
    expect(c.budgetUsed(now)).toBe(52);
    expect(c.keyDay('k1', now)).toEqual({ units: 15 + 7, requests: 10 + 7, byOperation: { tokenIntel: 5, tokenSignal: 10, exitRisk: 7 } });
    expect(c.keyDay('k0', now).units).toBe(15);
  });

  it("sandbox and organisation units are global: another process's view counts them, and so does a restart from the store", async () => {
    const keys = createKeyService({ store, cacheTtlSeconds: 30 });
    const sandboxOrg = await keys.createOrg('sandbox');
    const liveOrg = await keys.createOrg('live');
    await keys.goLive(liveOrg.id, Date.now());
    const sandboxKey = (await keys.createKey(sandboxOrg.id, 'sandbox')).record;
    const liveKey = (await keys.createKey(liveOrg.id, 'pro')).record;
    const a = await meter(true);
    const b = await meter(false);
    const billKey = (m: Meter, k: typeof sandboxKey, units: number) =>
      m.bill({ keyId: k.id, orgId: k.orgId, operation: 'tokenIntel', units, requestId: `req-${++n}`, sandbox: k.plan === 'sandbox' }, Date.now());
    billKey(a, sandboxKey, 7);
    billKey(a, liveKey, 100);
    await a.flush();
    const now = Date.now();
    // the other process: the sandbox share and the organisations' quotas see what this one billed
    await until('the other view to fold the records', () => b.budgetUsed(now) === 107);
    expect([b.sandboxUsed(now), b.orgUnits(sandboxOrg.id, now), b.orgUnits(liveOrg.id, now)]).toEqual([7, 7, 100]);
    // a process started once the sink landed them reads the store, which knows the keys' plans
    await until('the sink to land the records', async () => (await storeUnits()) === 107);
    await new Promise((r) => setTimeout(r, 50));
    const c = await meter(false);
    expect([c.budgetUsed(now), c.sandboxUsed(now), c.orgUnits(sandboxOrg.id, now), c.orgUnits(liveOrg.id, now)]).toEqual([107, 7, 7, 100]);
  });

  it('what the sink marks as covered comes from the store, not from the topic', async () => {
    // records on the topic before the marks, and different totals in the store for them: the
    // view must take the store's (a replay from 0 would count the topic's instead)
    const day = utcDay(Date.now());
    const b = await meter(false);
    for (let i = 0; i < 4; i++) bill(b, 'k1', 'tokenIntel', 1);
    await b.flush();
    await b.stop();
    meters.splice(meters.indexOf(b), 1);
    await store.addUsage([{ day, keyId: 'k1', orgId: 'org', operation: 'tokenIntel', units: 40, requests: 40, id: 'landed' }]);
    const ends = new Map<number, number>();
    let read = 0;
    const probe = await log.consume({
      groupId: 'ephemeral-probe',
      topics: [Topics.usage],
      eachBatch: async (batch) => {
        read += batch.records.length;
        for (const r of batch.records) ends.set(r.partition, Math.max(ends.get(r.partition) ?? 0, r.offset + 1));
      },
    });
    await until('the probe to read the message of the 4 calls', () => read === 1);
    await probe.stop();
    for (let p = 0; p < 2; p++) {
      const offset = ends.get(p) ?? 0;
      await store.upsert(UsageSinkMarkRow.table, [rowOf(UsageSinkMarkRow, { offset }, offset, p)]);
    }
    const c = await meter(false);
    // a later call of the same key lands on the same partition, after the 4: once the view has
    // folded it, it has read everything it was going to read of that partition
    const d = await meter(false);
    bill(d, 'k1', 'exitRisk', 1);
    await d.flush();
    await until('the view to read past the marks', () => c.keyDay('k1', Date.now()).byOperation.exitRisk === 1);
    expect(c.keyDay('k1', Date.now()).byOperation.tokenIntel).toBe(40);
  });

  it('without marks (no sink has run) the view replays the topic from the start', async () => {
    const b = await meter(false);
    for (let i = 0; i < 5; i++) bill(b, 'k9', 'tokenIntel', 1);
    await b.flush();
    await b.stop();
    meters.splice(meters.indexOf(b), 1);
    const c = await meter(false);
    await until('the view to replay 5 units', () => c.budgetUsed(Date.now()) === 5);
    await new Promise((r) => setTimeout(r, 50));
    expect(c.keyDay('k9', Date.now()).requests).toBe(5);
  });

  it('a usage record that does not decode (another writer, a damaged record) is skipped and said; the others are billed and viewed', async () => {
    const errors: string[] = [];
    const a = await createMeter({ log, store, runSink: true, flushMs: 10, onError: (err, what) => void errors.push(`${what}: ${String(err)}`) });
    meters.push(a);
    const day = utcDay(Date.now());
    await log.publish(Topics.usage, [
      { key: 'k5', value: 'not json' },
      { key: 'k5', value: JSON.stringify({ day, keyId: 'k5', orgId: 'org', operation: 'tokenIntel', units: 'one', requests: 1, id: 'x', instance: 'other' }) },
      { key: 'k5', value: JSON.stringify({ day, keyId: 'k5', orgId: 'org', operation: 'tokenIntel', units: 2, requests: 1, id: 'y', instance: 'other' }) },
    ]);
    bill(a, 'k5', 'tokenIntel', 1);
    await until('the sink to land the 3 units that decode', async () => (await storeUnits()) === 3);
    await until('the view to count them', () => a.keyDay('k5', Date.now()).units === 3);
    expect(errors.filter((e) => e.includes('does not decode')).length).toBeGreaterThanOrEqual(2);
  });
});

/** two meters (two processes' views, no sink) over one log and store in a temporary directory, stopped after `fn` */
async function withMeters(fn: (a: Meter, b: Meter) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'metering-views-'));
  const log = createMemoryLog({ dataDir: dir, defaultPartitions: 1, idlePollMs: 10 });
  const store = await createEmbeddedStore({ dataDir: dir });
  const meters: Meter[] = [];
  try {
    for (let i = 0; i < 2; i++) meters.push(await createMeter({ log, store, runSink: false, flushMs: 10 }));
    await fn(meters[0] as Meter, meters[1] as Meter);
  } finally {
    for (const m of meters) await m.stop();
    await log.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the UTC day roll-over', () => {
  it('drops the closed day from the view, ignores its late records, keeps the new day and drops the keys idle for a minute', async () => {
    await withMeters(async (a, b) => {
      // in the past: other processes' records then count in no rate window (only in the day's totals)
      const midnight = Date.UTC(2021, 0, 3);
      const late = midnight - 1000;
      const billAt = (m: Meter, keyId: string, units: number, at: number, id: string) => m.bill({ keyId, orgId: 'org', operation: 'tokenIntel', units, requestId: id }, at);
      billAt(a, 'k1', 5, late, 'r1');
      b.admit('k2', late);
      await until("b's view to fold a's record", () => b.keyDay('k1', late).units === 5);
      const r = b.rollOver(midnight + 61_000);
      expect(r).toEqual({ day: '2021-01-03', closed: [{ day: '2021-01-02', units: 5, keys: 1 }], idleKeys: 1 });
      expect(b.budgetUsed(late)).toBe(0);
      // a's last record of the closed day arrives after the roll-over: not folded in
      billAt(a, 'k1', 7, late + 500, 'r2');
      billAt(a, 'k1', 2, midnight + 62_000, 'r3');
      await until("b's view to fold the new day's record", () => b.budgetUsed(midnight + 62_000) === 2);
      expect(b.budgetUsed(late)).toBe(0);
      expect(b.keyDay('k1', late).units).toBe(0);
      // a process that had not rolled over still counts both days of its own view
      expect(a.budgetUsed(late)).toBe(12);
      expect(a.rollOver(midnight + 62_000).closed).toEqual([{ day: '2021-01-02', units: 12, keys: 1 }]);
      expect(a.budgetUsed(midnight + 62_000)).toBe(2);
    });
  });
});

describe('per-key rate window', () => {
  it('counts the admissions of the last minute, never letting one go early, and in any arrival order', async () => {
    await withMeters(async (m) => {
      const t0 = 1_800_000_000_000;
      for (let i = 0; i < 60; i++) m.admit('k', t0 + i * 1000);
      // an admission that arrives late (another process's record) lands in its own slot
      m.admit('k', t0 + 30_500);
      expect(m.minuteCount('k', t0 + 59_999)).toBe(61);
      // the first admission (at t0) counts until a whole minute has passed since it
      expect(m.minuteCount('k', t0 + 60_000)).toBe(61);
      expect(m.minuteCount('k', t0 + 60_100)).toBe(60);
      // at t0 + 90.6 s the admissions at t0 .. t0 + 30 s and the late one at t0 + 30.5 s have left
      expect(m.minuteCount('k', t0 + 90_600)).toBe(29);
      expect(m.minuteCount('other', t0)).toBe(0);
      expect(m.minuteCount('k', t0 + 200_000)).toBe(0);
    });
  });
});
