/**
 * The copy worker and the agent service over one store, with the venue standing still where the
 * scenario needs it (a chain's revoke that takes seconds, a session read in flight, a trade met
 * again days later). The venue is the chain's stand-in: what it was asked is counted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createKeyService } from '../infra/keys.ts';
import { createMemoryLog } from '../infra/log/memory.ts';
import { createEmbeddedStore } from '../infra/store/embedded.ts';
import type { Store } from '../infra/store/types.ts';
import { Tables } from '../infra/store/types.ts';
import { TradesByWalletTopic, publishTo } from '../infra/topics.ts';
import { addr } from '../engine/token/testkit.ts';
import type { Execution } from '../schemas/agents.ts';
import type { Swap } from '../schemas/events.ts';
import { eventId } from '../schemas/events.ts';
import type { Venue, VenueGateway } from '../venues/types.ts';
import type { AgentCaller } from '../api/routes/agents.ts';
import { createAgentService, executionKey, liveRefusal, startCopyWorker } from './index.ts';
import type { CopyWorker, WebhookEventIn } from './index.ts';
import { waitFor } from '../test/contract/wait.ts';

const T0 = Date.UTC(2026, 10, 2, 12);
const DAY = 86_400_000;

/** a promise and its resolver */
function gate<T = void>(): { promise: Promise<T>; open: (v: T) => void } {
  let open!: (v: T) => void;
  const promise = new Promise<T>((r) => (open = r));
  return { promise, open };
}

/** the venue: sessions enabled or held, revokes held, quotes counted (and refused: nothing is meant to reach them) */
function standInVenue() {
  const asked = { sessionEnabled: 0, revoke: 0, quote: 0 };
  let enabled: () => Promise<boolean> = async () => true;
  let revoke: () => Promise<{ ref: string | null }> = async () => ({ ref: null });
  const client: Venue = {
    venue: 'evm-spot',
    quote: async () => {
      asked.quote++;
      throw new Error('the stand-in venue quotes nothing');
    },
    submit: async () => {
      throw new Error('the stand-in venue takes no order');
    },
    cancel: async () => ({ cancelled: false, detail: 'nothing to cancel' }),
    revoke: () => {
      asked.revoke++;
      return revoke();
    },
  };
  const gateway: VenueGateway = {
    configured: () => true,
    sessionKey: (agentId) => addr(`key-${agentId}`) as `0x${string}`,
    sessionSetup: async (a) => ({ account: a.account, sessionKey: addr(`key-${a.agentId}`), setup: {} }),
    sessionEnabled: () => {
      asked.sessionEnabled++;
      return enabled();
    },
    client: async () => client,
  };
  return {
    gateway,
    asked,
    holdSessionRead: (g: Promise<boolean>) => (enabled = () => g),
    holdRevoke: (g: Promise<{ ref: string | null }>) => (revoke = () => g),
  };
}

let dir: string | undefined;
let worker: CopyWorker | undefined;
let store: Store | undefined;
afterEach(async () => {
  await worker?.stop();
  await store?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  worker = store = dir = undefined;
});

async function setup() {
  dir = mkdtempSync(join(tmpdir(), 'copy-worker-'));
  store = await createEmbeddedStore({ dataDir: dir });
  const log = createMemoryLog();
  const keys = createKeyService({ store, cacheTtlSeconds: 0 });
  const org = await keys.createOrg('copy-partner');
  await keys.goLive(org.id, Date.now());
  await keys.entitle(org.id, 'evm-spot', true, Date.now());
  const clock = { now: T0 };
  const venue = standInVenue();
  const events: WebhookEventIn[] = [];
  const deps = { store, keys, venues: venue.gateway, emit: async (e: WebhookEventIn) => void events.push(e), now: () => clock.now, defaultChain: 'devnet' };
  const service = createAgentService(deps);
  const account = addr('account');
  const leader = addr('leader');
  const caller = (): AgentCaller => ({ partner: org.id, keyKind: 'live', wallet: account, now: clock.now });
  const created = await service.create(caller(), {
    venue: 'evm-spot',
    chain: 'devnet',
    leader,
    account,
    spendCapNative: '0.1',
    limits: { maxNotionalUsd: 100, dailyCapUsd: 150, maxOpenPositions: 5, maxSlippageBps: 500, minLeaderGrade: 'unrated', expiresAt: Math.floor((T0 + 30 * DAY) / 1000) },
  } as never);
  const agentId = created.agentId;
  worker = await startCopyWorker({ ...deps, log, tickMs: 3_600_000 });
  const state = async () => (await service.get(caller(), agentId)).state;
  return { store, log, clock, venue, events, service, caller, agentId, leader, account, state, worker };
}

