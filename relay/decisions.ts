import { applyDecision, bookOn, closeUnits, decideCopy, emptyBook, isExit, utcDay } from '../engine/copy/decide.ts';
import type { CopyDecision, CopyGates, LeaderTrade } from '../engine/copy/decide.ts';
import type { Agent, Execution } from '../schemas/agents.ts';
import type { Books } from './books.ts';
import type { RelayEvents } from './events.ts';
import type { Executor } from './executor.ts';
import { executionIdOf, executionKey } from './ids.ts';
import type { BookRow, CopyRows } from './rows.ts';

/** executions an agent's book remembers having applied */
const APPLIED_KEPT = 200;

/** the execution row of a decision just made on a leader's trade */
function executionOf(a: Agent, trade: LeaderTrade, decision: CopyDecision, book: BookRow, direction: 'long' | 'short' | null, nowMs: number): Execution {
  const exit = isExit(trade);
  return {
    executionId: executionIdOf(a.agentId, trade.id),
    agentId: a.agentId,
    leaderTrade: trade.id,
    leaderTx: trade.tx,
    chain: a.chain,
    token: trade.token,
    side: trade.side,
    action: exit ? 'close' : 'open',
    direction: exit ? null : direction,
    fraction: exit ? (trade.fraction ?? 1) : null,
    // a live close sells its share of the copied units, not of the account's balance or position
    ...(exit && a.mode === 'live' && a.venue !== 'polymarket' && decision.status === 'planned' ? { units: closeUnits(book.open[trade.token], trade.fraction ?? 1) ?? null } : {}),
    leaderUsd: trade.usd,
    notionalUsd: Math.round(decision.notionalUsd * 100) / 100,
    status: decision.status,
    reason: decision.reason,
    detail: decision.detail,
    ref: null,
    venueOrderId: null,
    fills: [],
    tradeAt: trade.timestamp,
    createdAt: nowMs,
    updatedAt: nowMs,
  };
}

/** the decision an execution row records (met again on a replay, after the book missed it) */
function decisionOf(e: Execution): CopyDecision {
  return e.status === 'skipped'
    ? { status: 'skipped', reason: e.reason as never, notionalUsd: e.notionalUsd, detail: e.detail }
    : { status: 'planned', reason: null, notionalUsd: e.notionalUsd, detail: e.detail };
}

/**
 * Decides once per (agent, leader trade) with engine/copy/decide.ts, writing the execution row
 * before it applies the decision to the agent's book: a replayed log finds the row and never
 * trades twice.
 */
export class Decisions {
  constructor(
    private readonly rows: CopyRows,
    private readonly books: Books,
    private readonly events: RelayEvents,
    private readonly executor: Executor,
    private readonly now: () => number,
  ) {}

  async decide(a0: Agent, trade: LeaderTrade, gates: CopyGates, direction: 'long' | 'short' | null = null): Promise<void> {
    // a trade from before the agent existed is not its business (a replay of old history included)
    if (trade.timestamp * 1000 < a0.createdAt - 1000) return;
    const key = executionKey(a0.agentId, trade.timestamp, trade.id);
    await this.books.locked(a0.agentId, async () => {
      // the agent as stored now (a pause or revoke through another process counts)
      const a = await this.rows.current(a0);
      const book: BookRow = (await this.rows.book(a.agentId)) ?? { ...emptyBook(utcDay(trade.timestamp)), applied: [] };
      let e = await this.rows.execution(key);
      let decision: CopyDecision | undefined;
      if (!e) {
        const nowMs = this.now();
        decision = decideCopy({ mode: a.mode, state: a.state, limits: a.limits, createdAt: a.createdAt }, trade, gates, bookOn(book, utcDay(trade.timestamp)), nowMs / 1000);
        e = executionOf(a, trade, decision, book, direction, nowMs);
        await this.rows.putExecution(key, e);
      }
      if (!book.applied.includes(e.executionId)) {
        const next = applyDecision(book, trade, decision ?? decisionOf(e));
        await this.rows.putBook(a.agentId, { ...next, applied: [...book.applied, e.executionId].slice(-APPLIED_KEPT) }, e.updatedAt);
      }
      if (decision) await this.events.execution(a, e);
      if (e.status === 'planned') this.executor.execute(a, key, e);
    });
  }
}
