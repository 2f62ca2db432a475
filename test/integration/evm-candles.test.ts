/**
 * The third-party candle source, end to end on a devnet: CANDLES_URL points `npm start`'s embedded
 * stack at a local server speaking GeckoTerminal's OHLCV wire format (the recorded fixture's
 * shape); the ingest role's poller asks it for the hourly candles of the token the devnet ingester
 * follows (by its pool), publishes them to the candles topic, the engine's candle table re-derives
 * the token, and the hours in which the token's pool saw no swap take the provider's candle. What
 * is asserted is what the API serves: /v1/token-spark (hourly closes) and /v1/token-valuation
 * (distance from the 7-day high of the hourly bars).
 *
 * Chain time is placed with evm_setNextBlockTimestamp / evm_increaseTime / evm_mine: swaps in hour
 * H0, nothing but an empty block in H0+1h..H0+3h, swaps again in H0+4h.
 *
 * Own node on EVM_CANDLES_DEVNET_PORT (default 18553).
 */
import { readFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatEther, parseAbi, parseEther, type Address, type Hash } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevnetClient, deployUniswap, routerAbi, startDevnet, type Devnet, type DevnetClient, type UniswapDeployment } from '../../infra/devnet/index.ts';
import { startApi, type ApiHandle } from '../../runtime/api.ts';
import { waitFor } from '../contract/wait.ts';
import { devnetEnv, devnetTokenSnapshot, startDevnetStack, type DevnetStack } from './devnet-stack.ts';

const port = Number(process.env.EVM_CANDLES_DEVNET_PORT ?? 18553);
const H = 3600;
const DEADLINE = 4_000_000_000n;
const fixture = readFileSync(join(import.meta.dirname, '../fixtures/candles/geckoterminal-ohlcv-hour.json'), 'utf8');
const pairAbi = parseAbi(['function getReserves() view returns (uint112, uint112, uint32)', 'function token0() view returns (address)']);

type Row = [number, number, number, number, number, number];

let devnet: Devnet;
let client: DevnetClient;
let d: UniswapDeployment;
let work: string;
let stack: DevnetStack;
let api: ApiHandle;
let apiKey: string;
let server: Server;
let candlesUrl: string;
/** every request the candle server received */
const requests: URL[] = [];
/** what the candle server answers (newest first, as GeckoTerminal sends them); empty until the test sets it */
let ohlcv: Row[] = [];
let lastBlock = 0;

async function mined(hash: Hash): Promise<number> {
  const r = await client.waitForTransactionReceipt({ hash, pollingInterval: 20 });
  if (r.status !== 'success') throw new Error(`transaction ${hash} reverted`);
  lastBlock = Math.max(lastBlock, Number(r.blockNumber));
  return Number(r.blockNumber);
}

/** one swap of TKA against ETH through the router, mined at `timestamp` */
async function swap(trader: Address, side: 'buy' | 'sell', amount: string, timestamp: number): Promise<void> {
  await client.setNextBlockTimestamp({ timestamp: BigInt(timestamp) });
  const base = { address: d.router, abi: routerAbi, account: trader, chain: client.chain, gas: 500_000n } as const;
  const hash =
    side === 'buy'
      ? await client.writeContract({ ...base, functionName: 'swapExactETHForTokens', args: [0n, [d.weth, d.tokens.TKA], trader, DEADLINE], value: parseEther(amount) })
      : await client.writeContract({ ...base, functionName: 'swapExactTokensForETH', args: [parseEther(amount), 0n, [d.tokens.TKA, d.weth], trader, DEADLINE] });
  await mined(hash);
}

