import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CheckoutGateway, DocumentType, ShopperContactField } from '../../src/contract/index.js';
import {
  amountRange,
  formatAmountInput,
  idTypeChoices,
  neededFields,
  normalizeIdNumber,
  normalizePhone,
  otpInput,
  parseAmount,
  validateDetails,
  validateEmail,
  validateOtp,
  emptyFields,
} from '../../src/flow/index.js';

const gateway = (over: Partial<CheckoutGateway>): CheckoutGateway => ({
  id_payment_gateway: 1,
  name: 'Nequi',
  kind: 'push',
  required_fields: ['phone_number'],
  id_types: [1, 2, 3, 4],
  min_amount: 1_000,
  max_amount: 5_000_000,
  icon: 'https://example.test/nequi.png',
  ...over,
});
const push = gateway({});
/** A link that collects no contact, and one whose answer (as the service's or the sandbox's) asks for all four. */
const noContact = { collect_shopper_data: false };
const allContact = { collect_shopper_data: true };
const otp = gateway({ id_payment_gateway: 2, name: 'Daviplata', kind: 'otp', required_fields: ['document_type', 'document_number'] });
const transfer = gateway({ id_payment_gateway: 9, name: 'Bre-B', kind: 'transfer', required_fields: [], id_types: [] });
const docs: DocumentType[] = [
  { id_national_document_type: 1, country_code: 'CO', type: 'CC', description: 'Cédula de Ciudadanía' },
  { id_national_document_type: 2, country_code: 'CO', type: 'CE', description: 'Cédula de Extranjería' },
  { id_national_document_type: 3, country_code: 'CO', type: 'TI', description: 'Tarjeta de Identidad' },
  { id_national_document_type: 4, country_code: 'CO', type: 'PA', description: 'Pasaporte' },
];

describe('parseAmount', () => {
  for (const [text, value] of [
    ['50.000', 50_000],
    ['$ 50.000', 50_000],
    ['$50.000', 50_000],
    ['50000', 50_000],
    [' 1.250.000 ', 1_250_000],
    ['COP 7.500', 7_500],
    ['$\u00a050.000', 50_000],
    ['007', 7],
    // COP is whole pesos: a decimal part of zeros is dropped, never read as more pesos (`50.000,00` is fifty thousand).
    ['50.000,00', 50_000],
    ['50000,0', 50_000],
    ['50000.00', 50_000],
    ['$ 1.250.000,00', 1_250_000],
  ] as const) {
    it(`accepts ${JSON.stringify(text)} as ${value}`, () => assert.deepEqual(parseAmount(text), { ok: true, value }));
  }
  for (const [text, error] of [
    ['', 'amount.required'],
    ['   ', 'amount.required'],
    ['$', 'amount.required'],
    ['0', 'amount.zero'],
    ['0.000', 'amount.zero'],
    ['50.000,50', 'amount.decimals'],
    ['50000,5', 'amount.decimals'],
    ['50.5', 'amount.decimals'],
    ['50.50', 'amount.decimals'],
    ['25.000,50', 'amount.decimals'],
    ['50000.5', 'amount.decimals'],
    ['50.000,01', 'amount.decimals'],
    ['50,000', 'amount.invalid'],
    ['1.000,000', 'amount.invalid'],
    ['50.000,', 'amount.invalid'],
    ['abc', 'amount.invalid'],
    ['50 mil', 'amount.invalid'],
    ['-5000', 'amount.invalid'],
    ['5.00.000', 'amount.invalid'],
    ['50.', 'amount.invalid'],
    ['1e6', 'amount.invalid'],
  ] as const) {
    it(`refuses ${JSON.stringify(text)} with ${error}`, () => assert.deepEqual(parseAmount(text), { ok: false, error }));
  }
  it('checks the range, inclusive at both ends', () => {
    const range = { min: 1_000, max: 5_000_000 };
    assert.deepEqual(parseAmount('999', range), { ok: false, error: 'amount.below_min' });
    assert.deepEqual(parseAmount('1.000', range), { ok: true, value: 1_000 });
    assert.deepEqual(parseAmount('5.000.000', range), { ok: true, value: 5_000_000 });
    assert.deepEqual(parseAmount('5.000.001', range), { ok: false, error: 'amount.above_max' });
    assert.deepEqual(parseAmount('99999999999999999', range), { ok: false, error: 'amount.above_max' });
  });
});

