import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { parseUnits, zeroAddress } from 'viem';
import { agentGrantTypedData } from '../api/agent-grant.ts';
import type { Logger } from 'pino';
import type { AgentCaller, AgentService, AgentView, CreateAgentInput, DryRunInput, DryRunResponse } from '../api/routes/agents.ts';
import type { KeyService, Org } from '../api/keys.ts';
import type { Config } from '../infra/config.ts';
import { enqueueWebhookEvent } from '../api/webhooks/outbox.ts';
import { MAX_TRADE_AGE_S, applyDecision, applyFailure, applyFill, bookOn, closeUnits, decideCopy, emptyBook, isExit, utcDay } from '../engine/copy/decide.ts';
import type { AgentBook, CopyDecision, CopyGates, LeaderTrade } from '../engine/copy/decide.ts';
import { perpLeaderTrade, predictionLeaderTrade } from '../engine/copy/venue-trades.ts';
import { createGradeTable, createTokenFactsTable } from '../engine/tables.ts';
import { sizeBandOf } from '../engine/wallet/bands.ts';
import { jsonCodec } from '../infra/codec.ts';
import type { Consumer, Log, LogBatch } from '../infra/log/types.ts';
import type { Row, Store } from '../infra/store/types.ts';
import { Tables } from '../infra/store/types.ts';
import { followTable } from '../stream/tables.ts';
import { TokenFactsTopic, TradesByWalletTopic, VenueFillsTopic, WalletGradesTopic, ensureTopic } from '../infra/topics.ts';
import { Agent, Execution, LIVE_OFF, VENUES_IN_VALIDATION } from '../schemas/agents.ts';
import type { AgentLimits, AgentSession, WebhookEventType } from '../schemas/agents.ts';
import { ApiError } from '../schemas/errors.ts';
import { keysetPage } from '../api/views/page.ts';
import { Verdict } from '../schemas/common.ts';
import { eventId } from '../schemas/events.ts';
import type { VenueGateway } from '../venues/types.ts';
import { HYPERLIQUID_MAX_AGENT_VALIDITY_S, PERP_UNIT_DECIMALS, PaperOnlyError, VenueError, failureSentence } from '../venues/types.ts';
import { redact, redactedError } from '../infra/redact.ts';

/**
 * Copy-trading execution at run time (DESIGN.md "Copy-trading execution"):
 * - the agent service the relay routes call (create, get, list, pause, resume, revoke,
 *   executions, dry run), over the agents table;
 * - the copy worker: a consumer group over `trades.by-wallet` (keyed by trader, so one leader's
 *   trades are decided in order on one worker) that records each graded wallet's trades with the
 *   gates at the time (the dry run reads them), and for every agent following the trader decides
 *   once per (agent, leader trade) with engine/copy/decide.ts, writing the execution row before it
 *   applies the decision to the agent's book (a replayed log finds the row and never trades twice);
 * - the executor: planned executions of live agents go to the venue (quote, then submit) →
 *   `submitted` → `filled` | `failed`; an agent paused, revoked or expired in between is never
 *   submitted;
 * - the lifecycle loop: a pending live agent becomes active once its session is enabled on chain;
 *   an agent past its expiry becomes expired.
 * Every change of an agent or an execution is a webhook event (emit), with an id fixed by the
 * subject, so a replay enqueues the same event again, not a second one.
 */

export type { VenueGateway } from '../venues/types.ts';

export interface WebhookEventIn {
  id: string;
  orgId: string;
  type: WebhookEventType;
  data: unknown;
  /** unix seconds */
  timestamp: number;
}

export interface CopyDeps {
  store: Store;
  keys: Pick<KeyService, 'getOrg'>;
  venues: VenueGateway;
  /** enqueues a webhook event in the durable outbox (api/webhooks/outbox.ts) */
  emit(event: WebhookEventIn): Promise<void>;
  now: () => number;
  defaultChain: string;
  /** where hyperliquid and polymarket agents follow leaders by default: the venue's feed when it is ingested, else `sim` (the venue simulator) */
  feeds?: { perp: string; prediction: string };
  logger?: Logger;
}

const AgentCodec = jsonCodec(Agent);
const AgentLimitsCodec = jsonCodec(Agent.shape.limits);
const ExecutionCodec = jsonCodec(Execution);
const BookRow = z.object({
  day: z.string(),
  spentUsd: z.number(),
  open: z.record(z.string(), z.object({ usd: z.number(), since: z.number(), units: z.string().regex(/^\d+$/).optional() })),
  /** the executions applied to the book, latest last (a replay applies each once) */
  applied: z.array(z.string()),
});
type BookRow = z.infer<typeof BookRow>;
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
const LeaderTradeCodec = jsonCodec(LeaderTradeRow);
/** the grade of a stored wallet snapshot (the rest of the body is the API's) */
const WalletGradeOf = jsonCodec(z.looseObject({ grade: Verdict }));

/** an active hyperliquid agent's key is looked up on the venue at most this often */
const APPROVAL_CHECK_MS = 60_000;
/** the dry run reads a graded leader's trades of this many days */
const LEADER_TRADES_DAYS = 7;
/** a planned execution no process has touched for this long is abandoned (sending follows its decision within seconds) */
const PLANNED_ABANDONED_MS = MAX_TRADE_AGE_S * 1000;
/** a submitted one whose receipt no process has recorded for this long is abandoned */
const SUBMITTED_ABANDONED_MS = 30 * 60_000;
/** executions an agent's book remembers having applied */
const APPLIED_KEPT = 200;

const agentKey = (partner: string, wallet: string, agentId: string) => `${partner}:${wallet}:${agentId}`;
const pad = (n: number) => String(Math.floor(n)).padStart(11, '0');
/** an execution's row key: by agent, the trade's UTC day and time, and the trade */
export const executionKey = (agentId: string, tradeAt: number, tradeId: string) => `${agentId}:${utcDay(tradeAt)}:${pad(tradeAt)}:${tradeId}`;
const executionIdOf = (agentId: string, tradeId: string) => `ex_${createHash('sha256').update(`${agentId}|${tradeId}`).digest('hex').slice(0, 20)}`;
const eventIdOf = (type: string, subject: string) => `evt_${createHash('sha256').update(`${type}|${subject}`).digest('hex').slice(0, 24)}`;
const leaderKey = (chain: string, wallet: string) => `${chain}:${wallet}`;
/**
 * Where a leader's trades are recorded and its grade is read: a chain's wallet (evm-spot), or an
 * account on a perpetuals or prediction venue's feed (hyperliquid, polymarket agents).
 */
function leaderFeed(venue: Agent['venue'], chain: string): { trades: string; grade: string } {
  if (venue === 'evm-spot') return { trades: chain, grade: `wallet:${chain}` };
  const kind = venue === 'hyperliquid' ? 'perp' : 'prediction';
  return { trades: `${kind}:${chain}`, grade: `${kind}:${chain}` };
}

