import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  LinkPaidPayloadSchema,
  OrderIdParam,
  ShopperSchema,
  errorBody,
  errorCatalog,
  ErrorResponseSchema,
  findTransition,
  orderIdMinimum,
  orderStatuses,
  refundWindowMs,
  webhookAttemptTimeoutMs,
  webhookMaxAttempts,
  webhookPayloadSchemas,
  type OrderStatus,
  type OrderTrigger,
} from '../../src/contract/index.js';
import { accepts, refuses } from './contract-helpers.js';

describe('shopper: legacy aliases', () => {
  it('maps national_id_number / id_national_document_type to id_number / id_type', () => {
    const shopper = accepts(ShopperSchema, { national_id_number: '12345678', id_national_document_type: 2, email: 'a@b.co' });
    assert.deepEqual(shopper, { email: 'a@b.co', id_number: '12345678', id_type: 2 });
  });

  it('accepts both names when they agree, refuses them when they differ', () => {
    const same = accepts(ShopperSchema, { id_number: '123', national_id_number: '123', id_type: 1, id_national_document_type: 1 });
    assert.deepEqual(same, { id_number: '123', id_type: 1 });
    refuses(ShopperSchema, { id_number: '123', national_id_number: '456', id_type: 1 }, 'national_id_number');
    refuses(ShopperSchema, { id_number: '123', id_type: 1, id_national_document_type: 3 }, 'id_national_document_type');
  });

  it('requires one of the names for each', () => {
    refuses(ShopperSchema, { id_type: 1 }, 'id_number');
    refuses(ShopperSchema, { national_id_number: '123' }, 'id_type');
  });
});

describe('lenient payloads accept extra and unknown fields', () => {
  const lenient = ['link_paid', 'test.ping', 'order_cancelled', 'order_refunded', 'store_updated', 'store_deleted', 'integration_installed'] as const;
  for (const event of lenient) {
    it(event, () => {
      const payload = { event, id_external: 'order-1', status: 'paid', anything: { nested: [1, 2] }, timestamp: '2025-06-01T12:00:00Z' };
      const parsed = accepts(webhookPayloadSchemas[event], payload);
      assert.deepEqual(parsed, payload);
    });
  }

  it('but still check the event name', () => {
    refuses(LinkPaidPayloadSchema, { event: 'order_payment' }, 'event');
    refuses(LinkPaidPayloadSchema, {}, 'event');
  });
});

describe('order transitions', () => {
  const allowed: [OrderStatus, OrderTrigger, OrderStatus][] = [
    ['pending', 'gateway_processing', 'processing'],
    ['processing', 'payment_completed', 'confirmed'],
    ['pending', 'cancel', 'cancelled'],
    ['processing', 'cancel', 'cancelled'],
    ['confirmed', 'refund', 'refunded'],
  ];
  const triggers: OrderTrigger[] = ['gateway_processing', 'payment_completed', 'cancel', 'refund'];

  for (const [from, trigger, to] of allowed) {
    it(`${from} --${trigger}--> ${to}`, () => {
      assert.equal(findTransition(from, trigger)?.to, to);
    });
  }

  it('payment emits order_payment (and link_paid for link orders); nothing else emits', () => {
    assert.deepEqual(findTransition('processing', 'payment_completed')?.emits, ['order_payment', 'link_paid']);
    assert.deepEqual(findTransition('pending', 'cancel')?.emits, []);
  });

  it('refuses every other pair, e.g. cancelling a confirmed order or refunding a pending one', () => {
    let refused = 0;
    for (const status of orderStatuses) {
      for (const trigger of triggers) {
        if (allowed.some(([f, t]) => f === status && t === trigger)) continue;
        assert.equal(findTransition(status, trigger), undefined, `${status} + ${trigger}`);
        refused++;
      }
    }
    assert.equal(refused, orderStatuses.length * triggers.length - allowed.length);
    assert.equal(findTransition('confirmed', 'cancel'), undefined);
    assert.equal(findTransition('refunded', 'refund'), undefined);
  });
});

describe('error catalog', () => {
  const entries = Object.entries(errorCatalog);

  it("holds the contract's codes with their values", () => {
    assert.equal(errorCatalog.PAYMENT_GATEWAY_REQUIRED.code, 4001);
    assert.equal(errorCatalog.INVALID_MERCHANT_KEY.code, 4007);
    assert.equal(errorCatalog.INVALID_MERCHANT_KEY.httpStatus, 401);
    assert.equal(errorCatalog.ORDER_NOT_FOUND.code, 4010);
    assert.equal(errorCatalog.INVALID_ORDER_STATUS.code, 4011);
    assert.equal(errorCatalog.INTERNAL_SERVER_ERROR.code, 7001);
    assert.equal(errorCatalog.INTERNAL_SERVER_ERROR.httpStatus, 500);
    assert.equal(errorCatalog.INVALID_WEBHOOK_URL.httpStatus, 400);
  });

  it('leaves out live-docs codes the contract overrides', () => {
    const codes = new Set<number>(entries.map(([, e]) => e.code));
    for (const overridden of [3003, 3005, 3018, 1002]) assert.equal(codes.has(overridden), false, `code ${overridden}`);
    assert.equal('REFUND_WINDOW_EXPIRED' in errorCatalog, false);
  });

  it('has unique codes, and every entry builds a valid ErrorResponse', () => {
    const codes = entries.map(([, e]) => e.code);
    assert.equal(new Set(codes).size, codes.length);
    for (const [apiCode] of entries) {
      const body = accepts(ErrorResponseSchema, errorBody(apiCode as keyof typeof errorCatalog));
      assert.equal(body.api_code, apiCode);
    }
  });
});

describe('limits', () => {
  it('refund window 96 h, webhook attempts 3 of 5 s each, orderId at least 1', () => {
    assert.equal(refundWindowMs, 345_600_000);
    assert.equal(webhookAttemptTimeoutMs, 5_000);
    assert.equal(webhookMaxAttempts, 3);
    assert.equal(orderIdMinimum, 1);
  });

  it('the orderId path parameter takes integers from 1', () => {
    assert.equal(accepts(OrderIdParam, '1'), 1);
    assert.equal(accepts(OrderIdParam, '987654'), 987654);
    for (const bad of ['0', '-1', '1.5', 'abc', '', '01']) refuses(OrderIdParam, bad, 'body');
  });
});
