// The page's choices in the pure flow (no DOM): the page's prefill met as the details screen opens, the personal-data consent as
// a field error, the methods the page lists and the presets it offers.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chooseMethods, presetAmounts } from '../../src/flow/method-choice.js';
import { documentTypeId, knownShopper } from '../../src/flow/prefill.js';
import { emptyFields, initialState, transition, type FlowEvent, type FlowState, type Prefill } from '../../src/flow/index.js';
import { dynamicLink, expectStep, gateways, makeLink, standardLink } from './flow-fixtures.js';

const prefill = (over: Partial<Prefill>): Prefill => ({ ...emptyFields, ...over });

/** Events in order, the page's prefill told to each (as the element's later steps do). */
const runWith = (page: Prefill | undefined, state: FlowState, ...events: FlowEvent[]) => events.reduce((s, e) => transition(s, e, page), state);

const loaded = (page: Prefill | undefined, link = standardLink) => runWith(page, initialState(), { type: 'link_loaded', link });
const submit = (consentRequired?: boolean): FlowEvent => ({ type: 'details_submitted', idempotencyKey: 'key-1', ...(consentRequired ? { consentRequired } : {}) });

describe('prefill', () => {
  const known = prefill({ id_type: 'CC', id_number: '1.020.304.050', phone_number: '+57 300 123 4567' });

  it('fills the chosen method\'s fields, maps the document code to its id, and sends focus to pay', () => {
    const details = expectStep(runWith(known, loaded(known), { type: 'method_chosen', id_payment_gateway: 1 }), 'details');
    assert.deepEqual(details.fields, { ...known, id_type: '1' });
    assert.deepEqual(details.errors, {});
    assert.equal(details.focus, 'pay');
    const submitted = expectStep(runWith(known, details, submit()), 'details');
    assert.deepEqual(submitted.request?.body.shopper, { id_type: 1, id_number: '1020304050', phone_number: '3001234567' });
  });

  it('a value the method cannot take shows its error, focus on it, nothing dropped', () => {
    const wrong = prefill({ id_type: 'PP', id_number: '1020304050', phone_number: '6012345678' });
    const details = expectStep(runWith(wrong, loaded(wrong), { type: 'method_chosen', id_payment_gateway: 1 }), 'details');
    assert.deepEqual(details.errors, { id_type: 'id_type.not_accepted', phone_number: 'phone_number.landline' });
    assert.equal(details.fields.id_type, 'PP');
    assert.equal(details.focus, 'id_type');
    // The card takes CC and CE only: a prefilled TI is flagged there.
    const card = expectStep(runWith(prefill({ id_type: 'ti' }), loaded(undefined), { type: 'method_chosen', id_payment_gateway: 4 }), 'details');
    assert.deepEqual(card.errors, { id_type: 'id_type.not_accepted' });
  });

  it('partial prefill: what is there is checked, empty fields wait, focus stays on the heading', () => {
    const some = prefill({ phone_number: '3001234567' });
    const details = expectStep(runWith(some, loaded(some), { type: 'method_chosen', id_payment_gateway: 1 }), 'details');
    assert.deepEqual(details.errors, {});
    assert.equal(details.focus, null);
    assert.equal(details.fields.phone_number, '3001234567');
  });

  it('what the buyer typed wins over the prefill when they come back to the details', () => {
    const details = expectStep(runWith(known, loaded(known), { type: 'method_chosen', id_payment_gateway: 1 }), 'details');
    const typed = runWith(known, details, { type: 'field_changed', field: 'phone_number', value: '3109876543' }, { type: 'back' });
    const again = expectStep(runWith(known, typed, { type: 'method_chosen', id_payment_gateway: 9 }), 'details');
    assert.equal(again.fields.phone_number, '3109876543');
    assert.equal(again.focus, 'pay');
  });

  it('a link with one method opens its details already filled', () => {
    const single = makeLink({ gateways: [gateways.push] });
    const details = expectStep(loaded(known, single), 'details');
    assert.equal(details.focus, 'pay');
    assert.equal(details.fields.id_type, '1');
  });

  it('a link whose record lacks only the phone: the prefill fills it, the screen asks nothing else, focus on pay', () => {
    const onlyPhone = makeLink({ collect_shopper_data: true, collect_shopper_fields: ['phone_number'] });
    const details = expectStep(runWith(known, loaded(known, onlyPhone), { type: 'method_chosen', id_payment_gateway: 2 }), 'details');
    assert.deepEqual(details.needed, ['id_type', 'id_number', 'phone_number']);
    assert.equal(details.focus, 'pay');
    const submitted = expectStep(runWith(known, details, submit()), 'details');
    assert.deepEqual(submitted.request?.body.shopper, { id_type: 1, id_number: '1020304050', phone_number: '3001234567' });
    // Without the prefill the phone is the one field left to fill.
    const empty = expectStep(runWith(undefined, loaded(undefined, onlyPhone), { type: 'method_chosen', id_payment_gateway: 2 }, ...[['id_type', '1'], ['id_number', '1020304050']].map(([field, value]) => ({ type: 'field_changed', field, value }) as FlowEvent), submit()), 'details');
    assert.deepEqual(empty.errors, { phone_number: 'phone_number.required' });
    assert.equal(empty.focus, 'phone_number');
  });

  it('without a prefill, opening the details is as before', () => {
    const details = expectStep(runWith(undefined, loaded(undefined), { type: 'method_chosen', id_payment_gateway: 1 }), 'details');
    assert.deepEqual(details.fields, emptyFields);
    assert.equal(details.focus, null);
  });

  it('known details the method does not ask for reach the order when valid', () => {
    assert.deepEqual(knownShopper(prefill({ phone_number: '300 123 4567', email: 'ana@example.com', first_name: ' Ana ', last_name: '' }), ['id_type', 'id_number']), {
      phone_number: '3001234567',
      email: 'ana@example.com',
      first_name: 'Ana',
    });
    assert.deepEqual(knownShopper(prefill({ email: 'not-an-email', phone_number: '601 234 5678' }), ['id_type', 'id_number']), {});
    assert.deepEqual(knownShopper(prefill({ phone_number: '3001234567' }), ['id_type', 'id_number', 'phone_number']), {});
  });

  it('document codes and ids', () => {
    assert.equal(documentTypeId('ce', standardLink.document_types), '2');
    assert.equal(documentTypeId('3', standardLink.document_types), '3');
    assert.equal(documentTypeId('NIT', standardLink.document_types), 'NIT');
    assert.equal(documentTypeId('', standardLink.document_types), '');
  });
});

