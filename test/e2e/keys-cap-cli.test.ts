import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../scripts/build.ts';

describe('intel keys create: the organisation key cap', () => {
  const dir = mkdtempSync(join(tmpdir(), 'intel-keycap-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** the CLI on the embedded default in its own data dir, sandbox organisations capped at 3 keys */
  const intel = (...args: string[]) => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'bin/intel.ts', 'keys', ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, DATA_DIR: dir, LOG_LEVEL: 'warn', KEYS_PER_ORG_SANDBOX: '3' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };

  it('key-flood through the CLI: a partner organisation (--org) gets key_limit past its cap; the deployment’s own does not', () => {
    // the deployment's sandbox organisation (no --org): made with its first key, then this one
    expect(intel('create', '--plan', 'sandbox').code).toBe(0);
    const org = /\s(org_[0-9a-f]+)\s/.exec(intel('list').out)?.[1] as string;
    expect(org).toMatch(/^org_/);
    expect(intel('create', '--plan', 'sandbox', '--org', org).code).toBe(0);
    const refused = intel('create', '--plan', 'sandbox', '--org', org);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('intel: key_limit: the organisation holds 3 active keys and its cap is 3: revoke one to create another');
    expect(refused.out).toBe('');
    // the operator's own minting (no --org) is not capped
    expect(intel('create', '--plan', 'sandbox').code).toBe(0);
  }, 120_000);
});
