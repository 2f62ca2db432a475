/**
 * Who bought at the launch, and who supplied its liquidity: snipers (wallets whose first buy landed in the first blocks of the
 * token's first pool) and same-block bundles (several wallets' first buys in one early block, as a
 * bundler lands them), each with the share of the supply those wallets hold now. The first buys of
 * the early blocks are kept apart from the trader records (those retire quiet wallets on a busy
 * token; a sniper that holds is quiet), counted per block and wallet so a retraction takes one
 * back exactly. Whoever added liquidity in those blocks is deployer side like the pool's first
 * provider (an attacker's dust add first does not hide the wallet that supplies the rest). Pure.
 */
import type { LaunchBuyers } from '../../schemas/token.ts';

export const LAUNCH = {
  /** a sniper's first buy is in the pool-creation block or the next ones: this many blocks in all */
  sniperBlocks: 3,
  /** bundles are looked for in this many blocks from the pool's creation (later, a busy block is just busy) */
  bundleBlocks: 20,
  /** a bundle: at least this many wallets' first buys in one block */
  bundleMinWallets: 3,
  /** early buys kept per token; beyond, an airdrop of buyers is not followed further */
  kept: 400,
} as const;

/** `${block}:${wallet}` → buys folded (a retraction takes one back) */
export type EarlyBuys = Record<string, number>;

/** folds a buy or a liquidity add (sign 1), or its retraction (sign -1), of `wallet` at `block` into the early ones */
export function foldEarly(early: EarlyBuys, createdBlock: number | null, block: number, wallet: string, sign: 1 | -1): void {
  if (createdBlock === null || block < createdBlock || block >= createdBlock + LAUNCH.bundleBlocks) return;
  const key = `${block}:${wallet}`;
  const n = early[key];
  if (sign > 0) {
    if (n === undefined && Object.keys(early).length >= LAUNCH.kept) return;
    early[key] = (n ?? 0) + 1;
  } else if (n !== undefined) {
    if (n <= 1) delete early[key];
    else early[key] = n - 1;
  }
}

/** the wallets of the early buys or adds */
export function earlyWallets(early: EarlyBuys): string[] {
  return [...new Set(Object.keys(early).map((key) => key.slice(key.indexOf(':') + 1)))];
}

/**
 * The snipers and bundles of the launch, with the share of `supply` their wallets hold now
 * (`balanceOf`); the deployer is neither (its own first buy is its launch)
 */
export function launchBuyers(early: EarlyBuys, createdBlock: number | null, deployer: string | null, balanceOf: (w: string) => number, supply: number): LaunchBuyers {
  const first = new Map<string, number>();
  for (const key of Object.keys(early)) {
    const [b, wallet] = key.split(':') as [string, string];
    const block = Number(b);
    if (wallet === deployer) continue;
    if (!first.has(wallet) || block < (first.get(wallet) as number)) first.set(wallet, block);
  }
  const byBlock = new Map<number, string[]>();
  for (const [wallet, block] of first) byBlock.set(block, [...(byBlock.get(block) ?? []), wallet]);
  const snipers = [...first].filter(([, block]) => createdBlock !== null && block < createdBlock + LAUNCH.sniperBlocks).map(([w]) => w);
  const bundles = [...byBlock].filter(([, ws]) => ws.length >= LAUNCH.bundleMinWallets);
  const bundled = bundles.flatMap(([, ws]) => ws);
  const share = (ws: string[]) => (supply > 0 ? Math.round((1000 * ws.reduce((s, w) => s + Math.max(0, balanceOf(w)), 0)) / supply) / 10 : 0);
  return {
    snipers: { wallets: snipers.length, supplySharePct: share(snipers) },
    bundles: { count: bundles.length, wallets: bundled.length, supplySharePct: share(bundled), blocks: bundles.map(([b]) => b).sort((a, b) => a - b) },
  };
}
