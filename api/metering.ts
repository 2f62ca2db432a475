import { randomUUID } from 'node:crypto';
import { createBatchWriter } from '../infra/batch.ts';
import type { Consumer, Log, LogRecordIn } from '../infra/log/types.ts';
import { UsageSinkMarkRow, readRow, rowOf } from '../infra/rows.ts';
import type { Store, UsageRecord, UsageTotal } from '../infra/store/types.ts';
import { UsageTopic, ensureTopic, recordOf } from '../infra/topics.ts';
import type { UsageMessage } from '../schemas/topics.ts';
import { ApiKeyBody, PlanLimits, limitsOf } from '../schemas/keys.ts';
import type { Plan } from '../schemas/keys.ts';
import { Tables } from '../infra/store/types.ts';
import { jsonCodec } from '../infra/codec.ts';
import type { Config } from '../infra/config.ts';

/** UTC day of a time, YYYY-MM-DD */
let dayMemo = { from: 0, to: -1, day: '' };
export function utcDay(ms: number): string {
  // asked on every metered call: the answer changes once a day
  if (ms >= dayMemo.from && ms < dayMemo.to) return dayMemo.day;
  const day = new Date(ms).toISOString().slice(0, 10);
  const from = Date.parse(`${day}T00:00:00.000Z`);
  dayMemo = { from, to: from + 86_400_000, day };
  return day;
}

/**
 * A key's admissions within the last minute, counted per 100 ms slot (a queue of slots, oldest
 * first): counting and admitting are O(1) whatever the key's rate, where a queue of every
 * admission's time held a million entries for a key served at 16,000 requests a second.
 */
interface RateWindow {
  slots: number[];
  counts: number[];
  head: number;
  total: number;
}

const WINDOW_SLOT_MS = 100;

/** ms until slot `i` leaves the window: once all of it is older than a minute (windowOf) */
function slotLeavesIn(w: RateWindow, i: number, now: number): number {
  return Math.max(0, ((w.slots[i] as number) + 1) * WINDOW_SLOT_MS + 60_000 - now);
}

export function nextUtcMidnight(ms: number): number {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
}

/**
 * The daily limits above the per-key quota (docs/console.md "Fair use"): the service's
 * budget, a quota per organisation (all its keys together, so more keys or a rotated key buy no
 * more units) by the calling key's plan, and the share of the budget that sandbox keys together
 * may use, so live partners are never starved by sandboxes.
 */
export interface DailyLimits {
  /** units across all keys per UTC day */
  budget: number;
  /** units an organisation's keys may spend together per UTC day, by the calling key's plan (null: none) */
  orgDailyUnits: Record<Plan, number | null>;
  /** the share (0..1) of the budget sandbox keys may use together */
  sandboxShare: number;
}

/** an organisation's quota defaults to its plan's key quota: its keys together spend one key's */
export type FairUse = { orgDailyUnits?: Partial<Record<Plan, number | null>>; sandboxShare?: number };

export function dailyLimits(budget: number, fairUse: FairUse = {}): DailyLimits {
  const orgDailyUnits = { ...(Object.fromEntries(Object.entries(PlanLimits).map(([plan, l]) => [plan, l.dailyUnits])) as Record<Plan, number | null>), ...fairUse.orgDailyUnits };
  return { budget, orgDailyUnits, sandboxShare: fairUse.sandboxShare ?? 0.2 };
}

/** the daily limits the configuration sets */
export function dailyLimitsOf(config: Config): DailyLimits {
  const org = {
    sandbox: config.ORG_DAILY_UNITS_SANDBOX,
    free: config.ORG_DAILY_UNITS_FREE,
    pro: config.ORG_DAILY_UNITS_PRO,
    enterprise: config.ORG_DAILY_UNITS_ENTERPRISE,
  };
  const set = Object.fromEntries(Object.entries(org).filter(([, v]) => v !== undefined)) as Partial<Record<Plan, number>>;
  return dailyLimits(config.DAILY_UNIT_BUDGET, { orgDailyUnits: set, sandboxShare: config.SANDBOX_BUDGET_SHARE });
}

