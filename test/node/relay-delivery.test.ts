/**
 * createRelay() against a real HTTP receiver: the notice's body and signature, retries on 5xx, 4xx and silence,
 * give-up and redelivery with the same id, the retry schedule, close() draining a send under way, and the
 * `deliveries` command. Short delays through the relay's settings; memory outbox (the stores have their own tests).
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { ServerEvent } from '../../src/server/events.js';
import type { OrderStatusChange } from '../../src/server/buyer/order-status.js';
import { createRelay, runDeliveries, memoryOutbox, noticeTypeOf, retryDelayMs, type Relay, type RelayOptions } from '../../src/server/serve/relay/index.js';
import { afterFailure } from '../../src/server/serve/relay/relay.js';
import { verifyPayCheckoutSignature } from '../../src/webhooks/index.js';
import { freePort } from './redis-harness.js';

const secrets = ['app_secret_current_0123456789', 'app_secret_previous_987654321'];

interface Received {
  body: string;
  signature: string | undefined;
  contentType: string | undefined;
  authorization: string | undefined;
}

/** The shop's notify endpoint: answers each POST with the next of `answers` (then the last again); `hang` never answers. */
let received: Received[] = [];
let answers: (number | 'hang')[] = [200];
let answerDelayMs = 0;
const server = createServer((request: IncomingMessage, response: ServerResponse) => {
  let body = '';
  request.setEncoding('utf8');
  request.on('data', (chunk: string) => (body += chunk));
  request.on('end', () => {
    received.push({ body, signature: request.headers['pay-checkout-signature'] as string | undefined, contentType: request.headers['content-type'], authorization: request.headers.authorization });
    const answer = answers.length > 1 ? answers.shift()! : answers[0]!;
    if (answer === 'hang') return;
    setTimeout(() => response.writeHead(answer, { 'content-type': 'text/plain' }).end('ok'), answerDelayMs);
  });
});
let notifyUrl = '';

