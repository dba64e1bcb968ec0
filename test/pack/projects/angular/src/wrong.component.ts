// Never built into the app: `ngc -p tsconfig.wrong.json` must reject it, proving (pay-paid)'s $event is typed.
import { CUSTOM_ELEMENTS_SCHEMA, Component } from '@angular/core';
import type { PayFailedEvent } from 'pay-checkout';
import 'pay-checkout/define';

@Component({
  selector: 'app-wrong',
  schemas: [CUSTOM_ELEMENTS_SCHEMA],
  template: `<pay-checkout link="demo-fixed" (pay-paid)="failed($event)"></pay-checkout>`,
})
export class WrongComponent {
  failed(event: PayFailedEvent): void {
    console.log(event.detail.reason);
  }
}
