// CUSTOM_ELEMENTS_SCHEMA lets the template use <pay-checkout>; importing pay-checkout/define registers it and types
// its events (HTMLElementEventMap), so strictTemplates types `$event` in (pay-paid) as PayPaidEvent.
import { CUSTOM_ELEMENTS_SCHEMA, Component, signal } from '@angular/core';
import type { PayPaidEvent } from 'pay-checkout';
import 'pay-checkout/define';

@Component({
  selector: 'app-root',
  schemas: [CUSTOM_ELEMENTS_SCHEMA],
  template: `
    <pay-checkout link="demo-fixed" [attr.api-base]="apiBase" (pay-ready)="seen('pay-ready')" (pay-paid)="paid($event)"></pay-checkout>
    <output id="events">{{ events().join(' ') }}</output>
  `,
})
export class AppComponent {
  // The pack test opens the built app with ?api=SANDBOX/v1; a real app points it at its own server's handler.
  readonly apiBase = new URLSearchParams(location.search).get('api') ?? '/api/pay/v1';
  readonly events = signal<string[]>([]);

  seen(name: string): void {
    this.events.update((list) => [...list, name]);
  }

  paid(event: PayPaidEvent): void {
    this.seen(`pay-paid:${event.detail.amount}`);
  }
}
