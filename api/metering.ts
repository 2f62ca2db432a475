import { randomUUID } from 'node:crypto';
import type { Consumer, Log } from '../infra/log/types.ts';
import type { Store, UsageRecord } from '../infra/store/types.ts';
import { Topics } from '../schemas/events.ts';

/** UTC day of a time, YYYY-MM-DD */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function nextUtcMidnight(ms: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
}

interface KeyDay {
  units: number;
  requests: number;
  byOperation: Record<string, number>;
}

/** A usage record as it travels on the usage topic: the store's record plus its sender. */
interface UsageMessage extends UsageRecord {
  instance: string;
}

/**
 * Metering: appends a usage record per successful call to the usage topic, and folds every
 * process's records into this process's view of per-key minute counts and the daily budget, so
 * limits are global with at most the topic's delivery delay of over-admission. A sink consumer
 * group lands the records in the store (summed per key, operation and day).
 */
export interface Meter {
  /** units billed today across all keys */
  budgetUsed(now: number): number;
  keyDay(keyId: string, now: number): KeyDay;
  /** requests admitted for the key within the last minute */
  minuteCount(keyId: string, now: number): number;
  /** record an admitted request (rate window) */
  admit(keyId: string, now: number): void;
  /** bill a successful call */
  bill(rec: { keyId: string; orgId: string; operation: string; units: number; requestId: string }, now: number): Promise<void>;
  stop(): Promise<void>;
}

export async function createMeter(deps: { log: Log; store: Store; runSink: boolean }): Promise<Meter> {
  const { log, store } = deps;
  const instance = randomUUID();
  const days = new Map<string, { total: number; keys: Map<string, KeyDay>; seen: Set<string> }>();
  /** per key: admission times within the last minute, oldest first (a queue trimmed from the front) */
  const windows = new Map<string, { times: number[]; head: number }>();

  function day(d: string) {
    let v = days.get(d);
    if (!v) {
      v = { total: 0, keys: new Map(), seen: new Set() };
      days.set(d, v);
      // keep today and yesterday only
      const keep = [...days.keys()].sort().slice(-2);
      for (const k of days.keys()) if (!keep.includes(k)) days.delete(k);
    }
    return v;
  }

  function fold(r: UsageRecord): void {
    const v = day(r.day);
    if (v.seen.has(r.id)) return;
    v.seen.add(r.id);
    v.total += r.units;
    const k = v.keys.get(r.keyId) ?? { units: 0, requests: 0, byOperation: {} };
    k.units += r.units;
    k.requests += r.requests;
    k.byOperation[r.operation] = (k.byOperation[r.operation] ?? 0) + r.units;
    v.keys.set(r.keyId, k);
  }

  function windowOf(keyId: string, now: number): { times: number[]; head: number } {
    let w = windows.get(keyId);
    if (!w) {
      w = { times: [], head: 0 };
      windows.set(keyId, w);
    }
    while (w.head < w.times.length && (w.times[w.head] as number) <= now - 60_000) w.head++;
    if (w.head > 1024 && w.head * 2 > w.times.length) {
      w.times = w.times.slice(w.head);
      w.head = 0;
    }
    return w;
  }

  function countIn(w: { times: number[]; head: number }): number {
    return w.times.length - w.head;
  }

  function insertTime(w: { times: number[]; head: number }, t: number): void {
    // other processes' records can arrive slightly out of order: keep the queue sorted
    let i = w.times.length;
    while (i > w.head && (w.times[i - 1] as number) > t) i--;
    w.times.splice(i, 0, t);
  }

  await log.ensureTopic(Topics.usage);
  const consumers: Consumer[] = [];
  // this process's view: every record of every process, from the start of the retained topic
  consumers.push(
    await log.consume({
      groupId: `ephemeral-usage-view-${instance}`,
      topics: [Topics.usage],
      startOffset: () => 0,
      eachBatch: async (batch) => {
        const now = Date.now();
        for (const rec of batch.records) {
          const m = JSON.parse(rec.value) as UsageMessage;
          if (m.instance === instance) continue;
          fold(m);
          // other processes' admissions count against the same per-key minute
          if (rec.timestamp > now - 60_000) insertTime(windowOf(m.keyId, now), rec.timestamp);
        }
      },
    }),
  );
  if (deps.runSink) {
    consumers.push(
      await log.consume({
        groupId: 'usage-sink',
        topics: [Topics.usage],
        fromBeginning: true,
        eachBatch: async (batch) => {
          await store.addUsage(
            batch.records.map((r) => {
              const { instance: _instance, ...rec } = JSON.parse(r.value) as UsageMessage;
              return rec;
            }),
          );
        },
      }),
    );
  }

  return {
    budgetUsed(now) {
      return days.get(utcDay(now))?.total ?? 0;
    },
    keyDay(keyId, now) {
      return days.get(utcDay(now))?.keys.get(keyId) ?? { units: 0, requests: 0, byOperation: {} };
    },
    minuteCount(keyId, now) {
      return countIn(windowOf(keyId, now));
    },
    admit(keyId, now) {
      insertTime(windowOf(keyId, now), now);
    },
    async bill(r, now) {
      const rec: UsageRecord = {
        day: utcDay(now),
        keyId: r.keyId,
        orgId: r.orgId,
        operation: r.operation,
        units: r.units,
        requests: 1,
        id: r.requestId,
      };
      fold(rec);
      const msg: UsageMessage = { ...rec, instance };
      await log.publish(Topics.usage, [{ key: r.keyId, value: JSON.stringify(msg), timestamp: now }]);
    },
    async stop() {
      for (const c of consumers) await c.stop();
    },
  };
}