/**
 * A planned execution of a $100 copy of the leader's $200 buy of `token`, as the worker writes it
 * after its decision (`updatedAt`), stored in the executions table; its key and row.
 */
async function storePlanned(store: Store, agentId: string, trade: { id: string; tx: string; token: string; timestamp: number }, executionId: string, updatedAt: number) {
  const e: Execution = {
    executionId,
    agentId,
    leaderTrade: trade.id,
    leaderTx: trade.tx,
    chain: 'devnet',
    token: trade.token,
    side: 'buy',
    leaderUsd: 200,
    notionalUsd: 100,
    status: 'planned',
    reason: null,
    venueOrderId: null,
    fills: [],
    detail: 'copy $100 of the leader’s $200 buy',
    ref: null,
    tradeAt: trade.timestamp,
    createdAt: updatedAt,
    updatedAt,
  };
  const key = executionKey(agentId, trade.timestamp, trade.id);
  await store.upsert(Tables.executions, [{ key, version: updatedAt, body: JSON.stringify(e) }]);
  const read = async () => JSON.parse((await store.get(Tables.executions, key))?.body ?? '{}') as Partial<Execution>;
  return { key, read };
}

describe('copy agents: a user’s change of state and the lifecycle check at the same time', () => {
  it('a revoke whose call to the venue takes seconds stays revoked when the check activates the agent meanwhile', async () => {
    const s = await setup();
    expect(await s.state()).toBe('pending');
    const venueRevoke = gate<{ ref: string | null }>();
    s.venue.holdRevoke(venueRevoke.promise);
    // the user revokes; the venue is still disabling the session...
    s.clock.now = T0 + 1000;
    const revoking = s.service.setState(s.caller(), s.agentId, 'revoke');
    await waitFor(() => s.venue.asked.revoke === 1, 'the revoke to reach the venue', 5_000);
    // ...while the lifecycle check finds the session enabled and activates the agent
    s.clock.now = T0 + 2000;
    await s.worker.tick();
    s.clock.now = T0 + 3000;
    venueRevoke.open({ ref: '0xrevoked' });
    expect(await revoking).toMatchObject({ state: 'revoked' });
    expect(await s.state()).toBe('revoked');
  });

  it('a pause made while the check reads the session is not undone, and no agent.activated is sent', async () => {
    const s = await setup();
    const sessionRead = gate<boolean>();
    s.venue.holdSessionRead(sessionRead.promise);
    s.clock.now = T0 + 1000;
    const ticking = s.worker.tick();
    await waitFor(() => s.venue.asked.sessionEnabled === 1, 'the check to read the session', 5_000);
    s.clock.now = T0 + 2000;
    await s.service.setState(s.caller(), s.agentId, 'pause');
    sessionRead.open(true);
    await ticking;
    expect(await s.state()).toBe('paused');
    expect(s.events.map((e) => e.type)).toEqual(['agent.created', 'agent.paused']);
  });
});

