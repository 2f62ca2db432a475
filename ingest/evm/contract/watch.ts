/**
 * When to read a token's contract again. A block's events, logs and transactions fire triggers:
 * a pool created (launch), liquidity added or removed or LP tokens moved (liquidity), a call from
 * the token's deployer or owner to the token (owner: a tax switched on, a blacklist), an
 * OwnershipTransferred / Upgraded / AdminChanged log of the token (ownership), the first event of a
 * token this process has not read yet (first-seen), and, following live, a token trading again an
 * interval after its last read (schedule). Each fired token is read at that block (inspect.ts) and
 * its facts go out with the block's events. A node that keeps no state at an old block (a pruned
 * node during a backfill) leaves the token for one read at the head.
 */
import { z } from 'zod';
import type { ChainEvent, ContractFacts } from '../../../schemas/events.ts';
import type { Addr, BlockContext } from '../decode.ts';
import { orient, type Quotes } from '../decode.ts';
import type { PreparedLog } from '../processor.ts';
import type { Resolver } from '../resolver.ts';
import { DEAD, ZERO, isStateUnavailable, type Inspector } from './inspect.ts';

type Trigger = ContractFacts['trigger'];

/**
 * ERC-20 calls any holder makes (transfer, approve, transferFrom, increase/decreaseAllowance,
 * permit): the deployer handing out tokens is not an owner acting on the contract, and a launch's
 * dozens of such calls would each cost a read. Any other call from the deployer or owner fires.
 */
const HOLDER_CALLS = new Set(['0xa9059cbb', '0x095ea7b3', '0x23b872dd', '0x39509351', '0xa457c2d7', '0xd505accf']);

/** when two triggers fire for one token in one block, the first of these names the read */
const PRIORITY: Trigger[] = ['launch', 'ownership', 'owner', 'dependency', 'liquidity', 'first-seen', 'schedule', 'head'];

interface Watched {
  deployer?: Addr;
  owner?: Addr | null;
  pools: Set<Addr>;
  /** time and block of the last read; -1 before the first */
  lastReadTs: number;
  lastActiveTs: number;
  /** its latest distinct buyers, newest first: the holders a read simulates sells as */
  buyers: Addr[];
  /** buyers new since the last read */
  newBuyers: number;
  /** buyers already offered to a read's holder simulation, newest first: the others go first next time */
  offered: Addr[];
  /** contracts its code or storage names (the last read's): a call to one reads the token again */
  dependencies: Addr[];
  /**
   * provider → the pool it added to: each pool's first provider and the token's first
   * PROVIDERS_KEPT providers (a dust add first does not hide the wallet behind it), deployer side,
   * whose LP tokens a read counts as held
   */
  providers: Record<string, Addr>;
  /** its largest receivers by what each received in all, largest first: the contracts among the first are read for what they hold */
  receivers: { to: Addr; amount: number }[];
}

/** liquidity providers a read counts as deployer side beside each pool's first one (one LP balance each) */
const PROVIDERS_KEPT = 4;

/** buyers kept per token: a read simulates the ones not yet simulated first, so decoys that buy last cannot fill every read */
const BUYERS_KEPT = 6;
/**
 * receivers kept per token, and how many of the largest a read looks at: a staking contract
 * receives the supply it holds in many stakes, so what each received is summed while it is kept
 */
const RECEIVERS_KEPT = 32;
const RECEIVERS_READ = 6;
/** following live, this many new buyers since the last read read the token again (a cadence that follows its activity) */
export const NEW_BUYERS_READ = 5;

/**
 * What the watch knows, kept with the ingester's cursor so that a restart reads tokens as a run
 * straight through would (a token's deployer comes from its launch, long before the restart).
 */
export const WatchState = z.object({
  tokens: z.array(
    z.object({
      token: z.string(),
      deployer: z.string().optional(),
      owner: z.string().nullable().optional(),
      pools: z.array(z.string()),
      lastReadTs: z.number(),
      lastActiveTs: z.number(),
      buyers: z.array(z.string()).optional(),
      newBuyers: z.number().optional(),
      offered: z.array(z.string()).optional(),
      dependencies: z.array(z.string()).optional(),
      providers: z.record(z.string(), z.string()).optional(),
      receivers: z.array(z.object({ to: z.string(), amount: z.number() })).optional(),
    }),
  ),
  atHead: z.array(z.string()),
});
export type WatchState = z.infer<typeof WatchState>;

