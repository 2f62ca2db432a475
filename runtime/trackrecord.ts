import { createBatchWriter } from '../infra/batch.ts';
import { SLICE_MS, slicer } from '../infra/pause.ts';
import type { Slicer } from '../infra/pause.ts';
import { pagesOf } from '../infra/store/pages.ts';
import type { Row, Store } from '../infra/store/types.ts';
import { Tables } from '../infra/store/types.ts';
import type { TokenPriceView } from '../engine/trackrecord/score.ts';
import { pendingHorizons, resolvedCount, scoredExamples, summarize } from '../engine/trackrecord/score.ts';
import type { Claim, WalletBasisSnapshot } from '../engine/trackrecord/record.ts';
import { dueHorizons, recordOfClaim, scoreHorizons, tokenView } from '../engine/trackrecord/record.ts';
import { keysetPage } from '../infra/page.ts';
import { tokenKey } from '../schemas/events.ts';
import { snapshotKey } from '../schemas/topics.ts';
import { Horizons } from '../schemas/trackrecord.ts';
import type { TrackRecord } from '../schemas/trackrecord.ts';
import { z } from 'zod';
import { jsonCodec } from '../infra/codec.ts';
import type { Codec } from '../infra/codec.ts';
import { TrackRecordRow, decodeRowOrThrow, rowOf } from '../infra/rows.ts';
import type { Replica } from '../api/replica.ts';
import { RecordedOperations } from '../api/routes/context.ts';
import type { TrackRecords } from '../api/routes/context.ts';

/**
 * Track records (the implementation of the API's `TrackRecords`, injected by runtime/api.ts):
 * the routes call `record` after serving a verdict or signal; the record is
 * appended to the `track_records` table once per (operation, chain, subject, hour of the
 * snapshot), with the reference (the token's price, or the wallet's realised sums) at the
 * snapshot time. Recording never delays the answer: it goes through a batching writer (a clean
 * shutdown drains it; a crash loses at most the records of the last flush interval, which the
 * next serve of the subject in that hour records again). `runScoring` (the `track-record-scoring` job of runtime/jobs.ts, every minute in one process, or called directly) scores the records due
 * at +1h, +24h and +7d from the store's snapshots; `report` summarises them.
 */

/** what the scoring reads of a token's snapshot (its latest row), and nothing more: the rest may change shape */
const TokenPriceOf = jsonCodec(
  z.looseObject({
    token: z.string(),
    asOfTs: z.number(),
    createdAt: z.string().nullable().optional(),
    basis: z.looseObject({
      priceUsd: z.number().nullable(),
      liquidityUsd: z.number().nullable().optional(),
      hourly: z.array(z.looseObject({ t: z.number(), c: z.number() })),
    }),
  }),
);
/** what it reads of a trader's wallet snapshot, the latest or a past one (a history row keeps no more) */
const WalletBasisOf = jsonCodec(z.looseObject({ asOf: z.string(), basis: z.looseObject({ realisedUsd: z.number(), costSoldUsd: z.number(), closed: z.number() }).optional() }));
/** the snapshot a record's subject is read from: a token's, or a trader's wallet snapshot */
function subjectSnapshot(kind: TrackRecord['kind'], chain: string, subject: string): string {
  return snapshotKey(kind === 'token' ? 'token' : 'wallet', tokenKey(chain, subject));
}

/** rows the scoring reads of a table at a time (infra/store/pages.ts) */
const SCORING_PAGE_ROWS = 500;

