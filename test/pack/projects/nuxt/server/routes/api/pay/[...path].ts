// The buyer API on this server; SANDBOX_URL points it at the sandbox in the pack test.
import { createCheckoutHandler, type CheckoutHandler } from 'pay-checkout/server';

const links = { 'demo-fixed': { amount: 50_000, description: 'Camiseta talla M', storeName: 'Tienda Nuxt' } };
let handler: CheckoutHandler | undefined;

export default defineEventHandler((event) =>
  (handler ??= createCheckoutHandler({
    merchantKey: process.env.MERCHANT_KEY ?? 'mk_test_demo',
    baseUrl: `${process.env.SANDBOX_URL ?? 'http://127.0.0.1:4010'}/v1`,
    basePath: '/api/pay/v1',
    resolveLink: (hash) => links[hash as keyof typeof links] ?? null,
  }))(toWebRequest(event)),
);
