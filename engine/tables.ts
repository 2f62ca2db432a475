import type { Candle } from '../schemas/events.ts';
import type { Verdict } from '../schemas/common.ts';
import type { TokenFinal, TokenLookup } from '../schemas/token.ts';
import type { FundingRecord, TokenFactsRecord, WalletGradeRecord } from '../schemas/topics.ts';
import { FUNDING_HOPS } from '../schemas/topics.ts';

/**
 * Tables the engine's derivations join with, built from compacted topics and passed to the
 * workers explicitly (never process-global): each engine instance folds its own copy.
 *
 * The wallet-grades table holds each wallet's latest grade (a table join, as a Kafka Streams
 * KTable): a token snapshot reads its buyers' grades from it, and a grade change re-derives the
 * tokens the wallet recently bought. Once the log is folded, every token snapshot equals the one
 * derived from the final grades, whatever the batches, the partitions' interleaving or the
 * number of engine processes. (A join as of event time would need watermarks across the token
 * partitions that feed the wallet stream; see engine/README.md.)
 */

export interface GradeTable {
  /** fold a record of the wallet-grades topic; true when the wallet's grade changed */
  apply(r: WalletGradeRecord): boolean;
  /** the wallet's latest grade, undefined before the wallet was first graded */
  gradeOf(chain: string, wallet: string): Verdict | undefined;
}

export function createGradeTable(): GradeTable {
  const rows = new Map<string, Verdict>();
  return {
    apply(r) {
      const key = `${r.chain}:${r.wallet}`;
      if (rows.get(key) === r.grade) return false;
      rows.set(key, r.grade);
      return true;
    },
    gradeOf: (chain, wallet) => rows.get(`${chain}:${wallet}`),
  };
}

/**
 * The token-facts table: each token's final bands and flags (TokenFinal), which a wallet's open
 * book joins with (portfolio risk, positions that cannot be sold, the copy portfolio gate). Same
 * join as the grades: latest value, and a change re-derives the wallets holding the token.
 */
export interface TokenFactsTable {
  /** fold a record of the token-facts topic; true when the token's facts changed */
  apply(r: TokenFactsRecord): boolean;
  lookup(chain: string): TokenLookup;
}

export function createTokenFactsTable(): TokenFactsTable {
  const rows = new Map<string, { body: string; facts: TokenFinal }>();
  return {
    apply(r) {
      const { chain, token, ...facts } = r;
      const key = `${chain}:${token}`;
      const body = JSON.stringify(facts);
      if (rows.get(key)?.body === body) return false;
      rows.set(key, { body, facts });
      return true;
    },
    lookup: (chain) => (token) => rows.get(`${chain}:${token}`)?.facts,
  };
}

/**
 * Which keys of a worker read which rows of a table (a token's recent buyers, a wallet's open
 * book), so that a changed row re-derives exactly its readers.
 */
export interface JoinIndex {
  /** the rows `key` read at its last derivation */
  set(key: string, rows: Iterable<string>): void;
  /** the rows `key` read at its last derivation, undefined before it was first set */
  rowsOf(key: string): string[] | undefined;
  readersOf(row: string): Iterable<string>;
}

export function createJoinIndex(): JoinIndex {
  const rowsOf = new Map<string, Set<string>>();
  const readers = new Map<string, Set<string>>();
  return {
    set(key, rows) {
      const next = new Set(rows);
      for (const r of rowsOf.get(key) ?? []) if (!next.has(r)) readers.get(r)?.delete(key);
      for (const r of next) {
        let set = readers.get(r);
        if (!set) readers.set(r, (set = new Set()));
        set.add(key);
      }
      rowsOf.set(key, next);
    },
    rowsOf: (key) => {
      const rows = rowsOf.get(key);
      return rows ? [...rows] : undefined;
    },
    readersOf: (row) => readers.get(row) ?? [],
  };
}

