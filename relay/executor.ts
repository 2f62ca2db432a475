import { MAX_TRADE_AGE_S, applyFailure, applyFill, isExit, utcDay } from '../engine/copy/decide.ts';
import type { Org } from '../infra/keys.ts';
import { redact, redactedError } from '../infra/redact.ts';
import type { Agent, Execution } from '../schemas/agents.ts';
import { PERP_UNIT_DECIMALS, PaperOnlyError, VenueError, failureSentence } from '../venues/types.ts';
import type { SubmitResult, Venue } from '../venues/types.ts';
import { parseUnits } from 'viem';
import type { Books } from './books.ts';
import { liveRefusal } from './entitlement.ts';
import type { RelayEvents } from './events.ts';
import type { FollowedAgents } from './followed.ts';
import { bumped } from './rows.ts';
import type { CopyRows } from './rows.ts';
import type { CopyDeps } from './types.ts';

/** a planned execution no process has touched for this long is abandoned (sending follows its decision within seconds) */
const PLANNED_ABANDONED_MS = MAX_TRADE_AGE_S * 1000;
/** a submitted one whose receipt no process has recorded for this long is abandoned */
const SUBMITTED_ABANDONED_MS = 30 * 60_000;

/**
 * What a filled entry brought into the agent's own position, in the units its close counts: an
 * evm-spot swap's output in base units, a perpetuals order's filled size in 10^-PERP_UNIT_DECIMALS
 */
function unitsBrought(venue: Agent['venue'], r: { amountIn: string; amountOut: string }): string | undefined {
  if (venue === 'evm-spot') return r.amountOut;
  if (venue === 'hyperliquid') return parseUnits(r.amountIn, PERP_UNIT_DECIMALS).toString();
  return undefined;
}

/**
 * The executor: planned executions of live agents go to the venue (quote, then submit) →
 * `submitted` → `filled` | `failed`; an agent paused, revoked or expired in between is never
 * submitted.
 */
export class Executor {
  private readonly inflight = new Set<Promise<void>>();
  /** executions being sent by this process: the same trade delivered again does not send it twice */
  private readonly running = new Set<string>();

  constructor(
    private readonly deps: CopyDeps,
    private readonly rows: CopyRows,
    private readonly books: Books,
    private readonly events: RelayEvents,
    private readonly agents: FollowedAgents,
  ) {}

  execute(a: Agent, key: string, e: Execution): void {
    if (this.running.has(e.executionId)) return;
    this.running.add(e.executionId);
    const p = this.send(a, key, e)
      .catch((err: unknown) => this.deps.logger?.error({ error: redactedError(err), executionId: e.executionId }, 'execution crashed'))
      .finally(() => {
        this.inflight.delete(p);
        this.running.delete(e.executionId);
      });
    this.inflight.add(p);
  }

  /** resolves when every execution handed over so far is final */
  async idle(): Promise<void> {
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
  }

  async settled(): Promise<void> {
    await Promise.allSettled([...this.inflight]);
  }

  /**
   * Executions left planned or submitted by a process that stopped are never sent again (a market
   * order's moment has passed); planned ones give their spend back. Only those no process can still
   * be working on: a planned one is sent within seconds of its decision, a submitted one's receipt
   * is awaited for minutes; so another live process's order in flight (several engines share the
   * copy group) is left to it.
   */
  async recover(): Promise<void> {
    const now = this.deps.now();
    const days = [utcDay(now / 1000 - 86_400), utcDay(now / 1000)];
    for (const a of await this.rows.agents()) {
      if (a.mode !== 'live') continue;
      for (const day of days) {
        for (const { key, e } of await this.rows.executions(a.agentId, day)) {
          if (this.running.has(e.executionId)) continue;
          const idleMs = now - e.updatedAt;
          if (e.status === 'planned' && idleMs > PLANNED_ABANDONED_MS) {
            await this.finish(a, key, e, { status: 'failed', reason: 'interrupted', detail: 'the service restarted before the order was sent; it is not sent late' });
          } else if (e.status === 'submitted' && idleMs > SUBMITTED_ABANDONED_MS) {
            await this.rows.putExecution(key, bumped(e, { status: 'failed', reason: 'interrupted', detail: `the service restarted while ${e.ref ?? 'the order'} was pending: its outcome is on the venue` }, this.deps.now()));
          }
        }
      }
    }
  }

  /** an execution's final state written, a failed one's spend given back to the book, and its webhook */
  private async finish(a: Agent, key: string, e: Execution, patch: Partial<Execution>): Promise<Execution> {
    const next = bumped(e, patch, this.deps.now());
    await this.rows.putExecution(key, next);
    if (next.status === 'failed') {
      const held = isExit(e) ? { usd: e.notionalUsd, since: e.tradeAt, ...(e.units != null ? { units: e.units } : {}) } : undefined;
      await this.books.change(a.agentId, (book) => applyFailure(book, { token: e.token, side: e.side, action: e.action, notionalUsd: e.notionalUsd, tradeAt: e.tradeAt }, held), next.updatedAt);
    }
    await this.events.execution(a, next);
    return next;
  }