export function createTrackRecords(deps: { store: Store; replica?: Replica; onError?: (err: unknown) => void; flushMs?: number; scoringPageRows?: number }): TrackRecords {
  const { store, replica } = deps;
  let running: Promise<{ records: number; resolved: number }> | null = null;

  /**
   * Keys recorded (or being recorded) by this process, with their snapshot hour: the read path
   * decides "already recorded" here, never by a store read per request. A key this process has
   * not seen is looked up in the store once, in the background (another process or an earlier
   * run may have recorded it), and written through the batching writer when it is new.
   */
  const known = new Map<string, number>();
  let newestHour = 0;
  const writer = createBatchWriter<Row>({
    name: 'track-records',
    maxItems: 500,
    maxDelayMs: deps.flushMs ?? 100,
    write: (rows) => store.upsert(Tables.trackRecords, rows),
    onError: (err) => deps.onError?.(err),
  });

  /** true when the record is new to this process (then it is looked up and written) */
  function remember(rec: TrackRecord): boolean {
    const { key } = rec;
    const hour = Math.floor(rec.refTs / 3600);
    if (known.has(key)) return false;
    if (hour > newestHour) newestHour = hour;
    // bounded: keys of hours long past are dropped (a stale subject is then looked up again)
    if (known.size >= 200_000) for (const [k, h] of known) if (h < newestHour - 2) known.delete(k);
    known.set(key, hour);
    return true;
  }

  /** a row through `codec`; one that does not decode (another writer's, a damaged one) is left out, and said */
  function decodeOrSay<T>(codec: Codec<T>, row: Row): T | undefined {
    const value = codec.decode(row.body);
    if (value === undefined) deps.onError?.(new Error(`track records: the row ${row.key} does not decode, left out`));
    return value;
  }

  async function writeIfNew(rec: TrackRecord): Promise<void> {
    try {
      if (await store.get(Tables.trackRecords, rec.key)) return;
      writer.enqueue(rowOf(TrackRecordRow, rec, resolvedCount(rec), rec.key));
    } catch (err) {
      known.delete(rec.key); // looked up again on the next serve
      deps.onError?.(err);
    }
  }

  function claimOf(operation: string, response: unknown): Claim | undefined {
    const spec = RecordedOperations[operation];
    if (!spec || typeof response !== 'object' || response === null) return undefined;
    const res = response as Record<string, unknown>;
    const chain = res.chain;
    const subject = spec.kind === 'token' ? res.token : res.wallet;
    const value = res[spec.field];
    if (typeof chain !== 'string' || typeof subject !== 'string' || typeof value !== 'string') return undefined;
    return { operation, kind: spec.kind, chain, subject, value, snapshotKey: subjectSnapshot(spec.kind, chain, subject) };
  }

  /** store lookups of keys new to this process, awaited on stop so none is cut off */
  const lookups = new Set<Promise<void>>();
  function track(p: Promise<void>): void {
    lookups.add(p);
    void p.finally(() => lookups.delete(p));
  }

  /** a job over the store (no replica): the snapshot the claim names is read from the store */
  async function recordFromStore(c: Claim): Promise<void> {
    const row = await store.get(Tables.snapshots, c.snapshotKey);
    if (!row) return;
    const rec = recordOfClaim(c, JSON.parse(row.body));
    if (remember(rec)) await writeIfNew(rec);
  }

  /** never waits and never throws: what it writes lands within a flush interval */
  function record(operation: string, response: unknown): void {
    try {
      const c = claimOf(operation, response);
      if (!c) return;
      if (!replica) {
        track(recordFromStore(c).catch((err: unknown) => deps.onError?.(err)));
        return;
      }
      const snapshot = replica.get(c.snapshotKey);
      if (snapshot === undefined) return;
      const rec = recordOfClaim(c, snapshot);
      if (remember(rec)) track(writeIfNew(rec));
    } catch (err) {
      deps.onError?.(err);
    }
  }

  const pageSize = deps.scoringPageRows ?? SCORING_PAGE_ROWS;

  /**
   * The records with a horizon still pending, read a page at a time and parsed in slices. A row's
   * version is its resolved horizons (writeIfNew, scoreOnce): a record with all of them resolved
   * is never scored again, so it is not even parsed. The table grows by a record per served
   * subject and hour; read whole and parsed at once, as before, it held the API thread for as
   * long as that took, once a minute.
   */
  async function pendingRecords(slice: Slicer): Promise<TrackRecord[]> {
    const out: TrackRecord[] = [];
    for await (const rows of pagesOf(store, Tables.trackRecords, { pageSize })) {
      for (const row of rows) {
        if (row.version >= Horizons.length) continue;
        if (slice.due()) await slice.next();
        // a damaged record fails the run, loudly (the job's outcome on /metrics), rather than stay unscored unseen
        const rec = decodeRowOrThrow(TrackRecordRow.codec, TrackRecordRow.table, row);
        if (pendingHorizons(rec).length > 0) out.push(rec);
      }
    }
    return out;
  }

  /** a trader's wallet snapshots, the latest and the past ones the history keeps */
  async function walletStatesOf(rec: TrackRecord): Promise<WalletBasisSnapshot[]> {
    const key = subjectSnapshot(rec.kind, rec.chain, rec.subject);
    const latest = await store.get(Tables.snapshots, key);
    const hist = await store.history(Tables.snapshotHistory, key, { limit: 1000 });
    return [...(latest ? [latest] : []), ...hist].flatMap((r) => decodeOrSay(WalletBasisOf, r) ?? []);
  }

  async function scoreOnce(): Promise<{ records: number; resolved: number }> {
    await Promise.all([...lookups]);
    await writer.flush();
    // a chain's token snapshots are megabytes of JSON, the records grow with what is served:
    // both read a page at a time and parsed and scored in slices, so that the API this process
    // serves never waits behind the minute's scoring
    const slice = slicer(SLICE_MS);
    const records = await pendingRecords(slice);
    const chains = new Map<string, { views: Map<string, TokenPriceView>; all: TokenPriceView[]; nowTs: number }>();
    async function chainOf(chain: string) {
      let c = chains.get(chain);
      if (!c) {
        const views = new Map<string, TokenPriceView>();
        let nowTs = 0;
        for await (const rows of pagesOf(store, Tables.snapshots, { prefix: `token:${chain}:`, pageSize })) {
          for (const row of rows) {
            if (slice.due()) await slice.next();
            const s = decodeOrSay(TokenPriceOf, row);
            if (!s) continue;
            views.set(s.token, tokenView(s));
            if (s.asOfTs > nowTs) nowTs = s.asOfTs;
          }
        }
        c = { views, all: [...views.values()], nowTs };
        chains.set(chain, c);
      }
      return c;
    }
    let resolved = 0;
    const rows = [];
    for (const rec of records) {
      if (slice.due()) await slice.next();
      const c = await chainOf(rec.chain);
      const before = resolvedCount(rec);
      const due = dueHorizons(rec, c.nowTs);
      if (due.length === 0) continue;
      scoreHorizons(rec, due, c, rec.kind === 'trader' ? await walletStatesOf(rec) : []);
      const after = resolvedCount(rec);
      if (after > before) {
        resolved += after - before;
        rows.push(rowOf(TrackRecordRow, rec, after, rec.key));
      }
    }
    if (rows.length > 0) await store.upsert(Tables.trackRecords, rows);
    return { records: records.length, resolved };
  }

  async function list(chain: string, operations: string[]): Promise<TrackRecord[]> {
    await Promise.all([...lookups]);
    await writer.flush();
    const out: TrackRecord[] = [];
    for (const op of operations) {
      for (const row of await store.list(Tables.trackRecords, { prefix: `${op}:${chain}:` })) {
        const rec = decodeOrSay(TrackRecordRow.codec, row);
        if (rec) out.push(rec);
      }
    }
    return out;
  }

  function runScoring() {
    // one run at a time: the cron tick and a direct call share it
    running ??= scoreOnce().finally(() => {
      running = null;
    });
    return running;
  }

  return {
    record,
    runScoring,
    list,
    async report(chain, operations, page) {
      const recs = await list(chain, operations);
      const recent = keysetPage(scoredExamples(recs), (x) => x.sortKey, page);
      return { records: recs.length, ...summarize(recs, { examples: 0 }), recent: recent.items.map((x) => x.example), next: recent.next };
    },
    async stop() {
      await Promise.all([...lookups]);
      await writer.drain();
    },
  };
}
