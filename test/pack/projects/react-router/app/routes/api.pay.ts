// A resource route (no component): the buyer API under /api/pay/v1, the merchant key on this server.
import type { ActionFunctionArgs, LoaderFunctionArgs } from 'react-router';
import { createCheckoutHandler, type CheckoutHandler } from 'pay-checkout/server';

const links = { 'demo-fixed': { amount: 50_000, description: 'Camiseta talla M', storeName: 'Tienda React Router' } };
let handler: CheckoutHandler | undefined;
const checkout = (request: Request) =>
  (handler ??= createCheckoutHandler({
    merchantKey: process.env.MERCHANT_KEY ?? 'mk_test_demo',
    baseUrl: `${process.env.SANDBOX_URL ?? 'http://127.0.0.1:4010'}/v1`,
    basePath: '/api/pay/v1',
    resolveLink: (hash) => links[hash as keyof typeof links] ?? null,
  }))(request);

export const loader = ({ request }: LoaderFunctionArgs) => checkout(request);
export const action = ({ request }: ActionFunctionArgs) => checkout(request);