describe('copy executions: never sent late', () => {
  it('a planned execution met again days after its trade (a redelivery the restart recovery did not cover) is failed as stale, and the venue is never asked', async () => {
    const s = await setup();
    await s.worker.tick();
    expect(await s.state()).toBe('active');
    // the trade, a minute after the agent, planned and never sent (the process stopped)
    const swap: Swap = {
      type: 'swap',
      chain: 'devnet',
      block: 100,
      blockHash: `0x${'1'.repeat(64)}`,
      tx: `0x${'2'.repeat(64)}`,
      logIndex: 0,
      timestamp: Math.floor(T0 / 1000) + 60,
      token: addr('token'),
      pool: addr('pool'),
      trader: s.leader,
      side: 'buy',
      amountToken: 100,
      amountQuote: 1,
      usd: 200,
      priceUsd: 2,
    };
    const planned = await storePlanned(s.store, s.agentId, { id: eventId(swap), tx: swap.tx, token: swap.token, timestamp: swap.timestamp }, 'ex_planned_then_stopped', T0 + 60_000);
    // three days later the ingest publishes the trade again
    s.clock.now = T0 + 3 * DAY;
    await publishTo(s.log, TradesByWalletTopic, [{ kind: 'swap' as const, swap, poolBlock: 90, liquidityUsd: 100_000 }]);
    await waitFor(async () => (await planned.read()).status === 'failed', 'the planned execution to be settled', 10_000);
    await s.worker.idle();
    expect(await planned.read()).toMatchObject({ status: 'failed', reason: 'stale_trade' });
    expect(s.venue.asked.quote).toBe(0);
  });
});

describe('copy executions: a restart fails what was abandoned, not what another process is sending', () => {
  it('a process starting beside another leaves a planned execution of the last minutes alone, and fails one untouched for longer as interrupted', async () => {
    const s = await setup();
    await s.worker.tick();
    const tradeAt = Math.floor(s.clock.now / 1000) + 60;
    const trade = (n: number) => ({ id: `devnet:0x${String(n).padStart(64, '0')}:0`, tx: `0x${String(n).padStart(64, '0')}`, token: addr('token'), timestamp: tradeAt });
    s.clock.now = T0 + 20 * 60_000;
    // one another process decided a moment ago (its quote is on the way), one left by a process that stopped
    const inFlight = await storePlanned(s.store, s.agentId, trade(1), 'ex_in_flight', s.clock.now - 2_000);
    const abandoned = await storePlanned(s.store, s.agentId, trade(2), 'ex_abandoned', s.clock.now - 10 * 60_000);
    const second = await startCopyWorker({ store: s.store, keys: { getOrg: async () => undefined }, venues: s.venue.gateway, emit: async () => undefined, now: () => s.clock.now, defaultChain: 'devnet', log: s.log, tickMs: 3_600_000 });
    try {
      expect((await inFlight.read()).status).toBe('planned');
      expect((await abandoned.read()).status).toBe('failed');
      expect(await abandoned.read()).toMatchObject({ reason: 'interrupted' });
    } finally {
      await second.stop();
    }
  });
});

describe('what stops a live agent at a submit (liveRefusal)', () => {
  const org = { id: 'org_a', name: 'a', createdAt: '2026-01-01T00:00:00.000Z', live: true, venues: ['hyperliquid', 'polymarket'] };
  const agent = { partner: 'org_a', venue: 'hyperliquid' as const };
  it('an organisation gone, back on paper or no longer entitled, and a venue whose live trading is off, each say why; an entitled live one passes', () => {
    expect(liveRefusal(org, agent)).toBeUndefined();
    expect(liveRefusal(undefined, agent)).toMatch(/org_a no longer exists/);
    expect(liveRefusal({ ...org, live: false }, agent)).toMatch(/trades on paper only/);
    expect(liveRefusal({ ...org, venues: [] }, agent)).toMatch(/no longer entitled to hyperliquid/);
    // entitled or not, the prediction market never trades live
    expect(liveRefusal(org, { ...agent, venue: 'polymarket' })).toMatch(/live trading on polymarket is off/);
  });
});
