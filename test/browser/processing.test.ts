// The "processing" screen: an open order with nothing for the buyer to do (a code accepted but not yet
// confirmed). The sandbox confirms a right code at once, so the answer is rewritten here: a fault the
// sandbox cannot produce. Everything else is the real sandbox.
import { expect } from '@open-wc/testing';
import { chooseMethod, fillDetails, latestOrderId, mount, resetSandbox, sandboxOrder, submit, type, waitForStep } from './support/checkout.js';

describe('<pay-checkout> processing screen', () => {
  const realFetch = window.fetch;
  beforeEach(resetSandbox);
  afterEach(() => {
    window.fetch = realFetch;
  });

  it('shows the order as processing, is accessible, and turns into the receipt when the status check confirms it', async () => {
    window.fetch = async (input, init) => {
      const response = await realFetch(input, init);
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (!/\/checkout\/orders\/\d+\/otp$/.test(url) || !response.ok) return response;
      const body = (await response.json()) as { data: Record<string, unknown> };
      const data = { ...body.data, status: 'processing', confirmed_at: null, next_action: null };
      return new Response(JSON.stringify({ data }), { status: 200, headers: { 'Content-Type': 'application/json' } });
    };
    const el = await mount();
    await chooseMethod(el, 'Daviplata');
    await fillDetails(el, {});
    await waitForStep(el, 'otp');
    const id = await latestOrderId();
    await type(el, 'Código de 6 dígitos', (await sandboxOrder(id)).otp ?? '');
    // Hold the status checks back until the screen has been looked at.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const rewriting = window.fetch;
    window.fetch = async (input, init) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (/\/checkout\/orders\/\d+(\?|$)/.test(url)) await held;
      return rewriting(input, init);
    };
    await submit(el, 'Confirmar pago');
    await waitForStep(el, 'processing');
    await expect(el).to.be.accessible();
    release();
    await waitForStep(el, 'paid');
    expect((await sandboxOrder(id)).status).to.equal('confirmed');
  });
});