/** TKA's USD price as the engine reads it after a swap: the pool's reserves times the WETH/USDC pool's price */
async function tkaUsd(): Promise<number> {
  const [r0, r1] = await client.readContract({ address: d.pairs.tkaWeth, abi: pairAbi, functionName: 'getReserves' });
  const token0 = (await client.readContract({ address: d.pairs.tkaWeth, abi: pairAbi, functionName: 'token0' })).toLowerCase();
  const [rt, rw] = token0 === d.tokens.TKA.toLowerCase() ? [r0, r1] : [r1, r0];
  const [u0, u1] = await client.readContract({ address: d.pairs.wethUsdc, abi: pairAbi, functionName: 'getReserves' });
  const usdc0 = (await client.readContract({ address: d.pairs.wethUsdc, abi: pairAbi, functionName: 'token0' })).toLowerCase() === d.tokens.USDC.toLowerCase();
  const wethUsd = usdc0 ? Number(formatEther(u0)) / Number(formatEther(u1)) : Number(formatEther(u1)) / Number(formatEther(u0));
  return (Number(formatEther(rw)) / Number(formatEther(rt))) * wethUsd;
}

async function call<T>(path: string, body: Record<string, unknown>): Promise<T> {
  const res = await fetch(`${api.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as T;
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(json)}`);
  return json;
}

interface Spark {
  available: boolean;
  points: number;
  series: number[];
}
interface Valuation {
  signals: { distanceFromHighPct: number | null };
}
interface Snap {
  basis: { hourly: { t: number; c: number }[] };
}

const token = () => d.tokens.TKA.toLowerCase();
const spark = () => call<Spark>('/v1/token-spark', { chain: 'devnet', token: token(), hours: 6 });
const valuation = () => call<Valuation>('/v1/token-valuation', { chain: 'devnet', token: token() });

