import { describe, expect, it } from 'vitest';
import type { SourceItem } from '../types.ts';
import { createSimulator } from './index.ts';
import { buildPlan } from './plan.ts';
import { World, decodeWorldState, encodeWorldState } from './world.ts';
import type { WorldState } from './world.ts';

const G = 1_700_000_000;
const DAY = 86_400;

/** A clock the test drives: sleeping advances it. */
function fakeClock(startMs: number) {
  const clock = {
    ms: startMs,
    sleeps: 0,
    now: () => clock.ms,
    sleep: async (ms: number) => {
      clock.sleeps++;
      clock.ms += ms;
    },
  };
  return clock;
}

async function collect(gen: AsyncGenerator<SourceItem>, stop: (item: SourceItem, all: SourceItem[]) => boolean, ac: AbortController): Promise<SourceItem[]> {
  const out: SourceItem[] = [];
  for await (const item of gen) {
    out.push(item);
    if (stop(item, out)) {
      ac.abort();
      break;
    }
  }
  return out;
}

describe('simulator source', () => {
  it('backfills genesis..startTime without sleeping, then paces live blocks by the injected clock', async () => {
    const sim = createSimulator({ seed: 42, genesisTime: G });
    const startTime = G + DAY;
    const clock = fakeClock(1_000_000_000_000);
    const realStart = clock.ms;
    const speed = 60;
    const src = sim.source({ startTime, speed, now: clock.now, sleep: clock.sleep, finalizeEveryBlocks: 25 });
    expect(src.chain).toBe('sim');
    const ac = new AbortController();
    const seen: { item: SourceItem; at: number; sleeps: number }[] = [];
    for await (const item of src.run(ac.signal)) {
      seen.push({ item, at: clock.ms, sleeps: clock.sleeps });
      if (item.kind === 'events' && item.timestamp > startTime + 2 * 3600) {
        ac.abort();
        break;
      }
    }
    const backfill = seen.filter((s) => s.item.kind === 'events' && s.item.timestamp <= startTime);
    const live = seen.filter((s) => s.item.kind === 'events' && s.item.timestamp > startTime);
    expect(backfill.length).toBeGreaterThan(1000);
    for (const s of backfill) expect(s.sleeps).toBe(0);
    // the backfill ends with a finalized cursor at startTime's block
    const firstLiveIdx = seen.findIndex((s) => s.item.kind === 'events' && s.item.timestamp > startTime);
    const lastBackfillFinal = seen.slice(0, firstLiveIdx).filter((s) => s.item.kind === 'finalized').at(-1)?.item;
    expect(lastBackfillFinal).toMatchObject({ kind: 'finalized', chain: 'sim', block: Math.floor(DAY / 12) });
    // live: no block is yielded before the simulated clock reaches it
    expect(live.length).toBeGreaterThan(50);
    for (const s of live) {
      if (s.item.kind !== 'events') continue;
      const simNow = startTime + ((s.at - realStart) * speed) / 1000;
      expect(s.item.timestamp).toBeLessThanOrEqual(simNow);
      expect(s.item.timestamp).toBeGreaterThan(simNow - 60);
    }
    // two simulated hours (up to the first non-empty block after them) took two real minutes at speed 60
    const lastItem = live.at(-1)?.item;
    const lastTs = lastItem?.kind === 'events' ? lastItem.timestamp : 0;
    expect(clock.ms - realStart).toBeGreaterThanOrEqual(120_000);
    expect(clock.ms - realStart).toBeLessThanOrEqual(((lastTs - startTime) * 1000) / speed + 1);
    // finalized cursors keep coming while live, in order, never ahead of the yielded blocks
    const finals = seen.flatMap((s) => (s.item.kind === 'finalized' ? [s.item.block] : []));
    expect(finals.length).toBeGreaterThan(10);
    for (let i = 1; i < finals.length; i++) expect(finals[i]).toBeGreaterThan(finals[i - 1] as number);
    let maxEventBlock = 0;
    for (const s of seen) {
      if (s.item.kind === 'events') maxEventBlock = s.item.block;
      if (s.item.kind === 'finalized') expect(s.item.block).toBeGreaterThanOrEqual(maxEventBlock);
    }
  });

  it('yields the same blocks as blocksUntil', async () => {
    const sim = createSimulator({ seed: 7, genesisTime: G });
    const clock = fakeClock(0);
    const ac = new AbortController();
    const items = await collect(
      sim.source({ startTime: G + DAY / 2, now: clock.now, sleep: clock.sleep }).run(ac.signal),
      (item) => item.kind === 'finalized' && item.timestamp >= G + DAY / 2,
      ac,
    );
    const fromSource = items.filter((i) => i.kind === 'events').map((i) => (i.kind === 'events' ? i.events : []));
    const direct = [...createSimulator({ seed: 7, genesisTime: G }).blocksUntil(G + DAY / 2)].map((b) => b.events);
    expect(fromSource).toEqual(direct);
  });

  it('resumeAfterBlock continues exactly where a finalized cursor left off, without repeating history', async () => {
    const sim = createSimulator({ seed: 11, genesisTime: G });
    const startTime = G + DAY;
    const run = async (resumeAfterBlock?: number): Promise<SourceItem[]> => {
      const clock = fakeClock(5_000_000);
      const ac = new AbortController();
      return collect(
        sim.source({ startTime, now: clock.now, sleep: clock.sleep, resumeAfterBlock, backfillFinalizeEveryBlocks: 1000 }).run(ac.signal),
        (item) => item.kind === 'events' && item.timestamp > startTime + 3600,
        ac,
      );
    };
    const full = await run();
    const cursor = full.filter((i) => i.kind === 'finalized')[3];
    expect(cursor?.kind).toBe('finalized');
    const resumeAt = cursor?.block ?? 0;
    const resumed = await run(resumeAt);
    const events = (items: SourceItem[]) => items.filter((i) => i.kind === 'events');
    expect(events(resumed)[0]?.block).toBeGreaterThan(resumeAt);
    expect(events(resumed)).toEqual(events(full).filter((i) => i.block > resumeAt));
  });

  it('a resume from the world saved at a cursor (or before it) yields exactly the blocks of an uninterrupted run', async () => {
    const sim = createSimulator({ seed: 11, genesisTime: G });
    const other = createSimulator({ seed: 12, genesisTime: G });
    const startTime = G + DAY;
    const run = async (s: typeof sim, o: { resumeAfterBlock?: number; resumeFrom?: WorldState; states?: WorldState[] } = {}): Promise<SourceItem[]> => {
      const clock = fakeClock(5_000_000);
      const ac = new AbortController();
      const onFinalizedState = (st: WorldState) => o.states?.push(st);
      return collect(
        s.source({ startTime, now: clock.now, sleep: clock.sleep, resumeAfterBlock: o.resumeAfterBlock, resumeFrom: o.resumeFrom, onFinalizedState, backfillFinalizeEveryBlocks: 1000 }).run(ac.signal),
        (item) => item.kind === 'events' && item.timestamp > startTime + 3600,
        ac,
      );
    };
    const states: WorldState[] = [];
    const full = await run(sim, { states });
    const finals = full.filter((i) => i.kind === 'finalized');
    expect(states.map((st) => st.block)).toEqual(finals.map((f) => f.block));
    const events = (items: SourceItem[]) => items.filter((i) => i.kind === 'events');
    const at = finals[3]?.block ?? 0;
    // saved as text (the store's meta row) and read back
    const saved = (i: number) => decodeWorldState(encodeWorldState(states[i] as WorldState));
    expect(saved(3).block).toBe(at);
    const expected = events(full).filter((i) => i.block > at);
    // the state at the cursor; an older one (the blocks between regenerated)
    expect(events(await run(sim, { resumeAfterBlock: at, resumeFrom: saved(3) }))).toEqual(expected);
    expect(events(await run(sim, { resumeAfterBlock: at, resumeFrom: saved(1) }))).toEqual(expected);
    // another plan's state is not restored: the history is regenerated instead
    const otherStates: WorldState[] = [];
    await run(other, { states: otherStates });
    expect(events(await run(sim, { resumeAfterBlock: at, resumeFrom: otherStates[3] }))).toEqual(expected);
    // a state past the cursor cannot be wound back: regenerated
    expect(events(await run(sim, { resumeAfterBlock: at, resumeFrom: saved(4) }))).toEqual(expected);
  });

  it('a world restored from its state goes on as the original does; another plan\'s state is refused', () => {
    const plan = (seed: number) => buildPlan({ seed, genesisTime: G, blockTimeSec: 12, spanSec: 3 * DAY, tokens: 12, wallets: 200 });
    const a = new World(plan(5), 'sim');
    a.skipThrough(9000);
    const b = new World(plan(5), 'sim');
    expect(b.restore(decodeWorldState(encodeWorldState(a.state())))).toBe(true);
    expect(b.block).toBe(9000);
    const next = (w: World) => [...w.blocksUntil(w.timeOfBlock(9600))];
    const fromA = next(a);
    expect(fromA.length).toBeGreaterThan(100);
    expect(next(b)).toEqual(fromA);
    const c = new World(plan(6), 'sim');
    expect(c.restore(a.state())).toBe(false);
    expect(c.block).toBe(0);
  });

  it('a resume beyond startTime goes live from the cursor instead of waiting for the wall clock', async () => {
    const sim = createSimulator({ seed: 3, genesisTime: G });
    const clock = fakeClock(0);
    const ac = new AbortController();
    const resumeAfterBlock = Math.floor((2 * DAY) / 12);
    const items = await collect(
      sim.source({ startTime: G + DAY, now: clock.now, sleep: clock.sleep, resumeAfterBlock }).run(ac.signal),
      (item) => item.kind === 'events',
      ac,
    );
    const first = items.find((i) => i.kind === 'events');
    expect(first?.block).toBeGreaterThan(resumeAfterBlock);
    expect(clock.ms).toBeLessThan(60_000);
  });

  it('a resume regenerates history in slices: the event loop keeps turning until the first block comes', async () => {
    const sim = createSimulator({ seed: 5, genesisTime: G });
    const clock = fakeClock(0);
    const ac = new AbortController();
    let turns = 0;
    let spinning = true;
    const spin = () => {
      turns++;
      if (spinning) setImmediate(spin);
    };
    setImmediate(spin);
    // 5 simulated days to regenerate: a few hundred ms of work, which a synchronous loop ran in one turn
    const resumeAfterBlock = Math.floor((5 * DAY) / 12);
    const items = await collect(
      sim.source({ startTime: G + 6 * DAY, now: clock.now, sleep: clock.sleep, resumeAfterBlock }).run(ac.signal),
      (item) => item.kind === 'events',
      ac,
    );
    spinning = false;
    expect(items.find((i) => i.kind === 'events')?.block).toBe(resumeAfterBlock + 1);
    expect(turns).toBeGreaterThan(20);
  });

  it('stops when the signal aborts while sleeping', async () => {
    const sim = createSimulator({ seed: 1, genesisTime: G });
    const ac = new AbortController();
    let now = 0;
    const src = sim.source({
      startTime: G + 3600,
      now: () => now,
      sleep: async (ms) => {
        now += ms;
        if (now > 30_000) ac.abort();
      },
    });
    const items: SourceItem[] = [];
    for await (const item of src.run(ac.signal)) items.push(item);
    expect(ac.signal.aborted).toBe(true);
    expect(items.length).toBeGreaterThan(0);
  });
});
