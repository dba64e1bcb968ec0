// A server-rendered route with the wrapper; its event props work once the page hydrates.
import { useState } from 'react';
import { PayCheckout } from 'pay-checkout/react';

export default function Home() {
  const [events, setEvents] = useState<string[]>([]);
  return (
    <>
      <PayCheckout
        link="demo-fixed"
        apiBase="/api/pay/v1"
        onPayReady={() => setEvents((list) => [...list, 'pay-ready'])}
        onPayPaid={(event) => setEvents((list) => [...list, `pay-paid:${event.detail.amount}`])}
      />
      <output id="events">{events.join(' ')}</output>
    </>
  );
}
