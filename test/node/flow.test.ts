import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CancelReason, OrderStatus } from '../../src/contract/index.js';
import { InvalidResponseError, NetworkError, ServiceError, TimeoutError } from '../../src/client/errors.js';
import { errorMessage } from '../../src/flow/errors.js';
import { isOrderNotFound } from '../../src/flow/order-not-found.js';
import { errorBody } from '../../src/contract/index.js';
import {
  expiresAtOf,
  initialState,
  isNewRequest,
  isWaiting,
  orderOf,
  savedOrderOf,
  stepOf,
  toFlowError,
  transition,
  type FlowError,
  type FlowState,
} from '../../src/flow/index.js';
import {
  actions,
  buyer,
  dynamicLink,
  expectStep,
  gateways,
  makeCreated,
  makeLink,
  makeOrder,
  run,
  standardLink,
  toDetailsOf,
  toOrderOf,
} from './flow-fixtures.js';

const network: FlowError = { category: 'network' };
const service = (apiCode: string, status = 400, extra: Partial<FlowError> = {}): FlowError => ({ category: 'service', apiCode, status, ...extra });

describe('loading the link', () => {
  it('starts by asking for the link', () => {
    const start = initialState();
    assert.equal(stepOf(start), 'loading');
    assert.deepEqual(start.request, { kind: 'load_link' });
  });
  it('shows not found, paid and expired as screens', () => {
    const cases: [FlowError, string][] = [
      [service('LINK_NOT_FOUND', 404), 'not_found'],
      [{ category: 'service', status: 404 }, 'not_found'],
      [service('LINK_EXPIRED', 410), 'expired'],
      [service('LINK_ALREADY_PAID', 409), 'paid'],
    ];
    for (const [error, reason] of cases) {
      assert.equal(expectStep(run(initialState(), { type: 'link_failed', error }), 'unavailable').reason, reason);
    }
    for (const status of ['paid', 'expired'] as const) {
      const s = expectStep(run(initialState(), { type: 'link_loaded', link: makeLink({ status }) }), 'unavailable');
      assert.equal(s.reason, status);
      assert.equal(s.link?.hash, 'demo-fixed');
    }
  });
  it('a network failure offers a retry that loads again', () => {
    const failed = expectStep(run(initialState(), { type: 'link_failed', error: network }), 'error');
    assert.equal(failed.message, 'error.network');
    assert.deepEqual(failed.retry, { kind: 'load_link' });
    const again = run(failed, { type: 'retry' });
    assert.deepEqual(expectStep(again, 'loading').request, { kind: 'load_link' });
    assert.ok(isNewRequest(failed, again));
  });
  it('a saved order that could not be read (not ORDER_NOT_FOUND) is an error screen whose retry loads again', () => {
    // Even a refusal that is not retryable elsewhere: the order is still saved, so loading again resumes it.
    for (const error of [service('INTERNAL_SERVER_ERROR', 503), { category: 'invalid_response' } as FlowError, service('SOMETHING_ELSE', 400)]) {
      const failed = expectStep(run(initialState(), { type: 'resume_failed', error }), 'error');
      assert.deepEqual(failed.retry, { kind: 'load_link' });
      assert.equal(failed.link, null);
      assert.deepEqual(expectStep(run(failed, { type: 'retry' }), 'loading').request, { kind: 'load_link' });
    }
    assert.equal(expectStep(run(initialState(), { type: 'resume_failed', error: service('INTERNAL_SERVER_ERROR', 503) }), 'error').message, 'error.unavailable');
  });
  it('only ORDER_NOT_FOUND (4010) means a saved order is worth nothing', () => {
    assert.ok(isOrderNotFound(service('ORDER_NOT_FOUND', 404, { code: 4010 })));
    assert.ok(isOrderNotFound({ category: 'service', status: 404, code: 4010 }));
    for (const error of [service('INTERNAL_SERVER_ERROR', 503), { category: 'service', status: 404 } as FlowError, network, service('RATE_LIMITED', 429)]) {
      assert.ok(!isOrderNotFound(error), JSON.stringify(error));
    }
  });
  it('a link without methods is a config error with no retry', () => {
    const s = expectStep(run(initialState(), { type: 'link_loaded', link: makeLink({ gateways: [] }) }), 'error');
    assert.equal(s.message, 'error.no_methods');
    assert.equal(s.retry, null);
    assert.equal(run(s, { type: 'retry' }), s);
  });
});

