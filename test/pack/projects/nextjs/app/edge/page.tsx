// The same Server Component page, against the handler on the edge runtime.
import { PayCheckout } from 'pay-checkout/react';

export default function Page() {
  return <PayCheckout link="demo-fixed" apiBase="/api/pay-edge/v1" />;
}