/**
 * Agent changes within one process: the service's writes reach the copy worker over the same
 * store at once (other processes' writes are seen at the worker's next reload).
 */
const agentListeners = new WeakMap<Store, Set<(a: Agent) => void>>();
function onAgentWrite(store: Store, fn: (a: Agent) => void): () => void {
  let set = agentListeners.get(store);
  if (!set) agentListeners.set(store, (set = new Set()));
  set.add(fn);
  return () => set.delete(fn);
}

function view(a: Agent): AgentView {
  const { partner: _partner, ...rest } = a;
  return rest;
}

/** one async chain per key: book updates of one agent never interleave */
function createLocks() {
  const tails = new Map<string, Promise<unknown>>();
  return <T>(key: string, fn: () => Promise<T>): Promise<T> => {
    const prev = tails.get(key) ?? Promise.resolve();
    const next = prev.then(fn, fn);
    const tail = next.catch(() => undefined);
    tails.set(key, tail);
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return next;
  };
}

/** The agents, executions and books as rows: one place reads and writes them. */
function createCopyRows(store: Store) {
  return {
    async agent(partner: string, wallet: string, agentId: string): Promise<Agent | undefined> {
      const row = await store.get(Tables.agents, agentKey(partner, wallet, agentId));
      return row ? AgentCodec.decode(row.body) : undefined;
    },
    async putAgent(a: Agent): Promise<void> {
      await store.upsert(Tables.agents, [{ key: agentKey(a.partner, a.wallet, a.agentId), version: a.updatedAt, body: AgentCodec.encode(a) }]);
      for (const fn of agentListeners.get(store) ?? []) fn(a);
    },
    async agents(prefix?: string): Promise<Agent[]> {
      const rows = await store.list(Tables.agents, prefix === undefined ? {} : { prefix });
      return rows.map((r) => AgentCodec.decode(r.body)).filter((a): a is Agent => a !== undefined);
    },
    async execution(key: string): Promise<Execution | undefined> {
      const row = await store.get(Tables.executions, key);
      return row ? ExecutionCodec.decode(row.body) : undefined;
    },
    async putExecution(key: string, e: Execution): Promise<void> {
      await store.upsert(Tables.executions, [{ key, version: e.updatedAt, body: ExecutionCodec.encode(e) }]);
    },
    async executions(agentId: string, day?: string): Promise<{ key: string; e: Execution }[]> {
      const rows = await store.list(Tables.executions, { prefix: day === undefined ? `${agentId}:` : `${agentId}:${day}:` });
      return rows.flatMap((r) => {
        const e = ExecutionCodec.decode(r.body);
        return e ? [{ key: r.key, e }] : [];
      });
    },
    async book(agentId: string): Promise<BookRow | undefined> {
      const row = await store.get(Tables.agentBooks, agentId);
      return row ? BookCodec.decode(row.body) : undefined;
    },
    async putBook(agentId: string, b: BookRow, version: number): Promise<void> {
      await store.upsert(Tables.agentBooks, [{ key: agentId, version, body: BookCodec.encode(b) }]);
    },
    async leaderTrades(chain: string, wallet: string): Promise<z.infer<typeof LeaderTradeRow>[]> {
      const rows = await store.list(Tables.leaderTrades, { prefix: `${leaderKey(chain, wallet)}:` });
      return rows.map((r) => LeaderTradeCodec.decode(r.body)).filter((t): t is z.infer<typeof LeaderTradeRow> => t !== undefined);
    },
  };
}
type CopyRows = ReturnType<typeof createCopyRows>;

/** webhook events of an agent's and an execution's changes */
function events(deps: CopyDeps) {
  const agentEvent = async (type: WebhookEventType, a: Agent, subject = `${a.agentId}|${a.state}|${a.updatedAt}`) => {
    await deps.emit({ id: eventIdOf(type, subject), orgId: a.partner, type, data: { agent: view(a) }, timestamp: Math.floor(deps.now() / 1000) });
  };
  const executionEvent = async (a: Agent, e: Execution) => {
    const type = `execution.${e.status}` as WebhookEventType;
    await deps.emit({ id: eventIdOf(type, e.executionId), orgId: a.partner, type, data: { execution: e }, timestamp: Math.floor(deps.now() / 1000) });
  };
  return { agentEvent, executionEvent };
}

/**
 * A row changed by `patch`, versioned after the stored one: at `now`, or just above it when the
 * clock has not moved past it (the store keeps the highest version, so the change is never lost)
 */
function bumped<T extends { updatedAt: number }>(row: T, patch: Partial<T>, now: number): T {
  return { ...row, ...patch, updatedAt: Math.max(now, row.updatedAt + 1) };
}

/**
 * What a filled entry brought into the agent's own position, in the units its close counts: an
 * evm-spot swap's output in base units, a perpetuals order's filled size in 10^-PERP_UNIT_DECIMALS
 */
function unitsBrought(venue: Agent['venue'], r: { amountIn: string; amountOut: string }): string | undefined {
  if (venue === 'evm-spot') return r.amountOut;
  if (venue === 'hyperliquid') return parseUnits(r.amountIn, PERP_UNIT_DECIMALS).toString();
  return undefined;
}

/** an agent stored for the grant a create is about (the same venue, chain, mode, leader and limits) */
function sameGrant(a: Agent, plan: Pick<Agent, 'chain' | 'mode'>, input: Pick<CreateAgentInput, 'venue' | 'leader'> & { limits: AgentLimits }): boolean {
  const of = (x: Pick<Agent, 'venue' | 'chain' | 'mode' | 'leader' | 'limits'>) => JSON.stringify([x.venue, x.chain, x.mode, x.leader, AgentLimitsCodec.encode(x.limits)]);
  return of(a) === of({ ...plan, venue: input.venue, leader: input.leader, limits: input.limits });
}

function invalid(field: string, message: string): never {
  throw new ApiError('invalid_param', `${field}: ${message}`);
}

/**
 * Where an agent's account lives, the only chain on which a contract wallet's signature proves the
 * address (the same address on another chain may be anyone's contract): an evm-spot agent's chain;
 * Polygon for the prediction market (its CLOB settles there); none for the perpetuals venue,
 * whose accounts are keys (a contract cannot sign for one).
 */
function accountChain(a: Pick<Agent, 'venue' | 'chain'>): string | undefined {
  if (a.venue === 'evm-spot') return a.chain;
  return a.venue === 'polymarket' ? 'polygon' : undefined;
}

/** the caller proved the agent's account: an EOA's signature anywhere, a contract wallet's on the account's chain */
function provenFor(caller: AgentCaller, a: Pick<Agent, 'venue' | 'chain'>): boolean {
  if (!caller.walletChains) return true;
  const chain = accountChain(a);
  return chain !== undefined && caller.walletChains.includes(chain);
}

