/**
 * The `intel` command: reads the environment once (runtime/cli.ts) and starts roles or runs a
 * command. Everything it does lives in runtime/; this file only runs it.
 */
import { setFlagsFromString } from 'node:v8';

// the heap grows twice its live size before the next full collection, where V8 grows it by as
// little as 10 %: the engine's heap (about 100 MB live on the 10-day simulator) was collected
// every 30-40 s under read load, and its marking slowed the API thread's answers by about a
// quarter while it ran (the two share the machine's cores and caches)
setFlagsFromString('--heap-growing-percent=100');
// and no "memory reducer" in the isolates started from here on (the API thread's; the flag does
// not reach this thread's, made before it): when the allocation rate falls (a paced load after a
// maximum-rate one, a quiet minute) V8 runs full collections to shrink a heap. On the API thread
// that was the only full collection of its heap in a bench-like run (about 100 s after the start,
// in two runs of two), and it did its marking on the API thread: 57-62 ms of that thread's time
// within 70-75 ms (a 65 MB heap), every answer meanwhile waiting. The API heap is then collected
// when it grows to its limit, as above, and keeps its size when the load drops
setFlagsFromString('--no-memory-reducer');
// and no allocation-site pretenuring: V8 decides in one collection that an object literal's
// allocations live long (85 % of at least 100 still live) and from then on makes them in the old
// space for good. In about 6 % of starts of `intel start` (13 of 219 restarts restoring a fresh
// 10-day data dir, then a 6 s read load) the API thread's answers then went on at half speed: every
// scavenge found about 3.4 MB of young objects still referenced (from the old space, it seems: each
// full collection freed them), promoted them, and a full collection ran every 650 ms. Which literal
// it was is not known. Without the decision, 0 such starts in 110 (60 with the flag given on the
// command line, 50 with this line)
setFlagsFromString('--no-allocation-site-pretenuring');
// `intel start` answers from a thread of its own: its code loads while this one loads the rest
// and opens the log and the store (runtime/api-thread.ts); other commands load none of it
if (process.argv[2] === 'start') (await import('../runtime/api-thread.ts')).spawnApiThreadEarly();
const { main } = await import('../runtime/cli.ts');

main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`intel: ${err instanceof Error ? err.message : String(err)}\n`);
  // where it failed, for the operator (a fatal start-up error is rare and worth its stack)
  if (err instanceof Error && err.stack) process.stderr.write(`${err.stack.split('\n').slice(1, 12).join('\n')}\n`);
  process.exit(1);
});
