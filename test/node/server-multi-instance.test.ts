/**
 * The handler in 3 processes sharing one real Redis, behind a round-robin proxy, against a sandbox that does not
 * deduplicate `order_key`: 200 buyers × 5 identical concurrent creates (and changed bodies), with 5xx and
 * timeouts injected by the sandbox's fault controls → one order per key, one order id per buyer, no stuck claim.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { buyerStorm } from '../harness/buyer-storm.js';
import { startCluster, type Cluster } from '../harness/handler-cluster.js';
import { startRedis, type TestRedis } from './redis-harness.js';

let redis: TestRedis;
let sandbox: RunningSandbox;
let cluster: Cluster;

before(async () => {
  redis = await startRedis();
  sandbox = await startSandbox({ port: 0, defaultReceiver: false, orderKeyDedupe: false });
  cluster = await startCluster(3, { baseUrl: sandbox.baseUrl, redisUrl: redis.url, webhookSecret: 'whsec_test_demo', timeoutMs: 8_000, waitMs: 1_500 });
});
after(async () => {
  await cluster?.close();
  await sandbox?.close();
  await redis?.stop();
});

const control = (path: string, body: unknown) =>
  fetch(`${sandbox.url}/sandbox/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('3 handler instances sharing Redis', () => {
  it('200 buyers × 5 concurrent creates under 5xx and timeouts: exactly one order per key', async (t) => {
    assert.equal((await control('forward', { url: `${cluster.url}/v1/webhooks` })).status, 200);
    const faults = [
      { mode: 'error_5xx', status: 503, count: 30 },
      { mode: 'error_5xx', status: 500, count: 20 },
      // Created, then answered after the handler's timeout (8 s, far above what load alone causes here): in doubt
      // until the buyer approves the push and its order_payment webhook settles the claim.
      { mode: 'slow_first_byte', latency_ms: 8_500, count: 10 },
    ];
    for (const fault of faults) assert.equal((await control('faults', { path: '/v1/orders', method: 'POST', ...fault })).status, 200);

    const result = await buyerStorm({ origin: cluster.url, sandboxOrigin: sandbox.url, buyers: 200, copies: 5, changedEvery: 4, deadlineMs: 45_000 });

    const left = ((await (await fetch(`${sandbox.url}/sandbox/faults`)).json()) as { data: { remaining: number }[] }).data;
    assert.ok(left.every((f) => f.remaining === 0), 'every injected fault was hit');
    const summary = JSON.stringify(result);
    t.diagnostic(summary);
    assert.equal(result.orders, 200, summary);
    assert.equal(result.duplicateOrders, 0, summary);
    assert.equal(result.buyersWithManyIds, 0, summary);
    assert.equal(result.buyersWithoutOrder, 0, summary);
    assert.equal(result.stuckClaims, 0, summary);
    assert.ok((result.statuses['409 IDEMPOTENCY_KEY_IN_USE'] ?? 0) > 0, `some creates were in doubt or waited: ${summary}`);
  });
});
