/**
 * The demo's phone simulator, every part registered by a called function: the bundler reads package.json's
 * sideEffects, which lists only the package's files, and drops modules imported only for their side effects.
 */
import { DemoBankApp } from '../../demo/phone/bank-app.js';
import { DemoPhone } from '../../demo/phone/phone-app.js';
import { DemoPushInbox } from '../../demo/phone/push-inbox.js';
import { DemoSmsInbox } from '../../demo/phone/sms-inbox.js';
import { defineOnce } from '../../demo/shared/light-element.js';

export function definePhone(): void {
  defineOnce('demo-push-inbox', DemoPushInbox);
  defineOnce('demo-sms-inbox', DemoSmsInbox);
  defineOnce('demo-bank-app', DemoBankApp);
  defineOnce('demo-phone', DemoPhone);
}
