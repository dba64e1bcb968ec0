// Node runtime (the default).
import { checkoutHandler } from '../../../../lib/checkout-handler';

const handler = checkoutHandler('/api/pay/v1');
export const dynamic = 'force-dynamic';
export { handler as GET, handler as POST, handler as OPTIONS };
