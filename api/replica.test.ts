import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMemoryLog } from '../infra/log/memory.ts';
import { createEmbeddedStore } from '../infra/store/embedded.ts';
import { Tables } from '../infra/store/types.ts';
import { Topics } from '../schemas/events.ts';
import { createReplica } from './replica.ts';
import { splitSnapshotRecord } from '../infra/topics.ts';

describe('snapshot replica', () => {
  it('takes the body of a snapshots-topic record as the bytes the engine wrote, without parsing it', () => {
    const body = '{"a":"}","b":[1,2],"c":{"version":3}}';
    expect(splitSnapshotRecord(`{"version":12,"body":${body}}`)).toEqual({ version: 12, text: body });
    // another layout is parsed and serialized once
    expect(splitSnapshotRecord('{"body":{"x":1},"version":4}')).toEqual({ version: 4, text: '{"x":1}' });
  });

  it('bootstraps from the store, follows the topic by version, and parses each version once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'replica-test-'));
    const log = createMemoryLog({ idlePollMs: 10 });
    const store = await createEmbeddedStore({ dataDir: dir });
    await store.migrate();
    await store.upsert(Tables.snapshots, [{ key: 'token:sim:0x1', version: 5, body: '{"n":5}' }]);
    const replica = await createReplica({ log, store });
    try {
      expect(replica.entry('token:sim:0x1')?.text).toBe('{"n":5}');
      const first = replica.get<{ n: number }>('token:sim:0x1');
      expect(first).toEqual({ n: 5 });
      expect(replica.get('token:sim:0x1')).toBe(first);
      await log.publish(Topics.snapshots, [
        { key: 'token:sim:0x1', value: '{"version":4,"body":{"n":4}}' },
        { key: 'token:sim:0x2', value: '{"version":1,"body":{"n":1}}' },
      ]);
      for (let i = 0; i < 100 && replica.size() < 2; i++) await new Promise((r) => setTimeout(r, 10));
      // an older version never replaces a newer one
      expect(replica.entry('token:sim:0x1')?.version).toBe(5);
      await log.publish(Topics.snapshots, [{ key: 'token:sim:0x1', value: '{"version":6,"body":{"n":6}}' }]);
      for (let i = 0; i < 100 && replica.entry('token:sim:0x1')?.version !== 6; i++) await new Promise((r) => setTimeout(r, 10));
      expect(replica.entry('token:sim:0x1')?.text).toBe('{"n":6}');
      expect(replica.list<{ n: number }>('token', 'sim').map((s) => s.n).sort()).toEqual([1, 6]);
    } finally {
      await replica.stop();
      await log.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
