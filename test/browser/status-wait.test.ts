import { expect, waitUntil } from '@open-wc/testing';
import { PayCheckout } from '../../src/index.js';
import { defaultStatusTimings } from '../../src/element/internal/status-timings.js';
import { control, latestOrderId, mount, resetSandbox, toPush, waitForStep } from './support/checkout.js';

/**
 * Instant confirmation: with the production timings (polls at 2 s growing to 10 s), the element asks the sandbox to
 * wait, so the paid status arrives as soon as the payment is confirmed, with one request open at a time.
 */
describe('<pay-checkout> waiting status requests', () => {
  const testTimings = PayCheckout.statusTimings;
  beforeEach(async () => {
    await resetSandbox();
    PayCheckout.statusTimings = defaultStatusTimings;
  });
  afterEach(() => {
    PayCheckout.statusTimings = testTimings;
  });

  it('shows the receipt as soon as the payment is confirmed, with one waiting request and no polling', async () => {
    const el = await mount();
    await expect(el).to.be.accessible();
    const requests: { url: string; done: boolean }[] = [];
    const realFetch = window.fetch;
    window.fetch = async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (!/\/v1\/checkout\/orders\/\d+(\?|$)/.test(url)) return realFetch(input, init);
      const request = { url, done: false };
      requests.push(request);
      try {
        return await realFetch(input, init);
      } finally {
        request.done = true;
      }
    };
    try {
      await toPush(el, '3001230003');
      await waitUntil(() => requests.length === 1, 'the first status request goes out at once', { timeout: 1500 });
      expect(requests[0]?.url).to.match(/\?wait=25&since=processing$/);
      // Longer than the first poll (2 s): a polling element would have asked again by now.
      await new Promise((r) => setTimeout(r, 2_500));
      expect(requests.map((r) => r.done)).to.deep.equal([false], 'one request, still waiting');
      const approvedAt = performance.now();
      await control(`/orders/${await latestOrderId()}/approve`, {});
      await waitForStep(el, 'paid', 3000);
      const delay = performance.now() - approvedAt;
      expect(delay, `receipt ${Math.round(delay)} ms after the approval`).to.be.below(1_000);
      expect(requests).to.have.length(1);
      await expect(el).to.be.accessible();
    } finally {
      window.fetch = realFetch;
    }
  });
});