beforeAll(async () => {
  // the candle source: GeckoTerminal's /networks/{network}/pools/{pool}/ohlcv/hour, as recorded
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    requests.push(url);
    const m = /^\/api\/v2\/networks\/([^/]+)\/pools\/([^/]+)\/ohlcv\/hour$/.exec(url.pathname);
    if (!m) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"errors":[{"status":"404","title":"Not Found"}]}');
      return;
    }
    const body = JSON.parse(fixture.replace('{{token}}', url.searchParams.get('token') ?? '')) as { data: { attributes: { ohlcv_list: Row[] } } };
    // as GeckoTerminal does: candles opened before before_timestamp, newest first (the poller asks up to the chain's
    // time, which on this devnet runs hours ahead of the wall clock)
    const before = Number(url.searchParams.get('before_timestamp'));
    body.data.attributes.ohlcv_list = ohlcv.filter((r) => r[0] < before).slice(0, Number(url.searchParams.get('limit') ?? 100));
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  candlesUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v2`;

  devnet = await startDevnet({ port });
  client = createDevnetClient(devnet.rpcUrl);
  d = await deployUniswap(client, { traders: 3 });
  work = mkdtempSync(join(tmpdir(), 'intel-evm-candles-'));
  const deploymentFile = join(work, 'deployment.json');
  writeFileSync(deploymentFile, JSON.stringify(d));
  stack = await startDevnetStack({
    ...devnetEnv(join(work, 'data'), devnet.rpcUrl, deploymentFile),
    CANDLES_URL: candlesUrl,
    CANDLES_POLL_SEC: '10',
    CANDLES_RPM: '6000',
  });
  api = await startApi(stack.services, { port: 0, host: '127.0.0.1' });
  const org = await api.keys.createOrg('candles');
  apiKey = (await api.keys.createKey(org.id, 'sandbox')).plaintext;
}, 180_000);

afterAll(async () => {
  await stack?.services.shutdown();
  await devnet?.stop();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('candle source -> candles topic -> candle table -> hourly bars served (devnet)', () => {
  it("hours without a swap serve the provider's candle; hours with swaps keep their swap-built bar; the source is asked by the token's pool", async () => {
    const [t1, t2, t3] = d.traders as [Address, Address, Address];
    const head = await client.getBlock();
    // H0: the start of an hour at least a few minutes ahead of the chain
    const h0 = Math.ceil((Number(head.timestamp) + 300) / H) * H;
    await swap(t1, 'buy', '2', h0 + 60);
    await swap(t2, 'buy', '1', h0 + 600);
    await swap(t3, 'sell', '500', h0 + 1200);
    const p0 = await tkaUsd(); // H0's close, built from its swaps
    // H0+1h..H0+3h: time passes, blocks are mined, nothing trades
    await client.increaseTime({ seconds: 2 * H });
    await client.mine({ blocks: 1 });
    await swap(t1, 'buy', '3', h0 + 4 * H + 120);
    await swap(t2, 'sell', '300', h0 + 4 * H + 900);
    const p4 = await tkaUsd(); // H0+4h's close

    await stack.settle(lastBlock);
    // before the provider answers anything, a swapless hour repeats the previous close
    const flat = await spark();
    expect(flat.points).toBe(5);
    expect(flat.series.slice(0, 4)).toEqual([0, 0, 0, 0]);
    expect(flat.series[4]).toBeCloseTo((100 * (p4 - p0)) / p0, 1);
    const snap = await devnetTokenSnapshot<Snap>(stack.services.store, token());
    expect(snap.basis.hourly.map((b) => b.t)).toEqual([h0, h0 + H, h0 + 2 * H, h0 + 3 * H, h0 + 4 * H]);

    // the provider's hourly candles in USD, newest first; those of H0 and H0+4h (hours with swaps)
    // are far off the swaps, so an override would show
    const row = (t: number, o: number, h: number, l: number, c: number, v: number): Row => [t, o * p0, h * p0, l * p0, c * p0, v];
    ohlcv = [
      row(h0 + 4 * H, 5, 10, 5, 5, 9000),
      row(h0 + 3 * H, 1.35, 1.6, 1.3, 1.5, 300),
      row(h0 + 2 * H, 1.2, 2.0, 1.15, 1.35, 200),
      row(h0 + H, 1.1, 1.3, 1.05, 1.2, 100),
      row(h0, 5, 10, 5, 5, 9000),
      row(h0 - H, 0.9, 0.95, 0.85, 0.9, 50),
    ];
    const asked = requests.length;
    // the poller's next round (CANDLES_POLL_SEC) fetches them; the engine re-derives the token
    await waitFor(async () => (await devnetTokenSnapshot<Snap>(stack.services.store, token())).basis.hourly[1]?.c !== snap.basis.hourly[1]?.c, 'the candles to reach the token', 30_000, 200);
    await stack.settle(lastBlock);

    // the request named the token's pool on the devnet's GeckoTerminal network, and the token
    const mine = requests.slice(asked).filter((u) => u.searchParams.get('token')?.toLowerCase() === token());
    expect(mine.length).toBeGreaterThan(0);
    for (const u of mine) {
      expect(u.pathname.toLowerCase()).toBe(`/api/v2/networks/devnet/pools/${d.pairs.tkaWeth.toLowerCase()}/ohlcv/hour`);
      expect(u.searchParams.get('currency')).toBe('usd');
    }

    // served: the swapless hours close at the provider's closes (+20 %, +35 %, +50 % on H0's
    // close), not H0's close repeated; H0 stays the base and H0+4h keeps its swap-built close
    let served: Spark | undefined;
    await waitFor(async () => (served = await spark()).series[1] !== 0, 'the API to serve the re-derived token', 10_000, 500);
    const got = served as Spark;
    expect(got.points).toBe(5);
    expect(got.series[0]).toBe(0);
    expect(got.series[1]).toBeCloseTo(20, 1);
    expect(got.series[2]).toBeCloseTo(35, 1);
    expect(got.series[3]).toBeCloseTo(50, 1);
    expect(got.series[4]).toBeCloseTo((100 * (p4 - p0)) / p0, 1);

    // served: the 7-day high is the provider's high of H0+2h (2x H0's close), not a swap hour's
    // candle high (10x) nor the swaps' own high
    const v = await valuation();
    expect(v.signals.distanceFromHighPct).toBeCloseTo((100 * (p4 - 2 * p0)) / (2 * p0), 0);
  });
});
