import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { mount, resetSandbox, toPush, waitForStep } from './support/checkout.js';
import type { PayCheckout } from '../../src/index.js';

describe('<pay-checkout> refuses a merchant key', () => {
  beforeEach(resetSandbox);

  it('logs an error, shows a message, and never sends the key', async () => {
    const errors: unknown[][] = [];
    const realError = console.error;
    const realFetch = window.fetch;
    const sent: string[] = [];
    console.error = (...args: unknown[]) => void errors.push(args);
    window.fetch = (input, init) => {
      const headers = new Headers(input instanceof Request ? input.headers : init?.headers);
      headers.forEach((value, name) => sent.push(`${name}: ${value}`));
      sent.push(String(init?.body ?? ''), String(input instanceof Request ? input.url : input));
      return realFetch(input, init);
    };
    try {
      const el = await fixture<PayCheckout>(
        html`<pay-checkout link="demo-fixed" api-base="/v1" merchant-key="mk_test_demo"></pay-checkout>`,
      );
      el.merchantKey = 'mk_test_other';
      await waitForStep(el, 'method');
      expect(errors.length).to.be.at.least(1);
      expect(String(errors[0]?.[0])).to.include('merchant key');
      // The message comes with the whole catalog, a moment after the first screen (it is not in the first script).
      await waitUntil(() => el.shadowRoot?.querySelector('[part="config-error"]'), 'no config-error message', { timeout: 5000 });
      const message = el.shadowRoot?.querySelector('[part="config-error"]');
      expect(message?.textContent).to.include('llave secreta');
      expect(el.merchantKey).to.equal(undefined);
      await expect(el).to.be.accessible();
      await toPush(el);
      expect(sent.length).to.be.greaterThan(3);
      expect(sent.join('\n')).to.not.include('mk_test');
      expect(sent.join('\n').toLowerCase()).to.not.include('merchant-key');
    } finally {
      console.error = realError;
      window.fetch = realFetch;
    }
  });

  it('shows no such message without a key', async () => {
    const el = await mount();
    await waitForStep(el, 'method');
    expect(el.shadowRoot?.querySelector('[part="config-error"]')).to.equal(null);
  });
});