  private async send(a0: Agent, key: string, e: Execution): Promise<void> {
    const a = await this.rows.current(a0);
    const blocked = await this.blocked(a, e);
    if ('patch' in blocked) {
      await this.finish(a, key, e, blocked.patch);
      return;
    }
    try {
      const venue = await this.deps.venues.client({ id: a.partner, live: blocked.org?.live ?? false }, a);
      await this.submit(a, venue, blocked.account, key, e);
    } catch (err) {
      // our code and sentence for the partner; the error's own text (a library's, with the URL it
      // called) to the log only, redacted
      const reason = err instanceof VenueError ? err.reason : err instanceof PaperOnlyError ? 'paper_only' : 'venue_error';
      this.deps.logger?.warn({ agentId: a.agentId, executionId: e.executionId, reason, error: redactedError(err) }, 'the order failed at the venue');
      await this.finish(a, key, e, { status: 'failed', reason, detail: err instanceof PaperOnlyError ? err.message : failureSentence(reason) });
    }
  }

  /**
   * Why an execution is not sent, as its failure; else the agent's organisation and account. Read at the moment
   * of sending: the agent as stored now, its session, the trade's age, the organisation's entitlement.
   */
  private async blocked(a: Agent, e: Execution): Promise<{ patch: Partial<Execution> } | { org: Org | undefined; account: `0x${string}` }> {
    const nowS = this.deps.now() / 1000;
    if (a.state !== 'active' || nowS >= a.limits.expiresAt) {
      return { patch: { status: 'failed', reason: 'agent_inactive', detail: `not submitted: the agent is ${nowS >= a.limits.expiresAt ? 'expired' : a.state}` } };
    }
    if (!a.session) return { patch: { status: 'failed', reason: 'no_session', detail: 'the agent has no session on the venue' } };
    // a planned execution met again later (a replay of the log, a restart after more than a day)
    // is never sent late: the decision's age rule holds at the moment of sending too
    if (nowS - e.tradeAt > MAX_TRADE_AGE_S) {
      return { patch: { status: 'failed', reason: 'stale_trade', detail: `not submitted: the leader's trade is ${Math.round(nowS - e.tradeAt)} s old (at most ${MAX_TRADE_AGE_S} s is copied)` } };
    }
    // the organisation as stored now: an entitlement removed a moment ago stops this order
    const org = await this.deps.keys.getOrg(a.partner);
    const refusal = liveRefusal(org, a);
    if (!refusal) return { org, account: a.session.account as `0x${string}` };
    await this.agents.stop(a, 'agent.paused', `paused: ${refusal}`);
    return { patch: { status: 'failed', reason: 'venue_not_entitled', detail: `not submitted: ${refusal}` } };
  }

  /** quote, then submit; `submitted` written when the venue took the order, the outcome when it is known */
  private async submit(a: Agent, venue: Venue, account: `0x${string}`, key: string, e0: Execution): Promise<void> {
    let e = e0;
    const session = { agentId: a.agentId, chain: a.chain, account };
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
        e = bumped(e, { status: 'submitted', ref, detail: `${e.detail}; submitted` }, this.deps.now());
        await this.rows.putExecution(key, e);
        await this.events.execution(a, e);
      },
    });
    await this.outcome(a, key, e, e0.detail, result);
  }

  private async outcome(a: Agent, key: string, e: Execution, decided: string, result: SubmitResult): Promise<void> {
    if (result.status === 'filled') {
      const fills = result.fills ?? [];
      const what = fills.length > 0 ? fills.map((f) => `${f.size} at ${f.price}`).join(', ') : `${result.amountIn} in, ${result.amountOut} out`;
      await this.finish(a, key, e, { status: 'filled', reason: null, ref: result.ref, venueOrderId: result.orderId ?? null, fills, detail: `${decided}; filled: ${what}` });
      // the units a copied entry brought are the position's: its close sells them and no more
      const units = isExit(e) ? undefined : unitsBrought(a.venue, result);
      if (units !== undefined) await this.books.change(a.agentId, (book) => applyFill(book, e.token, units), this.deps.now());
      return;
    }
    // the adapter's sentence with the venue's answer to the order, redacted all the same
    await this.finish(a, key, e, { status: 'failed', reason: result.reason, ref: result.ref ?? e.ref, venueOrderId: result.orderId ?? e.venueOrderId, detail: redact(result.detail) });
    if (result.reason === 'agent_refused') await this.agents.stopRefused(a, result.detail);
  }
}
