import type { DryRunResponse } from '../api/routes/agents.ts';
import { applyDecision, decideCopy, emptyBook, isExit, utcDay } from '../engine/copy/decide.ts';
import type { AgentBook, CopyGates } from '../engine/copy/decide.ts';
import { sizeBandOf } from '../engine/wallet/bands.ts';
import type { AgentLimits } from '../schemas/agents.ts';
import type { Verdict } from '../schemas/common.ts';
import { LEADER_TRADES_DAYS } from './rows.ts';
import type { CopyRows } from './rows.ts';

export interface DryRunQuery {
  chain: string;
  /** where the leader's trades are recorded (`leaderFeed(...).trades`) */
  feed: string;
  leader: string;
  limits: AgentLimits;
  trades: number;
  createdAt: number;
  /** the leader's grade now: a trade recorded before its first grade is judged with it */
  gradeNow: Verdict | undefined;
}

const cents = (usd: number) => Math.round(usd * 100) / 100;

/** The leader's latest trades, each decided at its time with the gates then, on a fresh book. */
export async function dryRun(rows: CopyRows, q: DryRunQuery): Promise<DryRunResponse> {
  const recorded = (await rows.leaderTrades(q.feed, q.leader)).sort((a, b) => a.timestamp - b.timestamp || a.id.localeCompare(b.id));
  const trades = recorded.slice(-q.trades);
  // the limits as they would have stood: no expiry before the trades, every trade decided at its time
  const firstAt = trades[0]?.timestamp ?? 0;
  const lastAt = trades.at(-1)?.timestamp ?? 0;
  const limits = { ...q.limits, expiresAt: Math.max(q.limits.expiresAt, lastAt + 1) };
  const agent = { mode: 'live' as const, state: 'active' as const, limits, createdAt: firstAt * 1000 };
  let book: AgentBook = emptyBook(utcDay(firstAt));
  const items: DryRunResponse['items'] = [];
  const byReason: Record<string, number> = {};
  let notionalUsd = 0;
  for (const { gates: gatesThen, ...t } of trades) {
    const gates = { ...gatesThen, leaderGrade: gatesThen.leaderGrade ?? q.gradeNow } as CopyGates;
    const d = decideCopy(agent, t, gates, book, t.timestamp);
    book = applyDecision(book, t, d);
    if (d.status === 'planned') notionalUsd += d.notionalUsd;
    else byReason[d.reason] = (byReason[d.reason] ?? 0) + 1;
    items.push({
      token: t.token,
      side: t.side,
      action: isExit(t) ? 'close' : 'open',
      at: new Date(t.timestamp * 1000).toISOString(),
      leaderSize: sizeBandOf(t.usd),
      decision: d.status === 'planned' ? 'copy' : 'skip',
      reason: d.reason,
      notionalUsd: cents(d.notionalUsd),
      detail: d.detail,
    });
  }
  const copied = items.filter((i) => i.decision === 'copy').length;
  return {
    chain: q.chain,
    leader: q.leader,
    trades: items.length,
    copied,
    skipped: items.length - copied,
    notionalUsd: cents(notionalUsd),
    byReason,
    items: items.reverse(),
    note:
      recorded.length === 0
        ? `no trades of this leader recorded in the last ${LEADER_TRADES_DAYS} days`
        : `the leader's latest ${items.length} trades, each decided at its time with the gates then, on a fresh book`,
  };
}