export interface ContractWatchOptions {
  chain: string;
  /** absent when contract reads are off: the watch then only keeps which tokens trade, and on which pool (the candle source's targets) */
  inspector?: Inspector;
  resolver: Resolver;
  quotes: Quotes;
  /** seconds of chain time after which a trading token is read again (live only) */
  intervalSec: number;
  onError?: (token: Addr, block: number, err: unknown) => void;
  /** wallets the deployer funded (funding.ts): deployer side where a V3 position may be moved to */
  fundedBy?: (deployer: Addr) => Addr[];
}

export function createContractWatch(opts: ContractWatchOptions) {
  const tokens = new Map<Addr, Watched>();
  const atHead = new Set<Addr>();
  /** a token, deployer, owner, pool or read changed since state() was last taken */
  let dirty = false;

  function watched(token: Addr): Watched {
    let w = tokens.get(token);
    if (!w) {
      tokens.set(token, (w = { pools: new Set(), lastReadTs: -1, lastActiveTs: -1, buyers: [], newBuyers: 0, offered: [], dependencies: [], providers: {}, receivers: [] }));
      dirty = true;
    }
    return w;
  }

  /** tokens quiet this long (chain time) are forgotten: the map stays the size of what trades */
  const FORGET_AFTER_S = 30 * 86400;
  const PRUNE_EVERY_S = 86400;
  let lastPrune = -1;
  function prune(nowTs: number): void {
    if (lastPrune < 0) {
      lastPrune = nowTs;
      return;
    }
    lastPrune = nowTs;
    for (const [token, w] of tokens) {
      if (w.lastActiveTs >= 0 && w.lastActiveTs < nowTs - FORGET_AFTER_S) {
        setDependencies(token, w, []);
        tokens.delete(token);
        atHead.delete(token);
        dirty = true;
      }
    }
  }

  /** dependency → the tokens whose transfers may call it */
  const dependents = new Map<Addr, Set<Addr>>();
  function setDependencies(token: Addr, w: Watched, list: Addr[]): void {
    for (const d of w.dependencies) dependents.get(d)?.delete(token);
    w.dependencies = list;
    for (const d of list) {
      let set = dependents.get(d);
      if (!set) dependents.set(d, (set = new Set()));
      set.add(token);
    }
    dirty = true;
  }

  function noteBuyer(w: Watched, buyer: Addr): void {
    if (w.buyers[0] === buyer) return;
    if (!w.buyers.includes(buyer)) w.newBuyers += 1;
    w.buyers = [buyer, ...w.buyers.filter((b) => b !== buyer)].slice(0, BUYERS_KEPT);
    dirty = true;
  }

  function noteProvider(w: Watched, provider: Addr, pool: Addr): void {
    if (w.providers[provider] !== undefined) return;
    const firstOfPool = !Object.values(w.providers).includes(pool);
    if (!firstOfPool && Object.keys(w.providers).length >= PROVIDERS_KEPT) return;
    w.providers[provider] = pool;
      dirty = true;
    }

  /** a transfer's recipient among the largest receivers (pools and the burn addresses are no holders) */
  function noteReceiver(w: Watched, to: Addr, amount: number): void {
    if (w.pools.has(to) || to === ZERO || to === DEAD) return;
    const cur = w.receivers.find((r) => r.to === to);
    const last = w.receivers[RECEIVERS_KEPT - 1];
    if (!cur && last && last.amount >= amount) return;
    const total = (cur?.amount ?? 0) + amount;
    w.receivers = [...w.receivers.filter((r) => r.to !== to), { to, amount: total }].sort((a, b) => b.amount - a.amount).slice(0, RECEIVERS_KEPT);
    dirty = true;
  }

  function fire(fired: Map<Addr, Trigger>, token: Addr, t: Trigger): void {
    const cur = fired.get(token);
    if (!cur || PRIORITY.indexOf(t) < PRIORITY.indexOf(cur)) fired.set(token, t);
  }

  /** the token a pool trades (not the quote asset), when the pool is known */
  function tokenOfPool(pool: Addr): Addr | undefined {
    const p = opts.resolver.peekPool(pool);
    return p ? orient(opts.quotes, p)?.token : undefined;
  }

  async function read(token: Addr, trigger: Trigger, block: Pick<BlockContext, 'number' | 'hash' | 'timestamp'>): Promise<ContractFacts | undefined> {
    const w = watched(token);
    if (!opts.inspector) return undefined;
    try {
      const holders = [...w.buyers.filter((b) => !w.offered.includes(b)), ...w.buyers.filter((b) => w.offered.includes(b))];
      const providers = Object.keys(w.providers) as Addr[];
      const receivers = w.receivers.slice(0, RECEIVERS_READ).map((r) => r.to);
      const funded = w.deployer ? (opts.fundedBy?.(w.deployer) ?? []) : [];
      const facts = await opts.inspector.inspect({ token, block, trigger, chain: opts.chain, deployer: w.deployer, knownPools: [...w.pools], holders, providers, receivers, funded });
      w.lastReadTs = block.timestamp;
      w.newBuyers = 0;
      const simulated = (facts.holderSims ?? []).map((h) => h.holder as Addr);
      w.offered = [...new Set([...simulated, ...w.offered])].slice(0, 2 * BUYERS_KEPT);
      setDependencies(token, w, (facts.dependencies ?? []).map((d) => d.address as Addr));
      dirty = true;
      w.owner = facts.owner as Addr | null;
      for (const p of facts.pools) w.pools.add(p.pool as Addr);
      atHead.delete(token);
      return facts;
    } catch (err) {
      if (!isStateUnavailable(err)) throw err;
      atHead.add(token);
      dirty = true;
      opts.onError?.(token, block.number, err);
      return undefined;
    }
  }

  return {
    /**
     * The facts to publish with a block: reads of the tokens its events, logs and transactions
     * fired a trigger for. `live` adds the scheduled re-reads.
     */
    async factsFor(block: BlockContext, events: readonly ChainEvent[], prepared: readonly PreparedLog[], mode: { live: boolean }): Promise<ContractFacts[]> {
      const fired = new Map<Addr, Trigger>();
      for (const e of events) {
        if (e.type === 'candle' || e.type === 'contract') continue;
        const token = e.token as Addr;
        if (e.type === 'transfer' && !tokens.has(token)) continue; // a token with no pool is not followed
        // the chain's quote assets (WETH, the stablecoins) are configured as trusted, not judged: a WETH/USDC pool makes WETH its token
        if (token === opts.quotes.weth || opts.quotes.stables.includes(token)) continue;
        const w = watched(token);
        w.lastActiveTs = Math.max(w.lastActiveTs, e.timestamp);
        if (e.type === 'pool_created') {
          w.deployer = e.deployer as Addr;
          w.pools.add(e.pool as Addr);
          dirty = true;
          fire(fired, token, 'launch');
        } else if (e.type === 'liquidity') {
          if (!w.pools.has(e.pool as Addr)) dirty = true;
          w.pools.add(e.pool as Addr);
          if (e.action === 'add' && !e.removed) noteProvider(w, e.provider as Addr, e.pool as Addr);
          fire(fired, token, 'liquidity');
        } else if (e.type === 'swap' || e.type === 'sync') {
          if (!w.pools.has(e.pool as Addr)) dirty = true;
          w.pools.add(e.pool as Addr);
          if (e.type === 'swap' && e.side === 'buy') noteBuyer(w, e.trader as Addr);
        } else if (e.type === 'transfer' && !e.funding) noteReceiver(w, e.to as Addr, e.amount);
        if (w.lastReadTs < 0) fire(fired, token, 'first-seen');
        else if (mode.live && (e.timestamp - w.lastReadTs >= opts.intervalSec || w.newBuyers >= NEW_BUYERS_READ)) fire(fired, token, 'schedule');
      }
      for (const { decoded } of prepared) {
        if (decoded.kind === 'ownerEvent' && tokens.has(decoded.contract)) fire(fired, decoded.contract, 'ownership');
        if (decoded.kind === 'transfer') {
          const token = tokenOfPool(decoded.token);
          if (token && tokens.has(token)) fire(fired, token, 'liquidity'); // LP tokens moved: burned, locked, sold
        }
      }
      for (const c of block.calls ?? []) {
        const w = tokens.get(c.to);
        if (w && (c.from === w.deployer || (w.owner && c.from === w.owner)) && !HOLDER_CALLS.has(c.selector ?? '')) fire(fired, c.to, 'owner');
        // a guard or fee manager called: what the token's transfers do may have changed without a call to the token
        for (const token of dependents.get(c.to) ?? []) if (!HOLDER_CALLS.has(c.selector ?? '')) fire(fired, token, 'dependency');
      }
      if (block.timestamp - lastPrune >= PRUNE_EVERY_S) prune(block.timestamp);
      // the tokens at once (the RPC limiter paces their calls), published in the order they fired
      const facts = await Promise.all([...fired].map(([token, trigger]) => read(token, trigger, block)));
      return facts.filter((f): f is ContractFacts => f !== undefined);
    },

    /** what the watch knows, to keep with a cursor; undefined when nothing kept changed since the last call (`force` takes it anyway) */
    state(force = false): WatchState | undefined {
      if (!dirty && !force) return undefined;
      dirty = false;
      return {
        tokens: [...tokens].map(([token, w]) => ({
          token, deployer: w.deployer, owner: w.owner, pools: [...w.pools], lastReadTs: w.lastReadTs, lastActiveTs: w.lastActiveTs,
          buyers: w.buyers, newBuyers: w.newBuyers, offered: w.offered, dependencies: w.dependencies, providers: w.providers, receivers: w.receivers,
        })),
        atHead: [...atHead],
      };
    },

    /** takes back what a cursor kept (before the first block after it) */
    restore(state: WatchState): void {
      tokens.clear();
      atHead.clear();
      dependents.clear();
      for (const t of state.tokens) {
        const buyers = { buyers: (t.buyers ?? []) as Addr[], newBuyers: t.newBuyers ?? 0, offered: (t.offered ?? []) as Addr[] };
        const kept = { pools: new Set(t.pools as Addr[]), lastReadTs: t.lastReadTs, lastActiveTs: t.lastActiveTs, ...buyers, dependencies: [], providers: (t.providers ?? {}) as Record<string, Addr>, receivers: (t.receivers ?? []) as Watched['receivers'] };
        const w: Watched = { deployer: t.deployer as Addr | undefined, owner: t.owner as Addr | null | undefined, ...kept };
        tokens.set(t.token as Addr, w);
        setDependencies(t.token as Addr, w, (t.dependencies ?? []) as Addr[]);
      }
      for (const t of state.atHead) atHead.add(t as Addr);
    },

    /** tokens with a known pool that traded since `sinceTs` (chain time), each with its first pool (the candle source's targets) */
    tracked(sinceTs: number): { token: Addr; pool: Addr }[] {
      const out: { token: Addr; pool: Addr }[] = [];
      for (const [token, w] of tokens) {
        const pool = w.pools.values().next().value;
        if (pool && w.lastActiveTs >= sinceTs) out.push({ token, pool });
      }
      return out;
    },

    /** tokens to read at the head (a backfill's end): those whose read at an old block found no state, and those active since `sinceTs` */
    headReads(sinceTs: number): Addr[] {
      const out = new Set(atHead);
      for (const [token, w] of tokens) if (w.lastActiveTs >= sinceTs) out.add(token);
      return [...out];
    },

    /** reads these tokens at `block` (the head a backfill ended at) */
    async readAll(list: Addr[], block: Pick<BlockContext, 'number' | 'hash' | 'timestamp'>): Promise<ContractFacts[]> {
      const out: ContractFacts[] = [];
      // four tokens at a time: the end of a backfill may hold thousands of active tokens
      for (let i = 0; i < list.length; i += 4) {
        const facts = await Promise.all(list.slice(i, i + 4).map((token) => read(token, 'head', block)));
        out.push(...facts.filter((f): f is ContractFacts => f !== undefined));
      }
      return out;
    },
  };
}
export type ContractWatch = ReturnType<typeof createContractWatch>;
