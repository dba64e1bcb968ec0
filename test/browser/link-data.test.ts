// A page rendered on a merchant's server hands <pay-checkout> the link answer it fetched
// (`linkData`, or a JSON script child), so the element makes no link request; a foreign, stale or broken answer is
// refused and the element asks the service. Requests are read from the page's resource timing, nothing is stubbed.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { heading, resetSandbox, waitForStep } from './support/checkout.js';
import type { PayCheckout } from '../../src/index.js';

const linkUrl = (hash: string) => `/v1/checkout/links/${hash}`;
/** Link requests the page made since `since` (performance.now()). */
const linkRequests = (hash: string, since: number) =>
  performance.getEntriesByType('resource').filter((entry) => entry.name.endsWith(linkUrl(hash)) && entry.startTime >= since).length;

async function answerOf(hash: string): Promise<{ data: Record<string, unknown> }> {
  // Not kept in the memory cache, so the element's own request (if any) goes out and is timed (WebKit times no cache hit).
  return (await (await fetch(linkUrl(hash), { cache: 'no-store' })).json()) as { data: Record<string, unknown> };
}

describe('<pay-checkout> with the link answer from the page', () => {
  beforeEach(async () => {
    // The page loads its test modules one by one: WebKit's timing buffer (150 entries) is full long before these.
    performance.clearResourceTimings();
    await resetSandbox();
  });

  it('uses a valid `linkData` and makes no link request', async () => {
    const answer = await answerOf('demo-fixed');
    const since = performance.now();
    const el = await fixture<PayCheckout>(html`<pay-checkout link="demo-fixed" api-base="/v1" locale="es" .linkData=${answer}></pay-checkout>`);
    await waitForStep(el, 'method');
    expect(heading(el)).to.equal('Elige cómo pagar');
    expect(linkRequests('demo-fixed', since)).to.equal(0);
  });

  it('uses a JSON script child the same way', async () => {
    const answer = await answerOf('demo-dynamic');
    const since = performance.now();
    const holder = await fixture<HTMLElement>(html`<div></div>`);
    // As a server writes it: an inert data script inside the element, before any script runs.
    holder.innerHTML = `<pay-checkout link="demo-dynamic" api-base="/v1" locale="es"><script type="application/json">${JSON.stringify(answer).replace(/</g, '\\u003c')}</script></pay-checkout>`;
    const el = holder.querySelector('pay-checkout') as PayCheckout;
    await waitForStep(el, 'amount');
    expect(linkRequests('demo-dynamic', since)).to.equal(0);
  });

  for (const [why, change] of [
    ['another link’s answer', (data: Record<string, unknown>) => ({ ...data, hash: 'demo-dynamic' })],
    ['an expired answer', (data: Record<string, unknown>) => ({ ...data, expires_at: '2020-01-01T00:00:00.000Z' })],
    ['an answer that breaks the contract', (data: Record<string, unknown>) => ({ ...data, amount: 'cincuenta mil' })],
  ] as const) {
    it(`refuses ${why} and asks the service`, async () => {
      const answer = await answerOf('demo-fixed');
      const since = performance.now();
      const el = await fixture<PayCheckout>(html`<pay-checkout link="demo-fixed" api-base="/v1" locale="es" .linkData=${{ data: change(answer.data) }}></pay-checkout>`);
      await waitForStep(el, 'method');
      // A resource's timing entry may land a moment after its answer was read.
      await waitUntil(() => linkRequests('demo-fixed', since) > 0, 'no link request', { timeout: 5_000 });
      expect(linkRequests('demo-fixed', since)).to.equal(1);
      // What shows is the service's answer, not the page's.
      expect(el.shadowRoot?.textContent).to.include('50.000');
    });
  }
});
