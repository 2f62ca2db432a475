/**
 * What a server's threads and the machine did while a paced run's answers were slow: the bench
 * samples the server's per-thread CPU (/proc/<pid>/task) and the machine's (/proc/stat) every
 * SAMPLE_MS during the run, and lays each slow spell the generator reported (bench/load.ts) beside
 * the samples around it. A spell with the answering thread busy is work on it (its own collector
 * among it); one with it idle and the machine busy is the cores taken by something else; steal is
 * the hypervisor's.
 */
import { cpus } from 'node:os';
import type { SlowSpell } from './slow.ts';
import { SLOW_MS } from './slow.ts';
import { threadCpu } from './lib.ts';
import { machineTicks } from './procstat.ts';

/** how often the sampler reads /proc: reading a process's threads costs about 1 ms of the bench's own CPU */
const SAMPLE_MS = 100;
/** the samples laid beside a spell reach this far before and after it */
const AROUND_MS = 100;

interface Sample {
  at: number;
  threads: Map<string, number>;
  machine: { busy: number; idle: number; steal: number } | undefined;
}

/** the machine's CPU seconds so far: busy, idle (with iowait), steal */
function machineCpu(): Sample['machine'] {
  const t = machineTicks();
  return t && { busy: t.busy / 100, idle: t.idle / 100, steal: t.steal / 100 };
}

export interface Sampler {
  stop(): void;
  /** one line per spell: the server's busiest threads and the machine's CPU around it */
  describe(spells: SlowSpell[], limit?: number): string[];
}

export function sampleThreads(pid: number): Sampler {
  const samples: Sample[] = [];
  const take = () => samples.push({ at: Date.now(), threads: threadCpu(pid), machine: machineCpu() });
  take();
  const timer = setInterval(take, SAMPLE_MS);
  return {
    stop() {
      clearInterval(timer);
      take();
    },
    describe(spells, limit = 3) {
      const first = samples[0];
      const last = samples[samples.length - 1];
      if (!first || !last || first === last) return [];
      // the answering thread: the busiest over the whole run
      const whole = [...last.threads].map(([tid, s]) => [tid, s - (first.threads.get(tid) ?? 0)] as const).sort((a, b) => b[1] - a[1]);
      const api = whole[0]?.[0];
      const name = (tid: string) => (tid === String(pid) ? 'main' : tid === api ? 'answering' : tid);
      return spells.slice(0, limit).map((sp) => {
        const from = [...samples].reverse().find((s) => s.at <= sp.at - AROUND_MS) ?? first;
        const to = samples.find((s) => s.at >= sp.at + sp.ms + AROUND_MS) ?? last;
        const wall = (to.at - from.at) / 1000;
        const used = [...to.threads].map(([tid, s]) => [tid, s - (from.threads.get(tid) ?? 0)] as const).sort((a, b) => b[1] - a[1]);
        const pct = (s: number) => `${((s / wall) * 100).toFixed(0)} %`;
        const threads = used
          .filter(([, s]) => s > 0)
          .slice(0, 4)
          .map(([tid, s]) => `${name(tid)} ${pct(s)}`)
          .join(', ');
        const m = from.machine && to.machine ? { busy: to.machine.busy - from.machine.busy, idle: to.machine.idle - from.machine.idle, steal: to.machine.steal - from.machine.steal } : undefined;
        const cores = cpus().length;
        const machine = m ? `; machine busy ${pct(m.busy / cores)}, idle ${pct(m.idle / cores)}, steal ${pct(m.steal / cores)} of its ${cores} cores` : '';
        const when = new Date(sp.at).toISOString().slice(11, 23);
        return `slow spell at ${when}: ${sp.answers} answers over ${SLOW_MS} ms within ${sp.ms.toFixed(0)} ms, the slowest ${sp.maxMs.toFixed(1)} ms; over ${(wall * 1000).toFixed(0)} ms around it the server's threads used ${threads || 'nothing'}${machine}`;
      });
    },
  };
}
