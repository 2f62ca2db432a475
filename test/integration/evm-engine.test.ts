/**
 * The EVM ingester feeding the real engine, on a real local node (hardhat 2) with the real Uniswap
 * V2 contracts: what the token snapshots say after swaps through the router, after a reorg, and
 * after a backfill that was killed halfway.
 *
 * This suite runs its own node on EVM_ENGINE_DEVNET_PORT (default 18547): evm_revert rewinds a
 * node for everyone, so its reorg must not interleave with test/integration/evm.test.ts.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { volumeBand } from '../../engine/token/derive.ts';
import type { TokenState } from '../../engine/token/state.ts';
import { createDevnetClient, deployUniswap, makeTrades, startDevnet, type Devnet, type DevnetClient, type TradeRecord, type UniswapDeployment } from '../../infra/devnet/index.ts';
import { createEmbeddedStore } from '../../infra/store/embedded.ts';
import type { Store } from '../../infra/store/types.ts';
import { waitFor } from '../contract/wait.ts';
import { devnetEnv, devnetTokenSnapshot, startDevnetStack, type DevnetStack } from './devnet-stack.ts';

const root = resolve(fileURLToPath(new URL('../../', import.meta.url)));
const port = Number(process.env.EVM_ENGINE_DEVNET_PORT ?? 18547);

let devnet: Devnet;
let client: DevnetClient;
let d: UniswapDeployment;
let work: string;
let deploymentFile: string;
/** every canonical trade made on this deployment, in order */
const canonical: TradeRecord[] = [];

function env(dataDir: string): Record<string, string> {
  return devnetEnv(dataDir, devnet.rpcUrl, deploymentFile);
}

interface TokenSnap {
  data: { swaps: number };
  activity: Record<'m5' | 'h1' | 'h24', { buys: number; sells: number; buyers: number; sellers: number; buySharePct: number; netFlow: string; volumeBand: string }>;
}

const tokenSnapshot = (store: Store, token: string) => devnetTokenSnapshot<TokenSnap>(store, token);

const quoteUsd = (t: TradeRecord) => (t.quote === d.weth.toLowerCase() ? d.wethUsd : 1);
const tradeUsd = (t: TradeRecord) => Number(formatEther(t.side === 'buy' ? t.amountIn : t.amountOut)) * quoteUsd(t);
const tokensOf = () => [d.tokens.TKA, d.tokens.TKB, d.tokens.TKC].map((t) => t.toLowerCase());

/** what the engine must say of a token given the canonical trades */
function expected(token: string, trades: TradeRecord[]) {
  const mine = trades.filter((t) => t.token === token);
  const buys = mine.filter((t) => t.side === 'buy');
  const sells = mine.filter((t) => t.side === 'sell');
  const buyUsd = buys.reduce((s, t) => s + tradeUsd(t), 0);
  const sellUsd = sells.reduce((s, t) => s + tradeUsd(t), 0);
  return { swaps: mine.length, buys: buys.length, sells: sells.length, buyUsd, sellUsd, traders: new Set(mine.map((t) => t.trader)) };
}

function stateUsd(s: TokenState): { buyUsd: number; sellUsd: number; buys: number; sells: number } {
  const out = { buyUsd: 0, sellUsd: 0, buys: 0, sells: 0 };
  for (const t of Object.values(s.traders)) {
    out.buyUsd += t.buyUsd;
    out.sellUsd += t.sellUsd;
    out.buys += t.buys;
    out.sells += t.sells;
  }
  return out;
}

type Stack = DevnetStack;
const startStack = (dataDir: string): Promise<Stack> => startDevnetStack(env(dataDir));