before(async () => {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  notifyUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/shop/notify?token=shop-own-token`;
});
after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const relays: Relay[] = [];
after(() => Promise.all(relays.map((r) => r.close())));

function relayWith(extra: Partial<RelayOptions> = {}) {
  const events: ServerEvent[] = [];
  const relay = createRelay({ outbox: memoryOutbox(), notifyUrl, secrets, firstRetryMs: 40, emit: (e) => events.push(e), pollMs: 20, timeoutMs: 1_000, ...extra });
  relays.push(relay);
  return { relay, events };
}

let nextOrder = 100;
const change = (over: Partial<OrderStatusChange> = {}): OrderStatusChange => ({
  link: 'lnk_abc',
  id_order: (nextOrder += 1),
  order_uid: `svc.pc_${nextOrder}`,
  found_by: 'webhook',
  id_external: 'pc_0123456789abcdef0123456789abcdef',
  status: 'confirmed',
  amount: 50_000,
  currency: 'COP',
  gateway: 'push',
  cancel_reason: null,
  ...over,
});

async function until(check: () => boolean | Promise<boolean>, what: string, limitMs = 10_000) {
  const end = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('relay delivery', () => {
  it('posts the documented body, signed over the raw body with every app secret, and retries a 500 with the same id', async () => {
    received = [];
    answers = [500, 200];
    const { relay, events } = relayWith();
    relay.start();
    const c = change();
    const recorded = await relay.record(c);
    await until(() => events.some((e) => e.name === 'notice_delivered'), 'delivery');
    assert.equal(received.length, 2);
    assert.equal(received[0]!.body, received[1]!.body, 'the same notice both times');
    const notice = JSON.parse(received[0]!.body);
    assert.deepEqual(Object.keys(notice), ['id', 'type', 'created_at', 'data']);
    assert.equal(notice.id, recorded?.id);
    assert.match(notice.id, /^evt_[0-9a-f]{32}$/);
    assert.equal(notice.type, 'order.paid');
    assert.ok(!Number.isNaN(Date.parse(notice.created_at)));
    assert.deepEqual(notice.data, { link: 'lnk_abc', id_order: c.id_order, id_external: c.id_external, status: 'confirmed', amount: 50_000, currency: 'COP', gateway: 'push' });
    assert.equal(received[0]!.contentType, 'application/json');
    for (const { body, signature } of received) {
      assert.match(signature ?? '', /^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
      for (const secret of secrets) assert.equal(verifyPayCheckoutSignature({ header: signature, signedText: body, secrets: [secret] }), true);
      assert.equal(verifyPayCheckoutSignature({ header: signature, signedText: `${body} `, secrets }), false);
    }
    const failed = events.find((e) => e.name === 'notice_delivery_failed');
    assert.equal(failed?.status, 500);
    assert.equal(failed?.id, notice.id);
    assert.deepEqual(await relay.list(), []);
  });

  it('retries a 4xx too, and an answer that does not come within the timeout', async () => {
    received = [];
    answers = [404, 'hang', 202];
    const { relay, events } = relayWith({ timeoutMs: 300 });
    relay.start();
    await relay.record(change());
    await until(() => events.some((e) => e.name === 'notice_delivered'), 'delivery');
    assert.equal(received.length, 3);
    const failures = events.filter((e) => e.name === 'notice_delivery_failed');
    assert.deepEqual(failures.map((e) => e.status), [404, undefined]);
    assert.match(String(failures[1]!.message), /no answer within the timeout/);
  });

  it('a notice the shop took, whose settlement the outbox failed to write, is written again rather than sent again', async () => {
    received = [];
    answers = [200];
    // The outbox fails the first settlement (a store away for a moment); its lease (1.5 s) would then hand the
    // notice out again, and a shop that already took it would get it twice as a success.
    const outbox = memoryOutbox();
    let failSettle = 1;
    const flaky: typeof outbox = {
      ...outbox,
      settle: (id, token, s) => (failSettle-- > 0 ? Promise.reject(new Error('the store is away for a moment')) : outbox.settle(id, token, s)),
    };
    const { relay, events } = relayWith({ outbox: flaky, leaseMs: 1_500, timeoutMs: 500 });
    relay.start();
    await relay.record(change());
    await until(() => received.length === 1, 'the first delivery');
    await new Promise((r) => setTimeout(r, 2_000));
    assert.equal(received.length, 1, 'sent once');
    assert.ok(events.some((e) => e.name === 'notice_outbox_error'), 'the failed write is told');
    assert.deepEqual(await relay.list(), [], 'settled delivered in the end');
  });

  it('sends one notice per order and status however often a change is recorded, and nothing for a status that is no outcome', async () => {
    received = [];
    answers = [200];
    const { relay, events } = relayWith();
    relay.start();
    const c = change();
    const first = await relay.record(c);
    const again = await Promise.all([relay.record(c), relay.record({ ...c })]);
    assert.equal(first?.added, true);
    assert.deepEqual(again.map((r) => r?.added), [false, false]);
    assert.equal(again[0]?.id, first?.id);
    assert.equal(await relay.record(change({ status: 'pending' })), undefined);
    assert.equal(await relay.record(change({ status: 'processing' })), undefined);
    await relay.record({ ...c, status: 'refunded' });
    await until(() => events.filter((e) => e.name === 'notice_delivered').length === 2, 'two deliveries');
    await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(received.map((r) => JSON.parse(r.body).type).sort(), ['order.paid', 'order.refunded']);
  });

  it('gives up after the retry window, lists it, and redelivers it with the same id', async () => {
    received = [];
    answers = [503];
    const { relay, events } = relayWith({ giveUpAfterMs: 250 });
    relay.start();
    const recorded = await relay.record(change({ status: 'cancelled', cancel_reason: 'declined' }));
    await until(() => events.some((e) => e.name === 'notice_given_up'), 'give-up');
    const attempts = received.length;
    assert.ok(attempts >= 2, `${attempts} attempts`);
    const [listed] = await relay.list();
    assert.equal(listed?.id, recorded?.id);
    assert.equal(listed?.state, 'given_up');
    assert.equal(listed?.type, 'order.failed');
    assert.equal(listed?.last_error, 'answered 503');
    await new Promise((r) => setTimeout(r, 150));
    assert.equal(received.length, attempts, 'no attempt after giving up');

    answers = [200];
    const lines: string[] = [];
    assert.equal(await runDeliveries({ relay, args: [], print: (l) => lines.push(l) }), 0);
    assert.match(lines.join('\n'), new RegExp(`${recorded?.id}  order.failed  \\d+  given up  ${attempts} attempts  last: answered 503`));
    lines.length = 0;
    assert.equal(await runDeliveries({ relay, args: ['redeliver', recorded!.id], print: (l) => lines.push(l) }), 0);
    assert.deepEqual(lines, [`${recorded?.id}: delivered (200).`]);
    assert.equal(JSON.parse(received.at(-1)!.body).id, recorded?.id);
    assert.deepEqual(await relay.list(), []);
    lines.length = 0;
    assert.equal(await runDeliveries({ relay, args: ['redeliver', 'evt_unknown'], print: (l) => lines.push(l) }), 1);
    assert.deepEqual(lines, ['No notice evt_unknown in the outbox.']);
    assert.equal(await runDeliveries({ relay, args: ['redeliver'], print: () => {} }), 2);
    assert.equal(await runDeliveries({ relay, args: ['--bogus'], print: () => {} }), 2);
    lines.length = 0;
    assert.equal(await runDeliveries({ relay, args: ['--json'], print: (l) => lines.push(l) }), 0);
    assert.deepEqual(JSON.parse(lines[0]!), []);
  });

  it('warns once at start that a memory outbox does not outlive the process, and never writes a secret or the shop token in an event', async () => {
    received = [];
    answers = [500, 200];
    const { relay, events } = relayWith();
    relay.start();
    relay.start();
    await relay.record(change());
    await until(() => events.some((e) => e.name === 'notice_delivered'), 'delivery');
    assert.equal(events.filter((e) => e.name === 'notice_outbox_volatile').length, 1);
    assert.equal(events.find((e) => e.name === 'notice_outbox_volatile')?.level, 'warn');
    const text = JSON.stringify(events);
    for (const secret of [...secrets, 'shop-own-token']) assert.ok(!text.includes(secret), `an event holds ${secret}`);
  });

  it('close() lets a send under way finish', async () => {
    received = [];
    answers = [200];
    answerDelayMs = 300;
    try {
      const { relay, events } = relayWith();
      relay.start();
      await relay.record(change());
      await until(() => received.length === 1, 'the send to begin');
      await relay.close();
      assert.ok(events.some((e) => e.name === 'notice_delivered'), 'delivered before close() resolved');
      await assert.rejects(relay.record(change()), /closed/);
    } finally {
      answerDelayMs = 0;
    }
  });

  it('sends a signed test notice outside the outbox, and says when the shop is down', async () => {
    received = [];
    answers = [204];
    const { relay } = relayWith();
    assert.deepEqual(await relay.sendTestEvent(), { ok: true, status: 204 });
    const notice = JSON.parse(received[0]!.body);
    assert.equal(notice.type, 'test');
    assert.equal(verifyPayCheckoutSignature({ header: received[0]!.signature, signedText: received[0]!.body, secrets: [secrets[1]!] }), true);
    const down = relayWith({ notifyUrl: `http://127.0.0.1:${await freePort()}/notify` }).relay;
    const result = await down.sendTestEvent();
    assert.equal(result.ok, false);
    assert.match(result.error ?? '', /ECONNREFUSED/);
  });

  it('sends the credentials of a notify URL behind basic auth as its Authorization header, and never names them in an event', async () => {
    received = [];
    answers = [500, 200];
    const withUser = notifyUrl.replace('http://', 'http://shop%40user:p%C3%A1ss-word@');
    const { relay, events } = relayWith({ notifyUrl: withUser });
    relay.start();
    await relay.record(change());
    await until(() => events.some((e) => e.name === 'notice_delivered'), 'delivery');
    assert.equal(received[0]!.authorization, `Basic ${Buffer.from('shop@user:páss-word').toString('base64')}`);
    assert.ok(!JSON.stringify(events).includes('ss-word'));
  });

  it('refuses a notify URL that is not http(s) and an empty list of secrets', () => {
    assert.throws(() => createRelay({ outbox: memoryOutbox(), notifyUrl: 'ftp://shop/notify', secrets, emit: () => {} }), /notifyUrl/);
    assert.throws(() => createRelay({ outbox: memoryOutbox(), notifyUrl: 'shop/notify', secrets, emit: () => {} }), /notifyUrl/);
    assert.throws(() => createRelay({ outbox: memoryOutbox(), notifyUrl, secrets: [], emit: () => {} }), /secrets/);
  });
});

