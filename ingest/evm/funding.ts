/**
 * Funding by deployers, for the engine's funding table (a token's insiders are the wallets its
 * deployer first funded; a wallet funded by the deployer of a token it trades is an insider).
 * Swaps' WETH legs are not followed (they are quote transfers), so funding is read here: native
 * value sent by a transaction and WETH Transfer logs. Insiders are usually funded before the
 * launch, when nobody knows the sender will deploy: each sender's recent recipients are kept
 * (bounded, by chain time), and when a pool is created the deployer's recipients go out as WETH
 * `transfer` events of that block; after it, its transfers go out as they happen. The same goes
 * for the wallets the deployer funded, and theirs, to FUNDING_HOPS hops: a fresh hop between the
 * deployer and its snipers hides nobody. A trader's own funders go out too, at its first swap: who
 * first paid it, who first paid that one, to FUNDING_HOPS hops, so the engine finds the clusters
 * traders trade against (a farm's loser paid from the farm's root).
 */
import { LRUCache } from 'lru-cache';
import type { Hex } from 'viem';
import type { ChainEvent, Transfer } from '../../schemas/events.ts';
import { FUNDING_HOPS } from '../../schemas/topics.ts';
import type { Addr, BlockContext } from './decode.ts';
import { toDecimal } from './decode.ts';
import type { PreparedLog } from './processor.ts';
import { DISPERSE_FANOUT, disperseLegs } from './disperse.ts';

export interface FundingOptions {
  chain: string;
  weth: Addr;
  /** how far back (chain seconds) a sender's recipients are remembered for its launch */
  windowSec?: number;
  /** recipients remembered over all senders; beyond it, the senders paid least recently are dropped */
  maxRemembered?: number;
  /**
   * the blocks between two block numbers in which an address sent transactions (sends.ts): a
   * backfill, which reads only blocks with logs, asks it for a new deployer's earlier payments
   */
  history?: (address: Addr, fromBlock: number, toBlock: number) => Promise<BlockContext[]>;
  /**
   * an address's code at a block (undefined or '0x' for a wallet): without it every recipient
   * counts as a wallet; with it a contract is a funder only when the deployer side created it
   */
  code?: (address: Addr, block: number) => Promise<Hex | undefined>;
}

/** wallets named per deployer (fundedBy): the first it funded, down the tree */
export const FUNDED_NAMED = 16;

/** code reads a block may cost; recipients past them count as wallets, as without a node */
export const CODE_READS_PER_BLOCK = 32;
/** an EIP-7702 delegation: the code of a wallet, not of a contract */
const DELEGATION_PREFIX = '0xef0100';
const isContractCode = (code: Hex | undefined): boolean => !!code && code !== '0x' && !code.toLowerCase().startsWith(DELEGATION_PREFIX);

interface Sent {
  to: Addr;
  tx: string;
  amount: number;
  ts: number;
}


/** log indexes of funding events that have no log of their own (native value, a launch's replay) */
const NATIVE_LOG_INDEX = 90_000;
/** ether legs of Disperse calls: DISPERSE_FANOUT indexes per call of the block */
const DISPERSE_LOG_INDEX = 1_000_000;
const REPLAY_LOG_INDEX = 95_000;

interface Payment {
  from: Addr;
  to: Addr;
  amount: number;
  tx: string;
  logIndex: number;
}

/**
 * A block's payments in ether (transaction values) and WETH (Transfer logs). A call that pays many
 * wallets through a Disperse contract is the caller paying each of them: its ether legs are read
 * from its input, its WETH legs leave the contract, and what went into the contract is no payment
 * to it (it pays for everyone who calls it, and would make every later caller's recipients look
 * funded by the first).
 */
