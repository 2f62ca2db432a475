/**
 * Backfill throughput on the devnet through the real command: starts a node of its own (port
 * BENCH_DEVNET_PORT, default 18549, so no test's evm_revert touches it), deploys Uniswap V2,
 * generates ~N blocks (trades from many accounts mixed with empty blocks, mined one by one in
 * JSON-RPC batches so every block has a true parent hash), then runs
 * `intel backfill --chain devnet --from <deployment> --to head` in a child process with a fresh
 * DATA_DIR and prints its progress and its final blocks/s and events/s line.
 *
 *   npx tsx bench/evm-backfill.ts [blocks=10000] [trades=600] [--with-engine] [--keep]
 *
 * --keep leaves the node and the work dir (stop the node with DEVNET_PORT=18549 infra/devnet/devnet.sh stop).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDevnetClient, deployUniswap, makeTrades, startDevnet } from '../infra/devnet/index.ts';

const root = resolve(fileURLToPath(new URL('../', import.meta.url)));
const positional = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const totalBlocks = Number(positional[0] ?? 10_000);
const tradeCount = Number(positional[1] ?? 600);
const withEngine = process.argv.includes('--with-engine');
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

const devnet = await startDevnet({ port });
const work = mkdtempSync(join(tmpdir(), 'intel-bench-evm-'));
try {
  const client = createDevnetClient(devnet.rpcUrl);
  const t0 = Date.now();
  const d = await deployUniswap(client, { traders: 20 });
  const deployed = Number(await client.getBlockNumber());
  const emptyBlocks = Math.max(0, totalBlocks - (deployed - d.startBlock + 1) - tradeCount);
  const emptyPerTrade = Math.floor(emptyBlocks / Math.max(1, tradeCount));
  for (let i = 0; i < tradeCount; i++) {
    await makeTrades(client, d, { count: 1, seed: 1000 + i });
    if (emptyPerTrade > 0) await mineEmpty(devnet.rpcUrl, emptyPerTrade);
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
