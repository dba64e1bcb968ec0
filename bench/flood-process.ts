/**
 * The platform section's flood (platform.ts), in a process of its own at the lowest CPU priority (nice 19): a closed
 * loop of clients on one shop's links. A real flood's clients run on other machines and take none of the server's
 * CPU; here they share its two cores with `serve`, and at the same priority (as a thread of the bench, before) they
 * took CPU from it that no real flood takes, and from the quiet shop's own client. Niced, they get what the measured
 * processes leave, which on this machine is still several times the flooded shop's rate (the bench prints how much).
 * Started once, before anything is measured (its start-up is no part of a round); each `{ run }` message floods for
 * the given time and answers with the result.
 */
import { runLoad, type LoadResult } from './load.js';
import { createOn } from './serve.js';

interface Flood {
  origin: string;
  hashes: string[];
  concurrency: number;
  durationMs: number;
  warmupMs: number;
  first: number;
}

process.on('message', (message: { run?: Flood }) => {
  const flood = message.run;
  if (!flood) return;
  void runLoad({ origin: flood.origin, request: (n) => createOn(flood.hashes[n % flood.hashes.length] as string, flood.first + n), concurrency: flood.concurrency, durationMs: flood.durationMs, warmupMs: flood.warmupMs }).then((result: LoadResult) =>
    process.send?.({ result }),
  );
});
process.send?.({ ready: true });
