/**
 * The platform section's flood (platform.ts), run in a thread of its own: a closed loop of clients on one shop's links
 * whose answers come back at once (refused beyond the shop's share) spins fast, and on the bench's own event loop it
 * would delay the quiet shop's measured requests inside the bench, not inside `serve`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { runLoad } from './load.js';
import { createOn } from './serve.js';

const { origin, hashes, concurrency, durationMs, warmupMs, first } = workerData as { origin: string; hashes: string[]; concurrency: number; durationMs: number; warmupMs: number; first: number };
const result = await runLoad({ origin, request: (n) => createOn(hashes[n % hashes.length] as string, first + n), concurrency, durationMs, warmupMs });
parentPort?.postMessage(result);
