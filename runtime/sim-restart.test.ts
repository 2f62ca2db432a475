import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../infra/config.ts';
import { Tables } from '../infra/store/types.ts';
import { cursorKey } from '../ingest/publisher.ts';
import type { IngestCursor } from '../ingest/publisher.ts';
import { createSimulator } from '../ingest/simulator/index.ts';
import { decodeWorldState } from '../ingest/simulator/world.ts';
import { TokenEventsTopic, ensureTopic } from '../infra/topics.ts';
import { waitFor } from '../test/contract/wait.ts';
import { startIngest } from './ingest.ts';
import { createServices } from './services.ts';
import type { Services } from './services.ts';

/**
 * A clean restart of the ingest with the simulator: the stop saves the simulator's world as it was
 * at the cursor written last (the store's meta row `sim-world`), and the next start restores that
 * world instead of regenerating every block since genesis; what it publishes then is what an
 * uninterrupted simulator publishes (no block missing, none different).
 */
const NOW = Date.UTC(2026, 0, 10);
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** the ingest on a data dir, with its clock; its log lines (JSON) collected */
async function ingestOn(dir: string, clock: { ms: number }): Promise<{ services: Services; lines: Record<string, unknown>[]; cursor: () => number }> {
  const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'info', PORT: '0', SIM_SEED: '4', SIM_HISTORY_DAYS: '1', SIM_FUTURE_DAYS: '1', SIM_SPEED: '60', VENUE_SIM_ENABLED: 'false' });
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString().split('\n')) if (l) lines.push(JSON.parse(l) as Record<string, unknown>);
      done();
    },
  });
  const services = await createServices(config, pino({ level: 'info' }, sink));
  const ingest = await startIngest(services, { now: () => clock.ms });
  await ingest.caughtUp;
  return { services, lines, cursor: () => ingest.cursors()['sim:simulator']?.block ?? 0 };
}

describe('the simulator across a clean restart', () => {
  it('resumes from the world saved at its cursor and publishes what an uninterrupted run does', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'intel-sim-restart-'));
    dirs.push(dir);
    const clock = { ms: NOW };
    const first = await ingestOn(dir, clock);
    const backfilled = first.cursor();
    expect(backfilled).toBe(Math.floor(86_400 / 12));
    // live: a simulated hour (60 real seconds at SIM_SPEED 60), 300 blocks, finalized every 25
    clock.ms += 60_000;
    await waitFor(() => first.cursor() >= backfilled + 250, 'the live simulator to write its cursor past the backfill', 10_000);
    await first.services.shutdown();
    const reader = await createServices(loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', PORT: '0' }));
    const savedRow = await reader.store.get(Tables.meta, 'sim-world');
    const cursorAtStop = (JSON.parse((await reader.store.get(Tables.cursors, cursorKey('sim', 'simulator')))?.body ?? '{}') as IngestCursor).block;
    await reader.shutdown();
    expect(savedRow).toBeDefined();
    const saved = decodeWorldState(savedRow?.body ?? '');
    expect(saved.block).toBe(cursorAtStop);
    expect(cursorAtStop).toBeGreaterThan(backfilled);

    // started again: live from the saved world on (it is ahead of the wall clock: SIM_SPEED)
    clock.ms += 60_000;
    const second = await ingestOn(dir, clock);
    const starting = second.lines.find((l) => l.msg === 'simulator starting');
    expect(starting).toMatchObject({ resume_after_block: cursorAtStop, saved_world_block: cursorAtStop });
    clock.ms += 120_000;
    await waitFor(() => second.cursor() >= cursorAtStop + 500, 'the restarted simulator to go on past the gap', 10_000);
    await second.services.shutdown();

    // every event published, across both runs, against the simulator's own blocks up to the last cursor
    const check = await createServices(loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', PORT: '0' }));
    const cursor = JSON.parse((await check.store.get(Tables.cursors, cursorKey('sim', 'simulator')))?.body ?? '{}') as IngestCursor;
    const genesis = JSON.parse((await check.store.get(Tables.meta, 'sim-genesis'))?.body ?? '{}') as { seed: number; genesisTime: number; spanDays: number };
    const published = new Map<string, string>();
    await ensureTopic(check.log, TokenEventsTopic);
    const consumer = await check.log.consume({
      groupId: 'test-reader',
      topics: [TokenEventsTopic.name],
      fromBeginning: true,
      eachBatch: async (batch) => {
        for (const r of batch.records) {
          const e = JSON.parse(r.value) as { tx: string; logIndex: number; type: string; block: number };
          if (e.block <= cursor.block) published.set(`${e.tx}:${e.logIndex}:${e.type}`, r.value);
        }
      },
    });
    await waitFor(async () => published.size > 0 && (await consumer.lag()).every((l) => l.lag === 0), 'the reader to read the whole topic', 10_000);
    await consumer.stop();
    await check.shutdown();
    const want = new Map<string, string>();
    for (const b of createSimulator(genesis).blocksUntil(cursor.timestamp)) for (const e of b.events) want.set(`${e.tx}:${e.logIndex}:${e.type}`, JSON.stringify(e));
    expect(want.size).toBeGreaterThan(1000);
    expect([...want.keys()].filter((k) => !published.has(k))).toEqual([]);
    expect([...published.keys()].filter((k) => !want.has(k))).toEqual([]);
    const differ = [...want].filter(([k, v]) => JSON.stringify(JSON.parse(published.get(k) as string)) !== v);
    expect(differ.slice(0, 3)).toEqual([]);
  });
});
