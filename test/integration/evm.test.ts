/**
 * EVM ingestion against the real local node (hardhat 2) with the real Uniswap V2 contracts.
 * One file on purpose: evm_revert rewinds the whole chain, so these scenarios must not interleave
 * with another suite on the same node.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatEther, maxUint256, parseAbi, parseEther } from 'viem';
import { Topics, eventId, tokenKey, type ChainEvent, type Swap, type Transfer } from '../../schemas/events.ts';
import type { SourceItem } from '../../ingest/types.ts';
import { createMemoryLog } from '../../infra/log/memory.ts';
import type { LogRecord } from '../../infra/log/types.ts';
import { artifacts, createDevnetClient, deployUniswap, erc20Abi, makeTrades, routerAbi, type Devnet, type DevnetClient, type UniswapDeployment } from '../../infra/devnet/index.ts';
import { createFundingTracker } from '../../ingest/evm/funding.ts';
import { createBackfill, createEvmIngester, createLiveSource, DeepReorgError, parseChainConfig, type BackfillCursor, type EvmChainConfig } from '../../ingest/evm/index.ts';
import { ensureDevnet } from '../setup/devnet.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { createEmbeddedStore } from '../../infra/store/embedded.ts';
import { devnetChainConfig } from '../../ingest/evm/chains.ts';
import { chainFunding } from '../../ingest/evm/memory.ts';
import { startEvmChain } from '../../ingest/evm/runner.ts';
import { waitFor } from '../contract/wait.ts';

let devnet: Devnet;
let client: DevnetClient;
let d: UniswapDeployment;

function chainConfig(over: Partial<Parameters<typeof parseChainConfig>[0]> = {}): EvmChainConfig {
  return parseChainConfig(devnetChainConfig(d, devnet.rpcUrl, { pollIntervalMs: 50, rpc: { requestsPerSecond: 2000 }, ...over }));
}

/** runs a source in the background, collecting its items */
function collect(run: (signal: AbortSignal) => AsyncGenerator<SourceItem>) {
  const ac = new AbortController();
  const items: SourceItem[] = [];
  const done = (async () => {
    for await (const item of run(ac.signal)) items.push(item);
  })();
  done.catch(() => {});
  return { items, done, stop: async () => { ac.abort(); await done.catch(() => {}); } };
}

/** the events a backfill yields, in order */
async function drain(b: ReturnType<typeof createBackfill>, signal = new AbortController().signal): Promise<ChainEvent[]> {
  const out: ChainEvent[] = [];
  for await (const item of b.run(signal)) if (item.kind === 'events') out.push(...item.events);
  return out;
}

/** empty blocks one by one: hardhat_mine's bulk blocks have a zero parentHash and no state to read */
async function mineEmpty(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await client.request({ method: 'evm_mine', params: [] } as never);
}

const pairAbi = parseAbi(['function getReserves() view returns (uint112, uint112, uint32)', 'function token0() view returns (address)']);

beforeAll(async () => {
  devnet = await ensureDevnet();
  client = createDevnetClient(devnet.rpcUrl);
  d = await deployUniswap(client, { traders: 10 });
}, 120_000);

afterAll(async () => {
  await devnet?.stop();
});

