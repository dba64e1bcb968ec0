/**
 * The relay and the sweep on the Redis deployments merchants run: a real 3-master Cluster, and a Sentinel group whose
 * master is SIGKILLed in the middle of a storm of outcomes. Handlers on real sockets, the real sandbox forwarding its
 * webhooks to one of them, the sweep reading back what no webhook told, the relay's outbox on the same Redis, and the
 * shop a real HTTP server. Every order's outcome reaches the shop, and no event id is accepted twice.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { RedisConnectOptions } from '../../src/server/redis/connect.js';
import { createRedisStore } from '../../src/server/redis/index.js';
import { createRelay, redisOutbox, type Relay } from '../../src/server/serve/relay/index.js';
import { verifyPayCheckoutSignature } from '../../src/webhooks/index.js';
import { postOrder, resolveHandlerLink, serveHandler, type RunningHandler } from './handler-harness.js';
import { startRedisCluster, startSentinelGroup } from './redis-topologies.js';
import { startTestSandbox, type TestSandbox } from './sandbox-harness.js';

const appSecret = 'topologies-app-secret-of-the-shop';
const accepted: { id: string; type: string; id_order: number }[] = [];
const shop = createServer((request, response) => {
  let body = '';
  request.setEncoding('utf8');
  request.on('data', (chunk: string) => (body += chunk));
  request.on('end', () => {
    if (!verifyPayCheckoutSignature({ header: request.headers['pay-checkout-signature'] as string, signedText: body, secrets: [appSecret] })) return void response.writeHead(401).end();
    const notice = JSON.parse(body) as { id: string; type: string; data: { id_order: number } };
    accepted.push({ id: notice.id, type: notice.type, id_order: notice.data.id_order });
    response.writeHead(200).end();
  });
});

let sb: TestSandbox;
before(async () => {
  shop.listen(0, '127.0.0.1');
  [sb] = await Promise.all([startTestSandbox(), once(shop, 'listening')]);
});
after(async () => {
  shop.closeAllConnections();
  await new Promise((r) => shop.close(r));
  await sb?.close();
});

async function until(what: string, check: () => boolean, limitMs = 60_000) {
  const end = Date.now() + limitMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`still waiting for ${what}: ${JSON.stringify(accepted)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Two instances on `redis`, each with its relay and sweep; the sandbox forwards its webhooks to the first. */
async function instancesOn(redis: RedisConnectOptions) {
  const made: { handler: RunningHandler; relay: Relay; close(): Promise<void> }[] = [];
  for (let i = 0; i < 2; i++) {
    const store = createRedisStore({ ...redis, commandTimeoutMs: 10_000, onError: () => {} });
    const relay = createRelay({ outbox: redisOutbox({ ...redis, commandTimeoutMs: 5_000 }), notifyUrl: `http://127.0.0.1:${(shop.address() as AddressInfo).port}/notify`, secrets: [appSecret], firstRetryMs: 100, pollMs: 100, emit: () => {} });
    const handler = await serveHandler({
      merchantKey: 'mk_test_demo',
      baseUrl: `${sb.origin}/v1`,
      resolveLink: resolveHandlerLink,
      webhookSecret: 'whsec_test_demo',
      store,
      now: () => sb.running.sandbox.context.clock.now(),
      onOrderStatus: (change) => relay.record(change).then(() => {}),
      sweep: { firstReadMs: 300, pollMs: 100, readsPerSecond: 50, maxReads: 30, maxBackoffMs: 1_000 },
      onEvent: () => {},
    });
    relay.start();
    made.push({ handler, relay, close: async () => (await handler.close(), await relay.close(), await store.close?.()) });
  }
  await sb.api('DELETE', '/sandbox/forward');
  assert.equal((await sb.api('POST', '/sandbox/forward', { url: `${made[0]!.handler.url}/v1/webhooks` })).status, 200);
  return made;
}

/** `count` orders made through the instances in turn, each paid on the phone; `midway` runs after half of them. */
async function storm(instances: { handler: RunningHandler }[], count: number, midway: () => Promise<void>): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    if (i === count / 2) await midway();
    // Through the failover a create may meet the store away (503): the buyer's retry with the same key goes through.
    let reply = await postOrder(instances[i % 2]!.handler.url, `topology-${Date.now()}-${i}`);
    for (let tries = 0; reply.status === 503 && tries < 40; tries++) {
      await new Promise((r) => setTimeout(r, 250));
      reply = await postOrder(instances[i % 2]!.handler.url, `topology-retry-${Date.now()}-${i}`);
    }
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    const id = (reply.body.data as { id_order: number }).id_order;
    ids.push(id);
    assert.equal((await sb.api('POST', `/sandbox/orders/${id}/approve`)).status, 200);
  }
  return ids;
}

const checkOnce = async (ids: number[]) => {
  await until('every order paid at the shop', () => ids.every((id) => accepted.some((a) => a.id_order === id)));
  await new Promise((r) => setTimeout(r, 1_500));
  const ours = accepted.filter((a) => ids.includes(a.id_order));
  assert.deepEqual([...new Set(ours.map((a) => a.type))], ['order.paid']);
  assert.equal(ours.length, ids.length, `one notice per order: ${JSON.stringify(ours)}`);
  assert.equal(new Set(ours.map((a) => a.id)).size, ids.length, 'no event id accepted twice');
};

describe('the relay and the sweep on a 3-master Redis Cluster', () => {
  it('every outcome reaches the shop once: webhooks and sweeps on two instances, the outbox and open orders on their slots', async () => {
    const cluster = await startRedisCluster();
    const instances = await instancesOn({ url: cluster.url });
    try {
      // Half the outcomes with no webhook at all: only the sweep learns them.
      const ids = await storm(instances, 20, async () => void (await sb.api('DELETE', '/sandbox/forward')));
      await checkOnce(ids);
    } finally {
      await Promise.all(instances.map((i) => i.close()));
      await cluster.stop();
    }
  });
});

describe('the relay and the sweep through a Sentinel failover', () => {
  it('the master SIGKILLed mid-storm, the replica promoted: every outcome reaches the shop once', async (t) => {
    const group = await startSentinelGroup();
    const instances = await instancesOn({ sentinel: { name: group.name, sentinelRootNodes: [{ host: '127.0.0.1', port: group.sentinelPort }] } });
    try {
      let killedAt = 0;
      const ids = await storm(instances, 20, async () => {
        await group.killMaster();
        killedAt = Date.now();
        await group.promoted();
        t.diagnostic(`replica promoted ${Date.now() - killedAt} ms after the master was killed`);
      });
      await checkOnce(ids);
      t.diagnostic(`every outcome at the shop ${Date.now() - killedAt} ms after the master was killed`);
    } finally {
      await Promise.all(instances.map((i) => i.close()));
      await group.stop();
    }
  });
});
