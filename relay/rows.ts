import { z } from 'zod';
import type { CopyGates, LeaderTrade } from '../engine/copy/decide.ts';
import { jsonCodec } from '../infra/codec.ts';
import type { Row, Store } from '../infra/store/types.ts';
import { Tables } from '../infra/store/types.ts';
import { Agent, Execution } from '../schemas/agents.ts';
import { Verdict } from '../schemas/common.ts';
import { agentKey, leaderKey, pad } from './ids.ts';

const AgentCodec = jsonCodec(Agent);
export const AgentLimitsCodec = jsonCodec(Agent.shape.limits);
const ExecutionCodec = jsonCodec(Execution);
export const BookRow = z.object({
  day: z.string(),
  spentUsd: z.number(),
  open: z.record(z.string(), z.object({ usd: z.number(), since: z.number(), units: z.string().regex(/^\d+$/).optional() })),
  /** the executions applied to the book, latest last (a replay applies each once) */
  applied: z.array(z.string()),
});
export type BookRow = z.infer<typeof BookRow>;
const BookCodec = jsonCodec(BookRow);
const LeaderTradeRow = z.object({
  id: z.string(),
  tx: z.string(),
  chain: z.string(),
  token: z.string(),
  side: z.enum(['buy', 'sell']),
  usd: z.number(),
  timestamp: z.number(),
  liquidityUsd: z.number().nullable(),
  gates: z.object({
    token: z.object({ risk: z.string(), exitRisk: z.string(), flags: z.array(z.string()), sellable: z.boolean() }).optional(),
    leaderGrade: z.string().optional(),
  }),
  /** venue fills: what is traded, entry or exit, the share closed (a swap: spot, a buy opens, a sell closes) */
  instrument: z.enum(['spot', 'perp', 'outcome']).optional(),
  action: z.enum(['open', 'close']).optional(),
  fraction: z.number().optional(),
});
export type LeaderTradeRow = z.infer<typeof LeaderTradeRow>;
const LeaderTradeCodec = jsonCodec(LeaderTradeRow);
/** the grade of a stored wallet snapshot (the rest of the body is the API's) */
const WalletGradeOf = jsonCodec(z.looseObject({ grade: Verdict }));

/** the dry run reads a graded leader's trades of this many days */
export const LEADER_TRADES_DAYS = 7;

/**
 * Agent changes within one process: the service's writes reach the copy worker over the same
 * store at once (other processes' writes are seen at the worker's next reload).
 */
const agentListeners = new WeakMap<Store, Set<(a: Agent) => void>>();
export function onAgentWrite(store: Store, fn: (a: Agent) => void): () => void {
  let set = agentListeners.get(store);
  if (!set) agentListeners.set(store, (set = new Set()));
  set.add(fn);
  return () => set.delete(fn);
}

/**
 * A row changed by `patch`, versioned after the stored one: at `now`, or just above it when the
 * clock has not moved past it (the store keeps the highest version, so the change is never lost)
 */
export function bumped<T extends { updatedAt: number }>(row: T, patch: Partial<T>, now: number): T {
  return { ...row, ...patch, updatedAt: Math.max(now, row.updatedAt + 1) };
}

/** a leader's trade kept for the dry run under its feed and account (LEADER_TRADES_DAYS), none once that has passed */
export function leaderTradeRow(feed: string, account: string, trade: LeaderTrade, gates: CopyGates, nowMs: number): Row | undefined {
  const expiresAt = (trade.timestamp + LEADER_TRADES_DAYS * 86_400) * 1000;
  if (expiresAt <= nowMs) return undefined;
  return { key: `${leaderKey(feed, account)}:${pad(trade.timestamp)}:${trade.id}`, version: 1, body: LeaderTradeCodec.encode({ ...trade, gates }), expiresAt };
}

/** The agents, executions, books and leaders' trades as rows: one place reads and writes them. */
export class CopyRows {
  constructor(private readonly store: Store) {}

  async agent(partner: string, wallet: string, agentId: string): Promise<Agent | undefined> {
    const row = await this.store.get(Tables.agents, agentKey(partner, wallet, agentId));
    return row ? AgentCodec.decode(row.body) : undefined;
  }

  /** the agent as stored now, or as it was read when it is gone */
  async current(a: Agent): Promise<Agent> {
    return (await this.agent(a.partner, a.wallet, a.agentId)) ?? a;
  }

  async putAgent(a: Agent): Promise<void> {
    await this.store.upsert(Tables.agents, [{ key: agentKey(a.partner, a.wallet, a.agentId), version: a.updatedAt, body: AgentCodec.encode(a) }]);
    for (const fn of agentListeners.get(this.store) ?? []) fn(a);
  }

  async agents(prefix?: string): Promise<Agent[]> {
    const rows = await this.store.list(Tables.agents, prefix === undefined ? {} : { prefix });
    return rows.map((r) => AgentCodec.decode(r.body)).filter((a): a is Agent => a !== undefined);
  }

  async execution(key: string): Promise<Execution | undefined> {
    const row = await this.store.get(Tables.executions, key);
    return row ? ExecutionCodec.decode(row.body) : undefined;
  }

  async putExecution(key: string, e: Execution): Promise<void> {
    await this.store.upsert(Tables.executions, [{ key, version: e.updatedAt, body: ExecutionCodec.encode(e) }]);
  }

  async executions(agentId: string, day?: string): Promise<{ key: string; e: Execution }[]> {
    const rows = await this.store.list(Tables.executions, { prefix: day === undefined ? `${agentId}:` : `${agentId}:${day}:` });
    return rows.flatMap((r) => {
      const e = ExecutionCodec.decode(r.body);
      return e ? [{ key: r.key, e }] : [];
    });
  }

  async book(agentId: string): Promise<BookRow | undefined> {
    const row = await this.store.get(Tables.agentBooks, agentId);
    return row ? BookCodec.decode(row.body) : undefined;
  }

  async putBook(agentId: string, b: BookRow, version: number): Promise<void> {
    await this.store.upsert(Tables.agentBooks, [{ key: agentId, version, body: BookCodec.encode(b) }]);
  }

  async leaderTrades(chain: string, wallet: string): Promise<LeaderTradeRow[]> {
    const rows = await this.store.list(Tables.leaderTrades, { prefix: `${leaderKey(chain, wallet)}:` });
    return rows.map((r) => LeaderTradeCodec.decode(r.body)).filter((t): t is LeaderTradeRow => t !== undefined);
  }

  async putLeaderTrades(rows: Row[]): Promise<void> {
    if (rows.length > 0) await this.store.upsert(Tables.leaderTrades, rows);
  }

  /** a leader's grade as the engine derived it, from its snapshot on the feed (`leaderFeed(...).grade`) */
  async leaderGrade(feedGrade: string, account: string): Promise<Verdict | undefined> {
    const snap = await this.store.get(Tables.snapshots, `${feedGrade}:${account}`);
    return snap ? WalletGradeOf.decode(snap.body)?.grade : undefined;
  }
}
