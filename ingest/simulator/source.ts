import type { Source, SourceItem } from '../types.ts';
import type { World, WorldState } from './world.ts';
import { SLICE_MS, pause, slicer, yieldToEventLoop } from '../../infra/pause.ts';

export interface SimSourceOptions {
  /** unix seconds where the backfill ends and live begins; default: now() at run start */
  startTime?: number;
  /** simulated seconds per real second once live; default 60 */
  speed?: number;
  /** wall clock in ms (the only clock the simulator reads); default Date.now */
  now?: () => number;
  /** waits `ms` or until the signal aborts; default a setTimeout */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** resume: regenerate up to and including this block without yielding it, then continue */
  resumeAfterBlock?: number;
  /**
   * resume from this state of the world (taken at a `finalized` it yielded, `onFinalizedState`)
   * when it is at or before `resumeAfterBlock` and of the same plan; the blocks after it are
   * regenerated. Without it (or when it does not fit) the resume regenerates every block from
   * genesis, about 1 s of CPU per 10 simulated days.
   */
  resumeFrom?: WorldState;
  /** the world's state at every `finalized` this source yields, taken as it is yielded */
  onFinalizedState?: (state: WorldState) => void;
  /** live: yield `finalized` after at least this many new blocks; default 25 (5 simulated minutes) */
  finalizeEveryBlocks?: number;
  /** backfill: yield `finalized` after at least this many new blocks; default 5000 */
  backfillFinalizeEveryBlocks?: number;
  /** longest single sleep, so an abort is honoured promptly; default 1000 ms */
  maxSleepMs?: number;
}

/**
 * The simulator as an ingest Source. Backfill (genesis .. startTime) is yielded as fast as the
 * consumer takes it; then blocks appear as the injected clock advances, `speed` simulated seconds
 * per real second. All simulated blocks are final, so `finalized` simply moves the cursor.
 */
export function createSimSource(makeWorld: () => World, chain: string, opts: SimSourceOptions): Source {
  const speed = opts.speed ?? 60;
  if (!(speed > 0)) throw new Error('speed must be positive');
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? pause;
  const finalizeEvery = Math.max(1, opts.finalizeEveryBlocks ?? 25);
  const backfillFinalizeEvery = Math.max(1, opts.backfillFinalizeEveryBlocks ?? 5000);
  const maxSleepMs = Math.max(1, opts.maxSleepMs ?? 1000);

  async function* run(signal: AbortSignal): AsyncGenerator<SourceItem> {
    const world = makeWorld();
    const startTime = opts.startTime ?? Math.floor(now() / 1000);
    // a resume restores the world's state saved at or before the block it resumes after, or
    // (none saved: a crash, a first start of this code) regenerates the world's history from
    // genesis (it is deterministic); the blocks left are regenerated in slices: the API and the
    // engine of the same process go on meanwhile (about 1 s of CPU per 10 simulated days)
    if (opts.resumeAfterBlock !== undefined && opts.resumeAfterBlock > 0) {
      const saved = opts.resumeFrom;
      if (saved && saved.block <= opts.resumeAfterBlock) world.restore(saved);
      const slice = slicer(SLICE_MS);
      while (!world.skipThrough(opts.resumeAfterBlock, () => slice.due())) {
        if (signal.aborted) return;
        await slice.next();
      }
    }
    let lastFinal = world.block;
    const finalized = (): SourceItem => {
      lastFinal = world.block;
      opts.onFinalizedState?.(world.state());
      return { kind: 'finalized', chain, block: world.block, timestamp: world.timeOfBlock(world.block) };
    };

    // backfill: as fast as the consumer goes, but let the event loop breathe now and then
    let sinceBreath = 0;
    for (const b of world.blocksUntil(startTime)) {
      if (signal.aborted) return;
      yield { kind: 'events', chain, block: b.block, timestamp: b.timestamp, events: b.events };
      if (world.block - lastFinal >= backfillFinalizeEvery) yield finalized();
      if (++sinceBreath >= 200) {
        sinceBreath = 0;
        await yieldToEventLoop();
      }
    }
    if (signal.aborted) return;
    if (world.block > lastFinal) yield finalized();

    // live: a resumed world may already be ahead of startTime; the live clock starts from there
    const liveStart = Math.max(startTime, world.timeOfBlock(world.block));
    const realStart = now();
    while (!signal.aborted) {
      const simNow = liveStart + Math.floor(((now() - realStart) * speed) / 1000);
      for (const b of world.blocksUntil(simNow)) {
        if (signal.aborted) return;
        yield { kind: 'events', chain, block: b.block, timestamp: b.timestamp, events: b.events };
      }
      if (signal.aborted) return;
      if (world.block - lastFinal >= finalizeEvery) yield finalized();
      const dueMs = ((world.nextBlockTime - liveStart) * 1000) / speed - (now() - realStart);
      await sleep(Math.min(maxSleepMs, Math.max(1, Math.ceil(dueMs))), signal);
    }
  }

  return { chain, run };
}