describe('formatAmountInput', () => {
  for (const [text, formatted] of [
    ['', ''],
    ['5', '5'],
    ['5000', '5.000'],
    ['50000', '50.000'],
    ['1234567', '1.234.567'],
    ['$ 50.000', '50.000'],
    ['0050000', '50.000'],
    ['12a3', '123'],
    ['0', '0'],
  ] as const) {
    it(`${JSON.stringify(text)} → ${JSON.stringify(formatted)}`, () => assert.equal(formatAmountInput(text), formatted));
  }
  // A decimal part stays as typed until submit: stripping its separator made `50.000,00` read as 5.000.000.
  for (const [text, formatted] of [
    ['50.000,00', '50.000,00'],
    ['25.000,50', '25.000,50'],
    ['50000.5', '50000.5'],
    ['50.', '50.'],
    ['50.00', '50.00'],
    ['50.000', '50.000'],
    ['50.0000', '500.000'],
    ['$ 7.500,00 COP', '7.500,00'],
  ] as const) {
    it(`keeps the decimal part: ${JSON.stringify(text)} → ${JSON.stringify(formatted)}`, () => assert.equal(formatAmountInput(text), formatted));
  }
  it('never turns decimals into more pesos: what it keeps parses as typed, or is refused', () => {
    assert.deepEqual(parseAmount(formatAmountInput('50.000,00')), { ok: true, value: 50_000 });
    assert.deepEqual(parseAmount(formatAmountInput('25.000,50')), { ok: false, error: 'amount.decimals' });
    assert.deepEqual(parseAmount(formatAmountInput('50000.5')), { ok: false, error: 'amount.decimals' });
  });
  it('always formats to something parseAmount reads back', () => {
    assert.deepEqual(parseAmount(formatAmountInput('98765432')), { ok: true, value: 98_765_432 });
  });
});

describe('normalizePhone', () => {
  for (const [text, value] of [
    ['3001234567', '3001234567'],
    ['+57 300 123 4567', '3001234567'],
    ['+573001234567', '3001234567'],
    ['573001234567', '3001234567'],
    ['300-123-4567', '3001234567'],
    ['(300) 123 45 67', '3001234567'],
    ['300.123.4567', '3001234567'],
  ] as const) {
    it(`accepts ${JSON.stringify(text)}`, () => assert.deepEqual(normalizePhone(text), { ok: true, value }));
  }
  for (const [text, error] of [
    ['', 'phone_number.required'],
    [' - ', 'phone_number.required'],
    ['6012345678', 'phone_number.landline'],
    ['+57 601 234 5678', 'phone_number.landline'],
    ['604 444 5555', 'phone_number.landline'],
    ['300123456', 'phone_number.invalid'],
    ['30012345678', 'phone_number.invalid'],
    ['4001234567', 'phone_number.invalid'],
    ['+1 300 123 4567', 'phone_number.invalid'],
    ['3OO1234567', 'phone_number.invalid'],
  ] as const) {
    it(`refuses ${JSON.stringify(text)} with ${error}`, () => assert.deepEqual(normalizePhone(text), { ok: false, error }));
  }
});

