/**
 * The `intel` command: reads the environment once (runtime/cli.ts) and starts roles or runs a
 * command. Everything it does lives in runtime/; this file only runs it.
 */
import { setFlagsFromString } from 'node:v8';

// the heap grows to twice its live size before the next full collection: with V8's own growth the
// engine's heap was collected often under read load, and its marking slowed the API thread's
// answers while it ran (the measurements: docs/operations.md "Tuning the process")
setFlagsFromString('--heap-growing-percent=100');
// and no "memory reducer" in the isolates started from here on (the API thread's; the flag does
// not reach this thread's, made before it): when the load falls V8 runs a full collection to
// shrink a heap, marking on the API thread while every answer waits. The API heap is collected
// when it grows to its limit instead, and keeps its size when the load drops
setFlagsFromString('--no-memory-reducer');
// and no allocation-site pretenuring: V8 decides from one collection that a literal's objects
// live long and makes them in the old space for good; in a few starts in a hundred that decision
// left the API thread answering at half speed until the process ended
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
