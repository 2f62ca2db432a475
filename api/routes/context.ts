import type { z } from 'zod';
import type { Config } from '../../infra/config.ts';
import type { Store } from '../../infra/store/types.ts';
import type { Writer } from '../../engine/writer/index.ts';
import type { TrackRecord, TrackRecordResponse } from '../../schemas/trackrecord.ts';
import type { KeyService } from '../../infra/keys.ts';
import type { Meter } from '../metering.ts';
import type { Resolver } from '../webhooks/destination.ts';
import type { Replica } from '../replica.ts';
import type { Page, SortKey } from '../../infra/page.ts';

/** What the routes need, passed in explicitly. */
export interface RouteDeps {
  replica: Replica;
  store: Store;
  writer: Writer;
  config: Config;
  meter: Meter;
  keys: KeyService;
  /** resolves webhook endpoints' names (api/webhooks/destination.ts); default the system's, tests give their own */
  webhookResolver?: Resolver;
}

/** Operations whose served value is recorded, and where the value is in their response. */
export const RecordedOperations: Record<string, { kind: 'token' | 'trader'; field: string }> = {
  tokenIntel: { kind: 'token', field: 'verdict' },
  tokenSignal: { kind: 'token', field: 'signal' },
  traderScore: { kind: 'trader', field: 'grade' },
  copyDecision: { kind: 'trader', field: 'verdict' },
};

/**
 * The track records the routes feed and report. The API sees only this interface; the
 * service that stores and scores them (runtime/trackrecord.ts) is built and injected at boot.
 */
export interface TrackRecords {
  /**
   * record the value an operation served (ignores operations that are not recorded); never waits
   * on I/O and never throws: the record is written in the background, within a flush interval
   */
  record(operation: string, response: unknown): void;
  /**
   * score every record with a horizon due; returns how many horizons were resolved (idempotent:
   * the scheduled job runs it every minute in one process, and a rare second run rewrites the same rows)
   */
  runScoring(): Promise<{ records: number; resolved: number }>;
  /** records of some operations on a chain */
  list(chain: string, operations: string[]): Promise<TrackRecord[]>;
  /**
   * hit rates of some operations on a chain, and a keyset page of the scored examples, the most
   * recent first (`next`: the key to continue after, null on the last page)
   */
  report(chain: string, operations: string[], page: Page): Promise<Pick<z.infer<typeof TrackRecordResponse>, 'records' | 'groups' | 'overall' | 'recent'> & { next: SortKey | null }>;
  /** write every record still queued */
  stop(): Promise<void>;
}