describe('normalizeIdNumber', () => {
  for (const [code, text, value] of [
    ['CC', '1.020.304.050', '1020304050'],
    ['CC', '12 345 678', '12345678'],
    ['TI', '1001-234-567', '1001234567'],
    ['CE', 'e-123.456', 'E123456'],
    ['CE', 'AB1234567890', 'AB1234567890'],
    ['PA', 'xy123456', 'XY123456'],
    [undefined, '12345678', '12345678'],
  ] as const) {
    it(`accepts ${code} ${JSON.stringify(text)}`, () => assert.deepEqual(normalizeIdNumber(code, text), { ok: true, value }));
  }
  for (const [code, text, error] of [
    ['CC', '', 'id_number.required'],
    ['CC', ' . ', 'id_number.required'],
    ['CC', '12A45678', 'id_number.digits_only'],
    ['TI', '1234567X', 'id_number.digits_only'],
    ['CE', 'AB#123', 'id_number.letters_and_digits_only'],
    ['CC', '12', 'id_number.too_short'],
    ['CC', '1234567890123456', 'id_number.too_long'],
    ['CE', 'AB12345678901', 'id_number.too_long'],
  ] as const) {
    it(`refuses ${code} ${JSON.stringify(text)} with ${error}`, () => assert.deepEqual(normalizeIdNumber(code, text), { ok: false, error }));
  }
});

describe('validateOtp', () => {
  it('accepts exactly six digits, and a pasted "123 456"', () => {
    assert.deepEqual(validateOtp('123456'), { ok: true, value: '123456' });
    assert.deepEqual(validateOtp(' 123 456 '), { ok: true, value: '123456' });
    assert.deepEqual(validateOtp('123-456'), { ok: true, value: '123456' });
  });
  for (const [text, error] of [
    ['', 'otp.required'],
    ['12345', 'otp.invalid'],
    ['1234567', 'otp.invalid'],
    ['12345a', 'otp.invalid'],
    ['１２３４５６', 'otp.invalid'],
  ] as const) {
    it(`refuses ${JSON.stringify(text)} with ${error}`, () => assert.deepEqual(validateOtp(text), { ok: false, error }));
  }
  it('otpInput keeps digits only, six at most', () => assert.equal(otpInput('12-34 5678'), '123456'));
});

describe('validateEmail', () => {
  it('accepts a plain address and refuses the rest', () => {
    assert.deepEqual(validateEmail(' ana@example.co '), { ok: true, value: 'ana@example.co' });
    assert.deepEqual(validateEmail(''), { ok: false, error: 'email.required' });
    assert.deepEqual(validateEmail('ana@example'), { ok: false, error: 'email.invalid' });
    assert.deepEqual(validateEmail('ana example.co'), { ok: false, error: 'email.invalid' });
  });
});

describe('per-gateway rules', () => {
  it('amountRange spans the lowest min and the highest max', () => {
    assert.deepEqual(amountRange([gateway({ min_amount: 5_000, max_amount: 100_000 }), gateway({ min_amount: 1_000, max_amount: 50_000 })]), {
      min: 1_000,
      max: 100_000,
    });
  });
  it('neededFields: document always, phone for push, contact fields when collected', () => {
    assert.deepEqual(neededFields(push, noContact), ['id_type', 'id_number', 'phone_number']);
    assert.deepEqual(neededFields(otp, noContact), ['id_type', 'id_number']);
    assert.deepEqual(neededFields(otp, allContact), ['id_type', 'id_number', 'phone_number', 'first_name', 'last_name', 'email']);
  });
  it('neededFields: only the contact fields the link lists (what the merchant\'s record lacks)', () => {
    const asking = (...fields: ShopperContactField[]) => ({ collect_shopper_data: true, collect_shopper_fields: fields });
    assert.deepEqual(neededFields(otp, asking('phone_number')), ['id_type', 'id_number', 'phone_number']);
    assert.deepEqual(neededFields(otp, asking('email', 'first_name')), ['id_type', 'id_number', 'first_name', 'email']);
    assert.deepEqual(neededFields(otp, asking()), ['id_type', 'id_number']);
    // Nequi's push goes to a phone: the method asks for it even when the record knows the buyer's.
    assert.deepEqual(neededFields(push, asking('last_name')), ['id_type', 'id_number', 'phone_number', 'last_name']);
    assert.deepEqual(neededFields(otp, { collect_shopper_data: false, collect_shopper_fields: ['email'] }), ['id_type', 'id_number']);
    // A name this element does not know (a newer server's) is passed over; the known ones are still asked.
    assert.deepEqual(neededFields(otp, { collect_shopper_data: true, collect_shopper_fields: ['fax', 'email'] }), ['id_type', 'id_number', 'email']);
  });
  it('idTypeChoices: the gateway id_types, and CC/CE/TI only for wallet and transfer', () => {
    assert.deepEqual(idTypeChoices(push, docs).map((d) => d.type), ['CC', 'CE', 'TI', 'PA']);
    assert.deepEqual(idTypeChoices(gateway({ id_types: [1] }), docs).map((d) => d.type), ['CC']);
    assert.deepEqual(idTypeChoices(otp, docs).map((d) => d.type), ['CC', 'CE', 'TI']);
    assert.deepEqual(idTypeChoices(transfer, docs).map((d) => d.type), ['CC', 'CE', 'TI']);
  });
});

