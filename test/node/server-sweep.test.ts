/**
 * The handler's sweep (src/server/sweep/): its schedule grows and ends with a read after the order's expiry, within
 * the budget; an outcome no webhook and no buyer told is found by re-reading the order, once; a service answering
 * 503 slows it down (pauses doubling), it never hammers; an order a buyer's waiting request is reading is left to it.
 * Real sandbox and handlers over HTTP; the service calls are counted on their way out, not changed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { OrderStatusChange, ServerEvent } from '../../src/server/index.js';
import { defaultSweepTimings, nextReadInMs, type SweepTimings } from '../../src/server/sweep/sweep.js';
import { postOrder, resolveHandlerLink, serveHandler, type RunningHandler } from './handler-harness.js';
import { startTestSandbox, type TestSandbox } from './sandbox-harness.js';

describe('the sweep schedule', () => {
  it('reads soon after the create, then further apart, then once after the expiry, within the budget', () => {
    const created_at = 0;
    const order = { created_at, expires_at: 15 * 60_000 };
    const at: number[] = [];
    for (let now = created_at + defaultSweepTimings.firstReadMs, reads = 1; ; reads++) {
      at.push(now);
      const next = nextReadInMs(order, reads, now, defaultSweepTimings);
      if (next === undefined) break;
      now += next;
    }
    assert.deepEqual(at.map((ms) => ms / 1000), [15, 45, 105, 225, 465, 765, 1020], 'seconds after the create');
    assert.ok(at.length <= defaultSweepTimings.maxReads);
    const gaps = at.slice(1).map((ms, i) => ms - at[i]!);
    assert.ok(gaps.slice(0, 4).every((gap, i) => i === 0 || gap > gaps[i - 1]!), `growing gaps: ${gaps.join(', ')}`);
    assert.equal(at.at(-1), order.expires_at + defaultSweepTimings.graceMs, 'the last read after the expiry and the grace');
  });

  it('spends at most maxReads on an order that lives long, the last one after its expiry', () => {
    const timings: SweepTimings = { ...defaultSweepTimings, maxReads: 4 };
    const order = { created_at: 0, expires_at: 24 * 60 * 60_000 };
    let now = timings.firstReadMs;
    let reads = 1;
    for (let next = nextReadInMs(order, reads, now, timings); next !== undefined; next = nextReadInMs(order, reads, now, timings)) {
      now += next;
      reads += 1;
    }
    assert.equal(reads, 4);
    assert.equal(now, order.expires_at + timings.graceMs);
  });
});

describe('the sweep in the handler', () => {
  let sb: TestSandbox;
  const open: RunningHandler[] = [];
  before(async () => {
    sb = await startTestSandbox();
  });
  after(async () => {
    for (const handler of open.splice(0)) await handler.close();
    await sb.close();
  });

  /** A handler whose sweep reads fast; `reads` counts its `GET /orders/{id}` calls by order. */
  async function sweeping(timings: Partial<SweepTimings>, statusPollMs = 2_000) {
    const changes: OrderStatusChange[] = [];
    const events: ServerEvent[] = [];
    const reads = new Map<number, number>();
    const counting: typeof fetch = (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      const id = /\/v1\/orders\/(\d+)$/.exec(new URL(url).pathname)?.[1];
      if (id && (init?.method ?? (input instanceof Request ? input.method : 'GET')) === 'GET') reads.set(Number(id), (reads.get(Number(id)) ?? 0) + 1);
      return fetch(input, init);
    };
    const handler = await serveHandler({
      merchantKey: 'mk_test_demo',
      baseUrl: `${sb.origin}/v1`,
      resolveLink: resolveHandlerLink,
      fetch: counting,
      statusPollMs,
      now: () => sb.running.sandbox.context.clock.now(),
      onEvent: (event) => events.push(event),
      onOrderStatus: (change) => void changes.push(change),
      sweep: { firstReadMs: 100, pollMs: 50, readsPerSecond: 100, maxReads: 40, ...timings },
    });
    open.push(handler);
    return { handler, changes, events, reads };
  }

  const until = async (what: string, check: () => boolean, limitMs = 15_000) => {
    const end = Date.now() + limitMs;
    while (!check()) {
      if (Date.now() > end) throw new Error(`still waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  let keys = 0;
  const created = async (origin: string) => {
    const reply = await postOrder(origin, `sweep-unit-${process.pid}-${(keys += 1)}`);
    assert.equal(reply.status, 201);
    return reply.body.data as { id_order: number; order_token: string };
  };

  it('finds a payment no webhook and no buyer told, and tells it once, as found by the sweep', async () => {
    const { handler, changes, events, reads } = await sweeping({});
    const order = await created(handler.url);
    assert.equal((await sb.api('POST', `/sandbox/orders/${order.id_order}/approve`)).status, 200);
    await until('the outcome told', () => changes.length === 1);
    assert.equal(changes[0]!.status, 'confirmed');
    assert.equal(changes[0]!.found_by, 'sweep');
    assert.ok(events.some((e) => e.name === 'order_outcome_swept' && e.id_order === order.id_order));
    const readsThen = reads.get(order.id_order) ?? 0;
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(reads.get(order.id_order), readsThen, 'a final order is no longer read');
    assert.equal(changes.length, 1);
  });

  it('slows down when the service answers 503: pauses doubling, one read per pause, never a burst', async () => {
    const { handler, changes, events, reads } = await sweeping({ maxBackoffMs: 2_000 });
    const order = await created(handler.url);
    assert.equal((await sb.api('POST', '/sandbox/faults', { path: `/v1/orders/${order.id_order}`, method: 'GET', mode: 'error_5xx', status: 503, count: 3 })).status, 200);
    assert.equal((await sb.api('POST', `/sandbox/orders/${order.id_order}/approve`)).status, 200);
    await until('the outcome told after the faults', () => changes.length === 1);
    const pauses = events.filter((e) => e.name === 'order_sweep_slowed').map((e) => Number(e.pause_ms));
    assert.deepEqual(pauses, [100, 200, 400], 'each failed read pauses the sweep twice as long as the last');
    assert.equal(reads.get(order.id_order), 4, 'three refused reads and the one that found it');
    await sb.api('DELETE', '/sandbox/faults');
  });

  it("leaves an order a buyer's waiting request is reading to it: one caller per order", async () => {
    const { handler, changes, events, reads } = await sweeping({}, 60_000);
    const order = await created(handler.url);
    const readsBefore = reads.get(order.id_order) ?? 0;
    // The buyer's page waits (its watch reads the order once, then every 60 s); the sweep would read every 100-200 ms.
    const waiting = fetch(`${handler.url}/v1/checkout/orders/${order.id_order}?wait=3&since=processing`, { headers: { 'x-order-token': order.order_token } });
    await new Promise((r) => setTimeout(r, 1_000));
    assert.equal((reads.get(order.id_order) ?? 0) - readsBefore, 1, 'only the waiting request\'s read while it waits');
    await (await waiting).text();
    assert.equal(changes.length, 0);
    assert.ok(!events.some((e) => e.name === 'order_sweep_slowed'));
  });
});