/** runs `intel backfill` as a child process; `killWhen` sees each stderr line and may SIGKILL it */
function backfillCli(dataDir: string, args: string[], killWhen?: (line: string) => boolean) {
  const childEnv: Record<string, string | undefined> = { ...process.env, ...env(dataDir), LOG_LEVEL: 'warn' };
  delete childEnv.KAFKA_BROKERS;
  delete childEnv.CLICKHOUSE_URL;
  // node itself runs the CLI (the tsx binary would run it in a grandchild that SIGKILL does not reach)
  const child = spawn(process.execPath, ['--import', 'tsx', 'bin/intel.ts', 'backfill', ...args], { cwd: root, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let buf = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
    buf += c.toString();
    let i: number;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      if (killWhen?.(line) && child.exitCode === null) child.kill('SIGKILL');
    }
  });
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((res) =>
    child.on('close', (code, signal) => res({ code, signal, stdout, stderr })),
  );
}

async function tokenRows(dataDir: string): Promise<Record<string, unknown>> {
  const store = await createEmbeddedStore({ dataDir });
  try {
    const rows = await store.list('snapshots', { prefix: 'token:devnet:' });
    // token-changes compares with the snapshot written an hour before: which snapshots were
    // written depends on where the batches fell, so it is not part of what must be equal
    return Object.fromEntries(
      rows.map((r) => {
        const { changes: _changes, ...rest } = JSON.parse(r.body) as Record<string, unknown>;
        return [r.key, rest];
      }),
    );
  } finally {
    await store.close();
  }
}

beforeAll(async () => {
  devnet = await startDevnet({ port });
  client = createDevnetClient(devnet.rpcUrl);
  d = await deployUniswap(client, { traders: 12 });
  work = mkdtempSync(join(tmpdir(), 'intel-evm-engine-'));
  deploymentFile = join(work, 'deployment.json');
  writeFileSync(deploymentFile, JSON.stringify(d));
}, 180_000);

