/**
 * processOnce() with the sandbox's real retries: the sandbox forwards each webhook to a round-robin proxy in front of
 * two receivers that share one claim store, so attempt 1 lands on one instance and the retry on the other. The work
 * runs once however the first attempt ends (a timeout, a 500 after the work, a work failure). Run on the memory
 * store and on two connections to a real redis-server.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { memoryClaimStore, type ClaimStore } from '../../src/server/index.js';
import { createRedisStore } from '../../src/server/redis/index.js';
import { parseDelivery, processOnce, WebhookDeliveryError, type DeliveryClaims, type WebhookDelivery } from '../../src/webhooks/index.js';
import { demoSigningSecret, referenceHmac } from './contract-helpers.js';
import { startRedis, type TestRedis } from './redis-harness.js';
import { checkoutOrder, gateways, startTestSandbox, type Json, type TestSandbox } from './sandbox-harness.js';

// The server's stores fit the structural type webhooks declares for itself.
const fits: (store: ClaimStore) => DeliveryClaims = (store) => store;

/** What a receiving instance does with a delivery it owns, and how it answers afterwards. */
interface Behaviour {
  work(delivery: WebhookDelivery): Promise<void>;
  /** The status sent after the work succeeded (a 500 here: the instance failed after doing the work). */
  answer?: () => number;
  /** Called when this instance answers 503 because another one holds the delivery. */
  onInProgress?: () => void;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const close = (server: Server) =>
  new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });

/** One receiving instance, written as a merchant would: verify, process once, answer by outcome. */
function receiver(claims: DeliveryClaims, now: () => number, behaviour: () => Behaviour): Server {
  return createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        try {
          const delivery = await parseDelivery({ headers: req.headers, body: Buffer.concat(chunks), secret: demoSigningSecret, now });
          // The scenarios are about order_payment; the link_paid that follows each payment is simply taken.
          const { work, answer } = delivery.event === 'order_payment' ? behaviour() : { work: async () => {}, answer: undefined };
          const done = await processOnce(claims, delivery, work);
          if (done.outcome === 'in_progress') {
            res.writeHead(503, { 'Retry-After': '1' }).end();
            return res.once('finish', () => (delivery.event === 'order_payment' ? behaviour().onInProgress?.() : undefined));
          }
          res.writeHead(done.outcome === 'processed' && answer ? answer() : 200).end('{"received":true}');
        } catch (error) {
          res.writeHead(error instanceof WebhookDeliveryError ? error.httpStatus : 500).end();
        }
      })();
    });
  });
}

/**
 * A load balancer: each request to the next instance in turn, counted per event (so a link_paid that follows a
 * payment never shifts the turns of the next test); `restart()` sends the next one to the first instance.
 */
function roundRobin(targets: string[]): { server: Server; restart(): void } {
  const turns = new Map<string, number>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const event = String(req.headers['x-service-event']);
      const turn = turns.get(event) ?? 0;
      turns.set(event, turn + 1);
      const target = targets[turn % targets.length]!;
      const headers = Object.fromEntries(Object.entries(req.headers).filter((e): e is [string, string] => typeof e[1] === 'string' && e[0] !== 'host' && e[0] !== 'connection'));
      fetch(`${target}${req.url ?? '/'}`, { method: req.method, headers, body: Buffer.concat(chunks) }).then(
        async (reply) => res.writeHead(reply.status).end(await reply.text()),
        () => res.writeHead(502).end(),
      );
    });
  });
  return { server, restart: () => turns.clear() };
}

interface SharedStore {
  /** One client per instance, all on the same store. */
  clients: [DeliveryClaims, DeliveryClaims];
  close(): Promise<void>;
}