/**
 * Why a live agent may not trade now, in one sentence; undefined when it may. Read at every submit
 * and every lifecycle check, not only at creation: an organisation gone, back to paper, no longer
 * entitled to the venue, or a venue whose live trading is off.
 */
export function liveRefusal(org: Org | undefined, a: Pick<Agent, 'partner' | 'venue'>): string | undefined {
  if (!org) return `organisation ${a.partner} no longer exists`;
  if (!org.live) return `organisation ${org.id} trades on paper only`;
  const off = LIVE_OFF[a.venue];
  if (off) return off;
  if (!org.venues.includes(a.venue)) return `organisation ${org.id} is no longer entitled to ${a.venue}`;
  return undefined;
}

/** The agent service of the relay routes (api/routes/agents.ts). */
export function createAgentService(deps: CopyDeps): AgentService {
  const rows = createCopyRows(deps.store);
  const { agentEvent } = events(deps);

  async function owned(caller: AgentCaller, agentId: string): Promise<Agent> {
    const a = await rows.agent(caller.partner, caller.wallet, agentId);
    if (!a) throw new ApiError('not_found', `no agent ${agentId} of wallet ${caller.wallet} with this partner`);
    if (!provenFor(caller, a)) {
      throw new ApiError('not_found', `no agent ${agentId} of wallet ${caller.wallet} on ${caller.walletChains?.join(', ')}, where the contract wallet's signature verified (name the agent's chain in the body)`);
    }
    return a;
  }

  async function save(a: Agent): Promise<Agent> {
    await rows.putAgent(a);
    return a;
  }

  /**
   * A user's change of state, versioned when it is written: a revoke waits seconds for the venue,
   * and the worker's lifecycle check may write the agent in between; a version taken when the
   * request came would lose to that write (the store keeps the highest), and the revoke with it.
   */
  function changed(a: Agent, patch: Pick<Agent, 'state' | 'stateReason'>): Promise<Agent> {
    return save(bumped(a, patch, deps.now()));
  }

  /**
   * Where an agent of `venue` follows its leader: evm-spot a chain (the deployment's by default),
   * the order-book venues a feed (the venue's own when it is ingested, else the simulator)
   */
  function followedOn(venue: Agent['venue'], input: { chain?: string | undefined; leaderVenue?: string | undefined }): string {
    if (venue === 'evm-spot') return input.chain ?? deps.defaultChain;
    return input.leaderVenue ?? (venue === 'hyperliquid' ? deps.feeds?.perp : deps.feeds?.prediction) ?? 'sim';
  }

  /**
   * Paper or live: a sandbox key trades on paper only; a live key trades live on a venue its
   * organisation is entitled to (403 venue_not_entitled otherwise), except on a venue in
   * validation, where an organisation not entitled gets paper unless it asked for live.
   */
  async function modeOf(caller: AgentCaller, input: CreateAgentInput): Promise<{ mode: 'paper' | 'live'; paperWhy: string }> {
    if (caller.keyKind === 'test') {
      if (input.mode === 'live') throw new ApiError('venue_not_entitled', 'a sandbox key trades on paper only');
      return { mode: 'paper', paperWhy: 'a sandbox key' };
    }
    if (input.mode === 'paper') return { mode: 'paper', paperWhy: 'asked for' };
    const off = LIVE_OFF[input.venue];
    if (off && input.mode === 'live') throw new ApiError('venue_not_entitled', off);
    if (off) return { mode: 'paper', paperWhy: `${input.venue} is in validation: ${off}` };
    const org = await deps.keys.getOrg(caller.partner);
    if (org?.venues.includes(input.venue)) return { mode: 'live', paperWhy: '' };
    if (VENUES_IN_VALIDATION.includes(input.venue) && input.mode === undefined) return { mode: 'paper', paperWhy: `${input.venue} is in validation and this partner is not entitled to it` };
    throw new ApiError('venue_not_entitled', `this partner is not entitled to trade on ${input.venue}; sandbox keys trade on paper`);
  }

  /**
   * What a create request grants, checked and resolved as the agent will hold it (its id, chain,
   * mode, account and session key), and the EIP-712 typed data the user signs for it. The id comes
   * from the partner, the wallet and the signing timestamp, so the session key (derived from the
   * id) is known before the signature: the grant operation announces it, the create verifies it.
   */
  async function planned(caller: Pick<AgentCaller, 'partner' | 'keyKind' | 'wallet' | 'now'>, input: CreateAgentInput & { limits: AgentLimits }, timestamp: number | undefined) {
    const nowS = Math.floor(caller.now / 1000);
    // evm-spot follows a wallet on a chain; the order-book venues follow an account on a venue's feed
    const venueFeed = input.venue === 'evm-spot' ? undefined : input.venue;
    if (venueFeed && input.chain !== undefined) invalid('chain', `is for evm-spot agents: a ${input.venue} agent follows its leader on leaderVenue`);
    if (!venueFeed && input.leaderVenue !== undefined) invalid('leaderVenue', 'is for hyperliquid and polymarket agents: an evm-spot agent follows its leader on chain');
    if (venueFeed && input.leaderVenue !== undefined && input.leaderVenue !== 'sim' && input.leaderVenue !== venueFeed) invalid('leaderVenue', `a ${input.venue} agent follows leaders on ${input.venue} or sim`);
    if (venueFeed && input.spendCapNative !== undefined) invalid('spendCapNative', `is for evm-spot agents: a ${input.venue} agent is limited by its limits and its standing on the venue`);
    if (venueFeed && input.stableCaps !== undefined) invalid('stableCaps', `is for evm-spot agents: a ${input.venue} agent is limited by its limits and its standing on the venue`);
    const stableCaps = (input.stableCaps ?? []).map((c) => ({ token: c.token.toLowerCase() as `0x${string}`, cap: c.cap }));
    if (new Set(stableCaps.map((c) => c.token)).size !== stableCaps.length) invalid('stableCaps', 'names a token twice');
    const chain = followedOn(input.venue, input) as Agent['chain'];
    const limits = input.limits;
    if (limits.expiresAt <= nowS + 60) invalid('limits.expiresAt', 'must be more than a minute ahead');
    if (limits.expiresAt > nowS + 366 * 86_400) invalid('limits.expiresAt', 'must be at most a year ahead');
    if (limits.dailyCapUsd < limits.maxNotionalUsd) invalid('limits.dailyCapUsd', 'must be at least maxNotionalUsd');
    const account = (input.account ?? caller.wallet).toLowerCase() as `0x${string}`;
    if (input.leader === account) invalid('leader', 'an agent cannot copy its own account');
    const { mode, paperWhy } = await modeOf(caller, input);
    const agentId =
      timestamp === undefined ? `ag_${randomBytes(8).toString('hex')}` : `ag_${createHash('sha256').update(`${caller.partner}|${caller.wallet}|${timestamp}`).digest('hex').slice(0, 16)}`;
    if (mode === 'live') {
      if (venueFeed && chain !== venueFeed) invalid('leaderVenue', `a live ${input.venue} agent follows leaders on ${input.venue} itself (the venue simulator is for paper)`);
      if (!deps.venues.configured(input.venue, chain)) throw new ApiError('gateway_unconfigured', `${input.venue} on ${chain} is not configured on this deployment`);
      if (account !== caller.wallet) invalid('account', 'must be the signing wallet (a smart account signs through EIP-1271)');
      if (venueFeed === 'hyperliquid' && limits.expiresAt > nowS + HYPERLIQUID_MAX_AGENT_VALIDITY_S) invalid('limits.expiresAt', 'must be at most 180 days ahead: the venue approves agent keys for no longer');
      if (!venueFeed && input.spendCapNative === undefined) invalid('spendCapNative', `is required for a live ${input.venue} agent: the session's spend cap the contracts enforce`);
    }
    const sessionKey = mode === 'live' ? deps.venues.sessionKey(agentId) : zeroAddress;
    const typedData = agentGrantTypedData({
      partner: caller.partner,
      venue: input.venue,
      chain,
      leaderVenue: input.leaderVenue ?? '',
      mode,
      leader: input.leader,
      account,
      sessionKey,
      caps: [...(input.spendCapNative !== undefined ? [{ asset: 'native', amount: input.spendCapNative }] : []), ...stableCaps.map((c) => ({ asset: c.token, amount: c.cap }))],
      maxNotionalUsd: limits.maxNotionalUsd,
      dailyCapUsd: limits.dailyCapUsd,
      maxOpenPositions: limits.maxOpenPositions,
      maxSlippageBps: limits.maxSlippageBps,
      allow: limits.allow ?? [],
      deny: limits.deny ?? [],
      minLeaderGrade: limits.minLeaderGrade,
      expiresAt: limits.expiresAt,
      timestamp: timestamp ?? nowS,
    });
    return { agentId, venue: input.venue, chain, mode, paperWhy, account, sessionKey: sessionKey.toLowerCase(), typedData, stableCaps };
  }

  return {
    async grant(caller, input) {
      const plan = await planned({ ...caller, wallet: input.wallet.toLowerCase() }, input, input.timestamp);
      return { agentId: plan.agentId, sessionKey: plan.sessionKey, typedData: plan.typedData };
    },

    async create(caller0, input: CreateAgentInput & { limits: AgentLimits }) {
      const plan = await planned(caller0, input, caller0.grant?.timestamp);
      // the user's EIP-712 signature of exactly this grant (the HTTP route always asks it; a caller
      // in this process that writes an agent directly does not)
      const auth = caller0.grant ? await caller0.grant.authorize(async () => ({ typedData: plan.typedData as never, chain: accountChain(plan) })) : undefined;
      const caller = auth ? { ...caller0, walletChains: auth.chains } : caller0;
      if (!provenFor(caller, plan)) {
        const where = accountChain(plan);
        throw new ApiError(
          'wallet_auth_required',
          where
            ? `the contract wallet's signature verified on ${caller.walletChains?.join(', ')}, not on ${where}, where this agent's account lives (name the chain in the body)`
            : `a ${input.venue} account is a key's: a contract wallet's signature cannot authorize its agent`,
        );
      }
      // the same grant again (a replay that passed two API processes' guards at once) names the
      // same agent and creates nothing new; another grant signed at the same second is refused
      const existing = await rows.agent(caller.partner, caller.wallet, plan.agentId);
      if (existing && sameGrant(existing, plan, input)) return view(existing);
      if (existing) throw new ApiError('invalid_state', 'this wallet created another agent with this X-Auth-Timestamp: sign the new grant with another timestamp');
      let session: AgentSession | null = null;
      if (plan.mode === 'live') {
        session = await deps.venues.sessionSetup({
          agentId: plan.agentId, venue: input.venue, chain: plan.chain, account: plan.account,
          spendCapNative: input.spendCapNative, stableCaps: plan.stableCaps, expiresAt: input.limits.expiresAt,
        });
        // the key the user granted is the key that will sign
        if (session.sessionKey.toLowerCase() !== plan.sessionKey) throw new ApiError('internal', 'the session key set up is not the one granted');
      }
      const a: Agent = {
        agentId: plan.agentId,
        partner: caller.partner,
        wallet: caller.wallet,
        mode: plan.mode,
        venue: input.venue,
        chain: plan.chain,
        leader: input.leader,
        limits: input.limits,
        state: plan.mode === 'paper' ? 'active' : 'pending',
        stateReason: plan.mode === 'paper' ? `paper mode (${plan.paperWhy}): its copies are recorded, never submitted` : 'waiting for the account to enable the session',
        session,
        createdAt: caller.now,
        updatedAt: caller.now,
      };
      await save(a);
      await agentEvent('agent.created', a, a.agentId);
      return view(a);
    },

    async get(caller, agentId) {
      return view(await owned(caller, agentId));
    },

    async list(caller, opts) {
      const all = await rows.agents(`${caller.partner}:${caller.wallet}:`);
      const page = keysetPage(
        all.filter((a) => (opts.state === undefined || a.state === opts.state) && provenFor(caller, a)),
        (a) => [-a.createdAt, a.agentId],
        opts,
      );
      return { items: page.items.map(view), next: page.next };
    },

    async setState(caller, agentId, action) {
      const a = await owned(caller, agentId);
      if (a.state === 'revoked' || a.state === 'expired') throw new ApiError('invalid_state', `the agent is ${a.state}: it cannot ${action}`);
      if (action === 'pause') {
        if (a.state === 'paused') return view(a);
        const next = await changed(a, { state: 'paused', stateReason: 'paused by the user' });
        await agentEvent('agent.paused', next);
        return view(next);
      }
      if (action === 'resume') {
        if (a.state !== 'paused') return view(a);
        if (a.limits.expiresAt <= Math.floor(caller.now / 1000)) throw new ApiError('invalid_state', 'the agent is past its expiry');
        const refusal = a.mode === 'live' ? liveRefusal(await deps.keys.getOrg(a.partner), a) : undefined;
        if (refusal) throw new ApiError('venue_not_entitled', `the agent cannot resume: ${refusal}`);
        const enabled = a.mode === 'paper' || (await deps.venues.sessionEnabled(a).catch(() => false));
        const next = await changed(a, { state: enabled ? 'active' : 'pending', stateReason: enabled ? 'resumed by the user' : 'waiting for the account to enable the session' });
        if (enabled) await agentEvent('agent.activated', next);
        return view(next);
      }
      // revoke: for good; a live agent's session is disabled on the venue too (best effort: the
      // backend never submits for a revoked agent, and the user can uninstall the module)
      let detail = 'revoked by the user';
      if (a.mode === 'live' && a.session) {
        try {
          const org = await deps.keys.getOrg(a.partner);
          const r = await (await deps.venues.client({ id: a.partner, live: org?.live ?? false }, a)).revoke({ agentId: a.agentId, chain: a.chain, account: a.session.account as `0x${string}` });
          if (r.ref) detail += `; the session was disabled on chain in ${r.ref}`;
          else if (a.venue === 'hyperliquid') detail += '; the agent key stays approved on the venue until the user replaces or removes it there, or its validity ends: the backend never signs with it again';
          else if (a.venue === 'polymarket') detail += "; the backend never signs with the agent's key again (what its trading address holds stays on the venue)";
        } catch (err) {
          detail += `; disabling the session on chain failed (${failureSentence(err instanceof VenueError ? err.reason : 'venue_error')}): nothing will be submitted for it`;
          deps.logger?.warn({ error: redactedError(err), agentId }, 'session revoke on the venue failed');
        }
      }
      const next = await changed(a, { state: 'revoked', stateReason: detail });
      await agentEvent('agent.revoked', next);
      return view(next);
    },

    async executions(caller, agentId, opts) {
      await owned(caller, agentId);
      const all = await rows.executions(agentId);
      const page = keysetPage(
        all.map((x) => x.e).filter((e) => opts.status === undefined || e.status === opts.status),
        (e) => [-e.tradeAt, -e.createdAt, e.executionId],
        opts,
      );
      return { items: page.items, next: page.next };
    },

    async dryRun(caller, input: DryRunInput): Promise<DryRunResponse> {
      let venue: Agent['venue'];
      let chain: string;
      let leader: string;
      let limits: AgentLimits;
      if (input.agentId !== undefined) {
        const a = await owned(caller, input.agentId);
        venue = a.venue;
        chain = a.chain;
        leader = a.leader;
        limits = a.limits;
      } else {
        if (input.leader === undefined) invalid('leader', 'is required without agentId');
        if (input.limits === undefined) invalid('limits', 'is required without agentId');
        venue = input.venue ?? 'evm-spot';
        if (venue !== 'evm-spot' && input.chain !== undefined) invalid('chain', `is for evm-spot: a ${venue} leader is followed on leaderVenue`);
        if (venue === 'evm-spot' && input.leaderVenue !== undefined) invalid('leaderVenue', 'is for hyperliquid and polymarket leaders');
        chain = followedOn(venue, input);
        leader = input.leader;
        limits = input.limits as AgentLimits;
      }
      const feed = leaderFeed(venue, chain);
      // a trade recorded before the leader's first grade is judged with its grade now
      const snap = await deps.store.get(Tables.snapshots, `${feed.grade}:${leader}`);
      const gradeNow = snap ? WalletGradeOf.decode(snap.body)?.grade : undefined;
      return dryRun(rows, { chain, feed: feed.trades, leader, limits, trades: input.trades, createdAt: caller.now, gradeNow });
    },
  };
}

