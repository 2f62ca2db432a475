/**
 * Restart time and data-dir size: the caught-up service stopped with SIGTERM (as an operator
 * stops it), its data dir measured with `du`, then started again; the restart time runs from the
 * spawn to the first token-intel answer that is fresh: asOf at least the one served before the
 * stop, and the engine caught up (ops `/metrics`). Three restarts of each history, in turn, the
 * median reported (each printed): one restart of about 2 s moved by 0.4 s with the host's moment.
 */
import type { Instance } from './instance.ts';
import { caughtUp, ready, servedAsOf, spawnIntel } from './instance.ts';
import type { Children } from './lib.ts';
import { MB, du, log, sleep } from './lib.ts';

export interface RestartResult {
  days: number;
  /** spawn → fresh token-intel answer: the median of the rounds */
  restartS: number;
  /** every round's */
  roundsS: number[];
  /** spawn → the API listening; spawn → any token-intel answer */
  listenS: number;
  firstAnswerS: number;
  shutdownS: number;
  bytesCaughtUp: number;
  bytesStopped: number;
}

/**
 * `rounds` restarts of each instance, taken in turn (A B A B A B): the host's speed drifts over
 * minutes, and a comparison of two histories' restarts must not hang on which one ran in the
 * slower minute. When the 10-day restarts ran three in a row and the 20-day ones a minute later,
 * the same build read +28 %, +12 %, +7 % and -21 % (medians of 2.0-3.0 s) in four runs.
 */
export async function restartInTurn(children: Children, insts: Instance[], rounds = 3): Promise<RestartResult[]> {
  const all: Omit<RestartResult, 'roundsS'>[][] = insts.map(() => []);
  for (let i = 0; i < rounds; i++) for (const [n, inst] of insts.entries()) all[n]?.push(await restartOnce(children, inst));
  const median = <T>(xs: T[], by: (x: T) => number) => [...xs].sort((x, y) => by(x) - by(y))[Math.floor(xs.length / 2)] as T;
  return all.map((rs) => {
    const mid = median(rs, (r) => r.restartS);
    const first = rs[0] as Omit<RestartResult, 'roundsS'>;
    return { ...mid, bytesStopped: first.bytesStopped, shutdownS: first.shutdownS, roundsS: rs.map((r) => r.restartS) };
  });
}

async function restartOnce(children: Children, inst: Instance): Promise<Omit<RestartResult, 'roundsS'>> {
  const key = inst.keys.key;
  if (inst.proc && !inst.proc.alive()) throw new Error(`[${inst.name}] intel start (pid ${inst.proc.child.pid}) is not running (${String(await inst.proc.exited)}); its last lines:\n${inst.proc.tail(3)}`);
  let before: number | undefined;
  for (let i = 0; i < 50 && before === undefined; i++) {
    before = await servedAsOf(inst.url, key, inst.token);
    if (before === undefined) await sleep(200);
  }
  if (before === undefined) throw new Error(`[${inst.name}] token-intel not served before the stop`);
  const ts = Date.now();
  const code = await inst.proc?.stop('SIGTERM', 60_000);
  const shutdownS = (Date.now() - ts) / 1000;
  const bytesStopped = du(inst.dataDir);
  log(`  [${inst.name}] SIGTERM: exited ${String(code)} after ${shutdownS.toFixed(1)} s; served asOf before the stop ${new Date(before * 1000).toISOString()}; data dir ${MB(bytesStopped)} (${MB(inst.bytesCaughtUp)} when caught up after the backfill)`);

  const t0 = Date.now();
  const proc = spawnIntel(children, inst);
  inst.proc = proc;
  let listenS = NaN;
  let firstAnswerS = NaN;
  const deadline = t0 + 600_000;
  for (;;) {
    if (!proc.alive()) throw new Error(`[${inst.name}] exited during the restart:\n${proc.tail()}`);
    if (Date.now() > deadline) throw new Error(`[${inst.name}] no fresh answer within 600 s of the restart:\n${proc.tail()}`);
    if (Number.isNaN(listenS)) {
      // the whole start-up output (Child.head's default, as waitFor reads it): a process started
      // with V8's GC tracing printed more than 64 KB before its banner, and this loop waited out
      // its 600 s deadline on a service long up
      if (/intel API listening at/.test(proc.head())) listenS = (Date.now() - t0) / 1000;
      else {
        await sleep(20);
        continue;
      }
    }
    const asOf = await servedAsOf(inst.url, key, inst.token);
    if (asOf !== undefined && Number.isNaN(firstAnswerS)) firstAnswerS = (Date.now() - t0) / 1000;
    if (asOf !== undefined && asOf >= before && (await caughtUp(inst.opsUrl, t0))) break;
    await sleep(50);
  }
  const restartS = (Date.now() - t0) / 1000;
  await ready(proc, 10_000);
  log(`  [${inst.name}] restart: listening ${listenS.toFixed(1)} s, first token-intel answer ${firstAnswerS.toFixed(1)} s, fresh and caught up ${restartS.toFixed(1)} s after the spawn`);
  return { days: inst.days, restartS, listenS, firstAnswerS, shutdownS, bytesCaughtUp: inst.bytesCaughtUp, bytesStopped };
}