describe('happy paths', () => {
  it('push, standard link: method → details → push approval → paid', () => {
    const method = expectStep(run(initialState(), { type: 'link_loaded', link: standardLink }), 'method');
    assert.equal(method.amount, 50_000);
    assert.deepEqual(method.choices.map((c) => c.available), [true, true, true, true]);
    const details = expectStep(run(method, { type: 'method_chosen', id_payment_gateway: 1 }), 'details');
    assert.deepEqual(details.needed, ['id_type', 'id_number', 'phone_number']);
    assert.deepEqual(details.idTypes.map((d) => d.type), ['CC', 'CE', 'TI']);
    const submitted = expectStep(run(details, ...buyer.push, { type: 'details_submitted', idempotencyKey: 'key-1' }), 'details');
    assert.equal(submitted.submitting, true);
    assert.deepEqual(submitted.request, {
      kind: 'create_order',
      idempotencyKey: 'key-1',
      body: { payment_gateway: { id_payment_gateway: 1 }, shopper: { id_type: 1, id_number: '1020304050', phone_number: '3001234567' } },
    });
    const waiting = expectStep(run(submitted, { type: 'order_created', order: makeCreated('push') }), 'push');
    assert.equal(waiting.action.phone_hint, '****4567');
    assert.equal(waiting.orderToken, 'tok_0123456789abcdef');
    assert.equal(isWaiting(waiting), true);
    assert.equal(expiresAtOf(waiting), '2030-01-01T00:05:00Z');
    assert.deepEqual(savedOrderOf(waiting), { id_order: 101, order_token: 'tok_0123456789abcdef' });
    const still = run(waiting, { type: 'status_received', order: makeOrder('push') });
    assert.equal(expectStep(still, 'push').order.id_order, 101);
    const paid = expectStep(run(still, { type: 'status_received', order: makeOrder('push', { status: 'confirmed', next_action: null, confirmed_at: '2030-01-01T00:01:00Z' }) }), 'paid');
    assert.equal(paid.order.confirmed_at, '2030-01-01T00:01:00Z');
    assert.equal(paid.gateway?.name, 'Nequi');
    assert.equal(isWaiting(paid), false);
  });

  it('otp: code entry, a wrong code, then the right one', () => {
    const otp = expectStep(toOrderOf('otp'), 'otp');
    assert.equal(otp.attemptsLeft, 3);
    assert.equal(isWaiting(otp), false, 'the code settles on submit, no polling');
    const typed = expectStep(run(otp, { type: 'otp_changed', code: '12a3' }), 'otp');
    assert.equal(typed.code, '123');
    const short = expectStep(run(typed, { type: 'otp_submitted', code: '123' }), 'otp');
    assert.equal(short.error, 'otp.invalid');
    assert.equal(short.request, null);
    const sent = expectStep(run(short, { type: 'otp_submitted', code: '999999' }), 'otp');
    assert.deepEqual(sent.request, { kind: 'submit_otp', id_order: 101, order_token: 'tok_0123456789abcdef', code: '999999' });
    assert.equal(sent.submitting, true);
    assert.equal(run(sent, { type: 'otp_submitted', code: '123456' }), sent, 'no second code while one is in flight');
    const wrong = expectStep(run(sent, { type: 'order_failed', error: service('DAVIPLATA_OTP_ERROR', 400, { code: 6105 }) }), 'otp');
    assert.equal(wrong.error, 'otp.rejected');
    assert.equal(wrong.attemptsLeft, 2);
    assert.equal(wrong.code, '');
    assert.equal(wrong.submitting, false);
    const right = run(wrong, { type: 'otp_submitted', code: '123456' });
    const paid = run(right, { type: 'status_received', order: makeOrder('otp', { status: 'confirmed', next_action: null }) });
    expectStep(paid, 'paid');
  });

  it('otp: a code accepted but still processing shows processing, polled until paid', () => {
    const sent = run(toOrderOf('otp'), { type: 'otp_submitted', code: '123456' });
    const processing = expectStep(run(sent, { type: 'status_received', order: makeOrder('otp', { next_action: null }) }), 'processing');
    assert.equal(isWaiting(processing), true);
    expectStep(run(processing, { type: 'status_received', order: makeOrder('otp', { status: 'confirmed', next_action: null }) }), 'paid');
  });

  it('transfer: key and QR, polled until paid', () => {
    const t = expectStep(toOrderOf('transfer'), 'transfer');
    assert.equal(t.action.key, 'BREB-TXN-0001');
    assert.equal(t.action.qr_data, '000201010212');
    assert.equal(isWaiting(t), true);
    expectStep(run(t, { type: 'status_received', order: makeOrder('transfer', { status: 'confirmed', next_action: null }) }), 'paid');
  });

  it('card: hand-off, return, check, paid; the return url rides in the body', () => {
    const details = run(toDetailsOf('card'), ...buyer.document, { type: 'details_submitted', idempotencyKey: 'k', returnUrl: 'https://shop.example/return' });
    assert.equal(expectStep(details, 'details').request?.body.return_url, 'https://shop.example/return');
    const away = expectStep(run(details, { type: 'order_created', order: makeCreated('card') }), 'redirect');
    assert.equal(away.action.url, 'http://127.0.0.1:9/card/1');
    assert.equal(away.returning, false);
    assert.equal(isWaiting(away), false);
    const back = expectStep(run(away, { type: 'returned_from_card' }), 'redirect');
    assert.equal(back.returning, true);
    assert.deepEqual(back.request, { kind: 'check_status', id_order: 101, order_token: 'tok_0123456789abcdef', final: false });
    assert.equal(isWaiting(back), true);
    assert.equal(run(back, { type: 'returned_from_card' }), back);
    const polled = expectStep(run(back, { type: 'status_received', order: makeOrder('card') }), 'redirect');
    assert.equal(polled.returning, true, 'still back, not sent away again');
    assert.equal(polled.request, null);
    expectStep(run(polled, { type: 'status_received', order: makeOrder('card', { status: 'confirmed', next_action: null }) }), 'paid');
  });

  it('card: a hand-off the element refuses to follow is the error screen, whose back leads to the details', () => {
    const details = run(toDetailsOf('card'), ...buyer.document, { type: 'details_submitted', idempotencyKey: 'k' });
    const away = expectStep(run(details, { type: 'order_created', order: makeCreated('card') }), 'redirect');
    const refused = expectStep(run(away, { type: 'handoff_refused' }), 'error');
    assert.equal(refused.error.category, 'invalid_response');
    assert.equal(refused.retry, null);
    expectStep(run(refused, { type: 'back' }), 'details');
    const push = expectStep(toOrderOf('push'), 'push');
    assert.equal(run(push, { type: 'handoff_refused' }), push);
  });

  it('the return url is not sent for other methods', () => {
    const s = run(toDetailsOf('otp'), ...buyer.document, { type: 'details_submitted', idempotencyKey: 'k', returnUrl: 'https://shop.example/return' });
    assert.equal(expectStep(s, 'details').request?.body.return_url, undefined);
  });
});