describe('personal-data consent', () => {
  const filled = prefill({ id_type: '1', id_number: '1020304050', phone_number: '3001234567' });
  const details = expectStep(runWith(filled, loaded(filled), { type: 'method_chosen', id_payment_gateway: 1 }), 'details');

  it('unchecked: a field error, focus on the box, no order', () => {
    const refused = expectStep(runWith(filled, details, submit(true)), 'details');
    assert.deepEqual(refused.errors, { consent: 'consent.required' });
    assert.equal(refused.focus, 'consent');
    assert.equal(refused.request, null);
    assert.equal(refused.submitting, false);
  });

  it('other fields in error come first; checking the box clears its error; checked, the order is made', () => {
    const empty = expectStep(runWith(undefined, loaded(undefined), { type: 'method_chosen', id_payment_gateway: 1 }), 'details');
    const both = expectStep(runWith(undefined, empty, submit(true)), 'details');
    assert.equal(both.focus, 'id_type');
    assert.equal(both.errors.consent, 'consent.required');
    const checked = expectStep(runWith(filled, details, submit(true), { type: 'consent_changed', checked: true }), 'details');
    assert.equal(checked.errors.consent, undefined);
    const paid = expectStep(runWith(filled, checked, submit(true)), 'details');
    assert.equal(paid.request?.kind, 'create_order');
  });

  it('not asked: no box, no error', () => {
    assert.equal(expectStep(runWith(filled, details, submit()), 'details').request?.kind, 'create_order');
  });
});

describe('methods and presets the page chooses', () => {
  const all = Object.values(gateways);

  it('by name or kind, in the page\'s order, each once', () => {
    const [shown, unknown] = chooseMethods(all, 'breb  NEQUI push card');
    assert.deepEqual(shown.map((g) => g.name), ['Bre-B', 'Nequi', 'Tarjeta']);
    assert.deepEqual(unknown, []);
    assert.deepEqual(chooseMethods(all, 'otp transfer')[0].map((g) => g.name), ['Daviplata', 'Bre-B']);
  });

  it('unknown words are reported; a list that leaves none shows every method', () => {
    const [shown, unknown] = chooseMethods(all, 'paypal nequi');
    assert.deepEqual(shown.map((g) => g.name), ['Nequi']);
    assert.deepEqual(unknown, ['paypal']);
    const [none, words] = chooseMethods(all, 'efecty pse');
    assert.equal(none, all);
    assert.deepEqual(words, ['efecty', 'pse']);
  });

  it('presets: whole pesos, each once, only those some method takes', () => {
    assert.deepEqual(presetAmounts('20000 50.000 20000 abc 0 400 12000000 1,5', all), [20_000, 50_000, 12_000_000]);
    assert.deepEqual(presetAmounts('600', [gateways.push, gateways.otp]), []);
    assert.deepEqual(presetAmounts(undefined, all), []);
  });

  it('a dynamic link pays a preset like a typed amount', () => {
    const amount = expectStep(loaded(undefined, dynamicLink), 'amount');
    const method = expectStep(runWith(undefined, amount, { type: 'amount_changed', text: '50000' }, { type: 'amount_submitted' }), 'method');
    assert.equal(method.amount, 50_000);
  });
});
