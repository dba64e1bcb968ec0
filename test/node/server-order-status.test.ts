/**
 * The handler's `onOrderStatus`: each outcome of an order made through a link, with the link's hash, told from the
 * service's verified webhooks and from the buyers' own status checks (a cancellation has no webhook); once per order
 * and status on an instance; a failing callback fails the webhook, so the service delivers it again, nothing lost.
 * Real sandbox and handlers over HTTP.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { memoryClaimStore, type ClaimStore, type OrderStatusChange, type ServerEvent } from '../../src/server/index.js';
import { postOrder, resolveHandlerLink, serveHandler, type RunningHandler } from './handler-harness.js';
import { directOrderBody, gateways, merchant, startTestSandbox, type TestSandbox } from './sandbox-harness.js';

const webhookSecret = 'whsec_test_demo';
let sb: TestSandbox;
const open: RunningHandler[] = [];
before(async () => {
  sb = await startTestSandbox();
});
after(async () => {
  for (const handler of open.splice(0)) await handler.close();
  await sb.close();
});

async function handlerWith(options: { webhooks: boolean; fail?: () => boolean; store?: ClaimStore }) {
  const changes: OrderStatusChange[] = [];
  const events: ServerEvent[] = [];
  let failed = 0;
  const handler = await serveHandler({
    merchantKey: 'mk_test_demo',
    baseUrl: `${sb.origin}/v1`,
    resolveLink: resolveHandlerLink,
    ...(options.webhooks ? { webhookSecret } : {}),
    ...(options.store ? { store: options.store } : {}),
    now: () => sb.running.sandbox.context.clock.now(),
    onEvent: (event) => events.push(event),
    onOrderStatus: async (change) => {
      if (options.fail?.()) {
        failed += 1;
        throw new Error('the outbox is away');
      }
      changes.push(change);
    },
  });
  open.push(handler);
  if (options.webhooks) assert.equal((await sb.api('POST', '/sandbox/forward', { url: `${handler.url}/v1/webhooks` })).status, 200);
  return { handler, changes, events, failed: () => failed };
}

async function until(what: string, check: () => boolean, limitMs = 10_000) {
  const end = Date.now() + limitMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`still waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const statusOf = (origin: string, order: { id_order: number; order_token: string }) =>
  fetch(`${origin}/v1/checkout/orders/${order.id_order}`, { headers: { 'x-order-token': order.order_token } }).then(async (r) => ((await r.json()) as { data: { status: string } }).data.status);

let keys = 0;
const created = async (origin: string) => {
  const reply = await postOrder(origin, `order-status-${(keys += 1)}`);
  assert.equal(reply.status, 201);
  return reply.body.data as { id_order: number; order_token: string };
};

describe('onOrderStatus', () => {
  it('from a verified webhook: the outcome with its link, amount, gateway and key, read back from the service', async () => {
    const { handler, changes } = await handlerWith({ webhooks: true });
    const paid = await created(handler.url);
    assert.equal((await sb.api('POST', `/sandbox/orders/${paid.id_order}/approve`)).status, 200);
    await until('the paid order told', () => changes.length === 1);
    const [change] = changes;
    assert.deepEqual({ ...change, id_external: undefined, order_uid: undefined }, { link: 'camiseta-m', id_order: paid.id_order, id_external: undefined, status: 'confirmed', amount: 50_000, currency: 'COP', gateway: 'push', cancel_reason: null, order_uid: undefined, found_by: 'webhook' });
    assert.match(change!.id_external ?? '', /^pc_[0-9a-f]{32}$/);
    // The order's uid: the service and merchant (a digest), then its order key; never the order id alone.
    assert.equal(change!.order_uid, `${change!.order_uid.split('.')[0]}.${change!.id_external}`);

    // The buyer's page then sees it paid too: the same outcome is not told twice.
    assert.equal(await statusOf(handler.url, paid), 'confirmed');
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(changes.length, 1);
  });

  it("a cancellation, which has no webhook, is told from the buyer's page, with why", async () => {
    const { handler, changes } = await handlerWith({ webhooks: true });
    const declined = await created(handler.url);
    assert.equal((await sb.api('POST', `/sandbox/orders/${declined.id_order}/decline`)).status, 200);
    assert.equal(await statusOf(handler.url, declined), 'cancelled');
    assert.equal(changes.length, 1);
    assert.equal(changes[0]!.status, 'cancelled');
    assert.equal(changes[0]!.cancel_reason, 'declined');
  });

  it('a failing callback fails the webhook; the service delivers it again and the outcome is told then', async () => {
    let failuresLeft = 2;
    const { handler, changes, failed } = await handlerWith({ webhooks: true, fail: () => failuresLeft-- > 0 });
    const paid = await created(handler.url);
    assert.equal((await sb.api('POST', `/sandbox/orders/${paid.id_order}/approve`)).status, 200);
    await until('the outcome told after the redeliveries', () => changes.length === 1);
    assert.equal(failed(), 2);
    assert.equal(changes[0]!.id_order, paid.id_order);
  });

  it('an order not made through this server is not told, and says so', async () => {
    const { changes, events } = await handlerWith({ webhooks: true });
    const direct = await sb.api('POST', '/v1/orders', directOrderBody(gateways.push), merchant);
    const idOrder = (direct.body.data ?? direct.body).id_order as number;
    assert.equal((await sb.api('POST', `/sandbox/orders/${idOrder}/approve`)).status, 200);
    await until('the unlinked event', () => events.some((e) => e.name === 'order_status_unlinked' && e.id_order === idOrder));
    assert.deepEqual(changes, []);
  });

  it('a link the store could not take at the create is stored in the background, and the outcome still names it', async () => {
    const inner = memoryClaimStore();
    const orders = inner.openOrders!;
    let refusals = 0;
    const store: ClaimStore = {
      ...inner,
      openOrders: {
        ...orders,
        open: async (order, firstReadInMs, keepMs) => {
          if (refusals < 2) {
            refusals += 1;
            throw new Error('the store is away for a moment');
          }
          return orders.open(order, firstReadInMs, keepMs);
        },
      },
    };
    const { handler, changes, events } = await handlerWith({ webhooks: false, store });
    const order = await created(handler.url);
    assert.ok(events.some((e) => e.name === 'order_link_delayed'));
    assert.equal((await sb.api('POST', `/sandbox/orders/${order.id_order}/approve`)).status, 200);
    for (let tries = 0; tries < 200 && (await orders.count()) === 0; tries++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(refusals, 2);
    assert.equal(await statusOf(handler.url, order), 'confirmed');
    assert.equal(changes.length, 1);
    assert.equal(changes[0]!.link, 'camiseta-m');
  });

  it("without a webhook secret: from the buyers' status checks, once, and nothing while the order is pending", async () => {
    const { handler, changes } = await handlerWith({ webhooks: false });
    const order = await created(handler.url);
    assert.match(await statusOf(handler.url, order), /^(pending|processing)$/);
    assert.equal(changes.length, 0);
    assert.equal((await sb.api('POST', `/sandbox/orders/${order.id_order}/approve`)).status, 200);
    const seen = await Promise.all([statusOf(handler.url, order), statusOf(handler.url, order), statusOf(handler.url, order)]);
    assert.deepEqual(seen, ['confirmed', 'confirmed', 'confirmed']);
    assert.equal(changes.length, 1);
    assert.equal(changes[0]!.link, 'camiseta-m');
    assert.equal(changes[0]!.status, 'confirmed');
  });
});