async function dryRun(
  rows: CopyRows,
  q: { chain: string; feed: string; leader: string; limits: AgentLimits; trades: number; createdAt: number; gradeNow: Verdict | undefined },
): Promise<DryRunResponse> {
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
      notionalUsd: Math.round(d.notionalUsd * 100) / 100,
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
    notionalUsd: Math.round(notionalUsd * 100) / 100,
    byReason,
    items: items.reverse(),
    note:
      recorded.length === 0
        ? `no trades of this leader recorded in the last ${LEADER_TRADES_DAYS} days`
        : `the leader's latest ${items.length} trades, each decided at its time with the gates then, on a fresh book`,
  };
}

export interface CopyWorker {
  /** resolves when every planned execution handed to the executor so far is final */
  idle(): Promise<void>;
  /** runs the lifecycle checks now (activation, expiry) */
  tick(): Promise<void>;
  /** leader trades not yet decided, per partition */
  lag(): Promise<{ topic: string; partition: number; lag: number }[]>;
  stop(): Promise<void>;
}

/**
 * The copy worker and its executor. `tickMs`: how often pending sessions and expiries are checked
 * and the agent index reloaded (agents created by another API process are seen within it).
 */
export async function startCopyWorker(deps: CopyDeps & { log: Log; tickMs?: number }): Promise<CopyWorker> {
  const { store, log, logger } = deps;
  const rows = createCopyRows(store);
  const { agentEvent, executionEvent } = events(deps);
  const lock = createLocks();
  const grades = createGradeTable();
  const facts = createTokenFactsTable();
  const consumers: Consumer[] = [];
  consumers.push(await followTable(log, WalletGradesTopic, (r) => void grades.apply(r)));
  consumers.push(await followTable(log, TokenFactsTopic, (r) => void facts.apply(r)));

  // agents by the leader they follow
  let byLeader = new Map<string, Agent[]>();
  let loadedAt = 0;
  async function reloadAgents(): Promise<void> {
    const next = new Map<string, Agent[]>();
    for (const a of await rows.agents()) {
      if (a.state === 'revoked' || a.state === 'expired') continue;
      const k = leaderKey(a.chain, a.leader);
      next.set(k, [...(next.get(k) ?? []), a]);
    }
    byLeader = next;
    loadedAt = deps.now();
  }
  function onAgentChange(a: Agent): void {
    const k = leaderKey(a.chain, a.leader);
    const list = (byLeader.get(k) ?? []).filter((x) => x.agentId !== a.agentId);
    if (a.state !== 'revoked' && a.state !== 'expired') list.push(a);
    byLeader.set(k, list);
  }
  await reloadAgents();
  const unlisten = onAgentWrite(store, onAgentChange);

  const gatesOf = (chain: string, token: string, trader: string): CopyGates => {
    const t = facts.lookup(chain)(token);
    return { token: t ? { risk: t.risk, exitRisk: t.exitRisk, flags: t.flags, sellable: t.sellable } : undefined, leaderGrade: grades.gradeOf(chain, trader) };
  };

  // ---- decisions -------------------------------------------------------------------------------
  async function decideFor(a0: Agent, trade: LeaderTrade, gates: CopyGates, direction: 'long' | 'short' | null = null): Promise<void> {
    // a trade from before the agent existed is not its business (a replay of old history included)
    if (trade.timestamp * 1000 < a0.createdAt - 1000) return;
    const key = executionKey(a0.agentId, trade.timestamp, trade.id);
    await lock(a0.agentId, async () => {
      // the agent as stored now (a pause or revoke through another process counts)
      const a = (await rows.agent(a0.partner, a0.wallet, a0.agentId)) ?? a0;
      const stored = await rows.book(a.agentId);
      const book: BookRow = stored ?? { ...emptyBook(utcDay(trade.timestamp)), applied: [] };
      let e = await rows.execution(key);
      let decision: CopyDecision | undefined;
      if (!e) {
        const nowMs = deps.now();
        decision = decideCopy({ mode: a.mode, state: a.state, limits: a.limits, createdAt: a.createdAt }, trade, gates, bookOn(book, utcDay(trade.timestamp)), nowMs / 1000);
        e = {
          executionId: executionIdOf(a.agentId, trade.id),
          agentId: a.agentId,
          leaderTrade: trade.id,
          leaderTx: trade.tx,
          chain: a.chain,
          token: trade.token,
          side: trade.side,
          action: isExit(trade) ? 'close' : 'open',
          direction: isExit(trade) ? null : direction,
          fraction: isExit(trade) ? (trade.fraction ?? 1) : null,
          // a live close sells its share of the copied units, not of the account's balance or position
          ...(isExit(trade) && a.mode === 'live' && a.venue !== 'polymarket' && decision.status === 'planned'
            ? { units: closeUnits(book.open[trade.token], trade.fraction ?? 1) ?? null }
            : {}),
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
        await rows.putExecution(key, e);
      }
      if (!book.applied.includes(e.executionId)) {
        const d: CopyDecision =
          decision ?? (e.status === 'skipped' ? { status: 'skipped', reason: e.reason as never, notionalUsd: e.notionalUsd, detail: e.detail } : { status: 'planned', reason: null, notionalUsd: e.notionalUsd, detail: e.detail });
        const next = applyDecision(book, trade, d);
        await rows.putBook(a.agentId, { ...next, applied: [...book.applied, e.executionId].slice(-APPLIED_KEPT) }, e.updatedAt);
      }
      if (decision) await executionEvent(a, e);
      if (e.status === 'planned') execute(a, key, e);
    });
  }

  // ---- the executor ----------------------------------------------------------------------------
  const inflight = new Set<Promise<void>>();
  /** executions being sent by this process: the same trade delivered again does not send it twice */
  const running = new Set<string>();
  function execute(a: Agent, key: string, e: Execution): void {
    if (running.has(e.executionId)) return;
    running.add(e.executionId);
    const p = runExecution(a, key, e)
      .catch((err: unknown) => logger?.error({ error: redactedError(err), executionId: e.executionId }, 'execution crashed'))
      .finally(() => {
        inflight.delete(p);
        running.delete(e.executionId);
      });
    inflight.add(p);
  }

  /** the agent's stored book changed under its lock (an agent with no book yet has nothing to change) */
  async function changeBook(agentId: string, change: (book: AgentBook) => AgentBook, version: number): Promise<void> {
    await lock(agentId, async () => {
      const book = await rows.book(agentId);
      if (book) await rows.putBook(agentId, { ...change(book), applied: book.applied }, version);
    });
  }

  async function finish(a: Agent, key: string, e: Execution, patch: Partial<Execution>): Promise<Execution> {
    const next = bumped(e, patch, deps.now());
    await rows.putExecution(key, next);
    if (next.status === 'failed') {
      const held = isExit(e) ? { usd: e.notionalUsd, since: e.tradeAt, ...(e.units != null ? { units: e.units } : {}) } : undefined;
      await changeBook(a.agentId, (book) => applyFailure(book, { token: e.token, side: e.side, action: e.action, notionalUsd: e.notionalUsd, tradeAt: e.tradeAt }, held), next.updatedAt);
    }
    await executionEvent(a, next);
    return next;
  }

  async function runExecution(a0: Agent, key: string, e0: Execution): Promise<void> {
    let e = e0;
    const a = (await rows.agent(a0.partner, a0.wallet, a0.agentId)) ?? a0;
    const nowS = deps.now() / 1000;
    if (a.state !== 'active' || nowS >= a.limits.expiresAt) {
      await finish(a, key, e, { status: 'failed', reason: 'agent_inactive', detail: `not submitted: the agent is ${nowS >= a.limits.expiresAt ? 'expired' : a.state}` });
      return;
    }
    if (!a.session) {
      await finish(a, key, e, { status: 'failed', reason: 'no_session', detail: 'the agent has no session on the venue' });
      return;
    }
    // a planned execution met again later (a replay of the log, a restart after more than a day)
    // is never sent late: the decision's age rule holds at the moment of sending too
    if (nowS - e.tradeAt > MAX_TRADE_AGE_S) {
      await finish(a, key, e, { status: 'failed', reason: 'stale_trade', detail: `not submitted: the leader's trade is ${Math.round(nowS - e.tradeAt)} s old (at most ${MAX_TRADE_AGE_S} s is copied)` });
      return;
    }
    // the organisation as stored now: an entitlement removed a moment ago stops this order
    const org = await deps.keys.getOrg(a.partner);
    const refusal = liveRefusal(org, a);
    if (refusal) {
      await stopAgent(a, 'agent.paused', `paused: ${refusal}`);
      await finish(a, key, e, { status: 'failed', reason: 'venue_not_entitled', detail: `not submitted: ${refusal}` });
      return;
    }
    const session = { agentId: a.agentId, chain: a.chain, account: a.session.account as `0x${string}` };
    try {
      const venue = await deps.venues.client({ id: a.partner, live: org?.live ?? false }, a);
      const exit = isExit(e);
      const quote = await venue.quote({
        session,
        token: e.token,
        side: e.side,
        // a counted close sells its units (all of them); an uncounted one its share of the balance
        ...(exit ? (e.units != null ? { fraction: 1, amount: e.units } : { fraction: e.fraction ?? 1 }) : { usd: e.notionalUsd }),
        ...(a.venue === 'hyperliquid' ? (exit ? { reduceOnly: true } : { direction: e.direction ?? (e.side === 'buy' ? 'long' : 'short') }) : {}),
        maxSlippageBps: a.limits.maxSlippageBps,
      });
      const result = await venue.submit(session, quote, {
        executionId: e.executionId,
        onSubmitted: async (ref) => {
          e = bumped(e, { status: 'submitted', ref, detail: `${e.detail}; submitted` }, deps.now());
          await rows.putExecution(key, e);
          await executionEvent(a, e);
        },
      });
      if (result.status === 'filled') {
        const fills = result.fills ?? [];
        const what = fills.length > 0 ? fills.map((f) => `${f.size} at ${f.price}`).join(', ') : `${result.amountIn} in, ${result.amountOut} out`;
        await finish(a, key, e, { status: 'filled', reason: null, ref: result.ref, venueOrderId: result.orderId ?? null, fills, detail: `${e0.detail}; filled: ${what}` });
        // the units a copied entry brought are the position's: its close sells them and no more
        const units = exit ? undefined : unitsBrought(a.venue, result);
        if (units !== undefined) await changeBook(a.agentId, (book) => applyFill(book, e.token, units), deps.now());
      } else {
        // the adapter's sentence with the venue's answer to the order, redacted all the same
        await finish(a, key, e, { status: 'failed', reason: result.reason, ref: result.ref ?? e.ref, venueOrderId: result.orderId ?? e.venueOrderId, detail: redact(result.detail) });
        // the venue no longer knows the agent's key (the user revoked it there, or its validity ran out): the agent stops
        if (result.reason === 'agent_refused') await stopRefused(a, result.detail);
      }
    } catch (err) {
      // our code and sentence for the partner; the error's own text (a library's, with the URL it
      // called) to the log only, redacted
      const reason = err instanceof VenueError ? err.reason : err instanceof PaperOnlyError ? 'paper_only' : 'venue_error';
      logger?.warn({ agentId: a.agentId, executionId: e.executionId, reason, error: redactedError(err) }, 'the order failed at the venue');
      await finish(a, key, e, { status: 'failed', reason, detail: err instanceof PaperOnlyError ? err.message : failureSentence(reason) });
    }
  }

  // executions left planned or submitted by a process that stopped: they are never sent again (a
  // market order's moment has passed); planned ones give their spend back. At the start and then
  // once a minute, and only those no process can still be working on: a planned one is sent within
  // seconds of its decision, a submitted one's receipt is awaited for minutes; so another live
  // process's order in flight (several engines share the copy group) is left to it
  async function recover(): Promise<void> {
    const now = deps.now();
    const today = utcDay(now / 1000);
    const yesterday = utcDay(now / 1000 - 86_400);
    for (const a of await rows.agents()) {
      if (a.mode !== 'live') continue;
      for (const day of [yesterday, today]) {
        for (const { key, e } of await rows.executions(a.agentId, day)) {
          if (running.has(e.executionId)) continue;
          const idleMs = now - e.updatedAt;
          if (e.status === 'planned' && idleMs > PLANNED_ABANDONED_MS) {
            await finish(a, key, e, { status: 'failed', reason: 'interrupted', detail: 'the service restarted before the order was sent; it is not sent late' });
          } else if (e.status === 'submitted' && idleMs > SUBMITTED_ABANDONED_MS) {
            await rows.putExecution(key, bumped(e, { status: 'failed', reason: 'interrupted', detail: `the service restarted while ${e.ref ?? 'the order'} was pending: its outcome is on the venue` }, deps.now()));
          }
        }
      }
    }
  }
  await recover();

  /** a leader's trade kept for the dry run under its feed and account (LEADER_TRADES_DAYS), none once that has passed */
  function leaderTradeRow(feed: string, account: string, trade: LeaderTrade, gates: CopyGates): Row | undefined {
    const expiresAt = (trade.timestamp + LEADER_TRADES_DAYS * 86_400) * 1000;
    if (expiresAt <= deps.now()) return undefined;
    return { key: `${leaderKey(feed, account)}:${pad(trade.timestamp)}:${trade.id}`, version: 1, body: LeaderTradeCodec.encode({ ...trade, gates }), expiresAt };
  }

  /** a batch of leaders' trades: each record decided on, the rows it keeps for the dry run written together */
  const leaderTradesBatch = (each: (value: string) => Promise<Row | undefined>) => async (b: LogBatch): Promise<void> => {
    // another process's new agents are seen within a quarter second of trades arriving
    if (deps.now() - loadedAt > 250) await reloadAgents();
    const recorded: Row[] = [];
    for (const r of b.records) {
      const row = await each(r.value);
      if (row) recorded.push(row);
    }
    if (recorded.length > 0) await store.upsert(Tables.leaderTrades, recorded);
  };

  // ---- the trades consumer ---------------------------------------------------------------------
  await ensureTopic(log, TradesByWalletTopic);
  const trades = await log.consume({
    groupId: 'copy',
    topics: [TradesByWalletTopic.name],
    fromBeginning: true,
    eachBatch: leaderTradesBatch(async (value) => {
      const m = TradesByWalletTopic.codec.decode(value);
      if (m?.kind !== 'swap') return undefined;
      const s = m.swap;
      const trade: LeaderTrade = { id: eventId(s), tx: s.tx, chain: s.chain, token: s.token, side: s.side, usd: s.usd, timestamp: s.timestamp, liquidityUsd: m.liquidityUsd ?? null };
      const gates = gatesOf(s.chain, s.token, s.trader);
      // every wallet not known to be unrated: a leader's trades made before its first grade (a
      // fresh start replays history faster than the wallet worker grades) are kept too
      const row = gates.leaderGrade !== 'unrated' ? leaderTradeRow(s.chain, s.trader, trade, gates) : undefined;
      for (const a of byLeader.get(leaderKey(s.chain, s.trader)) ?? []) if (a.venue === 'evm-spot') await decideFor(a, trade, gates);
      return row;
    }),
  });
  consumers.push(trades);

  // ---- the venues' fills: perpetuals and prediction-market leaders ----------------------------
  await ensureTopic(log, VenueFillsTopic);
  const fills = await log.consume({
    groupId: 'copy-venues',
    topics: [VenueFillsTopic.name],
    fromBeginning: true,
    eachBatch: leaderTradesBatch(async (value) => {
      const f = VenueFillsTopic.codec.decode(value);
      if (!f) return undefined;
      const venue = f.type === 'perp_fill' ? 'hyperliquid' : 'polymarket';
      const agents = (byLeader.get(leaderKey(f.venue, f.account)) ?? []).filter((a) => a.venue === venue);
      const { trade, direction } = f.type === 'perp_fill' ? perpLeaderTrade(f) : predictionLeaderTrade(f);
      const feed = leaderFeed(venue, f.venue);
      // the leader's grade on the venue, as the engine derived it (read for followed leaders only)
      const snap = agents.length > 0 ? await store.get(Tables.snapshots, `${feed.grade}:${f.account}`) : undefined;
      const gates: CopyGates = { token: undefined, leaderGrade: snap ? WalletGradeOf.decode(snap.body)?.grade : undefined };
      // kept for the dry run, as the chains' trades are
      const row = leaderTradeRow(feed.trades, f.account, trade, gates);
      for (const a of agents) await decideFor(a, trade, gates, direction);
      return row;
    }),
  });
  consumers.push(fills);

  /**
   * Stops an agent as stored now, with the reason and its webhook: revoked (the venue refused its
   * key), or paused (it may no longer trade live; its user resumes it once the cause is gone). An
   * agent already stopped that far is left as it is.
   */
  async function stopAgent(a0: Agent, type: 'agent.revoked' | 'agent.paused', stateReason: string): Promise<void> {
    const a = (await rows.agent(a0.partner, a0.wallet, a0.agentId)) ?? a0;
    const state = type === 'agent.revoked' ? 'revoked' : 'paused';
    if (a.state === 'revoked' || a.state === 'expired' || a.state === state) return;
    const next = bumped(a, { state, stateReason }, deps.now());
    await rows.putAgent(next);
    onAgentChange(next);
    await agentEvent(type, next);
  }
  const stopRefused = (a: Agent, detail: string) => stopAgent(a, 'agent.revoked', `the venue no longer accepts the agent's key (${detail}): nothing more is submitted`);

  /** live agents that may no longer trade (their organisation's entitlement or state changed) are paused: each organisation read once per check */
  async function pauseRefused(): Promise<void> {
    const orgs = new Map<string, Promise<Org | undefined>>();
    const live = [...byLeader.values()].flat().filter((a) => a.mode === 'live' && (a.state === 'active' || a.state === 'pending'));
    for (const a of live) {
      let org = orgs.get(a.partner);
      if (!org) orgs.set(a.partner, (org = deps.keys.getOrg(a.partner)));
      const why = liveRefusal(await org, a);
      if (why) await stopAgent(a, 'agent.paused', `paused: ${why}`);
    }
  }

  // ---- lifecycle -------------------------------------------------------------------------------
  let lastRecover = deps.now();
  /** when each active hyperliquid agent's key was last looked up on the venue */
  const approvalCheckedAt = new Map<string, number>();
  async function tick(): Promise<void> {
    await reloadAgents();
    await pauseRefused();
    const now = deps.now();
    // the agents whose key is looked up on the venue: the others' check times are dropped below
    const checked = new Set<string>();
    for (const list of byLeader.values()) {
      for (const a of list) {
        // an active hyperliquid agent's key is looked up on the venue every APPROVAL_CHECK_MS
        const watched = a.state === 'active' && a.mode === 'live' && a.venue === 'hyperliquid';
        if (watched) checked.add(a.agentId);
        let next: Agent;
        let type: 'agent.expired' | 'agent.activated';
        if (a.limits.expiresAt * 1000 <= now) {
          next = bumped(a, { state: 'expired', stateReason: `expired at ${new Date(a.limits.expiresAt * 1000).toISOString()}` }, now);
          type = 'agent.expired';
        } else if (a.state === 'pending' && a.mode === 'live') {
          const enabled = await deps.venues.sessionEnabled(a).catch((err: unknown) => {
            logger?.warn({ error: redactedError(err), agentId: a.agentId }, 'reading the session failed');
            return false;
          });
          if (!enabled) continue;
          const how = a.venue === 'hyperliquid' ? 'the agent key is approved on the venue' : a.venue === 'polymarket' ? 'the trading address holds collateral on the venue' : 'the session is enabled on chain';
          next = bumped(a, { state: 'active', stateReason: how }, now);
          type = 'agent.activated';
        } else if (watched && now - (approvalCheckedAt.get(a.agentId) ?? 0) >= APPROVAL_CHECK_MS) {
          // the user can remove or replace the agent key on the venue at any time: the agent stops
          // when the venue no longer lists it, not only when its next order is refused
          approvalCheckedAt.set(a.agentId, now);
          const listed = await deps.venues.sessionEnabled(a).catch((err: unknown) => {
            logger?.warn({ error: redactedError(err), agentId: a.agentId }, 'reading the agent key on the venue failed');
            return true;
          });
          if (!listed) await stopRefused(a, 'the venue no longer lists it for the account');
          continue;
        } else continue;
        // the agent as stored now: a pause, resume or revoke since the list was loaded is not
        // undone by a write made from the older copy (the next check sees the agent as it is)
        const stored = await rows.agent(a.partner, a.wallet, a.agentId);
        if (!stored || stored.updatedAt !== a.updatedAt) continue;
        await rows.putAgent(next);
        onAgentChange(next);
        await agentEvent(type, next);
      }
    }
    // an agent revoked, expired or gone is not looked up again: its time goes with it
    for (const id of approvalCheckedAt.keys()) if (!checked.has(id)) approvalCheckedAt.delete(id);
    if (now - lastRecover >= 60_000) {
      lastRecover = now;
      await recover();
    }
  }
  const tickMs = deps.tickMs ?? 5000;
  let ticking: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    ticking = ticking.then(tick).catch((err: unknown) => logger?.warn({ error: redactedError(err) }, 'copy lifecycle check failed'));
  }, tickMs);
  timer.unref();

  return {
    async idle() {
      while (inflight.size > 0) await Promise.allSettled([...inflight]);
    },
    tick: () => (ticking = ticking.then(tick)),
    lag: async () => [...(await trades.lag()), ...(await fills.lag())],
    async stop() {
      unlisten();
      clearInterval(timer);
      await ticking.catch(() => undefined);
      for (const c of consumers) await c.stop();
      await Promise.allSettled([...inflight]);
    },
  };
}