/**
 * When each row of the joined tables last changed, as the position of the record that changed it
 * (`topic:partition` and offset), and how far each table partition's changes have been handed to
 * the workers that read them: a checkpoint keeps the latter (its watermark), and a restored key is
 * derived again only when a row it read changed at or after it. A compacted topic keeps a row's
 * last record, at or after the change it carries, so a restart over a compacted table errs
 * towards deriving again, never towards keeping a stale snapshot.
 */
export interface ChangeClock {
  /** `row` (namespaced by its table) changed with the record at `offset` of `tp` */
  changed(row: string, tp: string, offset: number): void;
  /** the changes of `tp` below `next` have been handed to their readers */
  handed(tp: string, next: number): void;
  watermark(): Record<string, number>;
  /** the row changed at or after the watermark (a partition the watermark does not name: from its start) */
  changedSince(row: string, watermark: Record<string, number>): boolean;
}

export function createChangeClock(): ChangeClock {
  const at = new Map<string, { tp: string; offset: number }>();
  const next: Record<string, number> = {};
  return {
    changed: (row, tp, offset) => void at.set(row, { tp, offset }),
    handed: (tp, n) => void (next[tp] = Math.max(next[tp] ?? 0, n)),
    watermark: () => ({ ...next }),
    changedSince(row, watermark) {
      const c = at.get(row);
      return c !== undefined && c.offset >= (watermark[c.tp] ?? 0);
    },
  };
}

/** wallets a funder first funded that a token's insiders list keeps (the earliest ones) */
const FUNDED_CAP = 500;


/**
 * Below the first hop, a wallet that first funded more than this many is a hub (an exchange, a
 * faucet, a router) whose wallets are not one actor's: it is kept, its wallets are not followed.
 */
export const FUNDING_HUB_FANOUT = 100;

/**
 * The funding table: who first funded each wallet with a quote asset (native-wrapped or a
 * stablecoin), so a token's insiders (wallets first funded by its deployer) and a wallet's funder
 * are read the same way by every engine process. The quote asset's token worker publishes a
 * record the first time it sees a transfer to a wallet (keyed `chain:wallet:asset`, so a compacted
 * topic keeps exactly that first record); a wallet funded by several assets keeps the earliest
 * (by chain position), whatever order the records arrive in.
 */
export interface FundingTable {
  /** fold a record; returns the funders whose funded wallets changed (empty when nothing did) */
  apply(r: FundingRecord): string[];
  funderOf(chain: string, wallet: string): string | null;
  /** wallets first funded by `funder`, earliest first, at most FUNDED_CAP */
  fundedBy(chain: string, funder: string | null): string[];
  /**
   * wallets funded by `root` within `hops` (1: fundedBy), nearest hop first and earliest first
   * within a hop, at most FUNDED_CAP; hubs below the first hop are not followed
   */
  fundedWithin(chain: string, root: string | null, hops?: number): string[];
  /** who funded the wallet, who funded that one, …: at most `hops`, nearest first, never a cycle */
  fundingChain(chain: string, wallet: string, hops?: number): string[];
  /** how many wallets `funder` first funded (a hub funds more than FUNDING_HUB_FANOUT) */
  fundedCount(chain: string, funder: string): number;
}