describe('dynamic links', () => {
  it('formats as the buyer types, checks the range, and sends the amount', () => {
    const amount = expectStep(run(initialState(), { type: 'link_loaded', link: dynamicLink }), 'amount');
    assert.deepEqual(amount.range, { min: 500, max: 20_000_000 });
    const typed = expectStep(run(amount, { type: 'amount_changed', text: '$ 75000' }), 'amount');
    assert.equal(typed.text, '75.000');
    assert.equal(expectStep(run(amount, { type: 'amount_submitted' }), 'amount').error, 'amount.required');
    const low = run(amount, { type: 'amount_changed', text: '100' }, { type: 'amount_submitted' });
    assert.equal(expectStep(low, 'amount').error, 'amount.below_min');
    const retyped = expectStep(run(low, { type: 'amount_changed', text: '1005' }), 'amount');
    assert.equal(retyped.error, null, 'typing clears the message');
    const method = expectStep(run(typed, { type: 'amount_submitted' }), 'method');
    assert.equal(method.amount, 75_000);
    const body = run(method, { type: 'method_chosen', id_payment_gateway: 2 }, ...buyer.document, { type: 'details_submitted', idempotencyKey: 'k' });
    assert.equal(expectStep(body, 'details').request?.body.amount, 75_000);
  });
  it('never reads decimals as more pesos: zeros are dropped, cents refused', () => {
    const amount = expectStep(run(initialState(), { type: 'link_loaded', link: dynamicLink }), 'amount');
    const typed = (text: string) => run(amount, { type: 'amount_changed', text }, { type: 'amount_submitted' });
    assert.equal(expectStep(typed('50.000,00'), 'method').amount, 50_000);
    for (const text of ['25.000,50', '50000.5']) {
      const refused = expectStep(typed(text), 'amount');
      assert.equal(refused.error, 'amount.decimals');
      assert.equal(refused.text, text, 'the field keeps what the buyer typed');
      assert.equal(refused.amount, null);
    }
    // Typed one key at a time, as a buyer does: the formatter never groups the decimals into the pesos.
    const keys = [...'25.000,50'].reduce<FlowState>((s, _c, i, all) => run(s, { type: 'amount_changed', text: all.slice(0, i + 1).join('') }), amount);
    assert.equal(expectStep(keys, 'amount').text, '25.000,50');
    assert.equal(expectStep(run(keys, { type: 'amount_submitted' }), 'amount').error, 'amount.decimals');
  });
  it('marks methods that cannot take the amount, and refuses choosing one', () => {
    const method = expectStep(run(initialState(), { type: 'link_loaded', link: dynamicLink }, { type: 'amount_changed', text: '4.000.000' }, { type: 'amount_submitted' }), 'method');
    const otp = method.choices.find((c) => c.gateway.kind === 'otp');
    assert.deepEqual([otp?.available, otp?.reason], [false, 'method.amount_out_of_range']);
    assert.equal(expectStep(run(method, { type: 'method_chosen', id_payment_gateway: 2 }), 'method').error, 'method.amount_out_of_range');
    assert.equal(run(method, { type: 'method_chosen', id_payment_gateway: 77 }), method, 'unknown gateway ignored');
  });
  it('back goes details → method → amount, keeping what was typed', () => {
    const details = run(toDetailsOf('push', dynamicLink), { type: 'field_changed', field: 'id_number', value: '123456' });
    const method = expectStep(run(details, { type: 'back' }), 'method');
    assert.equal(method.fields.id_number, '123456');
    const amount = expectStep(run(method, { type: 'back' }), 'amount');
    assert.equal(amount.text, '50.000');
    assert.equal(run(amount, { type: 'back' }), amount);
    const again = expectStep(run(amount, { type: 'amount_submitted' }, { type: 'method_chosen', id_payment_gateway: 1 }), 'details');
    assert.equal(again.fields.id_number, '123456');
  });
  it('collect_shopper_data asks for contact fields and sends them', () => {
    const link = makeLink({ hash: 'contact', amount: null, collect_shopper_data: true });
    const details = expectStep(toDetailsOf('otp', link), 'details');
    assert.deepEqual(details.needed, ['id_type', 'id_number', 'phone_number', 'first_name', 'last_name', 'email']);
    const refused = expectStep(run(details, ...buyer.document, { type: 'details_submitted', idempotencyKey: 'k' }), 'details');
    assert.deepEqual(refused.errors, { phone_number: 'phone_number.required', first_name: 'first_name.required', last_name: 'last_name.required', email: 'email.required' });
    assert.equal(refused.focus, 'phone_number');
    const sent = run(
      refused,
      { type: 'field_changed', field: 'phone_number', value: '310 123 4567' },
      { type: 'field_changed', field: 'first_name', value: 'Ana' },
      { type: 'field_changed', field: 'last_name', value: 'Pérez' },
      { type: 'field_changed', field: 'email', value: 'ana@example.co' },
      { type: 'details_submitted', idempotencyKey: 'k' },
    );
    assert.deepEqual(expectStep(sent, 'details').request?.body.shopper, {
      id_type: 1,
      id_number: '1020304050',
      phone_number: '3101234567',
      first_name: 'Ana',
      last_name: 'Pérez',
      email: 'ana@example.co',
    });
  });
});

describe('method and details', () => {
  it('a link with one method skips the method screen; back has nowhere to go', () => {
    const link = makeLink({ gateways: [gateways.transfer] });
    const details = expectStep(run(initialState(), { type: 'link_loaded', link }), 'details');
    assert.equal(details.gateway.kind, 'transfer');
    assert.equal(run(details, { type: 'back' }), details);
  });
  it('a single accepted document type is chosen for the buyer', () => {
    const link = makeLink({ gateways: [{ ...gateways.push, id_types: [2] }] });
    const details = expectStep(run(initialState(), { type: 'link_loaded', link }), 'details');
    assert.equal(details.fields.id_type, '2');
  });
  it('shows every message on submit, focuses the first, and clears one as it is edited', () => {
    const s = expectStep(run(toDetailsOf('push'), { type: 'field_changed', field: 'phone_number', value: '601 234 5678' }, { type: 'details_submitted', idempotencyKey: 'k' }), 'details');
    assert.deepEqual(s.errors, { id_type: 'id_type.required', id_number: 'id_number.required', phone_number: 'phone_number.landline' });
    assert.equal(s.focus, 'id_type');
    assert.equal(s.request, null);
    const edited = expectStep(run(s, { type: 'field_changed', field: 'id_number', value: '1' }), 'details');
    assert.deepEqual(edited.errors, { id_type: 'id_type.required', phone_number: 'phone_number.landline' });
  });
  it('ignores fields the method does not show', () => {
    const details = toDetailsOf('otp');
    assert.equal(run(details, { type: 'field_changed', field: 'phone_number', value: '3001234567' }), details);
  });
});

