'use client';
// A client component with every event prop; the pack test reads #events after paying.
import { useState } from 'react';
import { PayCheckout } from 'pay-checkout/react';

export function Checkout() {
  const [events, setEvents] = useState<string[]>([]);
  const seen = (name: string) => () => setEvents((list) => [...list, name]);
  return (
    <>
      <PayCheckout
        link="demo-fixed"
        apiBase="/api/pay/v1"
        onPayReady={(event) => setEvents((list) => [...list, `pay-ready:${event.detail.link.hash}`])}
        onPayOrderCreated={seen('pay-order-created')}
        onPayStatusChange={seen('pay-status-change')}
        onPayPaid={(event) => setEvents((list) => [...list, `pay-paid:${event.detail.amount}`])}
        onPayFailed={seen('pay-failed')}
        onPayCancelled={seen('pay-cancelled')}
        onPayError={seen('pay-error')}
      />
      <output id="events">{events.join(' ')}</output>
    </>
  );
}
