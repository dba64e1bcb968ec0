// The buyer API on this server: the merchant key stays here. SANDBOX_URL points it at the sandbox in the pack test.
import { createCheckoutHandler, type CheckoutHandler } from 'pay-checkout/server';

const links = { 'demo-fixed': { amount: 50_000, description: 'Camiseta talla M', storeName: 'Tienda Next' } };

export function checkoutHandler(basePath: string): CheckoutHandler {
  let handler: CheckoutHandler | undefined;
  // Made on the first request, not at build time, when the environment is not there yet.
  return (request) =>
    (handler ??= createCheckoutHandler({
      merchantKey: process.env.MERCHANT_KEY ?? 'mk_test_demo',
      baseUrl: `${process.env.SANDBOX_URL ?? 'http://127.0.0.1:4010'}/v1`,
      basePath,
      resolveLink: (hash) => links[hash as keyof typeof links] ?? null,
    }))(request);
}
