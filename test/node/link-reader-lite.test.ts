// The browser builds read the link answer with client/link-reader-lite.ts over shapes generated from
// the zod schemas (build/lite-link-check.ts). It must say exactly what zod says: the same link, the same ServiceError,
// the same problems, for valid answers and for thousands of broken ones.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { pageLink, readLinkAnswer } from '../../src/client/checkout-link.js';
import { linkReader } from '../../src/client/link-reader-lite.js';
import { CheckoutLinkSchema, ErrorResponseSchema } from '../../src/contract/index.js';
import { liteShape } from '../../build/lite-link-check.js';

const lite = linkReader(liteShape(CheckoutLinkSchema), liteShape(ErrorResponseSchema));

const gateway = { id_payment_gateway: 1, name: 'Nequi', kind: 'push', required_fields: ['phone_number'], id_types: [1, 2], min_amount: 1_000, max_amount: 5_000_000, icon: 'https://x/1.svg', extra: 'kept' };
const link = {
  hash: 'demo-fixed',
  store_name: 'Tienda Demo',
  description: 'Camiseta',
  amount: 50_000,
  currency: 'COP',
  status: 'active',
  expires_at: '2030-06-01T12:00:00.000Z',
  collect_shopper_data: false,
  gateways: [gateway, { ...gateway, id_payment_gateway: 2, name: 'Daviplata', kind: 'otp' }],
  document_types: [{ id_national_document_type: 1, country_code: 'CO', type: 'CC', description: 'Cédula' }],
  redirect_link: null,
};

/** What a reader makes of an answer: the link, or the error's class, status and problems. */
function outcome(read: (answer: { status: number; text: string }) => unknown, status: number, body: unknown) {
  try {
    return { ok: read({ status, text: JSON.stringify(body) ?? 'undefined' }) };
  } catch (error) {
    const e = error as { name: string; status?: number; problems?: unknown; code?: number };
    return { error: e.name, status: e.status, problems: e.problems, code: e.code };
  }
}

const paths = [
  [],
  ['hash'],
  ['amount'],
  ['currency'],
  ['status'],
  ['expires_at'],
  ['collect_shopper_data'],
  ['collect_shopper_fields'],
  ['gateways'],
  ['gateways', 0],
  ['gateways', 1, 'kind'],
  ['gateways', 0, 'id_payment_gateway'],
  ['gateways', 0, 'id_types'],
  ['gateways', 0, 'id_types', 1],
  ['gateways', 1, 'required_fields', 0],
  ['document_types', 0, 'id_national_document_type'],
  ['redirect_link'],
  ['code'],
  ['error'],
] as const;

const values = fc.oneof(
  fc.string(),
  fc.integer({ min: -3, max: 3 }),
  fc.constantFrom(-9007199254740992, 9007199254740992, 2 ** 60, 1.5),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.constantFrom(['phone_number'], ['email', 'first_name'], ['telefono'], ['phone_number', 'fax'], []),
  fc.constantFrom('push', 'cash', 'active', 'paid', 'COP', 'cop', '2025-02-29T12:00:00Z', '2024-02-29T12:00:00Z', '2025-06-01T12:00:00+05:00'),
  fc.array(fc.oneof(fc.integer({ min: 0, max: 3 }), fc.string()), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }),
);

function mutate(base: unknown, path: readonly (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const copy = structuredClone(base) as Record<string | number, unknown>;
  let at = copy;
  for (const key of path.slice(0, -1)) {
    if (typeof at[key] !== 'object' || at[key] === null) return copy;
    at = at[key] as Record<string | number, unknown>;
  }
  const last = path[path.length - 1] as string | number;
  if (value === undefined) delete at[last];
  else at[last] = value;
  return copy;
}

describe('the lite link reader says what zod says', () => {
  it('reads a valid answer to the same link', () => {
    assert.deepEqual(outcome(lite.readLinkAnswer, 200, { data: link }), outcome(readLinkAnswer, 200, { data: link }));
    assert.deepEqual(lite.readLinkAnswer({ status: 200, text: JSON.stringify({ data: link }) }), link);
  });

  it('turns an ErrorResponse into the same ServiceError', () => {
    const body = { code: 4040, api_code: 'LINK_NOT_FOUND', message: 'Not found', error: true };
    assert.deepEqual(outcome(lite.readLinkAnswer, 404, body), outcome(readLinkAnswer, 404, body));
    assert.equal(outcome(lite.readLinkAnswer, 404, body).error, 'ServiceError');
  });

  it('agrees on every broken answer fast-check makes, problems included', () => {
    fc.assert(
      fc.property(fc.constantFrom(...paths), values, fc.constantFrom(200, 404, 500), fc.boolean(), (path, value, status, asError) => {
        const base = asError ? { code: 4040, message: 'No', error: true } : { data: link };
        const body = mutate(base, asError || path.length === 0 ? path : ['data', ...path], value);
        assert.deepEqual(outcome(lite.readLinkAnswer, status, body), outcome(readLinkAnswer, status, body));
        if (!asError) assert.deepEqual(lite.pageLink(body, 'demo-fixed', Date.parse('2026-01-01T00:00:00Z')), pageLink(body, 'demo-fixed', Date.parse('2026-01-01T00:00:00Z')));
      }),
      { numRuns: 3_000 },
    );
  });

  it('answers that are not JSON are unreadable to both', () => {
    for (const text of ['', 'nope', '{"data":']) {
      const read = (r: typeof readLinkAnswer) => outcome(() => r({ status: 200, text }), 200, null);
      assert.deepEqual(read(lite.readLinkAnswer), read(readLinkAnswer));
    }
  });
});
