/**
 * The wallet-authorization replay guard across API processes: two real processes (children, each
 * the real app) over one embedded store directory receive the same signed request 30 times at
 * once, split between them; the store's conditional write lets exactly one through.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyService } from '../../infra/keys.ts';
import { createEmbeddedStore } from '../../infra/store/embedded.ts';
import { signedCall } from '../e2e/relay.ts';

const SERVER = resolve(import.meta.dirname, '../e2e/relay-server.ts');
const user = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');

/** a relay API process over `dir`; resolves with its URL once it listens */
function startRelayProcess(dir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER, dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((ok, fail) => {
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening (\S+)/.exec(out);
      if (m) ok({ child, url: m[1] as string });
    });
    child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => fail(new Error(`relay process exited (${code}) before listening:\n${out}`)));
  });
}

describe('the replay guard across two API processes over one store', () => {
  let dir: string;
  let procs: { child: ChildProcess; url: string }[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wallet-auth-procs-'));
    procs = await Promise.all([startRelayProcess(dir), startRelayProcess(dir)]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all(procs.map((p) => new Promise<void>((done) => (p.child.exitCode !== null ? done() : (p.child.once('exit', () => done()), p.child.kill('SIGTERM'))))));
    rmSync(dir, { recursive: true, force: true });
  });

  it('30 identical signed requests split between two processes: exactly one accepted', async () => {
    // the partner's key, written to the shared store by a third client of it
    const store = await createEmbeddedStore({ dataDir: dir });
    const keys = createKeyService({ store, cacheTtlSeconds: 30 });
    const org = await keys.createOrg('partner');
    const key = { plaintext: (await keys.createKey(org.id, 'sandbox')).plaintext, orgId: org.id };
    await store.close();
    const start = Math.floor(Date.now() / 1000);
    // three rounds, each a new message (its own timestamp), each sent 30 times at once
    for (let round = 0; round < 3; round++) {
      const timestamp = start - 10 * round;
      const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => signedCall((procs[i % 2] as { url: string }).url, key, user, '/copy/agent/list', { limit: 20 }, timestamp)));
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 200), `round ${round}: ${JSON.stringify(answers.filter((a) => a.status !== 401).map((a) => a.json))}`).toHaveLength(1);
      expect(statuses.filter((s) => s === 401)).toHaveLength(29);
      expect(answers.filter((a) => a.status === 401).every((a) => a.json.error === 'wallet_auth_required')).toBe(true);
    }
  });
});
