// The card hand-off URL is followed only when it is https (or http on loopback): an answer whose `next_action.url` is
// `javascript:` or `data:` (an http api-base, a proxy, a compromised service) is a fault the sandbox cannot produce, so
// the answers are rewritten here. Everything else is the real sandbox.
import { expect, fixtureCleanup } from '@open-wc/testing';
import { button, chooseMethod, fillDetails, mount, navigations, recordEvents, resetSandbox, screenRoot, waitForStep } from './support/checkout.js';

const hostile = ['javascript:window.__payRan=1', 'data:text/html,<script>parent.__payRan=1</script>', 'http://evil.example/card', '/sandbox/card/x'];

/** Rewrites `next_action` of every order answer (create and status) into a redirect to `url`. */
function rewriteRedirects(realFetch: typeof fetch, url: string): typeof fetch {
  return async (input, init) => {
    const response = await realFetch(input, init);
    const target = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!/\/checkout\/(links\/[^/]+\/orders|orders\/\d+)(\?|$)/.test(target) || !response.ok) return response;
    const body = (await response.json()) as { data: Record<string, unknown> };
    const data = { ...body.data, next_action: { type: 'redirect', url } };
    return new Response(JSON.stringify({ data }), { status: response.status, headers: { 'Content-Type': 'application/json' } });
  };
}

describe('<pay-checkout> card hand-off URL', () => {
  const realFetch = window.fetch;
  const ran = () => (window as unknown as { __payRan?: number }).__payRan;
  beforeEach(resetSandbox);
  afterEach(() => {
    window.fetch = realFetch;
  });

  for (const url of hostile) {
    it(`never navigates to ${url.slice(0, 24)}…: the error screen with pay-error`, async () => {
      window.fetch = rewriteRedirects(realFetch, url);
      const el = await mount();
      const errors = recordEvents(el, ['pay-error']);
      await chooseMethod(el, 'Tarjeta');
      await fillDetails(el, {});
      await waitForStep(el, 'error');
      await expect(el).to.be.accessible();
      expect(errors).to.have.length(1);
      expect(errors[0]?.detail.kind).to.equal('invalid_response');
      expect(String(errors[0]?.detail.message)).to.contain('next_action');
      expect(navigations).to.deep.equal([]);
      expect(screenRoot(el).querySelector('a[href^="javascript:"], a[href^="data:"]')).to.equal(null);
      expect(ran()).to.equal(undefined);
    });
  }

  it('a resumed order (the return from the card page) whose URL turned hostile never navigates either', async () => {
    const el = await mount();
    await chooseMethod(el, 'Tarjeta');
    await fillDetails(el, {});
    await waitForStep(el, 'redirect');
    expect((button(el, 'Ir a pagar con tarjeta') as HTMLAnchorElement).href).to.match(/^http:\/\/(127\.0\.0\.1|localhost)/);
    // The buyer reloads; the service now answers with a javascript: URL.
    fixtureCleanup();
    window.fetch = rewriteRedirects(realFetch, hostile[0] ?? '');
    const back = await mount();
    const errors = recordEvents(back, ['pay-error']);
    // An unreadable answer on resume is retried quietly for the resume patience (10 s), then the error screen.
    await waitForStep(back, 'error', 30_000);
    expect(errors).to.have.length(1);
    expect(navigations).to.deep.equal([]);
    expect(ran()).to.equal(undefined);
  });
});
