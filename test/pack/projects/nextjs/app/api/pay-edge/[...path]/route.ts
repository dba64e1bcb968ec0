import { checkoutHandler } from '../../../../lib/checkout-handler';

const handler = checkoutHandler('/api/pay-edge/v1');
export const runtime = 'edge';
export const dynamic = 'force-dynamic';
export { handler as GET, handler as POST, handler as OPTIONS };