function scenarios(name: string, share: () => Promise<SharedStore>) {
  describe(`processOnce on two receivers sharing one ${name}`, () => {
    let sb: TestSandbox;
    let servers: Server[] = [];
    let behaviour: Behaviour;
    let proxyUrl = '';
    let restartProxy = () => {};
    let shared: SharedStore | undefined;
    /** Every run of the work, by order id, with the instance that ran it. */
    let runs: { idOrder: number; instance: string }[] = [];

    before(async () => {
      // 2 s per attempt (a loaded machine answers well within it), then about 300 ms to the next.
      sb = await startTestSandbox({ webhookTimeoutMs: 2_000, webhookRetryDelayMs: 300 });
      const now = () => sb.clock.now(); // the signed timestamps come from the sandbox's frozen clock
      shared = await share();
      const [storeA, storeB] = shared.clients;
      const instances = (['a', 'b'] as const).map((instance, i) =>
        receiver([storeA, storeB][i]!, now, () => ({
          ...behaviour,
          work: async (delivery) => {
            if (delivery.event === 'order_payment') runs.push({ idOrder: delivery.payload.id_order, instance });
            await behaviour.work(delivery);
          },
        })),
      );
      const urls = await Promise.all(instances.map(listen));
      const proxy = roundRobin(urls);
      proxyUrl = await listen(proxy.server);
      restartProxy = proxy.restart;
      servers = [...instances, proxy.server];
      const forwarded = await sb.api('POST', '/sandbox/forward', { url: `${proxyUrl}/hooks` });
      assert.equal(forwarded.status, 200, forwarded.text);
    });
    after(async () => {
      await sb.close();
      await Promise.all(servers.map(close));
      await shared?.close();
    });

    /** Pays a new order, so the sandbox sends order_payment to the proxy; returns the order id and the settled delivery. */
    async function payAndSettle(): Promise<{ idOrder: number; record: Json }> {
      runs = [];
      restartProxy(); // attempt 1 lands on instance a, the first retry on b
      const created = await checkoutOrder(sb, 'demo-dynamic', gateways.transfer, { amount: 20_000 });
      assert.equal(created.status, 201, created.text);
      const idOrder: number = created.body.data.id_order;
      assert.equal((await sb.api('POST', `/sandbox/orders/${idOrder}/pay`)).status, 200);
      const deadline = performance.now() + 30_000;
      for (;;) {
        const log = (await sb.api('GET', '/sandbox/deliveries')).body.data as Json[];
        const record = log.find((r) => r.event === 'order_payment' && r.payload.id_order === idOrder);
        if (record && record.state !== 'pending') return { idOrder, record };
        if (performance.now() > deadline) assert.fail(`the delivery did not settle: ${JSON.stringify(record)}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    }

    const statuses = (record: Json) => record.attempts.map((a: Json) => a.status);

    test('the first instance answers 500 after doing the work: the retry lands on the other, which does not redo it', async () => {
      behaviour = { work: async () => {}, answer: () => 500 };
      const { idOrder, record } = await payAndSettle();
      assert.deepEqual(statuses(record), [500, 200]);
      assert.deepEqual(runs, [{ idOrder, instance: 'a' }]);
    });

    test('the first instance is slower than the timeout: the retry finds it in progress (503), the next one done (200)', async () => {
      // Instance a's work lasts until instance b has answered the retry with 503, so attempt 1 times out for sure.
      let answeredInProgress = () => {};
      const bAnswered = new Promise<void>((resolve) => (answeredInProgress = resolve));
      behaviour = { work: () => bAnswered, onInProgress: () => answeredInProgress() };
      const { idOrder, record } = await payAndSettle();
      assert.deepEqual(runs, [{ idOrder, instance: 'a' }]);
      assert.deepEqual(statuses(record), [null, 503, 200], JSON.stringify(record.attempts));
      assert.match(record.attempts[0].error, /timeout/);
    });

    test('the work fails on the first instance: the claim is released and the retry on the other runs it', async () => {
      let calls = 0;
      behaviour = {
        work: async () => {
          if (calls++ === 0) throw new Error('the database was down');
        },
      };
      const { idOrder, record } = await payAndSettle();
      assert.equal(record.state, 'delivered', JSON.stringify(record.attempts));
      assert.deepEqual(statuses(record).slice(-1), [200]);
      assert.deepEqual(
        runs.map((r) => r.idOrder),
        [idOrder, idOrder],
      );
      assert.notEqual(runs[0]?.instance, runs[1]?.instance, 'the retry ran on the other instance');
    });

    test('a tampered copy or a correctly signed old one never reaches the work', async () => {
      behaviour = { work: async () => {} };
      await payAndSettle();
      const delivered = runs.length;
      const log = (await sb.api('GET', '/sandbox/deliveries')).body.data as Json[];
      const sent = log.find((r) => r.event === 'order_payment')!;
      const stale = JSON.stringify({ ...sent.payload, id_order: 999_999, timestamp: '2020-01-01T00:00:00.000Z' });
      for (const [body, signature, status] of [
        [sent.body.replace(/"id_order":\d+/, '"id_order":999999'), sent.signature, 401],
        [stale, referenceHmac(stale), 400],
      ] as const) {
        const reply = await fetch(`${proxyUrl}/hooks`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-service-signature': signature }, body });
        assert.equal(reply.status, status);
      }
      assert.equal(runs.length, delivered);
    });
  });
}

scenarios('memory store', async () => {
  const store = memoryClaimStore();
  return { clients: [fits(store), fits(store)], close: async () => {} };
});

scenarios('Redis (a connection per instance)', async () => {
  const redis: TestRedis = await startRedis();
  const stores = [createRedisStore({ url: redis.url }), createRedisStore({ url: redis.url })] as const;
  const shared: SharedStore = {
    clients: [fits(stores[0]), fits(stores[1])],
    async close() {
      await Promise.all(stores.map((s) => s.close?.()));
      await redis.stop();
    },
  };
  // Connected before the first delivery, so no attempt is spent loading the client and connecting (a loaded
  // machine can take longer than the store's 2 s command timeout for that first call).
  const deadline = performance.now() + 30_000;
  for (;;) {
    const ready = await Promise.all(stores.map((s) => s.inspect('warm-up'))).then(() => true, () => false);
    if (ready) return shared;
    if (performance.now() > deadline) {
      await shared.close();
      throw new Error('the Redis stores did not answer within 30 s');
    }
  }
});