function paymentsOf(block: BlockContext, prepared: readonly PreparedLog[], weth: Addr): Payment[] {
  const out: Payment[] = [];
  const dispersals = new Map<string, { from: Addr; via: Addr }>();
  (block.calls ?? []).forEach((c, i) => {
    const legs = c.input ? disperseLegs(c.input) : null;
    if (legs) {
      dispersals.set(c.hash, { from: c.from, via: c.to });
      legs.forEach((l, j) => {
        if (l.token === null && l.value > 0n && l.to !== c.from) out.push({ from: c.from, to: l.to, amount: toDecimal(l.value, 18), tx: c.hash, logIndex: DISPERSE_LOG_INDEX + i * DISPERSE_FANOUT + j });
      });
    } else if (c.value > 0n && c.from !== c.to) out.push({ from: c.from, to: c.to, amount: toDecimal(c.value, 18), tx: c.hash, logIndex: NATIVE_LOG_INDEX + i });
  });
  for (const { log, decoded } of prepared) {
    if (decoded.kind !== 'transfer' || decoded.token !== weth || decoded.from === decoded.to) continue;
    const tx = (log.transactionHash ?? block.hash).toLowerCase();
    const d = dispersals.get(tx);
    if (d && decoded.to === d.via) continue;
    out.push({ from: d && decoded.from === d.via ? d.from : decoded.from, to: decoded.to, amount: toDecimal(decoded.value, 18), tx, logIndex: log.logIndex ?? 0 });
  }
  return out;
}