afterAll(async () => {
  await devnet?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('EVM ingester -> engine -> token snapshots (devnet)', () => {
  let stack: Stack;
  afterAll(async () => {
    await stack?.services.shutdown();
  });

  it('router swaps appear in the token snapshots: buys and sells per activity window, direction, USD volume; lag is exposed and logged', async () => {
    stack = await startStack(join(work, 'live'));
    const trades = await makeTrades(client, d, { count: 30, seed: 11, traders: d.traders.slice(0, 6) });
    canonical.push(...trades);
    await stack.settle(trades[trades.length - 1]!.block);

    for (const token of tokensOf()) {
      const want = expected(token, canonical);
      expect(want.swaps, `trades of ${token}`).toBeGreaterThan(0);
      const snap = await tokenSnapshot(stack.services.store, token);
      expect(snap.data.swaps).toBe(want.swaps);
      for (const w of ['h1', 'h24'] as const) {
        expect(snap.activity[w]).toMatchObject({ buys: want.buys, sells: want.sells });
      }
      expect(snap.activity.h24.buyers).toBe(new Set(canonical.filter((t) => t.token === token && t.side === 'buy').map((t) => t.trader)).size);
      // direction: the share of USD volume that was buying, and the flow it implies
      const buyShare = (100 * want.buyUsd) / (want.buyUsd + want.sellUsd);
      expect(snap.activity.h24.buySharePct).toBeCloseTo(buyShare, 0);
      expect(snap.activity.h24.netFlow).toBe(buyShare >= 55 ? 'inflow' : buyShare <= 45 ? 'outflow' : 'balanced');
      expect(snap.activity.h24.volumeBand).toBe(volumeBand(want.buyUsd + want.sellUsd, want.swaps, 24 * 3600));
      // the USD the engine folded, per side, is what went through the router
      const state = stack.engine.token.state(`devnet:${token}`) as TokenState;
      const got = stateUsd(state);
      expect(got.buys).toBe(want.buys);
      expect(got.sells).toBe(want.sells);
      expect(got.buyUsd).toBeCloseTo(want.buyUsd, 6);
      expect(got.sellUsd).toBeCloseTo(want.sellUsd, 6);
      expect(new Set(Object.keys(state.traders))).toEqual(want.traders);
    }

    // operators: lag per chain on the handle, and in the log with snake_case keys
    expect(stack.ingest.lag().devnet).toMatchObject({ chain: 'devnet', phase: 'live', blocks: 0, seconds: 0 });
    // a line logged while the trades were being mined shows a lag: wait for one logged after
    const seen = stack.logLines.length;
    await waitFor(() => stack.logLines.slice(seen).some((l) => l.msg === 'ingest lag' && l.chain === 'devnet'), 'an ingest lag log line', 5000);
    const line = stack.logLines.slice(seen).find((l) => l.msg === 'ingest lag' && l.chain === 'devnet')!;
    expect(line).toMatchObject({ chain: 'devnet', phase: 'live', lag_blocks: 0, lag_seconds: 0 });
    const metrics = await stack.services.metrics.render();
    expect(metrics).toMatch(/intel_ingest_lag_blocks\{chain="devnet"\} 0/);
  });

  it('reorg: evm_snapshot/evm_revert and different blocks leave no orphaned swap in any snapshot and count no swap twice', async () => {
    const snapshotId = await client.snapshot();
    // orphans: traders that trade nowhere else
    const orphans = await makeTrades(client, d, { count: 4, seed: 21, traders: d.traders.slice(10, 12) });
    await stack.settle(orphans[orphans.length - 1]!.block);
    // the orphaned swaps were folded in before the reorg
    for (const token of tokensOf()) {
      const snap = await tokenSnapshot(stack.services.store, token);
      expect(snap.data.swaps).toBe(expected(token, [...canonical, ...orphans]).swaps);
    }

    await client.revert({ id: snapshotId });
    const replacements = await makeTrades(client, d, { count: 6, seed: 22, traders: d.traders.slice(6, 10) });
    canonical.push(...replacements);
    // the replacement branch is longer: publishing its last block means the reorg was handled
    expect(replacements[replacements.length - 1]!.block).toBeGreaterThan(orphans[orphans.length - 1]!.block);
    await stack.settle(replacements[replacements.length - 1]!.block);

    const orphanTxs = new Set(orphans.map((t) => t.hash.toLowerCase()));
    for (const token of tokensOf()) {
      const want = expected(token, canonical);
      const snap = await tokenSnapshot(stack.services.store, token);
      expect(snap.data.swaps, `swaps of ${token}`).toBe(want.swaps);
      expect(snap.activity.h24).toMatchObject({ buys: want.buys, sells: want.sells });
      const state = stack.engine.token.state(`devnet:${token}`) as TokenState;
      const got = stateUsd(state);
      expect(got).toMatchObject({ buys: want.buys, sells: want.sells });
      expect(got.buyUsd).toBeCloseTo(want.buyUsd, 6);
      expect(got.sellUsd).toBeCloseTo(want.sellUsd, 6);
      expect(new Set(Object.keys(state.traders))).toEqual(want.traders);
      expect(state.txs.filter((t) => orphanTxs.has(t.tx.toLowerCase()))).toEqual([]);
    }
    // the orphans' traders traded only on the orphaned branch: their wallets show no trade
    for (const w of new Set(orphans.map((t) => t.trader))) {
      const row = await stack.services.store.get('snapshots', `wallet:devnet:${w}`);
      if (row) expect((JSON.parse(row.body) as { activity: { buys: number; sells: number } }).activity).toMatchObject({ buys: 0, sells: 0 });
    }
    // the replacement branch's traders are counted once each trade
    for (const w of new Set(replacements.map((t) => t.trader))) {
      const row = await stack.services.store.get('snapshots', `wallet:devnet:${w}`);
      expect(row, `wallet snapshot of ${w}`).toBeDefined();
      const mine = replacements.filter((t) => t.trader === w);
      expect((JSON.parse(row!.body) as { activity: { buys: number; sells: number } }).activity).toMatchObject({
        buys: mine.filter((t) => t.side === 'buy').length,
        sells: mine.filter((t) => t.side === 'sell').length,
      });
    }
    expect(stack.logLines.some((l) => l.msg === 'evm reorg: orphaned events retracted' && l.chain === 'devnet')).toBe(true);
  });

  it('restart: the ingester resumes after its persisted cursor and counts nothing twice', async () => {
    await stack.services.shutdown();
    const more = await makeTrades(client, d, { count: 5, seed: 31, traders: d.traders.slice(0, 6) });
    canonical.push(...more);
    stack = await startStack(join(work, 'live'));
    await stack.settle(more[more.length - 1]!.block);
    for (const token of tokensOf()) {
      const want = expected(token, canonical);
      const snap = await tokenSnapshot(stack.services.store, token);
      expect(snap.data.swaps).toBe(want.swaps);
      expect(snap.activity.h24).toMatchObject({ buys: want.buys, sells: want.sells });
    }
    await stack.ingest.caughtUp;

    // a restart with nothing new on the chain is caught up at once
    await stack.services.shutdown();
    stack = await startStack(join(work, 'live'));
    await Promise.race([stack.ingest.caughtUp, new Promise((_, rej) => setTimeout(() => rej(new Error('caughtUp did not resolve')), 10_000))]);
    expect(stack.ingest.lag().devnet).toMatchObject({ phase: 'live', published: more[more.length - 1]!.block, blocks: 0 });
  });

  it('crash-recovery: `intel backfill` killed halfway and restarted ends with the same token snapshots as one run straight through', async () => {
    // a longer chain: empty blocks one by one, then more trades
    for (let i = 0; i < 150; i++) await client.request({ method: 'evm_mine', params: [] } as never);
    const tail = await makeTrades(client, d, { count: 10, seed: 41 });
    canonical.push(...tail);
    const head = Number(await client.getBlockNumber());
    const from = d.startBlock;
    const mid = from + Math.floor((head - from) / 2);
    const args = ['--chain', 'devnet', '--from', String(from), '--to', String(head), '--with-engine'];

    const straightDir = join(work, 'straight');
    const straight = await backfillCli(straightDir, args);
    expect(straight.code, straight.stderr).toBe(0);
    expect(straight.stdout).toMatch(new RegExp(`backfill devnet blocks ${from}\\.\\.${head}: ${head - from + 1} blocks, \\d+ events in [\\d.]+ s -> \\d+ blocks/s, \\d+ events/s`));

    // killed: small ranges, a low request rate, SIGKILL once the progress passes the middle
    const killedDir = join(work, 'killed');
    let lastDone = -1;
    const killed = await backfillCli(killedDir, [...args, '--range', '8', '--rps', '30', '--progress-ms', '0'], (line) => {
      const m = /devnet blocks (\d+)\/(\d+)/.exec(line);
      if (m && lastDone < mid) lastDone = Number(m[1]);
      return lastDone >= mid;
    });
    expect(killed.signal, killed.stderr).toBe('SIGKILL');
    expect(lastDone).toBeGreaterThanOrEqual(mid);
    expect(lastDone).toBeLessThan(head);

    const resumed = await backfillCli(killedDir, args);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(new RegExp(`resumed backfill:devnet:${from}-${head} after block \\d+`));
    const resumedAfter = Number(/after block (\d+)/.exec(resumed.stderr)![1]);
    expect(resumedAfter).toBeGreaterThanOrEqual(mid);

    const [a, b] = await Promise.all([tokenRows(killedDir), tokenRows(straightDir)]);
    expect(Object.keys(a).sort()).toEqual(Object.keys(b).sort());
    for (const token of tokensOf()) expect(Object.keys(a)).toContain(`token:devnet:${token}`);
    expect(a).toEqual(b);
    // and they count every canonical swap once
    for (const token of tokensOf()) {
      const snap = a[`token:devnet:${token}`] as TokenSnap;
      expect(snap.data.swaps).toBe(expected(token, canonical).swaps);
      expect(snap.activity.h24).toMatchObject({ buys: expected(token, canonical).buys, sells: expected(token, canonical).sells });
    }

    // re-running the finished range fetches nothing and changes nothing
    const again = await backfillCli(killedDir, args);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/already complete/);
    expect(await tokenRows(killedDir)).toEqual(b);
  }, 120_000);
});