/** A deployment that trades on paper only: no venue is configured, no client can be built. */
export const paperOnlyVenues: VenueGateway = {
  configured: () => false,
  sessionKey: () => {
    throw new ApiError('gateway_unconfigured', 'no execution venue is configured on this deployment');
  },
  sessionSetup: async () => {
    throw new ApiError('gateway_unconfigured', 'no execution venue is configured on this deployment');
  },
  sessionEnabled: async () => false,
  client: async () => {
    throw new ApiError('gateway_unconfigured', 'no execution venue is configured on this deployment');
  },
};

/**
 * The copy role of an engine process: the copy worker over the services' log and store, stopped
 * on shutdown. Started beside the engine workers by `intel start` and `intel engine`.
 */
export async function startCopyRole(
  services: { log: Log; store: Store; logger: Logger; config: Config; onShutdown(fn: () => Promise<void> | void): void },
  opts: { venues?: VenueGateway; emit?: (e: WebhookEventIn) => Promise<void>; now?: () => number; tickMs?: number } = {},
): Promise<CopyWorker> {
  const { createKeyService } = await import('../api/keys.ts');
  const keys = createKeyService({ store: services.store, cacheTtlSeconds: 30 });
  const worker = await startCopyWorker({
    store: services.store,
    log: services.log,
    keys,
    venues: opts.venues ?? (await import('./execution.ts')).venueGatewayFromConfig(services.config),
    emit: opts.emit ?? ((e) => enqueueWebhookEvent(services.store, e)),
    now: opts.now ?? Date.now,
    defaultChain: services.config.DEFAULT_CHAIN,
    feeds: { perp: services.config.PERPS_WS_URL ? 'hyperliquid' : 'sim', prediction: services.config.PREDICTION_WS_URL ? 'polymarket' : 'sim' },
    logger: services.logger.child({ role: 'copy' }),
    tickMs: opts.tickMs,
  });
  services.onShutdown(() => worker.stop());
  return worker;
}
