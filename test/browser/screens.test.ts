import { expect, fixture, html } from '@open-wc/testing';
import { control, heading, mount, recordEvents, resetSandbox, screenRoot, toPush, latestOrderId, waitForStep } from './support/checkout.js';
import type { PayCheckout } from '../../src/index.js';

describe('<pay-checkout> screens that are not a payment', () => {
  beforeEach(resetSandbox);

  it('shows "not found" for an unknown link', async () => {
    const el = await mount({ link: 'no-such-link' });
    await waitForStep(el, 'unavailable');
    expect(heading(el)).to.equal('No encontramos este enlace de pago');
    await expect(el).to.be.accessible();
  });

  it('shows "already paid" for a paid link', async () => {
    const first = await mount();
    await toPush(first);
    await control(`/orders/${await latestOrderId()}/approve`, {});
    await waitForStep(first, 'paid');
    // This device keeps the receipt; another device has none, and sees the link is paid.
    const same = await mount();
    await waitForStep(same, 'paid');
    localStorage.clear();
    const el = await mount();
    await waitForStep(el, 'unavailable');
    expect(heading(el)).to.equal('Este enlace ya fue pagado');
    await expect(el).to.be.accessible();
  });

  it('shows "expired" for an expired link', async () => {
    const created = await fetch('/v1/links', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'merchant-key': 'mk_test_demo' },
      body: JSON.stringify({ description: 'Vence pronto', amount: 20000, ttl_minutes: 1 }),
    });
    expect(created.ok, await created.clone().text()).to.equal(true);
    const { data } = (await created.json()) as { data: { hash: string } };
    await control('/clock', { advance_ms: 2 * 60 * 1000 });
    const el = await mount({ link: data.hash });
    await waitForStep(el, 'unavailable');
    expect(heading(el)).to.equal('Este enlace de pago venció');
    await expect(el).to.be.accessible();
  });

  it('shows the loading screen first, accessibly', async () => {
    const el = await fixture<PayCheckout>(html`<pay-checkout link="demo-fixed" api-base="/v1"></pay-checkout>`);
    expect(el.step).to.equal('loading');
    expect(heading(el)).to.equal('Cargando el pago…');
    await expect(el).to.be.accessible();
  });

  it('shows the error screen when the service cannot be reached, fires pay-error once, and retries', async () => {
    const realFetch = window.fetch;
    let down = true;
    window.fetch = (input, init) => (down ? Promise.reject(new TypeError('Failed to fetch')) : realFetch(input, init));
    try {
      const el = await fixture<PayCheckout>(html`<pay-checkout api-base="/v1" link="demo-fixed"></pay-checkout>`);
      const events = recordEvents(el, ['pay-error']);
      await waitForStep(el, 'error');
      expect(heading(el)).to.equal('Algo salió mal');
      expect(screenRoot(el).textContent).to.include('Revisa tu conexión');
      await expect(el).to.be.accessible();
      down = false;
      screenRoot(el).querySelector<HTMLButtonElement>('button')?.click();
      await waitForStep(el, 'method');
      // The listener was added after the first failure may have fired; count only what it saw, and the kind.
      expect(events.length).to.be.at.most(1);
      for (const e of events) expect(e.detail.kind).to.equal('network');
    } finally {
      window.fetch = realFetch;
    }
  });

  it('shows the error screen, not a half-drawn checkout, when the link answer breaks the contract', async () => {
    // A proxy that mangles the answer: a fault the sandbox cannot produce. The link chunk still validates it.
    const realFetch = window.fetch;
    let mangle = true;
    window.fetch = async (input, init) => {
      const response = await realFetch(input, init);
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (!mangle || !/\/checkout\/links\//.test(url)) return response;
      const body = (await response.json()) as { data: { gateways: Record<string, unknown>[] } };
      body.data.gateways = body.data.gateways.map((gateway) => ({ ...gateway, kind: 'crypto' }));
      return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
    };
    // On the document before the element exists, so the one pay-error cannot slip past.
    const events: CustomEvent[] = [];
    const listener = (e: Event) => events.push(e as CustomEvent);
    document.addEventListener('pay-error', listener);
    try {
      const el = await fixture<PayCheckout>(html`<pay-checkout api-base="/v1" link="demo-fixed"></pay-checkout>`);
      await waitForStep(el, 'error');
      expect(heading(el)).to.equal('Algo salió mal');
      expect(screenRoot(el).textContent).to.include('El servicio de pagos respondió algo que no entendimos');
      await expect(el).to.be.accessible();
      // The developer's line names where the answer broke the contract; the buyer's screen does not.
      expect(events).to.have.length(1);
      expect(events[0]?.detail.kind).to.equal('invalid_response');
      expect(events[0]?.detail.message).to.include('does not match the contract: data.gateways.0.kind invalid value');
      expect(screenRoot(el).textContent).to.not.include('gateways');
      mangle = false;
      screenRoot(el).querySelector<HTMLButtonElement>('button')?.click();
      await waitForStep(el, 'method');
    } finally {
      window.fetch = realFetch;
      document.removeEventListener('pay-error', listener);
    }
  });

  it('fires pay-error exactly once with its detail', async () => {
    const realFetch = window.fetch;
    window.fetch = () => Promise.reject(new TypeError('Failed to fetch'));
    const seen: CustomEvent[] = [];
    const listener = (e: Event) => seen.push(e as CustomEvent);
    document.addEventListener('pay-error', listener);
    try {
      const el = await fixture<PayCheckout>(html`<pay-checkout api-base="/v1" link="demo-fixed"></pay-checkout>`);
      await waitForStep(el, 'error');
      await new Promise((r) => setTimeout(r, 100));
      expect(seen).to.have.length(1);
      expect(seen[0]?.detail).to.include({ kind: 'network' });
      expect(seen[0]?.detail.message).to.be.a('string');
    } finally {
      window.fetch = realFetch;
      document.removeEventListener('pay-error', listener);
    }
  });
});
