// README "React": the wrapper with typed event props, and React 19's own custom-element JSX typed by pay-checkout/jsx.
// The pack test opens the built page with ?api=SANDBOX/v1 and waits for both elements to show the sandbox's link.
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { PayCheckout } from 'pay-checkout/react';
import type { PayPaidEvent } from 'pay-checkout/react';
import 'pay-checkout/define';
import type { CustomElements } from 'pay-checkout/jsx';

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    interface IntrinsicElements extends CustomElements {}
  }
}

const apiBase = new URLSearchParams(location.search).get('api') ?? 'http://127.0.0.1:4010/v1';

function Checkout() {
  const [ready, setReady] = useState<string[]>([]);
  const paid = (event: PayPaidEvent) => console.log('paid', event.detail.id_order);
  return (
    <>
      <PayCheckout link="demo-fixed" apiBase={apiBase} locale="es" onPayReady={(event) => setReady((r) => [...r, `wrapper:${event.detail.link.hash}`])} onPayPaid={paid} />
      <pay-checkout link="demo-dynamic" api-base={apiBase} onpay-ready={(event) => setReady((r) => [...r, `native:${event.detail.link.hash}`])} />
      <output id="ready">{ready.sort().join(' ')}</output>
    </>
  );
}

/** Never rendered: what the types must refuse. */
export function refused() {
  return (
    <>
      {/* @ts-expect-error `link` is required */}
      <PayCheckout apiBase="/v1" />
      {/* @ts-expect-error there is no key prop: a merchant key never belongs in a page */}
      <PayCheckout link="demo-fixed" merchantKey="mk_test_demo" />
      {/* @ts-expect-error the event detail is typed: a paid event has no `link` */}
      <PayCheckout link="demo-fixed" onPayPaid={(event) => console.log(event.detail.link)} />
      {/* @ts-expect-error the native element's event detail is typed too */}
      <pay-checkout link="demo-dynamic" onpay-paid={(event) => console.log(event.detail.nothing)} />
    </>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Checkout />
  </StrictMode>,
);