describe('never twice', () => {
  const submitted = () => run(toDetailsOf('push'), ...buyer.push, { type: 'details_submitted', idempotencyKey: 'key-1' });

  it('a second submit while create_order is in flight is ignored', () => {
    const first = submitted();
    assert.equal(run(first, { type: 'details_submitted', idempotencyKey: 'key-2' }), first);
    assert.equal(run(first, { type: 'field_changed', field: 'id_number', value: '999' }), first);
    assert.equal(run(first, { type: 'back' }), first);
  });

  it('retry after a network error re-issues the same request: same key, same body', () => {
    const first = expectStep(submitted(), 'details');
    const failed = expectStep(run(first, { type: 'order_failed', error: network }), 'error');
    assert.equal(failed.message, 'error.network');
    assert.equal(failed.retry, first.request);
    const again = expectStep(run(failed, { type: 'retry' }), 'details');
    assert.equal(again.request, first.request);
    assert.equal(again.submitting, true);
    assert.equal(isNewRequest(failed, again), true);
    assert.equal(run(again, { type: 'details_submitted', idempotencyKey: 'key-9' }), again);
  });

  it('an unchanged resubmit after an unknown outcome keeps the key; a changed body takes the new one', () => {
    const failed = run(submitted(), { type: 'order_failed', error: { category: 'invalid_response', status: 200 } });
    const back = expectStep(run(failed, { type: 'back' }), 'details');
    assert.equal(back.submitting, false);
    const same = expectStep(run(back, { type: 'details_submitted', idempotencyKey: 'key-2' }), 'details');
    assert.equal(same.request?.idempotencyKey, 'key-1');
    const changed = run(back, { type: 'field_changed', field: 'phone_number', value: '3109998877' }, { type: 'details_submitted', idempotencyKey: 'key-3' });
    assert.equal(expectStep(changed, 'details').request?.idempotencyKey, 'key-3');
  });

  it('a definite refusal drops the key: the next submit is a new intent', () => {
    const refused = expectStep(run(submitted(), { type: 'order_failed', error: service('VALIDATION_FAILED', 400, { validationErrors: [{ field: 'shopper.id_number', message: 'is invalid' }] }) }), 'details');
    assert.deepEqual(refused.errors, { id_number: 'id_number.rejected' });
    assert.equal(refused.focus, 'id_number');
    assert.equal(refused.attempt, null);
    const resent = run(refused, { type: 'details_submitted', idempotencyKey: 'key-2' });
    assert.equal(expectStep(resent, 'details').request?.idempotencyKey, 'key-2');
  });

  it('server faults, rate limits and a key still in use are retryable with the same key', () => {
    for (const [error, message] of [
      [service('SERVICE_UNAVAILABLE', 503), 'error.unavailable'],
      [service('INTERNAL_SERVER_ERROR', 500), 'error.unavailable'],
      // The handler still creates or checks the order under this key: a new key could make a second order.
      [service('IDEMPOTENCY_KEY_IN_USE', 409), 'error.checking'],
    ] as const) {
      const s = expectStep(run(submitted(), { type: 'order_failed', error }), 'error');
      assert.equal(s.message, message);
      assert.equal(expectStep(run(s, { type: 'retry' }), 'details').request?.idempotencyKey, 'key-1');
    }
  });

  it('a limit (429) keeps the form with when to try again, and the same key for the next submit', () => {
    for (const [retryAfterS, message] of [
      [undefined, 'error.rate_limited'],
      [30, 'error.rate_limited'],
      [600, 'error.rate_limited_minutes'],
      [6 * 3600, 'error.rate_limited_hours'],
    ] as const) {
      const error = { ...service('LIMIT_REACHED', 429), ...(retryAfterS !== undefined ? { retryAfterS } : {}) };
      const s = expectStep(run(submitted(), { type: 'order_failed', error }), 'details');
      assert.equal(s.formError, message);
      assert.equal(s.submitting, false);
      assert.equal(expectStep(run(s, { type: 'details_submitted', idempotencyKey: 'key-2' }), 'details').request?.idempotencyKey, 'key-1');
    }
  });
});

describe('service refusals land where they belong', () => {
  const submit = (link = standardLink) => run(toDetailsOf('push', link), ...buyer.push, { type: 'details_submitted', idempotencyKey: 'k' });
  it('AMOUNT_OUT_OF_RANGE goes back to the amount on a dynamic link', () => {
    const s = expectStep(run(submit(dynamicLink), { type: 'order_failed', error: service('AMOUNT_OUT_OF_RANGE') }), 'amount');
    assert.equal(s.error, 'amount.out_of_range');
    assert.equal(s.text, '50.000');
  });
  it('AMOUNT_OUT_OF_RANGE goes back to the method on a standard link', () => {
    assert.equal(expectStep(run(submit(), { type: 'order_failed', error: service('AMOUNT_OUT_OF_RANGE') }), 'method').error, 'method.amount_out_of_range');
  });
  it('field codes go to their field', () => {
    const cases: [FlowError, object][] = [
      [service('GATEWAY_DOCUMENT_TYPE_NOT_ACCEPTED'), { id_type: 'id_type.not_accepted' }],
      [service('INVALID_PHONE'), { phone_number: 'phone_number.invalid' }],
      [service('PAYMENT_VALIDATION_FAILED', 400, { validationErrors: [{ field: 'national_id_number', message: 'x' }, { field: 'shopper.phone_number', message: 'y' }] }), { id_number: 'id_number.rejected', phone_number: 'phone_number.invalid' }],
    ];
    for (const [error, errors] of cases) assert.deepEqual(expectStep(run(submit(), { type: 'order_failed', error }), 'details').errors, errors);
  });
  it('a refusal about no shown field is a form message; a reused key asks to submit again', () => {
    assert.equal(expectStep(run(submit(), { type: 'order_failed', error: service('PAYMENT_PROCESSING_FAILED') }), 'details').formError, 'details.refused');
    const reused = expectStep(run(submit(), { type: 'order_failed', error: service('IDEMPOTENCY_KEY_REUSED', 409) }), 'details');
    assert.equal(reused.formError, 'details.try_again');
    assert.equal(reused.attempt, null);
  });
  it('a link paid or expired meanwhile is its screen', () => {
    assert.equal(expectStep(run(submit(), { type: 'order_failed', error: service('LINK_ALREADY_PAID', 409) }), 'unavailable').reason, 'paid');
    assert.equal(expectStep(run(submit(), { type: 'order_failed', error: service('LINK_EXPIRED', 410) }), 'unavailable').reason, 'expired');
  });
  it('a config error has no retry', () => {
    const s = expectStep(run(submit(), { type: 'order_failed', error: { category: 'config' } }), 'error');
    assert.equal(s.retry, null);
    assert.equal(expectStep(run(s, { type: 'back' }), 'details').submitting, false);
  });
});

