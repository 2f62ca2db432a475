import { execFileSync, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack } from './harness.ts';
import type { Stack } from './harness.ts';

/**
 * Schemathesis (PyPI) fuzzes every operation from the published OpenAPI document: no 5xx, and
 * every status code, content type, header and body the app answers is the one the document
 * declares. The key's limits cover the run (an enterprise key with the operator's overrides), so
 * the cases reach the handlers instead of 429; at least 5,000 cases, against 127.0.0.1 only.
 */
describe('fuzzing from the OpenAPI document', () => {
  let stack: Stack;
  let bin: string;
  beforeAll(async () => {
    bin = execFileSync('bash', [resolve(import.meta.dirname, '../../infra/fuzz/schemathesis.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
    stack = await startStack({ seed: 9, days: 1, env: { DAILY_UNIT_BUDGET: '100000000' } });
    await stack.advanceTo(stack.sim.truth.genesisTime + 86400);
  }, 300_000);
  afterAll(async () => stack?.stop());

  it('finds no server error and no response that departs from the document', async () => {
    const org = await stack.keys.createOrg('fuzz');
    await stack.keys.goLive(org.id, Date.now());
    const key = (await stack.keys.createKey(org.id, 'enterprise', { ratePerMinute: 100_000_000, dailyUnits: 1_000_000_000_000 })).plaintext;
    const args = [
      'run',
      `${stack.url}/v1/openapi.json`,
      '--url',
      `${stack.url}/v1`,
      '-H',
      `Authorization: Bearer ${key}`,
      '--max-examples',
      '60',
      '--seed',
      '1',
      '--checks',
      'not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance',
      '--no-color',
    ];
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, SCHEMATHESIS_TELEMETRY: 'false' } });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((r) => child.on('exit', r));
    expect(code, out.slice(-6000)).toBe(0);
    expect(out).toMatch(/Fuzzing/);
    const cases = Number(/(\d+) generated/.exec(out)?.[1] ?? 0);
    const limited = (out.match(/429/g) ?? []).length;
    const warnings = /Warnings:\n([\s\S]*?)\n\n/.exec(out)?.[1] ?? 'none';
    // the summary's phase line: "✅ Stateful", or "⏭  Stateful (not applicable)" without links
    const stateful = /Test Phases:[\s\S]*?^(.*Stateful.*)$/m.exec(out)?.[1]?.trim() ?? 'no stateful phase';
    const [covered, , total] = (/API Links:\s+(\d+) covered \/ (\d+) selected \/ (\d+) total/.exec(out) ?? []).slice(1).map(Number);
    console.log(`schemathesis: ${cases} cases, ${limited} mentions of 429; ${stateful}, links ${covered} covered of ${total}; warnings:\n${warnings}`);
    // the document's links chain the operations: the stateful phase runs, follows them and (by the exit code) finds no failure
    expect(stateful).toMatch(/✅ Stateful/);
    expect(total).toBeGreaterThanOrEqual(16);
    expect(covered).toBeGreaterThan(0);
    expect(cases).toBeGreaterThanOrEqual(5000);
  }, 480_000);
});
