/**
 * intel backfill --chain SLUG --from BLOCK --to BLOCK|head [--with-engine] [--restart]
 *                [--range N] [--concurrency N] [--rps N] [--progress-ms N]
 *
 * Publishes a block range of an EVM chain through the log. Its cursor lives in the store (cursors
 * table, key `backfill:<chain>:<from>-<to>`), persisted after each range is published, so a killed
 * run resumes where it stopped and a finished range is not fetched again; re-publishing is harmless
 * anyway (store writes are upserts, the engine's folds are idempotent). With --with-engine the
 * engine runs in this process (embedded mode) and the command returns once it has folded
 * everything into snapshots.
 */
import { flag } from './args.ts';
import type { Config } from '../infra/config.ts';
import { createLogger, createServices } from './services.ts';
import type { EvmChainConfigInput } from '../ingest/evm/config.ts';
import { createProgressPrinter } from '../ingest/evm/progress.ts';
import { evmChainConfig, isEvmChainSlug } from '../ingest/evm/chains.ts';
import { runBackfillJob } from '../ingest/evm/backfill-job.ts';

export interface BackfillArgs {
  chain: string;
  from: number | undefined;
  to: number | 'head';
  withEngine: boolean;
  restart: boolean;
  range?: number;
  concurrency?: number;
  rps?: number;
  progressMs: number;
}

function int(name: string, v: string | undefined, min: number): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer >= ${min} (got ${v})`);
  return n;
}

export const BACKFILL_USAGE =
  'usage: intel backfill --chain SLUG --from BLOCK --to BLOCK|head [--with-engine] [--restart] [--range N] [--concurrency N] [--rps N] [--progress-ms N]';

export function parseBackfillArgs(args: string[]): BackfillArgs {
  const chain = flag(args, 'chain');
  if (!chain) throw new Error(`--chain is required\n${BACKFILL_USAGE}`);
  const toRaw = flag(args, 'to') ?? 'head';
  const from = int('from', flag(args, 'from'), 0);
  const to = toRaw === 'head' ? 'head' : (int('to', toRaw, 0) as number);
  if (to !== 'head' && from !== undefined && to < from) throw new Error(`--to ${to} is before --from ${from}`);
  return {
    chain,
    from,
    to,
    withEngine: args.includes('--with-engine'),
    restart: args.includes('--restart'),
    range: int('range', flag(args, 'range'), 1),
    concurrency: int('concurrency', flag(args, 'concurrency'), 1),
    rps: int('rps', flag(args, 'rps'), 1),
    progressMs: int('progress-ms', flag(args, 'progress-ms'), 0) ?? 1000,
  };
}

export async function backfillCommand(config: Config, args: string[]): Promise<void> {
  const a = parseBackfillArgs(args);
  if (!isEvmChainSlug(a.chain)) throw new Error(`${a.chain} is not an EVM chain; one of ethereum, base, arbitrum, optimism, polygon, bsc, devnet`);
  const over: Partial<EvmChainConfigInput> = {};
  if (a.range) over.backfill = { initialRange: a.range, maxRange: a.range };
  const base = evmChainConfig(config, a.chain);
  if (a.rps || a.concurrency) over.rpc = { ...base.rpc, ...(a.rps ? { requestsPerSecond: a.rps } : {}), ...(a.concurrency ? { maxConcurrency: Math.max(a.concurrency, base.rpc.maxConcurrency) } : {}) };
  const chain = evmChainConfig(config, a.chain, over);
  const from = a.from ?? chain.startBlock;

  // progress goes to stderr and the result to stdout: keep the JSON log to warnings
  const quiet = config.LOG_LEVEL === 'debug' || config.LOG_LEVEL === 'trace' ? config.LOG_LEVEL : 'warn';
  const services = await createServices(config, createLogger({ LOG_LEVEL: config.LOG_LEVEL === 'silent' ? 'silent' : quiet }));
  const abort = new AbortController();
  const onSignal = (sig: string) => {
    if (abort.signal.aborted) process.exit(130);
    process.stderr.write(`\n${sig}: stopping after the current range; the cursor is kept, run the same command to resume\n`);
    abort.abort();
  };
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));

  try {
    const engine = a.withEngine ? await (await import('./engine.ts')).startEngine(services) : undefined;
    const result = await runBackfillJob(
      { log: services.log, store: services.store },
      chain,
      { from, to: a.to, restart: a.restart, concurrency: a.concurrency, onProgress: createProgressPrinter(process.stderr, a.progressMs), logger: services.logger },
      abort.signal,
    );
    const range = `${chain.slug} blocks ${from}..${result.cursor?.to ?? a.to}`;
    if (result.resumedFrom && result.progress) process.stderr.write(`resumed ${result.key} after block ${result.resumedFrom.done}\n`);
    const p = result.progress;
    if (!p) {
      process.stdout.write(`backfill ${range}: already complete (cursor ${result.key} at block ${result.cursor?.done}); nothing fetched. --restart re-publishes it.\n`);
    } else {
      process.stdout.write(
        `backfill ${range}${result.complete ? '' : ` stopped at ${p.done}`}: ${p.blocksDone} blocks, ${p.events} events in ${p.elapsedSeconds.toFixed(2)} s -> ` +
          `${p.blocksPerSecond.toFixed(0)} blocks/s, ${p.eventsPerSecond.toFixed(0)} events/s\n`,
      );
    }
    if (engine && !abort.signal.aborted) {
      const t0 = Date.now();
      for (let stable = 0; stable < 3 && !abort.signal.aborted; ) {
        const lags = [...(await engine.token.lag()), ...(await engine.wallet.lag())];
        stable = lags.every((l) => l.lag === 0) ? stable + 1 : 0;
        await new Promise((r) => setTimeout(r, 100));
      }
      const tokens = await services.store.list('snapshots', { prefix: `token:${chain.slug}:` });
      process.stdout.write(`engine: ${tokens.length} token snapshots of ${chain.slug} up to date (${((Date.now() - t0) / 1000).toFixed(1)} s after the last publish)\n`);
    }
    if (!result.complete && abort.signal.aborted) process.exitCode = 130;
  } finally {
    await services.shutdown();
  }
}
