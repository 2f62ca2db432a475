import type { CopyGates, LeaderTrade } from '../engine/copy/decide.ts';
import { perpLeaderTrade, predictionLeaderTrade } from '../engine/copy/venue-trades.ts';
import { createGradeTable, createTokenFactsTable } from '../engine/tables.ts';
import type { Consumer, Log, LogBatch } from '../infra/log/types.ts';
import type { Row } from '../infra/store/types.ts';
import { TokenFactsTopic, TradesByWalletTopic, VenueFillsTopic, WalletGradesTopic, ensureTopic } from '../infra/topics.ts';
import type { TopicDef } from '../infra/topics.ts';
import { eventId } from '../schemas/events.ts';
import type { Decisions } from './decisions.ts';
import { followTable } from '../stream/tables.ts';
import type { FollowedAgents } from './followed.ts';
import { leaderFeed } from './ids.ts';
import { leaderTradeRow } from './rows.ts';
import type { CopyRows } from './rows.ts';

/** another process's new agents are seen within this long of trades arriving */
const AGENTS_RELOAD_MS = 250;

interface LeaderTradeParts {
  log: Log;
  rows: CopyRows;
  agents: FollowedAgents;
  decisions: Decisions;
  now: () => number;
}

/** The gates a chain's trade is decided with: the token's facts and the trader's grade, as the engine's table topics say now. */
async function followGates(log: Log): Promise<{ gatesOf(chain: string, token: string, trader: string): CopyGates; consumers: Consumer[] }> {
  const grades = createGradeTable();
  const facts = createTokenFactsTable();
  const consumers = [await followTable(log, WalletGradesTopic, (r) => void grades.apply(r)), await followTable(log, TokenFactsTopic, (r) => void facts.apply(r))];
  const gatesOf = (chain: string, token: string, trader: string): CopyGates => {
    const t = facts.lookup(chain)(token);
    return { token: t ? { risk: t.risk, exitRisk: t.exitRisk, flags: t.flags, sellable: t.sellable } : undefined, leaderGrade: grades.gradeOf(chain, trader) };
  };
  return { gatesOf, consumers };
}

/**
 * A consumer group over a topic of leaders' trades, from its start: each record decided on, the
 * rows it keeps for the dry run written together per batch.
 */
async function consumeLeaderTopic<T>(parts: LeaderTradeParts, def: TopicDef<T>, groupId: string, each: (value: string) => Promise<Row | undefined>): Promise<Consumer> {
  await ensureTopic(parts.log, def);
  return parts.log.consume({
    groupId,
    topics: [def.name],
    fromBeginning: true,
    eachBatch: async (b: LogBatch) => {
      await parts.agents.reloadOlderThan(AGENTS_RELOAD_MS);
      const recorded: Row[] = [];
      for (const r of b.records) {
        const row = await each(r.value);
        if (row) recorded.push(row);
      }
      await parts.rows.putLeaderTrades(recorded);
    },
  });
}

/**
 * The chains' swaps: a consumer group over `trades.by-wallet` (keyed by trader, so one leader's
 * trades are decided in order on one worker) that records each graded wallet's trades with the
 * gates at the time (the dry run reads them) and decides them for the evm-spot agents following it.
 */
async function consumeSwaps(parts: LeaderTradeParts, gatesOf: (chain: string, token: string, trader: string) => CopyGates): Promise<Consumer> {
  return consumeLeaderTopic(parts, TradesByWalletTopic, 'copy', async (value) => {
    const m = TradesByWalletTopic.codec.decode(value);
    if (m?.kind !== 'swap') return undefined;
    const s = m.swap;
    const trade: LeaderTrade = { id: eventId(s), tx: s.tx, chain: s.chain, token: s.token, side: s.side, usd: s.usd, timestamp: s.timestamp, liquidityUsd: m.liquidityUsd ?? null };
    const gates = gatesOf(s.chain, s.token, s.trader);
    // every wallet not known to be unrated: a leader's trades made before its first grade (a
    // fresh start replays history faster than the wallet worker grades) are kept too
    const row = gates.leaderGrade !== 'unrated' ? leaderTradeRow(s.chain, s.trader, trade, gates, parts.now()) : undefined;
    for (const a of parts.agents.following(s.chain, s.trader)) if (a.venue === 'evm-spot') await parts.decisions.decide(a, trade, gates);
    return row;
  });
}

/** The venues' fills: perpetuals and prediction-market leaders, decided for the agents of that venue following them. */
async function consumeVenueFills(parts: LeaderTradeParts): Promise<Consumer> {
  return consumeLeaderTopic(parts, VenueFillsTopic, 'copy-venues', async (value) => {
    const f = VenueFillsTopic.codec.decode(value);
    if (!f) return undefined;
    const venue = f.type === 'perp_fill' ? 'hyperliquid' : 'polymarket';
    const agents = parts.agents.following(f.venue, f.account).filter((a) => a.venue === venue);
    const { trade, direction } = f.type === 'perp_fill' ? perpLeaderTrade(f) : predictionLeaderTrade(f);
    const feed = leaderFeed(venue, f.venue);
    // the leader's grade on the venue, as the engine derived it (read for followed leaders only)
    const gates: CopyGates = { token: undefined, leaderGrade: agents.length > 0 ? await parts.rows.leaderGrade(feed.grade, f.account) : undefined };
    // kept for the dry run, as the chains' trades are
    const row = leaderTradeRow(feed.trades, f.account, trade, gates, parts.now());
    for (const a of agents) await parts.decisions.decide(a, trade, gates, direction);
    return row;
  });
}

/** the table followers, then the swaps' and the fills' consumers (the last two are what `lag` reports) */
export async function consumeLeaderTrades(parts: LeaderTradeParts): Promise<{ tables: Consumer[]; trades: Consumer; fills: Consumer }> {
  const { gatesOf, consumers: tables } = await followGates(parts.log);
  const trades = await consumeSwaps(parts, gatesOf);
  const fills = await consumeVenueFills(parts);
  return { tables, trades, fills };
}
