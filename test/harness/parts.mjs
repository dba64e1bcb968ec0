// The parts of `npm test` (test/run.mjs) that are whole runners of their own: each runs alone as `node FILE` and
// prints `N passed, N failed` as its last line, which the entry point adds to its summary. The end-to-end part runs
// once per engine; the others once.
export const E2E_PART = { key: 'e2e', name: 'End-to-end', file: 'test/e2e/run.mjs' };

// `beside: true`: the part runs in test/run.mjs's second lane, beside the browser and end-to-end steps (with
// BROWSER_BESIDE's browser steps and E2E_BESIDE's end-to-end steps, below).
export const PARTS = [
  { key: 'size', name: 'Bundle size', file: 'test/size/size-check.mjs' },
  // Packaging stays in the main lane: beside the browser steps, `next dev` missed its 60 s to first render (13:41).
  { key: 'pack', name: 'Packaging (publint, attw, the tarball in throwaway projects)', file: 'test/pack/pack-check.mjs' },
  { key: 'docs', beside: true, name: 'Documentation site (Chromium: pages, links, axe, live checkouts, npm start /docs/; a live checkout in Firefox and WebKit)', file: 'test/docs/run.mjs' },
];

/**
 * The Node test files that run after the others, one at a time (test/run.mjs): they time real processes or real
 * waits under load (storms, failovers, SIGTERM/SIGKILL/SIGSTOP mid-flight, several instances on one store, a p95, a
 * delivery's timeout, a claim store's answer time, a shop's rate a second), so they get the machine to themselves
 * instead of sharing it with the files that run side by side. Three at a time on the shared 2-core machine (load
 * 15-30), eight files failed on a time limit; seven of them are here (the eighth waits 50 ms for an import). Every
 * other file runs NODE_CONCURRENCY at a time: most wait on sockets and timers, not the CPU.
 */
export const NODE_ALONE = [
  'test/node/example-server-redis.test.ts',
  'test/node/hardening-hanging-receiver.test.ts',
  'test/node/hostile-load.test.ts',
  'test/node/relay-sweep-topologies.test.ts',
  'test/node/sandbox-webhooks-delivery.test.ts',
  'test/node/serve-hostile.test.ts',
  'test/node/serve-partner-fair.test.ts',
  'test/node/serve-sweep.test.ts',
  'test/node/serve-two-instances.test.ts',
  'test/node/server-failover.test.ts',
  'test/node/server-graceful-shutdown.test.ts',
  'test/node/server-multi-instance.test.ts',
  'test/node/server-postgres-store.test.ts',
  'test/node/server-redis-silent.test.ts',
  'test/node/server-redis-topologies.test.ts',
  'test/node/server-webhook-once.test.ts',
  'test/node/status-wait.test.ts',
];
export const NODE_CONCURRENCY = 2;
/**
 * The engines whose end-to-end step runs in the second lane: WebKit, whose MiniBrowser keeps under one core busy (its
 * 14 tests took 44 s alone at 14:15; each file has 120 s). Firefox stays in the main lane: beside the Chromium browser
 * tests, its live-dialect file went over its 120 s at load 10 (13:41).
 */
export const E2E_BESIDE = ['webkit'];
/**
 * The engines whose browser step (web-test-runner, with a sandbox and a port of its own) runs in the second lane,
 * before the docs site: WebKit, which keeps under one core busy (15:34, load 5-11: WebKitWebProcess about 0.4 of a core,
 * web-test-runner and the sandbox 19 CPU-s in 272 s), so it fits beside Chromium's. Chromium's and Firefox's browser
 * steps each keep more than a core busy (8-12 CPU-s a file), and stay in the main lane.
 */
export const BROWSER_BESIDE = ['webkit'];
/** The static checks (tsc, ESLint, lit-analyzer, Redocly) at a time: each is one process that keeps one core busy. */
export const STATIC_CONCURRENCY = 2;
