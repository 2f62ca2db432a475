import type { Codec } from './codec.ts';
import { jsonCodec } from './codec.ts';
import type { Log, LogRecordIn } from './log/types.ts';
import { Candle, TokenEvent, Topics, tokenKey } from '../schemas/events.ts';
import { VenueEvent, VenueTopics } from '../schemas/venues.ts';
import {
  FundingRecord,
  SnapshotMessage,
  TokenFactsRecord,
  UsageMessage,
  WalletGradeRecord,
  WalletMessage,
  fundingKey,
  tokenEventKey,
  venueEventKey,
  walletMessageKey,
} from '../schemas/topics.ts';

/**
 * One definition per topic: its name, whether it is compacted (and rebuildable from the store),
 * the key of a record and the codec of its value. Publishers build records with `recordsOf` and
 * readers decode with the definition's codec, so a topic's shape and key live in one place.
 */
export interface TopicDef<T> {
  name: string;
  compacted?: boolean;
  /** compacted and rebuilt by its readers from the store at start: the embedded log keeps it in memory */
  rebuildable?: boolean;
  key(value: T): string;
  codec: Codec<T>;
  /** the record's time (ms), when it is not the publish time */
  timestamp?(value: T): number;
}

export const TokenEventsTopic: TopicDef<TokenEvent> = {
  name: Topics.tokenEvents,
  key: tokenEventKey,
  codec: jsonCodec(TokenEvent),
  timestamp: (e) => e.timestamp * 1000,
};

export const CandlesTopic: TopicDef<Candle> = {
  name: Topics.candles,
  key: (c) => tokenKey(c.chain, c.token),
  codec: jsonCodec(Candle),
  timestamp: (c) => c.openTime * 1000,
};

export const TradesByWalletTopic: TopicDef<WalletMessage> = { name: Topics.tradesByWallet, key: walletMessageKey, codec: jsonCodec(WalletMessage) };

export const VenueFillsTopic: TopicDef<VenueEvent> = { name: VenueTopics.fills, key: venueEventKey, codec: jsonCodec(VenueEvent) };

export const WalletGradesTopic: TopicDef<WalletGradeRecord> = {
  name: Topics.walletGrades,
  compacted: true,
  key: (r) => tokenKey(r.chain, r.wallet),
  codec: jsonCodec(WalletGradeRecord),
};

export const TokenFactsTopic: TopicDef<TokenFactsRecord> = {
  name: Topics.tokenFacts,
  compacted: true,
  key: (r) => tokenKey(r.chain, r.token),
  codec: jsonCodec(TokenFactsRecord),
};

export const FundingTopic: TopicDef<FundingRecord> = { name: Topics.funding, compacted: true, key: fundingKey, codec: jsonCodec(FundingRecord) };

/** the usage topic: metered calls, keyed by the API key (api/metering.ts) */
export const UsageTopic: TopicDef<UsageMessage> = { name: Topics.usage, key: (m) => m.keyId, codec: jsonCodec(UsageMessage) };

/** the head of a snapshots-topic record as the engine writes it: `{"version":N,"body":<body text>}` */
const SNAPSHOT_RECORD_HEAD = /^\{"version":(-?\d+(?:\.\d+)?),"body":/;
const snapshotCodec = jsonCodec(SnapshotMessage);

/**
 * Version and body text of a snapshots-topic record without parsing the body; a record of another
 * layout is decoded through the codec (and its body serialized once). Undefined when it does not decode.
 */
export function splitSnapshotRecord(value: string): { version: number; text: string } | undefined {
  const m = SNAPSHOT_RECORD_HEAD.exec(value);
  if (m && value.endsWith('}')) return { version: Number(m[1]), text: value.slice(m[0].length, -1) };
  const msg = snapshotCodec.decode(value);
  return msg ? { version: msg.version, text: JSON.stringify(msg.body) } : undefined;
}

/**
 * The snapshots topic carries the body as the engine serialized it, once: the message is built
 * by splicing that text (no second serialization), and read back by slicing it (`split`); its
 * key is the snapshot's row key.
 */
export const SnapshotsTopic = {
  name: Topics.snapshots,
  compacted: true,
  rebuildable: true,
  record: (key: string, version: number, bodyText: string): LogRecordIn => ({ key, value: `{"version":${version},"body":${bodyText}}` }),
  split: splitSnapshotRecord,
  /** the version of a record in the engine's layout, read from its head alone (undefined otherwise) */
  versionOf: (value: string): number | undefined => {
    const m = SNAPSHOT_RECORD_HEAD.exec(value);
    return m ? Number(m[1]) : undefined;
  },
} as const;

export async function ensureTopic(log: Log, def: { name: string; compacted?: boolean; rebuildable?: boolean }): Promise<void> {
  await log.ensureTopic(def.name, { compacted: def.compacted ?? false, rebuildable: def.rebuildable ?? false });
}

/** records of values for a topic: keyed and encoded by its definition */
export function recordsOf<T>(def: TopicDef<T>, values: readonly T[]): LogRecordIn[] {
  return values.map((v) => {
    const r: LogRecordIn = { key: def.key(v), value: def.codec.encode(v) };
    if (def.timestamp) r.timestamp = def.timestamp(v);
    return r;
  });
}

export function recordOf<T>(def: TopicDef<T>, value: T): { topic: string; record: LogRecordIn } {
  return { topic: def.name, record: recordsOf(def, [value])[0] as LogRecordIn };
}

export async function publishTo<T>(log: Log, def: TopicDef<T>, values: readonly T[]): Promise<void> {
  if (values.length > 0) await log.publish(def.name, recordsOf(def, values));
}
