import { expect, fixtureCleanup, waitUntil } from '@open-wc/testing';
import {
  chooseMethod,
  choose,
  control,
  mount,
  resetSandbox,
  sandboxOrders,
  screenRoot,
  toPush,
  type,
  waitForStep,
} from './support/checkout.js';

describe('<pay-checkout> nothing lost, nothing twice', () => {
  beforeEach(resetSandbox);

  it('re-creating the element mid-payment resumes the same order (one order in the sandbox)', async () => {
    const el = await mount();
    const id = await toPush(el);
    const saved = JSON.parse(sessionStorage.getItem('pay-checkout:order:demo-fixed') ?? 'null') as Record<string, unknown>;
    expect(saved).to.include({ hash: 'demo-fixed', id_order: id });
    expect(saved.order_token).to.be.a('string');
    fixtureCleanup();

    const again = await mount();
    await waitForStep(again, 'push');
    expect(await sandboxOrders()).to.have.length(1);
    await control(`/orders/${id}/approve`, {});
    await waitForStep(again, 'paid');
    expect(screenRoot(again).textContent).to.include(String(id));
    expect(await sandboxOrders()).to.have.length(1);
    // A finished order is forgotten; the receipt stays on screen.
    expect(sessionStorage.getItem('pay-checkout:order:demo-fixed')).to.equal(null);
  });

  it('a double click on Pay makes one order', async () => {
    const el = await mount();
    await chooseMethod(el, 'Nequi');
    await choose(el, 'Tipo de documento', 'CC');
    await type(el, 'Número de documento', '1020304050');
    await type(el, 'celular', '3001234567');
    const pay = screenRoot(el).querySelector<HTMLButtonElement>('button[type="submit"]');
    pay?.click();
    pay?.click();
    await el.updateComplete;
    // aria-disabled, not disabled: focus stays on the button (screen-reader.test.ts); the second click is ignored.
    expect(pay?.getAttribute('aria-disabled')).to.equal('true');
    pay?.click();
    await waitForStep(el, 'push');
    expect(await sandboxOrders()).to.have.length(1);
  });

  it('a network failure on Pay retries with the same Idempotency-Key and still makes one order', async () => {
    const el = await mount();
    await chooseMethod(el, 'Nequi');
    const keys: string[] = [];
    const realFetch = window.fetch;
    let failNext = true;
    // The sandbox cannot drop a connection after creating the order: inject exactly that.
    window.fetch = async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (url.endsWith('/orders') && init?.method === 'POST') {
        keys.push(new Headers(init.headers).get('Idempotency-Key') ?? '');
        const response = await realFetch(input, init);
        if (failNext) {
          failNext = false;
          throw new TypeError('Failed to fetch');
        }
        return response;
      }
      return realFetch(input, init);
    };
    try {
      await choose(el, 'Tipo de documento', 'CC');
      await type(el, 'Número de documento', '1020304050');
      await type(el, 'celular', '3001234567');
      screenRoot(el).querySelector<HTMLButtonElement>('button[type="submit"]')?.click();
      await waitForStep(el, 'error');
      await expect(el).to.be.accessible();
      screenRoot(el).querySelector<HTMLButtonElement>('button')?.click();
      await waitForStep(el, 'push');
      expect(keys).to.have.length(2);
      expect(keys[0]).to.equal(keys[1]);
      expect(await sandboxOrders()).to.have.length(1);
    } finally {
      window.fetch = realFetch;
    }
  });

  /** The status requests of a test, and whether the server may wait: a server without waiting requests is made by
   * dropping the query on the way (the sandbox then answers at once, as an older server would). */
  const statusUrl = /\/v1\/checkout\/orders\/\d+(\?|$)/;
  const servers = [
    ['a server that waits', (url: string) => url],
    ['a server that only answers at once', (url: string) => url.replace(/\?.*$/, '')],
  ] as const;

  for (const [server, route] of servers) {
    it(`checks no status while the page is hidden, and checks at once when it shows again (${server})`, async () => {
      const el = await mount();
      const statusCalls: AbortSignal[] = [];
      const realFetch = window.fetch;
      window.fetch = (input, init) => {
        const url = String(input instanceof Request ? input.url : input);
        if (!statusUrl.test(url)) return realFetch(input, init);
        statusCalls.push(init?.signal ?? new AbortController().signal);
        return realFetch(route(url), init);
      };
      const setVisibility = (value: 'hidden' | 'visible') => {
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => value });
        document.dispatchEvent(new Event('visibilitychange'));
      };
      try {
        await toPush(el, '3001230003');
        // Waiting: one request that stays open; polling: one check after another.
        const expected = server === 'a server that waits' ? 1 : 2;
        await waitUntil(() => statusCalls.length >= expected, 'no status check while visible', { timeout: 3000 });
        setVisibility('hidden');
        await new Promise((r) => setTimeout(r, 50));
        const before = statusCalls.length;
        expect(statusCalls.at(-1)?.aborted, 'a waiting request is aborted when the page hides').to.equal(server === 'a server that waits');
        await new Promise((r) => setTimeout(r, 600));
        expect(statusCalls.length).to.equal(before);
        setVisibility('visible');
        await waitUntil(() => statusCalls.length > before, 'no check on visibilitychange', { timeout: 200, interval: 5 });
      } finally {
        window.fetch = realFetch;
        delete (document as unknown as Record<string, unknown>).visibilityState;
      }
    });

    it(`never has two status checks in flight (${server})`, async () => {
      const el = await mount();
      let inFlight = 0;
      let most = 0;
      let calls = 0;
      const realFetch = window.fetch;
      window.fetch = async (input, init) => {
        const url = String(input instanceof Request ? input.url : input);
        if (!statusUrl.test(url)) return realFetch(input, init);
        calls += 1;
        inFlight += 1;
        most = Math.max(most, inFlight);
        try {
          await new Promise((r) => setTimeout(r, 120));
          return await realFetch(route(url), init);
        } finally {
          inFlight -= 1;
        }
      };
      try {
        await toPush(el, '3001230003');
        for (let i = 0; i < 5; i++) {
          window.dispatchEvent(new Event('online'));
          await new Promise((r) => setTimeout(r, 30));
        }
        await new Promise((r) => setTimeout(r, 400));
        expect(calls).to.be.greaterThan(0);
        expect(most).to.equal(1);
      } finally {
        window.fetch = realFetch;
      }
    });
  }
});
