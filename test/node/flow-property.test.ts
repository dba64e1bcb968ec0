import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { CheckoutOrderBodySchema, cancelReasons, orderStatuses } from '../../src/contract/index.js';
import { detailsFields, flowSteps, initialState, isNewRequest, transition, type FlowError, type FlowEvent, type FlowState } from '../../src/flow/index.js';
import { beforeOrder, beforeOrderSteps } from '../../src/flow/before-order.js';
import { actions, dynamicLink, gateways, makeCreated, makeLink, makeOrder, standardLink, toDetailsOf, toOrderOf } from './flow-fixtures.js';

const kinds = ['push', 'otp', 'transfer', 'card'] as const;

const flowError: fc.Arbitrary<FlowError> = fc.constantFrom<FlowError>(
  { category: 'network' },
  { category: 'invalid_response', status: 200 },
  { category: 'config' },
  { category: 'service', status: 400, apiCode: 'DAVIPLATA_OTP_ERROR', code: 6105 },
  { category: 'service', status: 400, apiCode: 'AMOUNT_OUT_OF_RANGE' },
  { category: 'service', status: 400, apiCode: 'INVALID_ORDER_STATUS' },
  { category: 'service', status: 409, apiCode: 'IDEMPOTENCY_KEY_REUSED' },
  { category: 'service', status: 404, apiCode: 'LINK_NOT_FOUND' },
  { category: 'service', status: 503, apiCode: 'SERVICE_UNAVAILABLE' },
  { category: 'service', status: 400, validationErrors: [{ field: 'shopper.id_number', message: 'x' }] },
);

const order = fc
  .record({
    kind: fc.constantFrom(...kinds),
    id: fc.constantFrom(101, 102),
    status: fc.constantFrom(...orderStatuses),
    reason: fc.constantFrom(null, ...cancelReasons),
    action: fc.constantFrom('same', 'none', ...kinds),
  })
  .map(({ kind, id, status, reason, action }) =>
    makeOrder(kind, {
      id_order: id,
      status,
      cancel_reason: status === 'cancelled' ? reason : null,
      next_action: action === 'same' ? actions[kind] : action === 'none' ? null : actions[action],
    }),
  );

const link = fc.constantFrom(standardLink, dynamicLink, makeLink({ gateways: [gateways.otp] }), makeLink({ amount: null, collect_shopper_data: true }), makeLink({ status: 'paid' }));

const event: fc.Arbitrary<FlowEvent> = fc.oneof(
  link.map((l) => ({ type: 'link_loaded', link: l }) as const),
  flowError.map((error) => ({ type: 'link_failed', error }) as const),
  fc.oneof(fc.constantFrom('50000', '1.000', '0', '', 'abc', '99999999'), fc.string()).map((text) => ({ type: 'amount_changed', text }) as const),
  fc.constant({ type: 'amount_submitted' } as const),
  fc.constantFrom(1, 2, 4, 9, 77).map((id) => ({ type: 'method_chosen', id_payment_gateway: id }) as const),
  fc.constant({ type: 'back' } as const),
  fc
    .record({ field: fc.constantFrom(...detailsFields), value: fc.oneof(fc.constantFrom('1', '2', '1020304050', '3001234567', 'Ana', 'a@b.co'), fc.string()) })
    .map(({ field, value }) => ({ type: 'field_changed', field, value }) as const),
  fc.constantFrom('key-a', 'key-b').map((k) => ({ type: 'details_submitted', idempotencyKey: k, returnUrl: 'https://shop.example/r' }) as const),
  fc.record({ kind: fc.constantFrom(...kinds), id: fc.constantFrom(101, 102) }).map(({ kind, id }) => ({ type: 'order_created', order: makeCreated(kind, { id_order: id }) }) as const),
  flowError.map((error) => ({ type: 'order_failed', error }) as const),
  order.map((o) => ({ type: 'status_received', order: o }) as const),
  flowError.map((error) => ({ type: 'status_failed', error }) as const),
  fc.oneof(fc.constantFrom('123456', '12'), fc.string()).map((code) => ({ type: 'otp_changed', code }) as const),
  fc.oneof(fc.constantFrom('123456', '999999', '1'), fc.string()).map((code) => ({ type: 'otp_submitted', code }) as const),
  fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }).map((n) => ({ type: 'otp_rejected', attempts_left: n }) as const),
  fc.constantFrom<FlowEvent>({ type: 'cancel_requested' }, { type: 'change_number' }, { type: 'time_up' }, { type: 'retry' }, { type: 'try_again' }, { type: 'returned_from_card' }, { type: 'handoff_refused' }),
  fc.constantFrom('key-c', 'key-d').map((k) => ({ type: 'new_code', idempotencyKey: k }) as const),
  fc.boolean().map((card) => ({ type: 'resume_retrying', card }) as const),
  fc.record({ link, order, back: fc.boolean() }).map(({ link: l, order: o, back }) => ({ type: 'resumed', link: l, order: o, orderToken: 'tok_resumed_0000000', returnedFromCard: back }) as const),
);

const start = fc.constantFrom<FlowState>(initialState(), toDetailsOf('push'), toDetailsOf('card', dynamicLink), ...kinds.map((k) => toOrderOf(k)));

/** What must hold of every state, whatever led to it. */
function checkInvariants(prev: FlowState, next: FlowState, e: FlowEvent): void {
  assert.ok((flowSteps as readonly string[]).includes(next.step), `unknown step ${next.step}`);
  if (next.step === 'details') assert.equal(next.submitting, next.request !== null);
  if (next.step === 'otp') assert.equal(next.submitting, next.request?.kind === 'submit_otp' || next.request?.kind === 'create_order');
  if ('cancelling' in next) assert.equal(next.cancelling, next.request?.kind === 'cancel_order');
  if (next.request?.kind === 'create_order') {
    const parsed = CheckoutOrderBodySchema.safeParse(next.request.body);
    assert.ok(parsed.success, `create_order body breaks the contract: ${JSON.stringify(next.request.body)}`);
  }
  if ('order' in next && next.order) assert.ok(next.orderToken.length > 0);
  // The pay button cannot submit twice: while an order is being created, another submit changes nothing.
  if (prev.step === 'details' && prev.submitting && e.type === 'details_submitted') assert.equal(next, prev);
  // A request the host already started is never replaced by a different create_order under a new key for the same body.
  if (isNewRequest(prev, next) && next.request?.kind === 'create_order' && prev.step === 'details' && prev.attempt && next.step === 'details') {
    if (JSON.stringify(prev.attempt.body) === JSON.stringify(next.request.body)) assert.equal(next.request.idempotencyKey, prev.attempt.idempotencyKey);
  }
}

describe('flow properties', () => {
  it('any sequence of events from any state never throws and keeps every invariant', () => {
    const visited = new Set<string>();
    fc.assert(
      fc.property(start, fc.array(event, { maxLength: 40 }), (s0, events) => {
        let state = s0;
        for (const e of events) {
          const next = transition(state, e);
          checkInvariants(state, next, e);
          // The element answers these with the first screens' part alone (its later chunk may not be here yet);
          // a resume's events come from that chunk.
          if (e.type !== 'resumed' && e.type !== 'resume_retrying' && beforeOrderSteps.includes(state.step)) {
            const early = beforeOrder(state, e);
            if (next === state) assert.equal(early, undefined);
            else assert.deepEqual(early, next);
          }
          visited.add(next.step);
          state = next;
        }
      }),
      { numRuns: 3000, seed: 20300101 },
    );
    // The walk is only worth something if it reaches every screen.
    assert.deepEqual([...flowSteps].filter((step) => !visited.has(step)), []);
  });
});
