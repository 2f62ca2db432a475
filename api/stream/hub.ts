import { randomUUID } from 'node:crypto';
import type { SnapshotEntry } from '../replica.ts';
import type { StreamTokenFields } from '../../schemas/stream.ts';

/** one event as the hub keeps it: its sequence number, its topic and the message text sent as is */
export interface HubEvent {
  seq: number;
  topic: string;
  text: string;
}

export type Replay = { events: HubEvent[] } | { gap: string };

export interface StreamHub {
  /** this stream's id: sequence numbers are this process's, resumable only here */
  readonly id: string;
  readonly retention: number;
  /** the latest sequence number (0: none yet) */
  head(): number;
  /** derive and keep the events of a snapshot change (the replica's onChange) */
  ingest(key: string, previous: SnapshotEntry | undefined, next: SnapshotEntry): void;
  /** the kept events after `since` whose topic `wanted`, oldest first; a gap when some after it are no longer kept */
  replay(since: number, wanted: (topic: string) => boolean): Replay;
  /** every new event, as it is kept; returns the unsubscribe */
  listen(fn: (e: HubEvent) => void): () => void;
}

type TokenBody = { chain: string; token: string; symbol: string | null; version: number; asOf: string; verdict: string; signal: { value: string; conviction: number }; pillarsLit: number; smartBuyers: number };
type WalletBody = { chain: string; wallet: string; version: number; asOf: string; grade: string };

const TOKEN_METRICS = ['verdict', 'signal', 'conviction', 'pillarsLit', 'smartBuyers'] as const;
const BOARD_METRICS = new Set<string>(['conviction', 'pillarsLit']);

function tokenFields(b: TokenBody): StreamTokenFields {
  return { verdict: b.verdict, signal: b.signal.value, conviction: b.signal.conviction, pillarsLit: b.pillarsLit, smartBuyers: b.smartBuyers };
}

/**
 * The live stream's events, derived from the snapshots the replica applies (so it follows the
 * engine the same way on the embedded log and on Kafka): a token's derived fields changing, its
 * conviction or lit pillars changing (the board), a wallet's grade changing. Each event gets the
 * next sequence number of this process's stream; the last `retention` are kept for clients that
 * resume. The hub keeps, per snapshot key, only the few fields it compares, not the bodies.
 */
export function createStreamHub(opts: { retention: number; onError?: (err: unknown) => void }): StreamHub {
  const id = randomUUID();
  const ring: HubEvent[] = [];
  /** index in `ring` of the oldest kept event (the ring is full once it holds `retention`) */
  let start = 0;
  let seq = 0;
  const listeners = new Set<(e: HubEvent) => void>();
  /** per snapshot key, the compared fields as of the last snapshot seen */
  const lastToken = new Map<string, StreamTokenFields>();
  const lastGrade = new Map<string, string>();

  function keep(topic: string, message: Record<string, unknown>): void {
    const e: HubEvent = { seq: ++seq, topic, text: JSON.stringify({ type: 'event', seq, topic, ...message }) };
    if (ring.length < opts.retention) ring.push(e);
    else {
      ring[start] = e;
      start = (start + 1) % opts.retention;
    }
    for (const fn of listeners) fn(e);
  }

  function onToken(key: string, previous: SnapshotEntry | undefined, next: SnapshotEntry): void {
    const b = JSON.parse(next.text) as TokenBody;
    const now = tokenFields(b);
    let before = lastToken.get(key);
    if (!before && previous) before = tokenFields(JSON.parse(previous.text) as TokenBody);
    lastToken.set(key, now);
    const changes = TOKEN_METRICS.filter((m) => before?.[m] !== now[m]).map((m) => ({ metric: m, from: before?.[m] ?? null, to: now[m] }));
    if (changes.length === 0) return;
    const head = { chain: b.chain, version: next.version, asOf: b.asOf, token: b.token, symbol: b.symbol };
    keep(`token:${b.chain}:${b.token}`, { event: 'token.changed', ...head, changes, current: now });
    if (changes.some((c) => BOARD_METRICS.has(c.metric))) {
      keep(`board:${b.chain}`, { event: 'board.changed', ...head, conviction: now.conviction, pillarsLit: now.pillarsLit, signal: now.signal, verdict: now.verdict });
    }
  }

  function onWallet(key: string, previous: SnapshotEntry | undefined, next: SnapshotEntry): void {
    const b = JSON.parse(next.text) as WalletBody;
    let before = lastGrade.get(key);
    if (before === undefined && previous) before = (JSON.parse(previous.text) as WalletBody).grade;
    lastGrade.set(key, b.grade);
    if (before === b.grade) return;
    keep(`wallet:${b.chain}:${b.wallet}`, { event: 'wallet.grade', chain: b.chain, version: next.version, asOf: b.asOf, wallet: b.wallet, from: before ?? null, to: b.grade });
  }

  return {
    id,
    retention: opts.retention,
    head: () => seq,
    ingest(key, previous, next) {
      try {
        if (key.startsWith('token:')) onToken(key, previous, next);
        else if (key.startsWith('wallet:')) onWallet(key, previous, next);
      } catch (err) {
        // a body of another layout: no event, and the replica goes on applying snapshots
        opts.onError?.(err);
      }
    },
    replay(since, wanted) {
      const oldest = ring.length === 0 ? seq + 1 : (ring[start] as HubEvent).seq;
      if (since < oldest - 1) {
        return { gap: `events after ${since} are no longer kept (this stream keeps the last ${opts.retention}, from ${oldest}); read the snapshots again and subscribe without since` };
      }
      const events: HubEvent[] = [];
      for (let i = 0; i < ring.length; i++) {
        const e = ring[(start + i) % ring.length] as HubEvent;
        if (e.seq > since && wanted(e.topic)) events.push(e);
      }
      return { events };
    },
    listen(fn) {
      listeners.add(fn);
      return () => void listeners.delete(fn);
    },
  };
}