export function createFundingTable(): FundingTable {
  const first = new Map<string, { funder: string; position: number }>();
  const funded = new Map<string, Map<string, number>>();
  return {
    apply(r) {
      const w = `${r.chain}:${r.wallet}`;
      const cur = first.get(w);
      if (cur && (cur.position < r.position || (cur.position === r.position && cur.funder === r.funder))) return [];
      first.set(w, { funder: r.funder, position: r.position });
      const changed = [r.funder];
      if (cur) {
        funded.get(`${r.chain}:${cur.funder}`)?.delete(r.wallet);
        if (cur.funder !== r.funder) changed.push(cur.funder);
      }
      const f = `${r.chain}:${r.funder}`;
      let m = funded.get(f);
      if (!m) funded.set(f, (m = new Map()));
      m.set(r.wallet, r.position);
      return changed;
    },
    funderOf: (chain, wallet) => first.get(`${chain}:${wallet}`)?.funder ?? null,
    fundedBy: (chain, funder) => children(chain, funder).slice(0, FUNDED_CAP),
    fundedWithin(chain, root, hops = FUNDING_HOPS) {
      if (!root) return [];
      const seen = new Set<string>([root]);
      const out: string[] = [];
      let level = [root];
      for (let hop = 1; hop <= hops && level.length > 0 && out.length < FUNDED_CAP; hop++) {
        const next: string[] = [];
        for (const w of level) {
          const kids = children(chain, w);
          if (hop > 1 && kids.length > FUNDING_HUB_FANOUT) continue;
          for (const k of kids) {
            if (seen.has(k)) continue;
            seen.add(k);
            next.push(k);
          }
        }
        out.push(...next);
        level = next;
      }
      return out.slice(0, FUNDED_CAP);
    },
    fundingChain(chain, wallet, hops = FUNDING_HOPS) {
      const out: string[] = [];
      const seen = new Set<string>([wallet]);
      let w: string | undefined = wallet;
      while (out.length < hops && w !== undefined) {
        const up: string | undefined = first.get(`${chain}:${w}`)?.funder;
        if (up === undefined || seen.has(up)) break;
        seen.add(up);
        out.push(up);
        w = up;
      }
      return out;
    },
    fundedCount: (chain, funder) => funded.get(`${chain}:${funder}`)?.size ?? 0,
  };

  /** every wallet `funder` first funded, earliest first */
  function children(chain: string, funder: string | null): string[] {
    const m = funder ? funded.get(`${chain}:${funder}`) : undefined;
    if (!m) return [];
    return [...m].sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1)).map(([w]) => w);
  }
}

/** one provider candle of an hour (USD) */
export interface CandleBar {
  t: number;
  o: number;
  h: number;
  l: number;
  c: number;
  v: number;
}

/** hourly candles kept per token: 7 days and the open hour, what price action reads */
export const CANDLE_HOURS_KEPT = 7 * 24 + 1;

/**
 * The candle table: a third-party provider's hourly candles per token (topic `candles`), which
 * price action reads for the hours in which the token's own pools saw no swap. A candle of an
 * hour already held replaces it (a provider revises the open hour); only `1h` candles are kept.
 */
export interface CandleTable {
  /** fold a candle; true when the token's bars changed */
  apply(c: Candle): boolean;
  /** the token's hourly bars, oldest first */
  barsOf(chain: string, token: string): readonly CandleBar[];
}

export function createCandleTable(): CandleTable {
  const rows = new Map<string, CandleBar[]>();
  return {
    apply(c) {
      if (c.interval !== '1h') return false;
      const key = `${c.chain}:${c.token}`;
      let bars = rows.get(key);
      if (!bars) rows.set(key, (bars = []));
      const bar: CandleBar = { t: c.openTime, o: c.open, h: c.high, l: c.low, c: c.close, v: c.volumeUsd };
      let i = bars.length;
      while (i > 0 && (bars[i - 1] as CandleBar).t > bar.t) i--;
      const same = bars[i - 1];
      if (same && same.t === bar.t) {
        if (same.o === bar.o && same.h === bar.h && same.l === bar.l && same.c === bar.c && same.v === bar.v) return false;
        bars[i - 1] = bar;
      } else bars.splice(i, 0, bar);
      const newest = (bars[bars.length - 1] as CandleBar).t;
      while (bars.length > 0 && (bars[0] as CandleBar).t <= newest - CANDLE_HOURS_KEPT * 3600) bars.shift();
      return true;
    },
    barsOf: (chain, token) => rows.get(`${chain}:${token}`) ?? [],
  };
}