describe('order status mapping', () => {
  const table: [OrderStatus, CancelReason | null, string][] = [
    ['pending', null, 'push'],
    ['processing', null, 'push'],
    ['confirmed', null, 'paid'],
    ['cancelled', 'declined', 'declined'],
    ['cancelled', 'expired', 'expired'],
    ['cancelled', 'buyer', 'cancelled'],
    ['cancelled', 'merchant', 'cancelled'],
    ['cancelled', 'otp_attempts', 'cancelled'],
    ['cancelled', null, 'cancelled'],
    ['refunded', null, 'cancelled'],
  ];
  for (const [status, reason, step] of table) {
    it(`${status}${reason ? `+${reason}` : ''} → ${step}`, () => {
      const open = status === 'pending' || status === 'processing';
      const order = makeOrder('push', { status, cancel_reason: reason, next_action: open ? actions.push : null });
      const next = run(toOrderOf('push'), { type: 'status_received', order });
      assert.equal(next.step, step);
      assert.equal(orderOf(next)?.status, status);
    });
  }
  it('a pending order moves between waiting steps as its next action changes', () => {
    const s = run(toOrderOf('otp'), { type: 'status_received', order: makeOrder('otp', { next_action: actions.transfer }) });
    expectStep(s, 'transfer');
  });
  it('a status for another order is ignored', () => {
    const push = toOrderOf('push');
    assert.equal(run(push, { type: 'status_received', order: makeOrder('push', { id_order: 999, status: 'confirmed', next_action: null }) }), push);
  });
  it('a failed status check stays on the screen and keeps the order', () => {
    const push = toOrderOf('push');
    const s = expectStep(run(push, { type: 'status_failed', error: network }), 'push');
    assert.equal(s.notice, 'notice.status_check_failed');
    assert.equal(s.order, orderOf(push));
    assert.equal(run(s, { type: 'status_failed', error: network }), s);
    assert.equal(expectStep(run(s, { type: 'status_received', order: makeOrder('push') }), 'push').notice, null);
  });
  it('a late confirmation wins over expired, declined or cancelled', () => {
    for (const reason of ['expired', 'declined', 'buyer'] as const) {
      const ended = run(toOrderOf('push'), { type: 'status_received', order: makeOrder('push', { status: 'cancelled', cancel_reason: reason, next_action: null }) });
      expectStep(run(ended, { type: 'status_received', order: makeOrder('push', { status: 'confirmed', next_action: null }) }), 'paid');
    }
  });
});

describe('countdown', () => {
  it('time_up asks a final check; still open → cancel on the service first, expired only once it is cancelled', () => {
    const push = toOrderOf('push');
    const checking = expectStep(run(push, { type: 'time_up' }), 'push');
    assert.deepEqual(checking.request, { kind: 'check_status', id_order: 101, order_token: 'tok_0123456789abcdef', final: true });
    assert.equal(checking.timeUp, true);
    assert.equal(run(checking, { type: 'time_up' }), checking, 'one final check at a time');
    const cancelling = expectStep(run(checking, { type: 'status_received', order: makeOrder('push') }), 'push');
    assert.deepEqual(cancelling.request, { kind: 'cancel_order', id_order: 101, order_token: 'tok_0123456789abcdef' });
    assert.deepEqual([cancelling.timeUp, cancelling.cancelling], [true, true]);
    const stillOpen = expectStep(run(cancelling, { type: 'status_received', order: makeOrder('push') }), 'push');
    assert.equal(stillOpen.request, cancelling.request, 'a poll saying open does not end the cancel');
    const cancelled = makeOrder('push', { status: 'cancelled', cancel_reason: 'buyer', next_action: null });
    const expired = expectStep(run(stillOpen, { type: 'status_received', order: cancelled }), 'expired');
    assert.equal(expired.order.id_order, 101);
  });
  it('time_up, cancel refused because it was paid → asks the order → the receipt', () => {
    const cancelling = run(toOrderOf('otp'), { type: 'time_up' }, { type: 'status_received', order: makeOrder('otp') });
    const refused = expectStep(run(cancelling, { type: 'order_failed', error: service('INVALID_ORDER_STATUS', 409) }), 'otp');
    assert.equal(refused.request?.kind, 'check_status');
    expectStep(run(refused, { type: 'status_received', order: makeOrder('otp', { status: 'confirmed', next_action: null }) }), 'paid');
  });
  it('time_up, the cancel fails on the network → no word about a charge; "check again" re-asks', () => {
    const cancelling = run(toOrderOf('transfer'), { type: 'time_up' }, { type: 'status_received', order: makeOrder('transfer') });
    const failed = expectStep(run(cancelling, { type: 'order_failed', error: network }), 'transfer');
    assert.deepEqual([failed.notice, failed.cancelling, failed.after, failed.timeUp], ['notice.status_check_failed', false, null, true]);
    const again = expectStep(run(failed, { type: 'retry' }), 'transfer');
    assert.deepEqual(again.request, { kind: 'check_status', id_order: 101, order_token: 'tok_0123456789abcdef', final: true });
  });
  it('time_up, then the final check says confirmed → paid', () => {
    const s = run(toOrderOf('transfer'), { type: 'time_up' }, { type: 'status_received', order: makeOrder('transfer', { status: 'confirmed', next_action: null }) });
    expectStep(s, 'paid');
  });
  it('time_up, final check fails → stays waiting; time_up again re-asks', () => {
    const failed = expectStep(run(toOrderOf('push'), { type: 'time_up' }, { type: 'status_failed', error: network }), 'push');
    assert.equal(failed.request, null);
    assert.equal(failed.timeUp, true);
    assert.equal(failed.notice, 'notice.status_check_failed');
    assert.equal(expectStep(run(failed, { type: 'time_up' }), 'push').request?.kind, 'check_status');
    const viaRetry = expectStep(run(failed, { type: 'retry' }), 'push');
    assert.deepEqual(viaRetry.request, { kind: 'check_status', id_order: 101, order_token: 'tok_0123456789abcdef', final: true });
  });
  it('a regular poll saying processing before time is up does not expire', () => {
    expectStep(run(toOrderOf('push'), { type: 'status_received', order: makeOrder('push') }), 'push');
  });
});

