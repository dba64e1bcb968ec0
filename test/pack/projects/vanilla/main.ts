// docs/site/merchants/index.md, "With a bundler": register the tag, listen to typed events.
import 'pay-checkout/define';
import type { PayPaidEvent } from 'pay-checkout';

const checkout = document.querySelector('pay-checkout');
if (checkout) {
  checkout.locale = 'es';
  // The pack test opens the built page with ?api=SANDBOX/v1.
  checkout.apiBase = new URLSearchParams(location.search).get('api') ?? checkout.apiBase;
  checkout.addEventListener('pay-ready', (event) => console.log(event.detail.link.store_name));
  checkout.addEventListener('pay-paid', (event: PayPaidEvent) => console.log(event.detail.id_order));
}
