/**
 * Backfill throughput on the devnet through the real command: starts a node of its own (port
 * BENCH_DEVNET_PORT, default 18549, so no test's evm_revert touches it), deploys Uniswap V2,
 * generates ~N blocks (trades from many accounts mixed with empty blocks, mined one by one in
 * JSON-RPC batches so every block has a true parent hash), then runs
 * `intel backfill --chain devnet --from <deployment> --to head` in a child process with a fresh
 * DATA_DIR and prints its progress and its final blocks/s and events/s line.
 *
 *   npx tsx bench/evm-backfill.ts [blocks=10000] [trades=600] [--per-block K] [--with-engine] [--keep]
 *
 * --per-block K packs K router swaps into each block (automine off, sent as one JSON-RPC batch,
 * then evm_mine) until `trades` are made: a dense chain whose getLogs over the whole range passes
 * viem's 10 MB (the setup: 8,000 swaps, `--per-block 40` gives 200 blocks of them).
 *
 * --keep leaves the node and the work dir (stop the node with DEVNET_PORT=18549 infra/devnet/devnet.sh stop).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodeFunctionData, parseEther, type Address } from 'viem';
import { createDevnetClient, deployUniswap, makeTrades, routerAbi, startDevnet, type UniswapDeployment } from '../infra/devnet/index.ts';

const root = resolve(fileURLToPath(new URL('../', import.meta.url)));
const positional = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && all[i - 1] !== '--per-block');
const totalBlocks = Number(positional[0] ?? 10_000);
const tradeCount = Number(positional[1] ?? 600);
const withEngine = process.argv.includes('--with-engine');
const perBlockAt = process.argv.indexOf('--per-block');
const perBlock = perBlockAt >= 0 ? Number(process.argv[perBlockAt + 1]) : 0;
const keep = process.argv.includes('--keep');
const port = Number(process.env.BENCH_DEVNET_PORT ?? 18549);

/** mines `n` empty blocks, one evm_mine each, `batch` per HTTP request */
async function mineEmpty(rpcUrl: string, n: number, batch = 500): Promise<void> {
  for (let done = 0; done < n; done += batch) {
    const size = Math.min(batch, n - done);
    const body = Array.from({ length: size }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'evm_mine', params: [] }));
    const res = await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`evm_mine batch: HTTP ${res.status}`);
    const out = (await res.json()) as { error?: unknown }[];
    const err = out.find((r) => r.error);
    if (err) throw new Error(`evm_mine: ${JSON.stringify(err.error)}`);
  }
}

async function rpc(rpcUrl: string, body: unknown): Promise<unknown> {
  const res = await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`devnet: HTTP ${res.status}`);
  return res.json();
}

/** `count` router swaps of TKA/TKB from the traders, `perBlock` in each block */
async function denseTrades(rpcUrl: string, d: UniswapDeployment, count: number, perBlock: number): Promise<void> {
  await rpc(rpcUrl, { jsonrpc: '2.0', id: 1, method: 'evm_setAutomine', params: [false] });
  try {
    for (let done = 0; done < count; done += perBlock) {
      const batch = Array.from({ length: Math.min(perBlock, count - done) }, (_, i) => {
        const n = done + i;
        const trader = d.traders[n % d.traders.length] as Address;
        const token = (n % 2 === 0 ? d.tokens.TKA : d.tokens.TKB) as Address;
        const buy = n % 3 !== 0;
        const data = buy
          ? encodeFunctionData({ abi: routerAbi, functionName: 'swapExactETHForTokens', args: [0n, [d.weth, token], trader, DEADLINE] })
          : encodeFunctionData({ abi: routerAbi, functionName: 'swapExactTokensForETH', args: [parseEther('5'), 0n, [token, d.weth], trader, DEADLINE] });
        return { jsonrpc: '2.0', id: i, method: 'eth_sendTransaction', params: [{ from: trader, to: d.router, data, gas: '0x7a120', value: buy ? '0x16345785d8a0000' : '0x0' }] };
      });
      const out = (await rpc(rpcUrl, batch)) as { error?: unknown }[];
      const err = out.find((r) => r.error);
      if (err) throw new Error(`eth_sendTransaction: ${JSON.stringify(err.error)}`);
      await rpc(rpcUrl, { jsonrpc: '2.0', id: 1, method: 'evm_mine', params: [] });
    }
  } finally {
    await rpc(rpcUrl, { jsonrpc: '2.0', id: 1, method: 'evm_setAutomine', params: [true] });
  }
}

const DEADLINE = 4_000_000_000n;
const devnet = await startDevnet({ port });
const work = mkdtempSync(join(tmpdir(), 'intel-bench-evm-'));
try {
  const client = createDevnetClient(devnet.rpcUrl);
  const t0 = Date.now();
  const d = await deployUniswap(client, { traders: 20 });
  const deployed = Number(await client.getBlockNumber());
  if (perBlock > 0) await denseTrades(devnet.rpcUrl, d, tradeCount, perBlock);
  else {
    const emptyBlocks = Math.max(0, totalBlocks - (deployed - d.startBlock + 1) - tradeCount);
    const emptyPerTrade = Math.floor(emptyBlocks / Math.max(1, tradeCount));
    for (let i = 0; i < tradeCount; i++) {
      await makeTrades(client, d, { count: 1, seed: 1000 + i });
      if (emptyPerTrade > 0) await mineEmpty(devnet.rpcUrl, emptyPerTrade);
    }
  }
  const head0 = Number(await client.getBlockNumber());
  const rest = d.startBlock + totalBlocks - 1 - head0;
  if (rest > 0) await mineEmpty(devnet.rpcUrl, rest);
  const head = Number(await client.getBlockNumber());
  const from = d.startBlock;
  console.log(`generated blocks ${from}..${head} (${head - from + 1} blocks, ${tradeCount} trades) in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

  const deploymentFile = join(work, 'deployment.json');
  writeFileSync(deploymentFile, JSON.stringify(d));
  const args = ['--import', 'tsx', 'bin/intel.ts', 'backfill', '--chain', 'devnet', '--from', String(from), '--to', 'head', ...(withEngine ? ['--with-engine'] : [])];
  console.log(`$ RPC_URL_DEVNET=${devnet.rpcUrl} DEVNET_DEPLOYMENT_FILE=${deploymentFile} DATA_DIR=${join(work, 'data')} intel ${args.slice(3).join(' ')}`);
  const env: Record<string, string | undefined> = { ...process.env, RPC_URL_DEVNET: devnet.rpcUrl, DEVNET_DEPLOYMENT_FILE: deploymentFile, DATA_DIR: join(work, 'data'), SIM_ENABLED: 'false' };
  delete env.KAFKA_BROKERS;
  delete env.CLICKHOUSE_URL;
  const code = await new Promise<number | null>((res) => spawn(process.execPath, args, { cwd: root, env, stdio: 'inherit' }).on('close', res));
  if (code !== 0) throw new Error(`intel backfill exited with ${code}`);
} finally {
  if (keep) console.log(`kept the node at ${devnet.rpcUrl} and ${work} (deployment.json, data)`);
  else {
    rmSync(work, { recursive: true, force: true });
    await devnet.stop();
  }
}