describe('change method from any waiting screen', () => {
  const cancelled = (kind: 'push' | 'otp' | 'transfer' | 'card') => makeOrder(kind, { status: 'cancelled', cancel_reason: 'buyer', next_action: null });
  for (const kind of ['push', 'otp', 'transfer', 'card'] as const) {
    it(`${kind}: cancels on the service first, then the method screen with the buyer's details kept`, () => {
      let waiting = toOrderOf(kind);
      if (kind === 'card') waiting = run(waiting, { type: 'returned_from_card' }, { type: 'status_received', order: makeOrder('card') });
      const asked = run(waiting, { type: 'change_method' });
      assert.deepEqual(asked.request, { kind: 'cancel_order', id_order: 101, order_token: 'tok_0123456789abcdef' });
      assert.equal(run(asked, { type: 'change_method' }), asked, 'one cancel at a time');
      const method = expectStep(run(asked, { type: 'status_received', order: cancelled(kind) }), 'method');
      assert.equal(method.amount, 50_000);
      assert.equal(method.fields.id_number, kind === 'push' ? '1.020.304.050' : '1020304050');
      assert.equal(method.fields.id_type, '1');
    });
  }
  it('the cancel refused because it already paid → the receipt, not the method screen', () => {
    const asked = run(toOrderOf('transfer'), { type: 'change_method' });
    const refused = run(asked, { type: 'order_failed', error: service('INVALID_ORDER_STATUS', 409) });
    expectStep(run(refused, { type: 'status_received', order: makeOrder('transfer', { status: 'confirmed', next_action: null }) }), 'paid');
  });
  it('the cancel fails on the network → stays, says so, nothing lost; the next poll does not wipe the notice', () => {
    const failed = expectStep(run(toOrderOf('push'), { type: 'change_method' }, { type: 'order_failed', error: network }), 'push');
    assert.deepEqual([failed.notice, failed.after, failed.cancelling], ['notice.cancel_failed', null, false]);
    assert.equal(expectStep(run(failed, { type: 'status_received', order: makeOrder('push') }), 'push').notice, 'notice.cancel_failed');
  });
  it('not while a code is being checked', () => {
    const sending = run(toOrderOf('otp'), { type: 'otp_submitted', code: '123456' });
    assert.equal(run(sending, { type: 'change_method' }), sending);
  });
});

describe('receipts kept on this device', () => {
  const paidOrder = makeOrder('transfer', { status: 'confirmed', next_action: null, confirmed_at: '2030-01-01T00:02:00Z' });
  it('receipt_restored shows the paid screen, marked restored, with no token', () => {
    for (const link of [standardLink, makeLink({ status: 'paid' }), dynamicLink]) {
      const loaded = link.status === 'paid' ? run(initialState(), { type: 'link_loaded', link }) : initialState();
      const paid = expectStep(run(loaded, { type: 'receipt_restored', link, order: paidOrder }), 'paid');
      assert.deepEqual([paid.restored, paid.orderToken, paid.order.id_order], [true, '', 101]);
    }
  });
  it('only a confirmed order is restored, and never over an order under way', () => {
    assert.equal(run(initialState(), { type: 'receipt_restored', link: standardLink, order: makeOrder('push') }).step, 'loading');
    const waiting = toOrderOf('push');
    assert.equal(run(waiting, { type: 'receipt_restored', link: standardLink, order: paidOrder }), waiting);
  });
  it('a dynamic link is paid again only when the buyer asks from the receipt', () => {
    const paid = run(initialState(), { type: 'receipt_restored', link: dynamicLink, order: paidOrder });
    const amount = expectStep(run(paid, { type: 'new_payment' }), 'amount');
    assert.equal(amount.text, '');
    const fixed = run(initialState(), { type: 'receipt_restored', link: standardLink, order: paidOrder });
    assert.equal(run(fixed, { type: 'new_payment' }), fixed);
  });
});

