// A Server Component page (no "use client" here): pay-checkout/react is its own client boundary.
import { PayCheckout } from 'pay-checkout/react';

export default function Page() {
  return <PayCheckout link="demo-fixed" apiBase="/api/pay/v1" />;
}
