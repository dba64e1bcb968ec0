// The buyer API on this server; SANDBOX_URL points it at the sandbox in the pack test.
import { env } from '$env/dynamic/private';
import { createCheckoutHandler, type CheckoutHandler } from 'pay-checkout/server';

const links = { 'demo-fixed': { amount: 50_000, description: 'Camiseta talla M', storeName: 'Tienda SvelteKit' } };
let handler: CheckoutHandler | undefined;

export const checkout: CheckoutHandler = (request) =>
  (handler ??= createCheckoutHandler({
    merchantKey: env.MERCHANT_KEY ?? 'mk_test_demo',
    baseUrl: `${env.SANDBOX_URL ?? 'http://127.0.0.1:4010'}/v1`,
    basePath: '/api/pay/v1',
    resolveLink: (hash) => links[hash as keyof typeof links] ?? null,
  }))(request);