describe('cancel, change number, new code', () => {
  it('cancel: request, then the cancelled order → cancelled', () => {
    const asked = expectStep(run(toOrderOf('transfer'), { type: 'cancel_requested' }), 'transfer');
    assert.deepEqual(asked.request, { kind: 'cancel_order', id_order: 101, order_token: 'tok_0123456789abcdef' });
    assert.equal(asked.cancelling, true);
    assert.equal(run(asked, { type: 'cancel_requested' }), asked);
    const polled = expectStep(run(asked, { type: 'status_received', order: makeOrder('transfer') }), 'transfer');
    assert.equal(polled.request, asked.request, 'a poll answer does not end the cancel');
    const done = expectStep(run(polled, { type: 'status_received', order: makeOrder('transfer', { status: 'cancelled', cancel_reason: 'buyer', next_action: null }) }), 'cancelled');
    assert.equal(done.order.cancel_reason, 'buyer');
  });
  it('cancel refused with INVALID_ORDER_STATUS asks where the order stands (it may be paid)', () => {
    const asked = run(toOrderOf('push'), { type: 'cancel_requested' });
    const checking = expectStep(run(asked, { type: 'order_failed', error: service('INVALID_ORDER_STATUS') }), 'push');
    assert.equal(checking.request?.kind, 'check_status');
    expectStep(run(checking, { type: 'status_received', order: makeOrder('push', { status: 'confirmed', next_action: null }) }), 'paid');
  });
  it('cancel lost on the network keeps the order with a notice', () => {
    const s = expectStep(run(toOrderOf('push'), { type: 'cancel_requested' }, { type: 'order_failed', error: network }), 'push');
    assert.equal(s.notice, 'notice.cancel_failed');
    assert.equal(s.cancelling, false);
    assert.equal(s.request, null);
  });
  it('change number: cancel, then details with the phone focused; the next order is a new intent', () => {
    const asked = expectStep(run(toOrderOf('push'), { type: 'change_number' }), 'push');
    assert.deepEqual(asked.after, { kind: 'change_number' });
    const details = expectStep(run(asked, { type: 'status_received', order: makeOrder('push', { status: 'cancelled', cancel_reason: 'buyer', next_action: null }) }), 'details');
    assert.equal(details.focus, 'phone_number');
    assert.equal(details.fields.phone_number, '+57 300 123 4567');
    assert.equal(savedOrderOf(details), null);
    const resent = run(details, { type: 'field_changed', field: 'phone_number', value: '3109998877' }, { type: 'details_submitted', idempotencyKey: 'key-2' });
    assert.equal(expectStep(resent, 'details').request?.idempotencyKey, 'key-2');
    assert.equal(run(toOrderOf('otp'), { type: 'change_number' }).step, 'otp');
  });
  it('new code: cancel the old order, create a new one with the new key and the same body', () => {
    const otp = expectStep(toOrderOf('otp'), 'otp');
    const asked = run(otp, { type: 'new_code', idempotencyKey: 'key-2' });
    assert.equal(expectStep(asked, 'otp').request?.kind, 'cancel_order');
    const creating = expectStep(run(asked, { type: 'status_received', order: makeOrder('otp', { status: 'cancelled', cancel_reason: 'buyer', next_action: null }) }), 'otp');
    assert.deepEqual(creating.request, { kind: 'create_order', idempotencyKey: 'key-2', body: otp.body });
    assert.equal(creating.submitting, true);
    assert.equal(run(creating, { type: 'otp_submitted', code: '123456' }), creating);
    const stale = expectStep(run(creating, { type: 'status_received', order: makeOrder('otp') }), 'otp');
    assert.equal(stale.submitting, true, 'a stale status of the old order does not re-enable the code');
    assert.equal(stale.request, creating.request);
    const fresh = expectStep(run(creating, { type: 'order_created', order: makeCreated('otp', { id_order: 102 }) }), 'otp');
    assert.equal(fresh.order.id_order, 102);
    assert.equal(fresh.attemptsLeft, 3);
    assert.equal(fresh.request, null);
  });
  it('new code: the new order failing on the network offers a retry with its key', () => {
    const creating = run(toOrderOf('otp'), { type: 'new_code', idempotencyKey: 'key-2' }, { type: 'status_received', order: makeOrder('otp', { status: 'cancelled', cancel_reason: 'buyer', next_action: null }) });
    const failed = expectStep(run(creating, { type: 'order_failed', error: network }), 'error');
    assert.equal(expectStep(run(failed, { type: 'retry' }), 'details').request?.idempotencyKey, 'key-2');
  });
  it('three wrong codes: the last asks the order, which is cancelled', () => {
    let s: FlowState = toOrderOf('otp');
    for (let i = 0; i < 3; i++) s = run(s, { type: 'otp_submitted', code: '999999' }, { type: 'order_failed', error: service('DAVIPLATA_OTP_ERROR') });
    const last = expectStep(s, 'otp');
    assert.equal(last.attemptsLeft, 0);
    assert.equal(last.request?.kind, 'check_status');
    const ended = expectStep(run(last, { type: 'status_received', order: makeOrder('otp', { status: 'cancelled', cancel_reason: 'otp_attempts', next_action: null }) }), 'cancelled');
    assert.equal(ended.order.cancel_reason, 'otp_attempts');
  });
  it('otp_rejected takes the attempts the host knows', () => {
    const s = run(toOrderOf('otp'), { type: 'otp_submitted', code: '999999' }, { type: 'otp_rejected', attempts_left: 1 });
    assert.equal(expectStep(s, 'otp').attemptsLeft, 1);
  });
  it('try again after a result goes back to choosing a method, with what was typed', () => {
    const declined = run(toOrderOf('push'), { type: 'status_received', order: makeOrder('push', { status: 'cancelled', cancel_reason: 'declined', next_action: null }) });
    const method = expectStep(run(declined, { type: 'try_again' }), 'method');
    assert.equal(method.fields.id_number, '1.020.304.050');
    assert.equal(savedOrderOf(method), null);
    const paid = run(toOrderOf('push'), { type: 'status_received', order: makeOrder('push', { status: 'confirmed', next_action: null }) });
    assert.equal(run(paid, { type: 'try_again' }), paid);
  });
});