/** the units sandbox keys together may use today */
export const sandboxUnits = (limits: DailyLimits): number => Math.floor(limits.budget * limits.sandboxShare);

/** units held for calls not yet answered: of the key, of its organisation, of all sandbox keys, of all keys */
export interface Held {
  key: number;
  org: number;
  sandbox: number;
  total: number;
}
const NOTHING_HELD: Held = { key: 0, org: 0, sandbox: 0, total: 0 };

export type DailyRefusal = 'quota' | 'org_quota' | 'sandbox_share' | 'budget';
export type MeterView = Pick<Meter, 'keyDay' | 'orgUnits' | 'sandboxUsed' | 'budgetUsed'>;
export type MeteredKey = Parameters<typeof limitsOf>[0] & { id: string; orgId: string };

/**
 * Which daily limit refuses `units` more for the key now, on top of the units `held` for calls
 * not yet answered: the key's quota, its organisation's, the service's budget or the sandbox share
 * (sandbox keys only); undefined when all admit them. The one rule of the calls
 * (api/plugins/limits.ts), the stream's events and the webhook pushes.
 */
export function dailyLimitRefusal(meter: MeterView, key: MeteredKey, units: number, limits: DailyLimits, now: number, held: Held = NOTHING_HELD): DailyRefusal | undefined {
  const daily = limitsOf(key).dailyUnits;
  if (daily !== null && meter.keyDay(key.id, now).units + held.key + units > daily) return 'quota';
  const org = limits.orgDailyUnits[key.plan];
  if (org !== null && meter.orgUnits(key.orgId, now) + held.org + units > org) return 'org_quota';
  // the budget first: once it is spent, every key is told the service is out, sandbox keys too
  if (meter.budgetUsed(now) + held.total + units > limits.budget) return 'budget';
  if (key.plan === 'sandbox' && meter.sandboxUsed(now) + held.sandbox + units > sandboxUnits(limits)) return 'sandbox_share';
  return undefined;
}

/** one daily limit and what is left of it today (null: no such limit) */
export interface Allowance {
  dailyUnits: number | null;
  usedUnits: number;
  remainingUnits: number | null;
}
const allowance = (dailyUnits: number | null, usedUnits: number): Allowance => ({ dailyUnits, usedUnits, remainingUnits: dailyUnits === null ? null : Math.max(0, dailyUnits - usedUnits) });

export interface Allowances {
  org: Allowance;
  /** sandbox keys only: the share of the budget they use together */
  sandbox?: Allowance & { share: number };
  budget: Allowance;
}

/** a key's own daily quota and what is left of it today */
export const keyAllowance = (meter: MeterView, key: MeteredKey, now: number): Allowance => allowance(limitsOf(key).dailyUnits, meter.keyDay(key.id, now).units);

/**
 * The daily limits above a key's own that an organisation's keys of `plan` run under, and what is
 * left of each today, as the limits count it: /v1/usage and the console's usage panel.
 */
export function allowances(meter: MeterView, who: { orgId: string; plan: Plan }, limits: DailyLimits, now: number): Allowances {
  const { plan } = who;
  return {
    org: allowance(limits.orgDailyUnits[plan], meter.orgUnits(who.orgId, now)),
    ...(plan === 'sandbox' ? { sandbox: { share: limits.sandboxShare, ...allowance(sandboxUnits(limits), meter.sandboxUsed(now)) } } : {}),
    budget: allowance(limits.budget, meter.budgetUsed(now)),
  };
}

/**
 * What a refusal tells the caller: the error code and a sentence. The sandbox share answers 429
 * (a limit of the caller's class, as the quotas), not 503: the service has capacity, for live keys.
 */
