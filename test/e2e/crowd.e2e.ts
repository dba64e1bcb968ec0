/**
 * 100 buyers pay the dynamic link at once: each gets their own order and their own receipt, no cross-talk.
 * 10 are real pages in Chromium (own context, own sessionStorage) and 90 speak the same buyer API over HTTP
 * with the element's own CheckoutClient, all started together: 100 browser pages would not fit 2 cores, and
 * the page adds nothing to what the server can mix up between buyers (orders, tokens, idempotency slots).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { CheckoutClient } from '../../src/client/index.js';
import { Buyer, startWorld, type World } from './support/harness.js';

const pages = 10;
const apiBuyers = 90;
const hash = 'demo-dynamic';
/** Every buyer pays a different amount, so an order's amount says whose it is. */
const amountOf = (buyer: number) => 10_000 + buyer * 7;
const formatCop = (n: number) => new Intl.NumberFormat('es-CO', { maximumFractionDigits: 0 }).format(n);

describe('100 buyers on the dynamic link at once', () => {
  let world: World;
  before(async () => (world = await startWorld()));
  after(() => world.close());

  it('each gets their own order and their own receipt', async () => {
    const client = new CheckoutClient({ baseUrl: world.sandbox.baseUrl });
    // Phones end in 1: the sandbox's ...0002 declines by itself (buyer 2 once did, before a slow machine approved it).
    const shopper = (n: number) => ({ id_number: String(1_000_000 + n), id_type: 1, phone_number: `300${String(100_000 + n)}1` });

    const browserBuyer = async (n: number) => {
      const buyer = await Buyer.create(world);
      await buyer.open(hash);
      await buyer.enterAmount(formatCop(amountOf(n)));
      await buyer.chooseMethod('Nequi');
      await buyer.fillDetails({ phone: shopper(n).phone_number });
      await buyer.payButton().click();
      await buyer.waitForStep('push', 30_000);
      return buyer;
    };
    const apiBuyer = async (n: number) => {
      const link = await client.getLink(hash);
      assert.equal(link.amount ?? null, null);
      const created = await client.createOrder(hash, { amount: amountOf(n), payment_gateway: { id_payment_gateway: 1 }, shopper: shopper(n) }, randomUUID());
      return { n, id_order: created.id_order, token: created.order_token };
    };

    // Everyone at once.
    const [browsers, apis] = await Promise.all([
      Promise.all(Array.from({ length: pages }, (_, i) => browserBuyer(i))),
      Promise.all(Array.from({ length: apiBuyers }, (_, i) => apiBuyer(pages + i))),
    ]);
    try {
      const orders = await world.orders(hash);
      assert.equal(orders.length, pages + apiBuyers, 'one order per buyer');
      assert.equal(new Set(orders.map((o) => o.id_order)).size, pages + apiBuyers, 'distinct order ids');
      const byAmount = new Map(orders.map((o) => [o.total, o]));
      assert.equal(byAmount.size, pages + apiBuyers, 'each order carries its own buyer’s amount');
      for (const { n, id_order } of apis) assert.equal(byAmount.get(amountOf(n))?.id_order, id_order, `API buyer ${n} got their own order`);

      // Every phone approves at once.
      await Promise.all(orders.map((o) => world.control('POST', `/orders/${o.id_order}/approve`)));

      // Each page shows its own receipt: its amount and the order the sandbox made for that amount.
      await Promise.all(
        browsers.map(async (buyer, n) => {
          await buyer.waitForStep('paid', 30_000);
          const own = byAmount.get(amountOf(n));
          assert.ok(own, `page ${n} has an order`);
          const text = await buyer.text();
          assert.match(text, new RegExp(`Total pagado \\$\\s?${formatCop(amountOf(n)).replace('.', '\\.')} .*Número de orden ${own.id_order}\\b`), `page ${n}: ${text}`);
        }),
      );
      // Each API buyer reads its own confirmed order with its own token, and no one else's.
      await Promise.all(
        apis.map(async ({ n, id_order, token }, i) => {
          const order = await client.getOrder(id_order, token);
          assert.equal(order.status, 'confirmed');
          assert.equal(order.amount, amountOf(n));
          const neighbour = apis[(i + 1) % apis.length];
          assert.ok(neighbour);
          await assert.rejects(client.getOrder(neighbour.id_order, token), 'a token opens only its own order');
        }),
      );
    } finally {
      await Promise.all(browsers.map((b) => b.close()));
    }
  });
});