describe('validateDetails', () => {
  it('returns the normalized shopper for a push payment', () => {
    const fields = { ...emptyFields, id_type: '1', id_number: '1.020.304.050', phone_number: '+57 300 123 4567' };
    assert.deepEqual(validateDetails(push, docs, fields, noContact), {
      ok: true,
      value: { id_type: 1, id_number: '1020304050', phone_number: '3001234567' },
    });
  });
  it('reports every field at once, with its key', () => {
    const fields = { ...emptyFields, id_type: '', id_number: '', phone_number: '6012345678', email: 'x' };
    assert.deepEqual(validateDetails(push, docs, fields, allContact), {
      ok: false,
      errors: {
        id_type: 'id_type.required',
        id_number: 'id_number.required',
        phone_number: 'phone_number.landline',
        first_name: 'first_name.required',
        last_name: 'last_name.required',
        email: 'email.invalid',
      },
    });
  });
  it('refuses a document type the method does not accept', () => {
    const fields = { ...emptyFields, id_type: '4', id_number: 'XY123456' };
    assert.deepEqual(validateDetails(otp, docs, fields, noContact), { ok: false, errors: { id_type: 'id_type.not_accepted' } });
  });
  it('applies the chosen type to the number: CE takes letters, CC does not', () => {
    assert.deepEqual(validateDetails(otp, docs, { ...emptyFields, id_type: '2', id_number: 'e-98765' }, noContact), {
      ok: true,
      value: { id_type: 2, id_number: 'E98765' },
    });
    assert.deepEqual(validateDetails(otp, docs, { ...emptyFields, id_type: '1', id_number: 'E98765' }, noContact), {
      ok: false,
      errors: { id_number: 'id_number.digits_only' },
    });
  });
  it('ignores fields the method does not need', () => {
    const fields = { ...emptyFields, id_type: '1', id_number: '12345678', phone_number: 'nonsense', email: 'nonsense' };
    assert.deepEqual(validateDetails(otp, docs, fields, noContact), { ok: true, value: { id_type: 1, id_number: '12345678' } });
  });
  it('checks only the contact fields the link lists', () => {
    const fields = { ...emptyFields, id_type: '1', id_number: '12345678', phone_number: '', first_name: '', email: 'x' };
    assert.deepEqual(validateDetails(otp, docs, fields, { collect_shopper_data: true, collect_shopper_fields: ['phone_number'] }), {
      ok: false,
      errors: { phone_number: 'phone_number.required' },
    });
    assert.deepEqual(validateDetails(otp, docs, { ...fields, phone_number: '310 987 6543' }, { collect_shopper_data: true, collect_shopper_fields: ['phone_number'] }), {
      ok: true,
      value: { id_type: 1, id_number: '12345678', phone_number: '3109876543' },
    });
  });
  it('collects and trims contact fields', () => {
    const fields = { id_type: '3', id_number: '1001234567', phone_number: '3101234567', first_name: ' Ana  María ', last_name: 'Pérez', email: 'ana@example.co' };
    assert.deepEqual(validateDetails(transfer, docs, fields, allContact), {
      ok: true,
      value: { id_type: 3, id_number: '1001234567', phone_number: '3101234567', first_name: 'Ana María', last_name: 'Pérez', email: 'ana@example.co' },
    });
  });
});
