import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCHED_IDLE, chrtAvailable } from './priority.ts';

const CHILD = resolve(import.meta.dirname, '../test/fixtures/priority/process.ts');

interface Report {
  pid: number;
  main: number;
  favoured: number;
  other: number;
  child: number;
  base: number;
  lowered: number;
  idled: number;
  afterFavour: Record<string, number>;
  policiesAfterFavour: Record<string, number>;
  childAtStart: number;
  childPolicyAtStart: number;
  afterReapply: Record<string, number>;
  policiesAfterReapply: Record<string, number>;
}

const run = (args: string[]): Report => {
  const out = execFileSync(process.execPath, ['--import', 'tsx', CHILD, ...args], { encoding: 'utf8', timeout: 30_000 });
  return JSON.parse(out.trim().split('\n').pop() as string) as Report;
};

const hasChrt = chrtAvailable();

// nice values are per thread on Linux only (/proc/thread-self tells a thread its id)
describe.runIf(existsSync('/proc/thread-self'))('thread priorities: reads first', () => {
  it('the favoured thread keeps its nice value, every other thread of the process runs STEPS below it, also one started later', () => {
    const steps = 7;
    const r = run([String(steps)]);
    // the main thread's id is the process id
    expect(r.main).toBe(r.pid);
    const target = Math.min(19, r.base + steps);
    expect(r.lowered).toBeGreaterThanOrEqual(2);
    expect(r.afterFavour[r.favoured]).toBe(r.base);
    expect(r.afterFavour[r.main]).toBe(target);
    expect(r.afterFavour[r.other]).toBe(target);
    // V8's and libuv's helper threads too: every thread but the favoured one
    for (const [tid, nice] of Object.entries(r.afterFavour)) if (Number(tid) !== r.favoured) expect(nice, `thread ${tid}`).toBe(target);
    // a thread the favoured one started inherits its priority, until the next re-application
    expect(r.childAtStart).toBe(r.base);
    expect(r.afterReapply[r.child]).toBe(target);
    expect(r.afterReapply[r.favoured]).toBe(r.base);
  });

  it.runIf(hasChrt)('with idle, every other thread runs in SCHED_IDLE and the favoured one keeps its policy, also a thread started later', () => {
    const r = run(['7', 'idle']);
    expect(r.idled).toBeGreaterThanOrEqual(2);
    expect(r.policiesAfterFavour[r.favoured]).toBe(0);
    for (const [tid, policy] of Object.entries(r.policiesAfterFavour)) if (Number(tid) !== r.favoured) expect(policy, `thread ${tid}`).toBe(SCHED_IDLE);
    // the nice values as without idle
    expect(r.afterFavour[r.main]).toBe(Math.min(19, r.base + 7));
    // a thread the favoured one started has its policy, until the next re-application
    expect(r.childPolicyAtStart).toBe(0);
    expect(r.policiesAfterReapply[r.child]).toBe(SCHED_IDLE);
    expect(r.policiesAfterReapply[r.favoured]).toBe(0);
  });
});
