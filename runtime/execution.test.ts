import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../infra/config.ts';
import { venueDeploymentFromConfig, venueGatewayFromConfig } from './execution.ts';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('the session keys’ master secret in the data directory', () => {
  it('is not created until a session key is derived, then created once (0600) and the same for every reader', () => {
    dir = mkdtempSync(join(tmpdir(), 'session-secret-'));
    const config = loadConfig({ DATA_DIR: dir, SIM_ENABLED: 'false' });
    const file = join(dir, 'copy-session-secret');
    const first = venueDeploymentFromConfig(config);
    const second = venueDeploymentFromConfig(config);
    // a deployment that trades on paper only never touches it
    expect(existsSync(file)).toBe(false);
    const secret = first.sessionSecret;
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(second.sessionSecret).toBe(secret);
    // no temporary file is left beside it
    expect(existsSync(`${file}.${process.pid}.tmp`)).toBe(false);
  });

  it('is COPY_SESSION_SECRET when set, and then no file is written', () => {
    dir = mkdtempSync(join(tmpdir(), 'session-secret-'));
    const set = 'x'.repeat(40);
    expect(venueDeploymentFromConfig(loadConfig({ DATA_DIR: dir, SIM_ENABLED: 'false', COPY_SESSION_SECRET: set })).sessionSecret).toBe(set);
    expect(existsSync(join(dir, 'copy-session-secret'))).toBe(false);
  });
});

describe('the venue gateway', () => {
  it('is one per configuration in a process: the API and the copy worker send through the same clients (one relayer nonce sequence)', () => {
    dir = mkdtempSync(join(tmpdir(), 'gateway-'));
    const config = loadConfig({ DATA_DIR: dir, SIM_ENABLED: 'false' });
    expect(venueGatewayFromConfig(config)).toBe(venueGatewayFromConfig(config));
    expect(venueGatewayFromConfig(loadConfig({ DATA_DIR: dir, SIM_ENABLED: 'false' }))).not.toBe(venueGatewayFromConfig(config));
  });
});
