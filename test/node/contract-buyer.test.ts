import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  CheckoutLinkSchema,
  CheckoutOrderBodySchema,
  CheckoutOrderCreatedSchema,
  CheckoutOrderSchema,
  isSafeRedirectUrl,
  NextActionSchema,
} from '../../src/contract/index.js';
import { accepts, changed, refuses } from './contract-helpers.js';

const at = '2025-06-01T12:05:00.000Z';

const nequi = {
  id_payment_gateway: 1,
  name: 'Nequi',
  kind: 'push',
  required_fields: ['phone_number', 'document_type', 'document_number'],
  id_types: [1, 2, 3],
  min_amount: 1000,
  max_amount: 10000000,
  icon: 'https://example.test/nequi.png',
};

const standardLink = {
  hash: 'demo-fixed',
  store_name: 'Tienda Demo',
  description: 'Camiseta talla M',
  amount: 50000,
  currency: 'COP',
  status: 'active',
  expires_at: '2025-06-05T12:00:00.000Z',
  collect_shopper_data: false,
  gateways: [nequi],
  document_types: [{ id_national_document_type: 1, country_code: 'CO', type: 'CC', description: 'Cédula de Ciudadanía' }],
};

describe('buyer API: GET /checkout/links/{hash}', () => {
  it('accepts a standard and a dynamic link (no amount)', () => {
    assert.equal(accepts(CheckoutLinkSchema, standardLink).amount, 50000);
    const dynamic = changed(standardLink, { amount: undefined, hash: 'demo-dynamic', collect_shopper_data: true });
    assert.equal(accepts(CheckoutLinkSchema, dynamic).amount, undefined);
    accepts(CheckoutLinkSchema, { ...standardLink, status: 'paid', expires_at: null });
  });

  it('refuses bad links by field', () => {
    refuses(CheckoutLinkSchema, changed(standardLink, { status: 'open' }), 'status');
    refuses(CheckoutLinkSchema, { ...standardLink, gateways: [{ ...nequi, kind: 'wallet' }] }, 'gateways.0.kind');
    refuses(CheckoutLinkSchema, { ...standardLink, gateways: [{ ...nequi, id_types: ['CC'] }] }, 'gateways.0.id_types.0');
    refuses(CheckoutLinkSchema, changed(standardLink, { store_name: undefined }), 'store_name');
    refuses(CheckoutLinkSchema, { ...standardLink, document_types: [{ type: 'CC' }] }, 'document_types.0.id_national_document_type');
  });
});