describe('resume', () => {
  const resumed = (order = makeOrder('push'), returnedFromCard?: boolean) =>
    run(initialState(), { type: 'resumed', link: standardLink, order, orderToken: 'tok_saved_000000000', ...(returnedFromCard === undefined ? {} : { returnedFromCard }) });
  for (const kind of ['push', 'otp', 'transfer'] as const) {
    it(`into ${kind}`, () => {
      const s = resumed(makeOrder(kind));
      assert.equal(s.step, kind);
      assert.deepEqual(savedOrderOf(s), { id_order: 101, order_token: 'tok_saved_000000000' });
      assert.equal(orderOf(s)?.gateway.id_payment_gateway, gateways[kind].id_payment_gateway);
    });
  }
  it('into the card hand-off, or back from it with a status check', () => {
    assert.equal(expectStep(resumed(makeOrder('card')), 'redirect').returning, false);
    const back = expectStep(resumed(makeOrder('card'), true), 'redirect');
    assert.equal(back.returning, true);
    assert.equal(back.request?.kind, 'check_status');
  });
  it('into processing and every result', () => {
    assert.equal(resumed(makeOrder('otp', { next_action: null })).step, 'processing');
    assert.equal(resumed(makeOrder('push', { status: 'confirmed', next_action: null })).step, 'paid');
    assert.equal(resumed(makeOrder('push', { status: 'cancelled', cancel_reason: 'declined', next_action: null })).step, 'declined');
    assert.equal(resumed(makeOrder('push', { status: 'cancelled', cancel_reason: 'expired', next_action: null })).step, 'expired');
    assert.equal(resumed(makeOrder('push', { status: 'cancelled', cancel_reason: 'buyer', next_action: null })).step, 'cancelled');
  });
  it('also from the method screen, but never over an order under way', () => {
    const method = run(initialState(), { type: 'link_loaded', link: standardLink });
    assert.equal(run(method, { type: 'resumed', link: standardLink, order: makeOrder('push'), orderToken: 'tok_saved_000000000' }).step, 'push');
    const inFlight = run(toDetailsOf('push'), ...buyer.push, { type: 'details_submitted', idempotencyKey: 'k' });
    assert.equal(run(inFlight, { type: 'resumed', link: standardLink, order: makeOrder('push'), orderToken: 'x' }), inFlight);
    const push = toOrderOf('push');
    assert.equal(run(push, { type: 'resumed', link: standardLink, order: makeOrder('push', { id_order: 5 }), orderToken: 'x' }), push);
  });
  it('the buyer\'s own order replaces "link already paid"', () => {
    const paidLink = makeLink({ status: 'paid' });
    const unavailable = run(initialState(), { type: 'link_loaded', link: paidLink });
    const receipt = run(unavailable, { type: 'resumed', link: paidLink, order: makeOrder('push', { status: 'confirmed', next_action: null }), orderToken: 'tok_saved_000000000' });
    expectStep(receipt, 'paid');
    const notFound = run(initialState(), { type: 'link_failed', error: service('LINK_NOT_FOUND', 404) });
    assert.equal(run(notFound, { type: 'resumed', link: paidLink, order: makeOrder('push'), orderToken: 'x' }), notFound);
  });
  it('a resumed otp order with no body sends "new code" back to details', () => {
    const s = run(resumed(makeOrder('otp')), { type: 'new_code', idempotencyKey: 'k2' }, { type: 'status_received', order: makeOrder('otp', { status: 'cancelled', cancel_reason: 'buyer', next_action: null }) });
    expectStep(s, 'details');
  });
});

describe('events that do not apply return the same state', () => {
  const states: [string, FlowState][] = [
    ['loading', initialState()],
    ['amount', run(initialState(), { type: 'link_loaded', link: dynamicLink })],
    ['method', run(initialState(), { type: 'link_loaded', link: standardLink })],
    ['details', toDetailsOf('push')],
    ['push', toOrderOf('push')],
    ['paid', run(toOrderOf('push'), { type: 'status_received', order: makeOrder('push', { status: 'confirmed', next_action: null }) })],
    ['unavailable', run(initialState(), { type: 'link_failed', error: service('LINK_NOT_FOUND', 404) })],
  ];
  for (const [name, state] of states) {
    it(name, () => {
      for (const event of [
        { type: 'otp_submitted', code: '123456' },
        { type: 'returned_from_card' },
        { type: 'order_created', order: makeCreated('push', { id_order: 777 }) },
        { type: 'link_failed', error: network },
      ] as const) {
        if (name === 'details' && event.type === 'order_created') continue;
        if (name === 'loading' && event.type === 'link_failed') continue;
        assert.equal(transition(state, event), state, `${name} + ${event.type}`);
      }
    });
  }
});

describe('toFlowError reads the clients’ errors', () => {
  it('maps each client error class to its category', () => {
    const body = errorBody('VALIDATION_FAILED', { validation_errors: [{ field: 'shopper.id_number', message: 'is required' }] });
    assert.deepEqual(toFlowError(new ServiceError(400, body)), {
      category: 'service',
      status: 400,
      code: 2000,
      apiCode: 'VALIDATION_FAILED',
      validationErrors: [{ field: 'shopper.id_number', message: 'is required' }],
    });
    assert.deepEqual(toFlowError(new NetworkError()), { category: 'network' });
    assert.deepEqual(toFlowError(new TimeoutError(15_000)), { category: 'network' });
    assert.deepEqual(toFlowError(new InvalidResponseError(200)), { category: 'invalid_response', status: 200 });
    const problems = [{ field: 'data.gateways.0.kind', message: 'invalid value' }];
    assert.deepEqual(toFlowError(new InvalidResponseError(200, problems)), { category: 'invalid_response', status: 200, problems });
    assert.deepEqual(toFlowError(new Error('boom')), { category: 'config' });
    assert.deepEqual(toFlowError(undefined), { category: 'config' });
  });
});

describe('an outage page says the service is unavailable', () => {
  it("a proxy's HTML 502 reads as unavailable; an unreadable 200 stays unreadable", () => {
    assert.equal(errorMessage(toFlowError(new InvalidResponseError(502))), 'error.unavailable');
    assert.equal(errorMessage(toFlowError(new InvalidResponseError(503))), 'error.unavailable');
    assert.equal(errorMessage(toFlowError(new InvalidResponseError(200))), 'error.invalid_response');
  });
});
