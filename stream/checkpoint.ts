import type { Checkpoint } from '../infra/rows.ts';
import { CheckpointRow } from '../infra/rows.ts';
import type { Row } from '../infra/store/types.ts';

/**
 * Replaying one record after a restart costs about what serializing and writing this many bytes
 * of checkpoint does (a fold takes microseconds, a checkpoint nanoseconds a byte): a partition is
 * checkpointed once the records folded since its last checkpoint would cost more to replay than a
 * checkpoint costs to write. Live, with a few records a block and megabytes of state, that is
 * every several minutes rather than every block; under a backfill it is every `checkpointMs`.
 * Either way a restart replays no more than a checkpoint's worth of work. A checkpoint is also due
 * once the records folded since the last one take more bytes than it does: it lets the log drop
 * them, so the disk holds no more than about a checkpoint's size of log per partition (a
 * backfill's tail was otherwise kept up to `checkpointMaxMs` after it ended).
 */
const REPLAY_BYTES_PER_RECORD = 200;

/** the records since the last checkpoint cost more to replay, or take more disk, than a new one */
export const sizeDue = (p: { since: number; sinceBytes: number; bytes: number }): boolean =>
  p.since * REPLAY_BYTES_PER_RECORD >= p.bytes || p.sinceBytes >= p.bytes;

/**
 * what a checkpoint says of its keys' derivations (FoldSpec.reads), as the text it writes: the
 * code, the tables' watermark and the keys of the partition waiting for a re-derivation, taken
 * together (a table change below the watermark was handed to rederive, so its readers were
 * flushed before, since checkpoints run in the worker's serial queue as flushes do, or are
 * waiting for a re-derivation)
 */
export const basisText = (deriveId: string | undefined, watermark: Record<string, number> | undefined, waiting: string[] | undefined): string =>
  `"deriveId":${JSON.stringify(deriveId)},"watermark":${JSON.stringify(watermark)},"dirty":${JSON.stringify(waiting ?? [])},`;

/** a checkpoint row's text: the envelope around the keys' entries, each serialized once (see KeyTable.entries) */
export const checkpointBody = (offset: number, stateVersion: number, basis: string, entries: string[]): string =>
  `{"offset":${offset},"stateVersion":${stateVersion},${basis}"keys":[${entries.join(',')}]}`;

/**
 * The checkpoint a partition starts from: the stored one when it decodes and has this state
 * version, else an empty one at offset 0 (the partition is then rebuilt from what the log still
 * holds, and `onError` says why, never passing over it). `restored` tells which.
 */
export function checkpointToRestore<S>(
  row: Row | undefined,
  name: string,
  stateVersion: number,
  onError?: (err: unknown) => void,
): { ck: Checkpoint<S>; restored: boolean } {
  // the states are the fold's own plain JSON, versioned by stateVersion (CheckpointRow)
  const stored = row ? (CheckpointRow.codec.decode(row.body) as Checkpoint<S> | undefined) : undefined;
  if (row && !stored) onError?.(new Error(`checkpoint of ${name} does not decode: rebuilding from the log`));
  if (stored && stored.stateVersion === stateVersion) return { ck: stored, restored: true };
  if (stored) onError?.(new Error(`checkpoint of ${name} has state version ${stored.stateVersion}, not ${stateVersion}: rebuilding from the log`));
  return { ck: { offset: 0, stateVersion, keys: [] }, restored: false };
}
