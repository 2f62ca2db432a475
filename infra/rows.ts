import { z } from 'zod';
import type { Codec } from './codec.ts';
import { jsonCodec } from './codec.ts';
import type { Row, Store, TableName } from './store/types.ts';
import { Tables } from './store/types.ts';
import { TrackRecord } from '../schemas/trackrecord.ts';

/**
 * One definition per kind of store row: its table, how its key is built and the codec of its
 * body, so rows are written and read back through one place (decoded by zod, not trusted).
 */
export interface RowDef<T, K extends unknown[]> {
  table: TableName;
  key(...parts: K): string;
  codec: Codec<T>;
}

export async function readRow<T, K extends unknown[]>(store: Store, def: RowDef<T, K>, ...parts: K): Promise<T | undefined> {
  const row = await store.get(def.table, def.key(...parts));
  return row ? def.codec.decode(row.body) : undefined;
}

/**
 * A time in a key that sorts newest first (the store lists by key, so a limited list takes the
 * newest): 13 digits of ms counted down from the largest 13-digit value.
 */
export function newestFirstMs(atMs: number): string {
  return String(9_999_999_999_999 - atMs).padStart(13, '0');
}

export function rowOf<T, K extends unknown[]>(def: RowDef<T, K>, value: T, version: number, ...parts: K): Row {
  return { key: def.key(...parts), version, body: def.codec.encode(value) };
}

/** the offset below which a worker's fan-out of a partition was published (cursors table) */
export const FanOutCursorRow: RowDef<{ next: number }, [group: string, topic: string, partition: number]> = {
  table: Tables.cursors,
  key: (group, topic, partition) => `fanout:${group}:${topic}:${partition}`,
  codec: jsonCodec(z.object({ next: z.number().int().nonnegative() })),
};

/** where a worker's checkpoint of a partition starts reading (cursors table, written after the checkpoint) */
export const CheckpointOffsetRow: RowDef<
  { topic: string; partition: number; offset: number; stateVersion?: number },
  [group: string, topic: string, partition: number]
> & { groupPrefix(group: string): string } = {
  table: Tables.cursors,
  groupPrefix: (group) => `checkpoint:${group}:`,
  key: (group, topic, partition) => `checkpoint:${group}:${topic}:${partition}`,
  codec: jsonCodec(z.object({ topic: z.string(), partition: z.number().int(), offset: z.number().int().nonnegative(), stateVersion: z.number().int().optional() })),
};

/**
 * A worker's checkpoint of a partition (checkpoints table): its keys' states and the offset they
 * cover. The states are the engine's own plain-JSON state (their shape is versioned by
 * `stateVersion` and round-trip tested in the engine), so the envelope is validated here and each
 * state is handed to the worker as its fold wrote it.
 */
export interface Checkpoint<S = unknown> {
  /** the offset of the first record not folded in */
  offset: number;
  stateVersion: number;
  /** the identity of the derivation's code that wrote it (FoldSpec.reads.deriveId) */
  deriveId?: string;
  /** how far the joined tables' changes had been handed to the worker, per `topic:partition` (next offset) */
  watermark?: Record<string, number>;
  /** keys waiting for a re-derivation when it was written */
  dirty?: string[];
  /** per key; `reads`: what it read of the joined tables at its last derivation, when the spec keeps that */
  keys: { key: string; state: S; version: number; bucket?: number; reads?: unknown }[];
}

export const CheckpointRow: RowDef<Checkpoint, [group: string, topic: string, partition: number]> = {
  table: Tables.checkpoints,
  key: (group, topic, partition) => `${group}:${topic}:${partition}`,
  codec: jsonCodec(
    z.object({
      offset: z.number().int().nonnegative(),
      stateVersion: z.number().int(),
      deriveId: z.string().optional(),
      watermark: z.record(z.string(), z.number().int().nonnegative()).optional(),
      dirty: z.array(z.string()).optional(),
      // an entry without a state (written for a key whose records the fold ignored, before that
      // was mended) carries nothing to restore: dropped, not a reason to refuse the checkpoint
      keys: z
        .array(z.object({ key: z.string(), state: z.unknown().optional(), version: z.number().optional(), bucket: z.number().optional(), reads: z.unknown().optional() }))
        .transform((keys) => keys.filter((k): k is Checkpoint['keys'][number] => k.state !== undefined && k.version !== undefined)),
    }),
  ),
};

/** how far an ingest source has published (cursors table; the block and its time) */
export const IngestCursorRow: RowDef<{ chain: string; block: number; timestamp: number }, [chain: string, source: string]> = {
  table: Tables.cursors,
  key: (chain, source) => `ingest:${source}:${chain}`,
  codec: jsonCodec(z.object({ chain: z.string(), block: z.number().int(), timestamp: z.number() })),
};

/** the offset below which the usage sink landed a partition of the usage topic in the store (cursors table) */
export const UsageSinkMarkRow: RowDef<{ offset: number }, [partition: number]> = {
  table: Tables.cursors,
  key: (partition) => `usage-sink:${partition}`,
  codec: jsonCodec(z.object({ offset: z.number().int().nonnegative() })),
};

/** a served claim and its scores at the horizons (track_records table), by the record's own key */
export const TrackRecordRow: RowDef<TrackRecord, [key: string]> = {
  table: Tables.trackRecords,
  key: (key) => key,
  codec: jsonCodec(TrackRecord),
};

/** the built-in chain simulator's genesis, fixed at a data dir's first start (meta table) */
export const SimGenesisRow: RowDef<{ seed: number; genesisTime: number; spanDays: number }, []> = {
  table: Tables.meta,
  key: () => 'sim-genesis',
  codec: jsonCodec(z.object({ seed: z.number().int(), genesisTime: z.number(), spanDays: z.number() })),
};

/** the built-in venue simulator's genesis (meta table) */
export const VenueSimGenesisRow: RowDef<{ seed: number; genesisTime: number }, []> = {
  table: Tables.meta,
  key: () => 'venue-sim-genesis',
  codec: jsonCodec(z.object({ seed: z.number().int(), genesisTime: z.number() })),
};

/** the organisation a data dir made for itself (meta table): its sandbox organisation, or the operator's live one */
export const OrgMarkerRow: RowDef<{ orgId: string }, [marker: 'sandbox-org' | 'operator-org']> = {
  table: Tables.meta,
  key: (marker) => marker,
  codec: jsonCodec(z.object({ orgId: z.string() })),
};

/** how far a venue source published (cursors table): the newest event's time (ms) and the events so far */
export const VenueCursorRow: RowDef<{ time: number; events?: number }, [source: string]> = {
  table: Tables.cursors,
  key: (source) => `ingest:venue:${source}`,
  codec: jsonCodec(z.object({ time: z.number(), events: z.number().optional() })),
};

/**
 * A row of `def` that must decode when it is there: undefined when absent, the value when it
 * decodes, else an error naming the row (a data dir's own rows are never passed over silently)
 */
export async function readRowOrThrow<T, K extends unknown[]>(store: Store, def: RowDef<T, K>, ...parts: K): Promise<T | undefined> {
  const row = await store.get(def.table, def.key(...parts));
  return row ? decodeRowOrThrow(def.codec, def.table, row) : undefined;
}

/** a row of `table` through `codec`, or an error naming it and its start (`hint`: what to do about it) */
export function decodeRowOrThrow<T>(codec: Codec<T>, table: TableName, row: Row, hint = ''): T {
  const value = codec.decode(row.body);
  if (value === undefined) throw new Error(`the ${table} row ${row.key} does not decode (${row.body.slice(0, 200)})${hint}`);
  return value;
}
