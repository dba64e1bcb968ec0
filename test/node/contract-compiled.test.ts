import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as z from 'zod/mini';
import {
  CheckoutOrderBodySchema,
  CheckoutOrderCreatedSchema,
  CheckoutOrderSchema,
  CreateOrderBodySchema,
  CreatedOrderSchema,
  OrderDetailsSchema,
  parseWith,
} from '../../src/contract/index.js';
import { compiledOnUse } from '../../src/contract/compiled.js';

/** The schemas the server parses on every create or order read through their compiled parsers (contract/compiled.ts). */
const hot = { CheckoutOrderBodySchema, CheckoutOrderCreatedSchema, CheckoutOrderSchema, CreateOrderBodySchema, CreatedOrderSchema, OrderDetailsSchema };
const compiledOf = new Map(Object.values(hot).map((schema: z.ZodMiniType) => [schema, compiledOnUse(schema)]));

const shopper = { id_number: '12345678', id_type: 1 };
const gateway = { id_payment_gateway: 2 };
const samples: Record<string, unknown[]> = {
  CheckoutOrderBodySchema: [
    { payment_gateway: gateway, shopper },
    { payment_gateway: gateway, shopper, unknown_field: 'dropped' },
    { payment_gateway: gateway, shopper: { national_id_number: '12345678', id_national_document_type: 1 } },
    { payment_gateway: gateway, shopper: { ...shopper, national_id_number: '999' } },
    { payment_gateway: gateway, shopper: { id_type: 1 } },
    { payment_gateway: { id_payment_gateway: 0 }, shopper },
    { payment_gateway: { id_payment_gateway: '2' }, shopper: { id_number: 5, id_type: 1.5 } },
    { shopper },
    [],
    null,
    'text',
  ],
  CreateOrderBodySchema: [
    { amount: 50_000, description: 'Camiseta', currency: 'COP', order_key: 'k1', payment_gateway: gateway, shopper },
    { amount: 50_000, description: 'Camiseta', currency: 'COP', order_key: 'k1', payment_gateway: gateway, shopper, redirect_link: 'https://shop.example/ok' },
    { amount: 50_000, description: 'Camiseta', currency: 'COP', order_key: 'k1', payment_gateway: gateway, shopper, redirect_link: 'javascript:alert(1)' },
    { amount: -1, description: 'Camiseta', currency: 'cop', order_key: '', payment_gateway: gateway, shopper },
    { amount: 50_000, currency: 'COP', shopper: {} },
    {},
  ],
  CreatedOrderSchema: [
    { id_order: 7, status: 'processing', id_external: 'k1', payment_gateway: { id_payment_gateway: 2 }, extra: { kept: true } },
    { id_order: 7, status: 'lost', id_external: 'k1' },
    { id_order: '7', status: 'processing' },
    {},
  ],
};

/** The plain schema's answer and the compiled one's, side by side: success, value and every problem's path and text. */
function both(name: string, input: unknown) {
  const plain = hot[name as keyof typeof hot] as z.ZodMiniType;
  const compiled = compiledOf.get(plain)!();
  const answer = (schema: z.ZodMiniType) => {
    const result = schema.safeParse(input);
    return result.success ? { value: result.data } : { issues: result.error.issues.map(({ code, path, message }) => ({ code, path, message })) };
  };
  return { plain: answer(plain), compiled: answer(compiled), problems: [parseWith(plain, input), parseWith(compiled, input)] };
}

describe('the compiled contract checks', () => {
  it('compile whole: none falls back to the walking parser', () => {
    for (const [name, schema] of Object.entries(hot)) assert.doesNotThrow(() => z.compile(schema, { strict: true }), name);
  });

  it('accept, transform and refuse exactly as the plain schemas, with the same problems', () => {
    let accepted = 0;
    let refused = 0;
    for (const [name, inputs] of Object.entries(samples)) {
      for (const input of inputs) {
        const { plain, compiled, problems } = both(name, input);
        assert.deepEqual(compiled, plain, `${name} ${JSON.stringify(input)}`);
        assert.deepEqual(problems[1], problems[0], `${name} ${JSON.stringify(input)}`);
        if ('value' in plain) accepted++;
        else refused++;
      }
    }
    assert.ok(accepted >= 5 && refused >= 10, `the samples accept ${accepted} and refuse ${refused}`);
  });

  it('are compiled once, on first use', () => {
    const schema = compiledOnUse(CreateOrderBodySchema);
    assert.equal(schema(), schema());
    assert.notEqual(schema(), CreateOrderBodySchema);
  });
});
