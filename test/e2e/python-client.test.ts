import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERATED, PYTHON_CLIENT_DIR, generatePythonClient, pythonVenv } from '../../scripts/python-client.ts';
import { startStack } from './harness.ts';
import type { Stack } from './harness.ts';

/** every file under a directory (generated caches aside), by its path relative to the directory, with its text */
function filesOf(root: string, names: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (path: string) => {
    if (statSync(path).isDirectory()) {
      for (const entry of readdirSync(path)) if (entry !== '__pycache__') walk(join(path, entry));
    } else out[relative(root, path)] = readFileSync(path, 'utf8');
  };
  for (const name of names) walk(join(root, name));
  return out;
}

/**
 * The Python client (clients/python), generated from the OpenAPI document by openapi-python-client:
 * the committed client is what the current document generates, and pytest calls three operations
 * through it against the running app.
 */
describe('the Python client generated from the document', () => {
  let stack: Stack;
  let venv: string;
  beforeAll(async () => {
    venv = pythonVenv();
    stack = await startStack({ seed: 6, days: 1 });
    await stack.advanceTo(stack.sim.truth.genesisTime + 86400);
  }, 300_000);
  afterAll(async () => stack?.stop());

  it('the committed client is what the current document generates (else: npm run client:python)', () => {
    const fresh = filesOf(generatePythonClient(venv), GENERATED);
    const committed = filesOf(PYTHON_CLIENT_DIR, GENERATED);
    expect(Object.keys(committed).sort()).toEqual(Object.keys(fresh).sort());
    for (const [path, text] of Object.entries(fresh)) expect(committed[path], `clients/python/${path} is stale: run npm run client:python`).toBe(text);
  }, 120_000);

  it('pytest calls movers, token-intel and usage through the client against the running app', async () => {
    const env = { ...process.env, INTEL_BASE_URL: `${stack.url}/v1`, INTEL_API_KEY: await stack.newKey(), PYTHONDONTWRITEBYTECODE: '1' };
    const run = await promisify(execFile)(join(venv, 'bin/pytest'), ['-q', '-p', 'no:cacheprovider', join(PYTHON_CLIENT_DIR, 'tests')], { env, cwd: PYTHON_CLIENT_DIR }).catch(
      (e: { stdout?: string; stderr?: string; code?: number }) => ({ stdout: `${e.stdout ?? ''}${e.stderr ?? ''} (exit ${e.code})` }),
    );
    expect(run.stdout).toMatch(/\b3 passed\b/);
    expect(run.stdout).not.toMatch(/failed|error/i);
  }, 120_000);
});