describe('buyer API: next_action variants', () => {
  const variants = [
    { type: 'approve_push', phone_hint: '****4567', expires_at: at },
    { type: 'enter_otp', length: 6, expires_at: at, attempts_left: 3 },
    { type: 'transfer', key: 'BREB-TXN-2025-ABCDEF123456', qr_data: '000201010212', expires_at: at },
    { type: 'transfer', key: 'BREB-TXN-2025-ABCDEF123456', qr_png: 'iVBORw0KGgo=', expires_at: at },
    { type: 'redirect', url: 'http://127.0.0.1:5173/sandbox/card/42' },
  ];

  for (const variant of variants) {
    it(`accepts ${variant.type}${'qr_png' in variant ? ' (PNG)' : ''}`, () => {
      assert.equal(accepts(NextActionSchema, variant).type, variant.type);
    });
  }

  it('refuses bad variants by field', () => {
    refuses(NextActionSchema, { type: 'enter_otp', length: 4, expires_at: at, attempts_left: 3 }, 'length');
    refuses(NextActionSchema, { type: 'enter_otp', length: 6, expires_at: at, attempts_left: -1 }, 'attempts_left');
    refuses(NextActionSchema, { type: 'transfer', key: '', expires_at: at }, 'key');
    refuses(NextActionSchema, { type: 'approve_push', expires_at: at }, 'phone_hint');
    refuses(NextActionSchema, { type: 'redirect' }, 'url');
    refuses(NextActionSchema, { type: 'wait' }, 'type');
  });

  it('a card hand-off is https, or http only on loopback: never javascript:, data:, http to a real host or a relative path', () => {
    for (const url of ['https://pay.example/session/1', 'http://localhost:4010/sandbox/card/1', 'http://127.0.0.2:9/c', 'http://[::1]:8/c', 'http://app.localhost/c']) {
      assert.equal(accepts(NextActionSchema, { type: 'redirect', url }).type, 'redirect', url);
      assert.equal(isSafeRedirectUrl(url), true, url);
    }
    const hostile = ['javascript:alert(1)', 'JAVASCRIPT:alert(1)', ' javascript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'vbscript:x', 'http://pay.example/card', 'http://127.0.0.1.evil.example/c', 'http://localhost.evil.example/c', '//evil.example/c', '/sandbox/card/1', 'card/1', 'https://', 'file:///etc/passwd', 'blob:https://pay.example/1', ''];
    for (const url of hostile) {
      refuses(NextActionSchema, { type: 'redirect', url }, 'url');
      assert.equal(isSafeRedirectUrl(url), false, url);
    }
  });
});

describe('buyer API: orders', () => {
  const order = {
    id_order: 42,
    status: 'processing',
    amount: 50000,
    currency: 'COP',
    gateway: { id_payment_gateway: 1, name: 'Nequi', kind: 'push' },
    created_at: at,
    next_action: { type: 'approve_push', phone_hint: '****4567', expires_at: at },
  };

  it('accepts an order with and without next_action', () => {
    assert.equal(accepts(CheckoutOrderSchema, order).next_action?.type, 'approve_push');
    accepts(CheckoutOrderSchema, { ...order, status: 'confirmed', confirmed_at: at, next_action: null });
    accepts(CheckoutOrderSchema, { ...order, status: 'cancelled', cancel_reason: 'expired', next_action: null });
  });

  it('refuses bad orders by field', () => {
    refuses(CheckoutOrderSchema, changed(order, { status: 'paid' }), 'status');
    refuses(CheckoutOrderSchema, changed(order, { next_action: undefined }), 'next_action');
    refuses(CheckoutOrderSchema, { ...order, next_action: { type: 'enter_otp', length: 5, expires_at: at, attempts_left: 3 } }, 'next_action.length');
    refuses(CheckoutOrderSchema, changed(order, { 'gateway.kind': 'sms' }), 'gateway.kind');
    refuses(CheckoutOrderSchema, { ...order, cancel_reason: 'bored' }, 'cancel_reason');
  });

  it('a created order carries an order_token of 16+ characters', () => {
    const token = 'tok_0123456789abcdef';
    assert.equal(accepts(CheckoutOrderCreatedSchema, { ...order, order_token: token }).order_token, token);
    refuses(CheckoutOrderCreatedSchema, order, 'order_token');
    refuses(CheckoutOrderCreatedSchema, { ...order, order_token: 'short' }, 'order_token');
  });

  it('create body: gateway and shopper, amount only when given, http(s) return_url', () => {
    const body = { payment_gateway: { id_payment_gateway: 2 }, shopper: { id_number: '12345678', id_type: 1 } };
    accepts(CheckoutOrderBodySchema, body);
    assert.equal(accepts(CheckoutOrderBodySchema, { ...body, amount: 25000 }).amount, 25000);
    refuses(CheckoutOrderBodySchema, { ...body, return_url: 'ftp://x.example/' }, 'return_url');
    refuses(CheckoutOrderBodySchema, { ...body, amount: 0 }, 'amount');
    refuses(CheckoutOrderBodySchema, { shopper: body.shopper }, 'payment_gateway');
    refuses(CheckoutOrderBodySchema, { ...body, shopper: { id_type: 1 } }, 'shopper.id_number');
  });
});