export function refusalText(refused: DailyRefusal, key: MeteredKey, limits: DailyLimits): { code: 'rate_limited' | 'capacity'; detail: string } {
  switch (refused) {
    case 'quota':
      return { code: 'rate_limited', detail: `daily quota of ${limitsOf(key).dailyUnits} units for this key exceeded` };
    case 'org_quota':
      return { code: 'rate_limited', detail: `daily quota of ${limits.orgDailyUnits[key.plan]} units for this organisation (all its keys together) exceeded` };
    case 'sandbox_share':
      return {
        code: 'rate_limited',
        detail: `sandbox keys together have used their share (${Math.round(limits.sandboxShare * 100)} %, ${sandboxUnits(limits)} units) of the service's daily data budget; live keys are not affected`,
      };
    case 'budget':
      return { code: 'capacity', detail: 'the service has used its daily data budget' };
  }
}

/** one UTC day of the view: units in all, of sandbox keys, per key and per organisation */
interface DayView {
  total: number;
  sandbox: number;
  keys: Map<string, KeyDay>;
  orgs: Map<string, number>;
  /** usage record ids folded in */
  seen: Set<string>;
}

const KeyPlan = jsonCodec(ApiKeyBody.pick({ plan: true }).loose());

/** the keys among today's totals that are sandbox keys (the store's usage rows do not say) */
async function sandboxKeysOf(store: Store, totals: UsageTotal[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (const keyId of new Set(totals.map((t) => t.keyId))) {
    const row = await store.get(Tables.apiKeys, keyId);
    if (row && KeyPlan.decode(row.body)?.plan === 'sandbox') out.add(keyId);
  }
  return out;
}

interface KeyDay {
  units: number;
  requests: number;
  byOperation: Record<string, number>;
}

/**
 * Metering: appends a usage record per successful call to the usage topic, and folds every
 * process's records into this process's view of per-key minute counts and the daily budget, so
 * limits are global with at most the topic's delivery delay of over-admission. A sink consumer
 * group lands the records in the store (summed per key, operation and day).
 *
 * Billing never waits: `bill` folds the call into this process's view and queues it on a
 * batching writer that publishes to the usage topic every `flushMs` (100 ms), one message per
 * key and operation summing the interval's calls. A clean shutdown drains the writer, so billing
 * stays exact; a crash loses at most the calls of the last flush interval (answered, never
 * billed).
 *
 * A starting view does not replay the usage topic: it reads today's totals from the store, then
 * the offsets the sink had covered (`usage-sink:<partition>` in the cursors table, written after
 * each landed batch), and consumes each partition from there. A batch the sink lands between those
 * two reads is counted by neither, so the view can under-count by one sink batch (the limits then
 * admit that much more, as with the topic's delivery delay); billing itself is the store's sum,
 * idempotent by record id, and is not affected. Without marks for every partition (no sink has
 * run yet), the view replays the topic from offset 0 as before. Per-key minute windows start
 * empty for admissions older than the marks.
 */
export interface Meter {
  /** units billed today across all keys */
  budgetUsed(now: number): number;
  /** units billed today to sandbox keys */
  sandboxUsed(now: number): number;
  /** units billed today to an organisation's keys */
  orgUnits(orgId: string, now: number): number;
  keyDay(keyId: string, now: number): KeyDay;
  /** requests admitted for the key within the last minute */
  minuteCount(keyId: string, now: number): number;
  /**
   * ms until at most `keep` of the key's admissions are left in its window (0 when already so):
   * with `keep` the limit less one, until a call is admitted again; with 0, until the window is empty
   */
  minuteFreesIn(keyId: string, keep: number, now: number): number;
  /** record an admitted request (rate window) */
  admit(keyId: string, now: number): void;
  /** bill a successful call (`sandbox`: of a sandbox key): folded into the view at once, published in the next batch */
  bill(rec: { keyId: string; orgId: string; operation: string; units: number; requestId: string; sandbox?: boolean }, now: number): void;
  /**
   * The UTC day's roll-over (the `budget-rollover` job at 00:00 UTC, in every API process: what it
   * drops is this process's memory): the view keeps the new day only, so the closed day's counters
   * and the record ids seen that day are dropped, and a record of a closed day that arrives late
   * (another process's last flush) is not folded in (the store bills it all the same); the rate
   * windows of keys idle for the last minute and the empty per-key groups are dropped, so the view
   * holds the keys in use, not every key ever seen. Returns the day now counted and what closed.
   */
  rollOver(now: number): { day: string; closed: { day: string; units: number; keys: number }[]; idleKeys: number };
  /** publish every usage record billed so far (tests; shutdown drains) */
  flush(): Promise<void>;
  /** drain the writer, then stop the consumers */
  stop(): Promise<void>;
}

export interface MeterDeps {
  log: Log;
  store: Store;
  /** run the sink consumer group that lands usage in the store */
  runSink: boolean;
  /** publish interval of the usage writer (ms) */
  flushMs?: number;
  onError?: (err: unknown, what: string) => void;
  now?: () => number;
}

export async function createMeter(deps: MeterDeps): Promise<Meter> {
  const { log, store } = deps;
  const clock = deps.now ?? Date.now;
  const instance = randomUUID();
  /** how this process's usage messages end (`instance` is serialized last) */
  const ownTail = `,"instance":"${instance}"}`;
  const days = new Map<string, DayView>();
  /** records of days before this one are not folded in (set by the roll-over) */
  let firstDay = '';
  /** per key: admission times within the last minute, oldest first (a queue trimmed from the front) */
  const windows = new Map<string, RateWindow>();

  function day(d: string) {
    let v = days.get(d);
    if (!v) {
      v = { total: 0, sandbox: 0, keys: new Map(), orgs: new Map(), seen: new Set() };
      days.set(d, v);
      // keep today and yesterday only
      const keep = [...days.keys()].sort().slice(-2);
      for (const k of days.keys()) if (!keep.includes(k)) days.delete(k);
    }
    return v;
  }

  function add(v: DayView, r: Omit<UsageRecord, 'id' | 'day'> & { sandbox?: boolean }): void {
    v.total += r.units;
    if (r.sandbox) v.sandbox += r.units;
    v.orgs.set(r.orgId, (v.orgs.get(r.orgId) ?? 0) + r.units);
    let k = v.keys.get(r.keyId);
    if (!k) {
      k = { units: 0, requests: 0, byOperation: {} };
      v.keys.set(r.keyId, k);
    }
    k.units += r.units;
    k.requests += r.requests;
    k.byOperation[r.operation] = (k.byOperation[r.operation] ?? 0) + r.units;
  }

  function fold(r: UsageRecord & { sandbox?: boolean }): void {
    if (r.day < firstDay) return;
    const v = day(r.day);
    if (v.seen.has(r.id)) return;
    v.seen.add(r.id);
    add(v, r);
  }

  function windowOf(keyId: string, now: number): RateWindow {
    let w = windows.get(keyId);
    if (!w) {
      w = { slots: [], counts: [], head: 0, total: 0 };
      windows.set(keyId, w);
    }
    // a slot leaves the window once all of it is older than a minute (never admits early)
    const expired = Math.floor((now - 60_000) / WINDOW_SLOT_MS);
    while (w.head < w.slots.length && (w.slots[w.head] as number) < expired) {
      w.total -= w.counts[w.head] as number;
      w.head++;
    }
    if (w.head > 64 && w.head * 2 > w.slots.length) {
      w.slots = w.slots.slice(w.head);
      w.counts = w.counts.slice(w.head);
      w.head = 0;
    }
    return w;
  }

  function insertTime(w: RateWindow, t: number, n = 1): void {
    const slot = Math.floor(t / WINDOW_SLOT_MS);
    // other processes' records can arrive slightly out of order: keep the slots sorted
    let i = w.slots.length;
    while (i > w.head && (w.slots[i - 1] as number) > slot) i--;
    if (i > w.head && w.slots[i - 1] === slot) w.counts[i - 1] = (w.counts[i - 1] as number) + n;
    else {
      w.slots.splice(i, 0, slot);
      w.counts.splice(i, 0, n);
    }
    w.total += n;
  }

  await ensureTopic(log, UsageTopic);
  const partitions = await log.partitions(UsageTopic.name);

  // the view's starting point: today's totals in the store, then the sink's marks (see above)
  const today = utcDay(clock());
  const totals = await store.usage(today);
  const marks = new Map<number, number>();
  for (let p = 0; p < partitions; p++) {
    const mark = await readRow(store, UsageSinkMarkRow, p);
    if (mark) marks.set(p, mark.offset);
  }
  const fromStore = marks.size === partitions;
  if (fromStore) {
    const sandboxKeys = await sandboxKeysOf(store, totals);
    for (const t of totals) add(day(t.day), { ...t, sandbox: sandboxKeys.has(t.keyId) });
  }

  /**
   * One usage message per (day, key, operation) and flush interval, summing its calls: the topic
   * and the store grow with keys and flush intervals, not with requests (a message per call kept
   * every call in the in-process log and the embedded store, 700 bytes of heap each). A call adds
   * to its interval's open group; the writer takes the groups that are queued, and a group is
   * closed when its batch is first written, so a retried batch writes the same messages. The id
   * (the group's first request id and its call count) is then the same on a retry, so the store's
   * replay guard still holds.
   */
  interface Group {
    rec: UsageRecord;
    sandbox: boolean;
    /** the time of its last call */
    at: number;
  }
  /** per key, per operation: the group calls add to until it is written */
  const open = new Map<string, Map<string, Group>>();

  function messages(groups: Group[]): LogRecordIn[] {
    return groups.map((g) => {
      const { rec } = g;
      const ops = open.get(rec.keyId);
      if (ops?.get(rec.operation) === g) ops.delete(rec.operation);
      // `instance` last: this process recognises its own messages by their tail
      const msg: UsageMessage = { ...rec, id: `${rec.id}*${rec.requests}`, ...(g.sandbox ? { sandbox: true } : {}), instance };
      return { ...recordOf(UsageTopic, msg).record, timestamp: g.at };
    });
  }

  const writer = createBatchWriter<Group>({
    name: 'usage',
    maxItems: 5000,
    maxDelayMs: deps.flushMs ?? 100,
    write: (groups) => log.publish(UsageTopic.name, messages(groups)),
    onError: (err, info) => deps.onError?.(err, `usage publish (${info.items} messages, attempt ${info.attempt}${info.dropped ? ', dropped' : ''})`),
  });

  const consumers: Consumer[] = [];
  /** a usage record through the topic's codec; one that does not decode is skipped, and said (it bills nothing) */
  const decodeUsage = (value: string): UsageMessage | undefined => {
    const m = UsageTopic.codec.decode(value);
    if (!m) deps.onError?.(new Error(`a usage record does not decode, skipped: ${value.slice(0, 200)}`), 'usage record');
    return m;
  };
  // this process's view: every other process's record after the starting point
  consumers.push(
    await log.consume({
      groupId: `ephemeral-usage-view-${instance}`,
      topics: [UsageTopic.name],
      startOffset: (_topic, partition) => (fromStore ? (marks.get(partition) ?? 0) : 0),
      eachBatch: async (batch) => {
        const now = clock();
        for (const rec of batch.records) {
          // this process's own records were folded when billed: recognised without parsing
          if (rec.value.endsWith(ownTail)) continue;
          const m = decodeUsage(rec.value);
          if (!m || m.instance === instance) continue;
          fold(m);
          // other processes' admissions count against the same per-key minute (a message sums
          // the calls of one flush interval: they count at its last call)
          if (rec.timestamp > now - 60_000) {
            const w = windowOf(m.keyId, now);
            insertTime(w, rec.timestamp, m.requests);
          }
        }
      },
    }),
  );
  if (deps.runSink) {
    consumers.push(
      await log.consume({
        groupId: 'usage-sink',
        topics: [UsageTopic.name],
        fromBeginning: true,
        eachBatch: async (batch) => {
          await store.addUsage(
            batch.records.flatMap((r) => {
              const m = decodeUsage(r.value);
              if (!m) return [];
              const { instance: _instance, sandbox: _sandbox, ...rec } = m;
              return [rec];
            }),
          );
          // after the usage landed: starting views begin their tail here
          const last = batch.records[batch.records.length - 1];
          if (last) {
            const offset = last.offset + 1;
            await store.upsert(UsageSinkMarkRow.table, [rowOf(UsageSinkMarkRow, { offset }, offset, batch.partition)]);
          }
        },
      }),
    );
  }

  return {
    budgetUsed(now) {
      return days.get(utcDay(now))?.total ?? 0;
    },
    sandboxUsed(now) {
      return days.get(utcDay(now))?.sandbox ?? 0;
    },
    orgUnits(orgId, now) {
      return days.get(utcDay(now))?.orgs.get(orgId) ?? 0;
    },
    keyDay(keyId, now) {
      return days.get(utcDay(now))?.keys.get(keyId) ?? { units: 0, requests: 0, byOperation: {} };
    },
    minuteCount(keyId, now) {
      return windowOf(keyId, now).total;
    },
    minuteFreesIn(keyId, keep, now) {
      const w = windowOf(keyId, now);
      if (w.total <= keep) return 0;
      if (keep === 0) return slotLeavesIn(w, w.slots.length - 1, now);
      let left = w.total;
      for (let i = w.head; i < w.slots.length; i++) {
        left -= w.counts[i] as number;
        if (left <= keep) return slotLeavesIn(w, i, now);
      }
      return 0;
    },
    admit(keyId, now) {
      insertTime(windowOf(keyId, now), now);
    },
    bill(r, now) {
      const d = utcDay(now);
      // request ids are unique: this process's own calls skip the replay guard
      const sandbox = r.sandbox === true;
      add(day(d), { keyId: r.keyId, orgId: r.orgId, operation: r.operation, units: r.units, requests: 1, sandbox });
      let ops = open.get(r.keyId);
      if (!ops) open.set(r.keyId, (ops = new Map()));
      let g = ops.get(r.operation);
      if (!g || g.rec.day !== d) {
        g = { rec: { day: d, keyId: r.keyId, orgId: r.orgId, operation: r.operation, units: 0, requests: 0, id: r.requestId }, sandbox, at: now };
        ops.set(r.operation, g);
        writer.enqueue(g);
      }
      g.rec.units += r.units;
      g.rec.requests += 1;
      if (now > g.at) g.at = now;
    },
    rollOver(now) {
      const today = utcDay(now);
      if (today > firstDay) firstDay = today;
      const closed: { day: string; units: number; keys: number }[] = [];
      for (const [d, v] of days) {
        if (d >= today) continue;
        closed.push({ day: d, units: v.total, keys: v.keys.size });
        days.delete(d);
      }
      day(today);
      let idleKeys = 0;
      for (const keyId of [...windows.keys()]) {
        if (windowOf(keyId, now).total > 0) continue;
        windows.delete(keyId);
        idleKeys++;
      }
      for (const [keyId, ops] of open) if (ops.size === 0) open.delete(keyId);
      return { day: today, closed: closed.sort((a, b) => (a.day < b.day ? -1 : 1)), idleKeys };
    },
    flush: () => writer.flush(),
    async stop() {
      await writer.drain();
      for (const c of consumers) await c.stop();
    },
  };
}