describe('evm ingestion on the devnet', () => {
  it('decodes router swaps with correct amounts, direction, trader and USD value, published keyed chain:token', async () => {
    const log = createMemoryLog();
    const ingester = createEvmIngester({ chain: chainConfig({ startBlock: Number(await client.getBlockNumber()) + 1 }), log });
    const from = ingester.chain.startBlock;
    const trades = await makeTrades(client, d, { count: 16, seed: 7 });
    const lastBlock = trades[trades.length - 1]!.block;

    const ac = new AbortController();
    const running = ingester.runLive(ac.signal);
    await waitFor(() => (ingester.lag().published ?? 0) >= lastBlock, 'the live source to publish the trades');
    expect(ingester.lag()).toMatchObject({ chain: 'devnet', blocks: 0, seconds: 0 });
    ac.abort();
    await running;

    const records: LogRecord[] = [];
    const consumer = await log.consume({ groupId: 'ephemeral-evm-test', topics: [Topics.tokenEvents], fromBeginning: true, eachBatch: async (b) => void records.push(...b.records) });
    const expected = trades.length * 2; // a swap and a sync per trade, at least
    await waitFor(() => records.length >= expected, 'records on the token-events topic');
    await consumer.stop();

    const events = records.map((r) => ({ key: r.key, e: JSON.parse(r.value) as ChainEvent }));
    for (const { key, e } of events) expect(key).toBe(tokenKey('devnet', e.token));
    const swaps = events.map((x) => x.e).filter((e): e is Swap => e.type === 'swap');
    expect(swaps).toHaveLength(trades.length);
    expect(swaps.every((s) => s.block >= from)).toBe(true);

    for (const t of trades) {
      const s = swaps.find((x) => x.tx === t.hash);
      expect(s, `swap of ${t.hash}`).toBeDefined();
      if (!s) continue;
      const quoteUsd = t.quote === d.weth.toLowerCase() ? d.wethUsd : 1;
      const [tokenRaw, quoteRaw] = t.side === 'buy' ? [t.amountOut, t.amountIn] : [t.amountIn, t.amountOut];
      expect(s.token).toBe(t.token);
      expect(s.side).toBe(t.side);
      expect(s.trader).toBe(t.trader); // the router's swaps to itself (ETH out) are attributed to tx.from
      expect(s.amountToken).toBeCloseTo(Number(formatEther(tokenRaw)), 9);
      expect(s.amountQuote).toBeCloseTo(Number(formatEther(quoteRaw)), 9);
      expect(s.usd).toBeCloseTo(Number(formatEther(quoteRaw)) * quoteUsd, 6);
      // price right after the swap = the pool's reserves at the end of that block
      const pool = s.pool as `0x${string}`;
      const [r0, r1] = await client.readContract({ address: pool, abi: pairAbi, functionName: 'getReserves', blockNumber: BigInt(t.block) });
      const token0 = (await client.readContract({ address: pool, abi: pairAbi, functionName: 'token0' })).toLowerCase();
      const [rt, rq] = token0 === t.token ? [r0, r1] : [r1, r0];
      expect(s.priceUsd).toBeCloseTo((Number(formatEther(rq)) / Number(formatEther(rt))) * quoteUsd, 9);
    }

    // a sell moves the trader's tokens into the pool: the ERC-20 transfer is there too
    const sell = trades.find((t) => t.side === 'sell');
    expect(sell).toBeDefined();
    const tr = events.map((x) => x.e).filter((e): e is Transfer => e.type === 'transfer' && e.tx === sell!.hash);
    expect(tr).toContainEqual(expect.objectContaining({ token: sell!.token, from: sell!.trader, amount: Number(formatEther(sell!.amountIn)) }));
    await log.close();
  });

  it('follows new heads over WebSocket', async () => {
    const start = Number(await client.getBlockNumber());
    // a long poll interval: only the newHeads subscription can wake the source in time
    const src = createLiveSource({ chain: chainConfig({ rpcUrl: devnet.wsUrl, pollIntervalMs: 60_000 }), fromBlock: start + 1 });
    const run = collect((s) => src.run(s));
    await waitFor(() => src.lag().head !== undefined, 'the first head');
    const [t] = await makeTrades(client, d, { count: 1, seed: 9 });
    await waitFor(() => run.items.some((i) => i.kind === 'events' && i.events.some((e) => 'tx' in e && e.tx === t!.hash)), 'the swap over ws', 10_000);
    await run.stop();
    expect(src.lag().published).toBe(t!.block);
  });

  it('reorg-shallow: evm_revert and different blocks retract the orphaned events, then publish the canonical ones, no duplicates', async () => {
    const start = Number(await client.getBlockNumber());
    const src = createLiveSource({ chain: chainConfig(), fromBlock: start + 1 });
    const run = collect((s) => src.run(s));

    const snapshot = await client.snapshot();
    const orphanTrades = await makeTrades(client, d, { count: 3, seed: 101, traders: d.traders.slice(0, 3) });
    await waitFor(() => (src.lag().published ?? 0) >= orphanTrades[2]!.block, 'orphaned blocks to be published');
    await client.revert({ id: snapshot });
    const canonicalTrades = await makeTrades(client, d, { count: 4, seed: 202, traders: d.traders.slice(5, 9) });
    const last = canonicalTrades[3]!;
    await waitFor(async () => {
      const item = [...run.items].reverse().find((i) => i.kind === 'events');
      return item?.kind === 'events' && item.events.some((e) => 'tx' in e && e.tx === last.hash);
    }, 'canonical blocks to be published');
    await run.stop();

    const kinds = run.items.map((i) => i.kind);
    const reorgAt = kinds.indexOf('reorg');
    expect(reorgAt).toBeGreaterThan(0);
    expect(kinds.filter((k) => k === 'reorg')).toHaveLength(1);
    const reorg = run.items[reorgAt] as Extract<SourceItem, { kind: 'reorg' }>;
    expect(reorg.forkBlock).toBe(start);

    const before = run.items.slice(0, reorgAt).flatMap((i) => (i.kind === 'events' ? i.events : []));
    const after = run.items.slice(reorgAt + 1).flatMap((i) => (i.kind === 'events' ? i.events : []));
    // exactly the orphaned blocks' events are retracted, each marked removed
    expect(reorg.retractions.every((e) => (e as Swap).removed === true)).toBe(true);
    expect(new Set(reorg.retractions.map((e) => eventId(e as Swap)))).toEqual(new Set(before.map((e) => eventId(e as Swap))));
    expect(before.filter((e) => e.type === 'swap').map((e) => (e as Swap).tx)).toEqual(orphanTrades.map((t) => t.hash));

    // fold: apply events, drop retracted ones; what remains is the canonical chain, each swap once
    const state = new Map<string, ChainEvent>();
    for (const item of run.items) {
      if (item.kind === 'events') for (const e of item.events) state.set(eventId(e as Swap), e);
      if (item.kind === 'reorg') for (const e of item.retractions) state.delete(eventId(e as Swap));
    }
    const swaps = [...state.values()].filter((e): e is Swap => e.type === 'swap');
    expect(swaps.map((s) => s.tx)).toEqual(canonicalTrades.map((t) => t.hash));
    expect(after.filter((e) => e.type === 'swap')).toHaveLength(canonicalTrades.length);
    const ids = after.map((e) => eventId(e as Swap));
    expect(new Set(ids).size).toBe(ids.length);
    for (const s of swaps) expect(s.blockHash).toBe((await client.getBlock({ blockNumber: BigInt(s.block) })).hash);
  });

  it('reorg-deep: a reorg deeper than the kept window stops the chain with a loud error', async () => {
    const start = Number(await client.getBlockNumber());
    const src = createLiveSource({ chain: chainConfig({ reorgWindow: 3 }), fromBlock: start + 1 });
    const ac = new AbortController();
    const items: SourceItem[] = [];
    const done = (async () => {
      for await (const item of src.run(ac.signal)) items.push(item);
    })();
    done.catch(() => {});
    const snapshot = await client.snapshot();
    const trades = await makeTrades(client, d, { count: 5, seed: 303 });
    await waitFor(() => (src.lag().published ?? 0) >= trades[4]!.block, 'blocks to be published');
    await client.revert({ id: snapshot });
    await makeTrades(client, d, { count: 6, seed: 404 });
    await expect(done).rejects.toThrow(DeepReorgError);
    await expect(done).rejects.toThrow(/deeper than the kept window of 3 blocks/);
    ac.abort();
  });

  it('crash-recovery: a backfill killed halfway and restarted ends with the same events as one run straight through', async () => {
    await makeTrades(client, d, { count: 30, seed: 505 });
    await mineEmpty(200);
    await makeTrades(client, d, { count: 10, seed: 606 });
    const head = Number(await client.getBlockNumber());
    const from = d.startBlock;
    const small = chainConfig({ backfill: { initialRange: 16, maxRange: 16 } });

    // store stand-in: upsert by identity (what every sink write is)
    const upsert = (store: Map<string, ChainEvent>, events: ChainEvent[]) => {
      for (const e of events) store.set(eventId(e as Swap), e);
    };

    const straight = new Map<string, ChainEvent>();
    upsert(straight, await drain(createBackfill({ chain: chainConfig(), from, to: head }), new AbortController().signal));
    expect([...straight.values()].filter((e) => e.type === 'swap').length).toBeGreaterThanOrEqual(40);

    // killed halfway: the signal aborts once the cursor passes the middle
    const mid = from + Math.floor((head - from) / 2);
    const ac = new AbortController();
    let saved: BackfillCursor | undefined;
    const first = createBackfill({ chain: small, from, to: head, onCursor: (c) => { saved = c; if (c.done >= mid) ac.abort(); } });
    const resumed = new Map<string, ChainEvent>();
    const firstEvents = await drain(first, ac.signal);
    upsert(resumed, firstEvents);
    expect(saved).toBeDefined();
    expect(saved!.done).toBeGreaterThanOrEqual(mid);
    expect(saved!.done).toBeLessThan(head);
    expect(Math.max(...firstEvents.map((e) => (e as Swap).block))).toBeLessThanOrEqual(saved!.done);

    // restarted from the persisted cursor (a JSON round trip, as the store keeps it)
    const cursor = JSON.parse(JSON.stringify(saved)) as BackfillCursor;
    const second = createBackfill({ chain: small, from, to: head, cursor });
    const secondEvents = await drain(second, new AbortController().signal);
    expect(Math.min(...secondEvents.map((e) => (e as Swap).block))).toBeGreaterThan(cursor.done);
    upsert(resumed, secondEvents);
    expect(second.cursor()?.done).toBe(head);

    expect(resumed.size).toBe(straight.size);
    expect(Object.fromEntries(resumed)).toEqual(Object.fromEntries(straight));

    // through the ingester: every event lands on the token-events topic keyed chain:token
    const log = createMemoryLog();
    const ingester = createEvmIngester({ chain: small, log });
    const cursors: BackfillCursor[] = [];
    const { cursor: end, progress } = await ingester.runBackfill(new AbortController().signal, { from, to: head, onCursor: (c) => void cursors.push(c) });
    expect(end?.done).toBe(head);
    expect(progress?.events).toBe(straight.size);
    expect(cursors.map((c) => c.done)).toEqual([...cursors.map((c) => c.done)].sort((a, b) => a - b));
    const records: LogRecord[] = [];
    const consumer = await log.consume({ groupId: 'ephemeral-evm-backfill', topics: [Topics.tokenEvents], fromBeginning: true, eachBatch: async (b) => void records.push(...b.records) });
    await waitFor(() => records.length >= straight.size, 'backfilled records');
    await consumer.stop();
    await log.close();
    expect(new Set(records.map((r) => eventId(JSON.parse(r.value) as Swap)))).toEqual(new Set(straight.keys()));

    // re-running the whole range changes nothing (idempotent)
    const again = new Map(straight);
    upsert(again, await drain(createBackfill({ chain: small, from, to: head }), new AbortController().signal));
    expect(Object.fromEntries(again)).toEqual(Object.fromEntries(straight));
  });

  it('rpc-refusals: a backfill through an RPC that refuses wide getLogs ranges, in each way providers do, ends with the same events', async () => {
    await makeTrades(client, d, { count: 20, seed: 707 });
    await mineEmpty(60);
    await makeTrades(client, d, { count: 10, seed: 808 });
    const head = Number(await client.getBlockNumber());
    const from = d.startBlock;
    const ids = (events: ChainEvent[]) => events.map((e) => eventId(e as Swap)).sort();
    const straight = ids(await drain(createBackfill({ chain: chainConfig(), from, to: head })));
    expect(straight.length).toBeGreaterThanOrEqual(30);

    // getLogs over more than MAX_SPAN blocks is refused; everything else goes to the node
    const MAX_SPAN = 8;
    for (const mode of ['infura', 'alchemy', 'geth-range', 'http-413', 'body-over-limit', 'timeout', 'gateway-504'] as const) {
      const proxy = await startRefusingProxy(devnet.rpcUrl, MAX_SPAN, mode);
      try {
        const cfg = parseChainConfig(
          devnetChainConfig(d, proxy.url, { pollIntervalMs: 50, rpc: { requestsPerSecond: 2000, batchSize: 1, timeoutMs: 400, maxResponseBytes: 64 * 1024, retryBaseMs: 1, retryMaxMs: 5 } }),
        );
        const events = ids(await drain(createBackfill({ chain: cfg, from, to: head })));
        expect({ mode, events }).toEqual({ mode, events: straight });
        expect(proxy.refused(), mode).toBeGreaterThan(0);
      } finally {
        await proxy.close();
      }
    }
  });

  it('rpc-refusals: a block the RPC refuses even alone stops the chain before it, says which in its lag, and the chain goes on once it is served', async () => {
    await makeTrades(client, d, { count: 12, seed: 909 });
    const head = Number(await client.getBlockNumber());
    const from = d.startBlock;
    const stuck = from + Math.floor((head - from) / 2);
    const proxy = await startRefusingProxy(devnet.rpcUrl, 1_000_000, 'alchemy', stuck);
    const dataDir = mkdtempSync(join(tmpdir(), 'intel-evm-stuck-'));
    const store = await createEmbeddedStore({ dataDir });
    const log = createMemoryLog();
    const ac = new AbortController();
    try {
      const cfg = parseChainConfig(devnetChainConfig(d, proxy.url, { pollIntervalMs: 50, rpc: { requestsPerSecond: 2000, batchSize: 1, retryBaseMs: 1, retryMaxMs: 5 } }));
      const runner = startEvmChain({ log, store, logger: pino({ level: 'silent' }), liveGap: 1 }, cfg, { fromStartBlock: true }, ac.signal);
      await waitFor(() => runner.lag().refusedBlock === stuck, 'the runner to name the refused block');
      expect(runner.lag()).toMatchObject({ phase: 'retrying', refusedBlock: stuck });
      expect(runner.lag().error).toContain(`refuses block ${stuck}`);
      // nothing at or past the refused block was published
      expect(runner.lag().published ?? -1).toBeLessThan(stuck);
      proxy.unstick();
      await waitFor(() => (runner.lag().published ?? 0) >= head, 'the runner to go on past the block', 60_000);
      expect(runner.lag().refusedBlock).toBeUndefined();

      // following live: a new block refused even topic by topic stops it the same way
      await waitFor(() => runner.lag().phase === 'live', 'the runner to follow live');
      const next = Number(await client.getBlockNumber()) + 2;
      proxy.stick(next);
      await makeTrades(client, d, { count: 6, seed: 910 });
      await waitFor(() => runner.lag().refusedBlock === next, 'the live runner to name the refused block');
      expect(runner.lag().published ?? -1).toBeLessThan(next);
      proxy.unstick();
      const end = Number(await client.getBlockNumber());
      await waitFor(() => (runner.lag().published ?? 0) >= end, 'the live runner to go on', 60_000);
      expect(runner.lag().refusedBlock).toBeUndefined();
    } finally {
      ac.abort();
      await log.close();
      await store.close();
      await proxy.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('backfill-funding: a deployer\'s native ETH to a wallet in a block without logs, long before its launch, goes out as funding at the launch (found by the deployer\'s nonce)', async () => {
    const accounts = await client.getAddresses();
    const [deployer, insider] = [accounts[15], accounts[16]] as [`0x${string}`, `0x${string}`];
    const from = Number(await client.getBlockNumber()) + 1;
    // the payment: a plain value transfer, no log in its block; then quiet blocks and unrelated sends
    const paid = await client.waitForTransactionReceipt({ hash: await client.sendTransaction({ account: deployer, to: insider, value: parseEther('3'), chain: client.chain }) });
    await mineEmpty(40);
    await client.waitForTransactionReceipt({ hash: await client.sendTransaction({ account: deployer, to: deployer, value: 1n, chain: client.chain }) });
    await mineEmpty(25);
    // the launch: a token and its pair, by the same account
    const erc20 = artifacts.erc20();
    const deployed = await client.waitForTransactionReceipt({ hash: await client.deployContract({ abi: erc20.abi, bytecode: erc20.bytecode, args: [parseEther('1000000')], account: deployer, chain: client.chain }) });
    const token = deployed.contractAddress as `0x${string}`;
    await client.waitForTransactionReceipt({ hash: await client.writeContract({ address: token, abi: erc20Abi, functionName: 'approve', args: [d.router, maxUint256], account: deployer, chain: client.chain }) });
    await client.waitForTransactionReceipt({
      hash: await client.writeContract({ address: d.router, abi: routerAbi, functionName: 'addLiquidityETH', args: [token, parseEther('100000'), 0n, 0n, deployer, 4_000_000_000n], value: parseEther('10'), account: deployer, chain: client.chain }),
    });
    const head = Number(await client.getBlockNumber());
    const cfg = chainConfig({ contracts: { enabled: false } });
    const funded = (events: ChainEvent[]) => events.filter((e): e is Transfer => e.type === 'transfer' && e.funding === true && e.to === insider.toLowerCase());

    const found = funded(await drain(createBackfill({ chain: cfg, from, to: head, funding: chainFunding(cfg, client) })));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ from: deployer.toLowerCase(), amount: 3, tx: paid.transactionHash.toLowerCase(), funding: true });
    // without the nonce search, the block of the payment is never read
    const blind = funded(await drain(createBackfill({ chain: cfg, from, to: head, funding: createFundingTracker({ chain: cfg.slug, weth: cfg.quotes.weth }) })));
    expect(blind).toHaveLength(0);
  });
});

/**
 * A JSON-RPC proxy in front of the node that refuses eth_getLogs over more than `maxSpan` blocks
 * the way a provider or a gateway does: a JSON-RPC error with the provider's message, an HTTP
 * status, an answer larger than the client reads, or no answer in time.
 */
async function startRefusingProxy(
  upstream: string,
  maxSpan: number,
  mode: 'infura' | 'alchemy' | 'geth-range' | 'http-413' | 'body-over-limit' | 'timeout' | 'gateway-504',
  /** a block whose logs are refused in any range that holds it, even alone, until unstuck */
  stuck?: number,
) {
  const { createServer } = await import('node:http');
  let refused = 0;
  let stuckAt = stuck;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const text = Buffer.concat(chunks).toString();
        const body = JSON.parse(text) as { id: number; method: string; params?: [{ fromBlock?: string; toBlock?: string }] };
        const f = body.method === 'eth_getLogs' ? body.params?.[0] : undefined;
        const g = f as { fromBlock?: string; toBlock?: string; blockHash?: string } | undefined;
        let lo = g?.fromBlock !== undefined ? Number(g.fromBlock) : undefined;
        let hi = g?.toBlock !== undefined ? Number(g.toBlock) : undefined;
        // a block by hash (live follow): its number from the node
        if (g?.blockHash !== undefined && stuckAt !== undefined) {
          const r = await fetch(upstream, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getBlockByHash', params: [g.blockHash, false] }) });
          const n = Number(((await r.json()) as { result?: { number?: string } }).result?.number ?? -1);
          lo = n;
          hi = n;
        }
        const wide = lo !== undefined && hi !== undefined && (hi - lo + 1 > maxSpan || (stuckAt !== undefined && lo <= stuckAt && stuckAt <= hi));
        const forward = async () => (await fetch(upstream, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text })).text();
        if (!wide) return void res.writeHead(200, { 'content-type': 'application/json' }).end(await forward());
        refused++;
        const rpcError = (code: number, message: string) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: body.id, error: { code, message } }));
        if (mode === 'infura') return void rpcError(-32005, 'query returned more than 10000 results. Try with this block range [0x1, 0x8].');
        if (mode === 'alchemy') return void rpcError(-32602, 'Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range and no limit on the response size.');
        if (mode === 'geth-range') return void rpcError(-32000, `exceed maximum block range: ${maxSpan}`);
        if (mode === 'http-413') return void res.writeHead(413, { 'content-type': 'text/plain' }).end('Payload Too Large');
        if (mode === 'gateway-504') return void res.writeHead(504, { 'content-type': 'text/html' }).end('<html><body>504 Gateway Time-out</body></html>');
        if (mode === 'timeout') return void setTimeout(() => void forward().then((t) => res.writeHead(200, { 'content-type': 'application/json' }).end(t)).catch(() => res.destroy()), 1500);
        // body-over-limit: the real answer, padded past what the client reads
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(`${await forward()}${' '.repeat(128 * 1024)}`);
      })().catch(() => res.destroy());
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    refused: () => refused,
    unstick: () => void (stuckAt = undefined),
    stick: (block: number) => void (stuckAt = block),
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}