describe('notice types and retry schedule', () => {
  it('maps the contract statuses to notice types', () => {
    assert.equal(noticeTypeOf('confirmed', null), 'order.paid');
    assert.equal(noticeTypeOf('refunded', null), 'order.refunded');
    for (const reason of ['declined', 'expired', 'otp_attempts']) assert.equal(noticeTypeOf('cancelled', reason), 'order.failed');
    for (const reason of ['buyer', 'merchant', null]) assert.equal(noticeTypeOf('cancelled', reason), 'order.cancelled');
    assert.equal(noticeTypeOf('pending', null), undefined);
    assert.equal(noticeTypeOf('processing', null), undefined);
  });

  it('doubles from the first retry delay to a 6-hour ceiling, 23 or 24 attempts over 3 days, with at most 10 % jitter', () => {
    const none = () => 0;
    assert.deepEqual([1, 2, 3, 4].map((n) => retryDelayMs(n, 10_000, 6 * 3_600_000, none)), [10_000, 20_000, 40_000, 80_000]);
    assert.equal(retryDelayMs(30, 10_000, 6 * 3_600_000, none), 6 * 3_600_000);
    assert.equal(retryDelayMs(1, 10_000, 6 * 3_600_000, () => 1), 11_000);
    // Attempt after attempt as the relay settles them, the last one at the window's end.
    const timings = { firstRetryMs: 10_000, maxDelayMs: 6 * 3_600_000, giveUpAfterMs: 3 * 24 * 3_600_000 };
    const entry = { id: 'e', key: 'k', body: '', created_at: 0, state: 'pending' as const, attempts: 1, next_at: 0, window_from: 0, last_error: null, last_status: null, delivered_at: null };
    let now = 0;
    for (;;) {
      const next = afterFailure(entry, now, timings, { error: 'answered 500', status: 500 });
      if (next.state !== 'pending') break;
      now = next.next_at;
      entry.attempts += 1;
    }
    assert.ok(entry.attempts === 23 || entry.attempts === 24, `${entry.attempts} attempts`);
    assert.equal(now, timings.giveUpAfterMs, 'the last attempt at 3 days');
    assert.equal(afterFailure(entry, now, timings, { error: 'answered 500', status: 500 }).state, 'given_up');
  });
});