export function createFundingTracker(opts: FundingOptions) {
  const windowSec = opts.windowSec ?? 7 * 86400;
  const max = opts.maxRemembered ?? 200_000;
  // bounded by the payments kept over all senders: the sender paid least recently goes first
  const sent = new LRUCache<Addr, Sent[]>({ maxSize: max, sizeCalculation: (l) => l.length });
  /** each wallet's first payment (bounded like `sent`: the least recently paid goes first), `out` once published */
  const firstPaid = new LRUCache<Addr, { from: Addr; tx: string; amount: number; out: boolean }>({ max });
  const deployers = new Set<Addr>();
  /** wallets below a deployer, by hops (1: it paid them directly): their payments are followed too */
  const below = new Map<Addr, number>();
  const hopsOf = (a: Addr): number | undefined => (deployers.has(a) ? 0 : below.get(a));
  /** the deployer each wallet below is followed for, and each deployer's first FUNDED_NAMED wallets (not kept by a cursor) */
  const rootOf = new Map<Addr, Addr>();
  const tree = new Map<Addr, Addr[]>();
  /** addresses whose code was read: true for a contract */
  const contract = new LRUCache<Addr, boolean>({ max: 100_000 });
  /** contracts created by a transaction, by their creator */
  const creatorOf = new LRUCache<Addr, Addr>({ max: 100_000 });
  /**
   * Whether a payment to `to` funds it. A contract that merely received ether (a router the
   * deployer swapped through) pays whoever it trades with, so it is no funder; one the deployer
   * side created (a forwarder) is, since it pays whom they tell it to.
   */
  function funds(to: Addr, side?: ReadonlySet<Addr>): boolean {
    if (contract.get(to) !== true) return true;
    const creator = creatorOf.get(to);
    return creator !== undefined && (hopsOf(creator) !== undefined || !!side?.has(creator));
  }
  /** a payment from `from` (followed, at `hops`) makes its recipient followed one hop further down */
  function descend(from: Addr, to: Addr, hops: number): boolean {
    if (deployers.has(to) || below.has(to) || hops + 1 > FUNDING_HOPS) return false;
    below.set(to, hops + 1);
    const root = deployers.has(from) ? from : rootOf.get(from);
    if (root) {
      rootOf.set(to, root);
      const named = tree.get(root) ?? [];
      if (named.length < FUNDED_NAMED) tree.set(root, [...named, to]);
    }
    return hops + 1 < FUNDING_HOPS;
  }

  function remember(from: Addr, s: Sent): void {
    const list = sent.peek(from) ?? [];
    list.push(s);
    // taken out and set again: lru-cache sizes an entry when it is set, not when its list grows
    // (and a list longer than `max` is not kept at all)
    sent.delete(from);
    sent.set(from, list);
  }

  /** reads the code of `addresses` not read before, within the block's budget of reads */
  async function readCodes(code: NonNullable<FundingOptions['code']>, addresses: Iterable<Addr>, block: number, budget: { left: number }): Promise<void> {
    const wanted = [...new Set(addresses)].filter((a) => !contract.has(a)).slice(0, Math.max(0, budget.left));
    budget.left -= wanted.length;
    await Promise.all(wanted.map(async (a) => {
      // a read that fails leaves the address unknown: it counts as a wallet, as without a node
      const c = await code(a, block).catch(() => null);
      if (c !== null) contract.set(a, isContractCode(c));
    }));
  }

  return {
    /** the deployers seen (their transfers go out as funding as they happen), to keep with a cursor */
    deployers: (): Addr[] => [...deployers],
    /** the wallets below the deployers, by hops, to keep with a cursor */
    followed: (): Record<string, number> => Object.fromEntries(below),
    /** the first FUNDED_NAMED wallets down `deployer`'s funding tree, as followed since this process started */
    fundedBy: (deployer: Addr): Addr[] => tree.get(deployer) ?? [],
    /** how many deployers and wallets below them are known (a change means the kept lists are stale) */
    deployerCount: (): number => deployers.size + below.size,
    /** takes back the deployers (and the wallets below them) a cursor kept */
    restoreDeployers(list: readonly string[], followed: Record<string, number> = {}): void {
      deployers.clear();
      for (const d of list) deployers.add(d as Addr);
      below.clear();
      rootOf.clear();
      tree.clear();
      for (const [a, hops] of Object.entries(followed)) below.set(a as Addr, hops);
    },
    /**
     * Before eventsFor, in a backfill: a block's new deployers' native payments since `fromBlock`
     * in blocks the backfill did not read (no logs), remembered for the launch's replay.
     */
    async lookBack(block: BlockContext, events: readonly ChainEvent[], fromBlock: number): Promise<void> {
      if (!opts.history) return;
      for (const e of events) {
        if (e.type !== 'pool_created' || e.removed || deployers.has(e.deployer as Addr)) continue;
        const d = e.deployer as Addr;
        const known = new Set((sent.peek(d) ?? []).map((s) => s.tx));
        const found: Sent[] = [];
        for (const b of await opts.history(d, fromBlock, block.number - 1)) {
          for (const c of b.created ?? []) creatorOf.set(c.address, c.from);
          for (const c of b.calls ?? []) {
            if (c.from === d && c.value > 0n && c.to !== d && !known.has(c.hash)) found.push({ to: c.to, tx: c.hash, amount: toDecimal(c.value, 18), ts: b.timestamp });
          }
        }
        for (const s of found.sort((x, y) => x.ts - y.ts || (x.tx < y.tx ? -1 : 1))) remember(d, s);
      }
    },
    /**
     * Before eventsFor: reads the code of the addresses the deployer side pays in this block, and of
     * those a new deployer's replay pays, hop by hop, past no contract that is no funder; at most
     * CODE_READS_PER_BLOCK addresses not read before, the nearest hops first.
     */
    async readRecipients(block: BlockContext, events: readonly ChainEvent[], prepared: readonly PreparedLog[]): Promise<void> {
      if (!opts.code) return;
      const budget = { left: CODE_READS_PER_BLOCK };
      const side = new Set<Addr>();
      for (const t of paymentsOf(block, prepared, opts.weth)) if (hopsOf(t.from) !== undefined || side.has(t.from)) side.add(t.to);
      await readCodes(opts.code, side, block.number, budget);
      let level = events.flatMap((e) => (e.type === 'pool_created' && !e.removed && !deployers.has(e.deployer as Addr) ? [e.deployer as Addr] : []));
      for (let hop = 0; hop < FUNDING_HOPS && level.length > 0; hop++) {
        for (const a of level) side.add(a);
        const next = level.flatMap((from) => (sent.peek(from) ?? []).map((x) => x.to)).filter((a) => !side.has(a));
        await readCodes(opts.code, next, block.number, budget);
        level = [...new Set(next)].filter((a) => funds(a, side));
      }
      // the payers up a new trader's chain: a contract among them is no funder of whom it pays
      const payers: Addr[] = [];
      for (const e of events) {
        if (e.type !== 'swap' || e.removed) continue;
        let w = e.trader as Addr;
        for (let hop = 0, p = firstPaid.peek(w); hop < FUNDING_HOPS && p && !p.out; hop++, p = firstPaid.peek(w)) {
          payers.push(p.from);
          w = p.from;
        }
      }
      await readCodes(opts.code, payers, block.number, budget);
    },
    /** the funding events of a block: deployers' transfers, and a new deployer's earlier ones */
    eventsFor(block: BlockContext, events: readonly ChainEvent[], prepared: readonly PreparedLog[]): Transfer[] {
      const out: Transfer[] = [];
      for (const c of block.created ?? []) creatorOf.set(c.address, c.from);
      const origin = (tx: string, logIndex: number) => ({ chain: opts.chain, block: block.number, blockHash: block.hash.toLowerCase(), tx, logIndex, timestamp: block.timestamp });
      // a pool's WETH legs (a deployer's liquidity in, a seller's proceeds out) are trades, not funding: a pool funded by its deployer would make every seller an insider
      const pools = new Set(events.flatMap((e) => ('pool' in e && typeof e.pool === 'string' ? [e.pool as Addr] : [])));
      for (const t of paymentsOf(block, prepared, opts.weth)) {
        if (pools.has(t.from) || pools.has(t.to)) continue;
        if (!firstPaid.has(t.to)) firstPaid.set(t.to, { from: t.from, tx: t.tx, amount: t.amount, out: false });
        const hops = hopsOf(t.from);
        if (hops !== undefined && hops < FUNDING_HOPS) {
          if (!funds(t.to)) continue;
          const first = firstPaid.get(t.to);
          if (first?.tx === t.tx) first.out = true;
          out.push({ ...origin(t.tx, t.logIndex), type: 'transfer', token: opts.weth, from: t.from, to: t.to, amount: t.amount, funding: true });
          descend(t.from, t.to, hops);
        } else remember(t.from, { to: t.to, tx: t.tx, amount: t.amount, ts: block.timestamp });
      }
      let replay = 0;
      // a trader's first payment, and its payer's, up the chain: once each
      for (const e of events) {
        if (e.type !== 'swap' || e.removed) continue;
        let w = e.trader as Addr;
        for (let hop = 0; hop < FUNDING_HOPS && replay < 4_999; hop++) {
          const p = firstPaid.get(w);
          // a contract that merely paid (a router, a payment service) funds nobody, and its own payer is not followed
          if (!p || p.out || !funds(p.from)) break;
          p.out = true;
          out.push({ ...origin(p.tx, REPLAY_LOG_INDEX + replay++), type: 'transfer', token: opts.weth, from: p.from, to: w, amount: p.amount, funding: true });
          w = p.from;
        }
      }
      for (const e of events) {
        if (e.type !== 'pool_created' || e.removed) continue;
        const d = e.deployer as Addr;
        if (deployers.has(d)) continue;
        deployers.add(d);
        below.delete(d);
        // the deployer's earlier payments, then those of the wallets it paid, hop by hop
        const queue: Addr[] = [d];
        for (let from = queue.shift(); from !== undefined; from = queue.shift()) {
          const hops = hopsOf(from) ?? 0;
          for (const s of sent.peek(from) ?? []) {
            if (s.ts < block.timestamp - windowSec || replay >= 4_999 || !funds(s.to)) continue;
            out.push({ ...origin(s.tx, REPLAY_LOG_INDEX + replay++), type: 'transfer', token: opts.weth, from, to: s.to, amount: s.amount, funding: true });
            if (descend(from, s.to, hops)) queue.push(s.to);
          }
          sent.delete(from);
        }
      }
      return out;
    },
  };
}
export type FundingTracker = ReturnType<typeof createFundingTracker>;
