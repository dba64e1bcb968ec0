import { expect, fixtureCleanup, waitUntil } from '@open-wc/testing';
import { PayCheckout } from '../../src/index.js';
import { defaultStatusTimings } from '../../src/element/internal/status-timings.js';
import { chooseMethod, click, control, fillDetails, heading, latestOrderId, mount, resetSandbox, sandboxOrders, screenRoot, toPush, waitForStep } from './support/checkout.js';

const key = 'pay-checkout:order:demo-fixed';
const saved = (store: Storage) => JSON.parse(store.getItem(key) ?? 'null') as Record<string, unknown> | null;
const fault = (count: number) => control('/faults', { path: '/v1/checkout/orders/*', method: 'GET', mode: 'error_5xx', count, status: 503 });
const clearFaults = () => fetch('/sandbox/faults', { method: 'DELETE' });

describe('<pay-checkout> resuming through service errors', () => {
  const timings = PayCheckout.statusTimings;
  beforeEach(resetSandbox);
  afterEach(() => {
    PayCheckout.statusTimings = timings;
  });

  it('a 5xx burst longer than its patience shows the retryable error screen, keeps the order, and retry resumes it', async () => {
    PayCheckout.statusTimings = { ...(timings ?? defaultStatusTimings), resumePatienceMs: 150 };
    const el = await mount();
    const id = await toPush(el);
    fixtureCleanup();
    await fault(100);

    const again = await mount();
    await waitForStep(again, 'error');
    await expect(again).to.be.accessible();
    expect(screenRoot(again).textContent).to.include('no está disponible');
    expect(saved(sessionStorage)).to.include({ id_order: id });
    await clearFaults();
    await click(again, 'Reintentar');
    await waitForStep(again, 'push');
    await control(`/orders/${id}/approve`, {});
    await waitForStep(again, 'paid');
    expect(screenRoot(again).textContent).to.include(String(id));
    expect(await sandboxOrders()).to.have.length(1);
  });

  it('a short 5xx burst is retried quietly on the loading screen, and the order resumes on its own', async () => {
    const el = await mount();
    const id = await toPush(el);
    fixtureCleanup();
    await fault(3);

    const again = await mount();
    const steps: string[] = [];
    const watch = setInterval(() => steps.push(again.step), 5);
    try {
      await waitForStep(again, 'push');
    } finally {
      clearInterval(watch);
    }
    expect(steps).to.not.include('error');
    expect((await control<{ remaining: number }[]>('/faults'))[0]?.remaining).to.equal(0);
    expect(saved(sessionStorage)).to.include({ id_order: id });
    expect(await sandboxOrders()).to.have.length(1);
  });

  it('back from the card page while the service answers 5xx: says so, announced, and resumes when it answers', async () => {
    const el = await mount();
    await chooseMethod(el, 'Tarjeta');
    await fillDetails(el, {});
    await waitForStep(el, 'redirect');
    await click(el, 'Ir a pagar con tarjeta');
    fixtureCleanup();
    await fault(1000);

    const again = await mount();
    const live = () => again.shadowRoot?.querySelector('[part="live-region"]')?.textContent ?? '';
    const said = 'Estamos consultando tu pago con tarjeta; el servicio no responde por ahora, seguimos intentando…';
    await waitUntil(() => heading(again) === said, 'no word on the card payment during the 5xx', { timeout: 8000, interval: 10 });
    await waitUntil(() => live().includes(said), 'not announced in the live region', { timeout: 5000, interval: 10 });
    await expect(again).to.be.accessible();
    await clearFaults();
    await waitForStep(again, 'redirect');
    expect(await sandboxOrders()).to.have.length(1);
  });

  it('ORDER_NOT_FOUND forgets the saved order, in this tab and for others, and starts fresh', async () => {
    const el = await mount();
    await toPush(el);
    fixtureCleanup();
    for (const store of [sessionStorage, localStorage]) store.setItem(key, JSON.stringify({ ...saved(store), order_token: 'not-the-token' }));

    const again = await mount();
    await waitForStep(again, 'method');
    expect(sessionStorage.getItem(key)).to.equal(null);
    expect(localStorage.getItem(key)).to.equal(null);
  });
});

describe('<pay-checkout> the same order in a new tab', () => {
  beforeEach(resetSandbox);

  it('a new tab (no sessionStorage) resumes the waiting order, then shows the receipt once approved', async () => {
    const el = await mount();
    const id = await toPush(el);
    expect(saved(localStorage)).to.include({ hash: 'demo-fixed', id_order: id });
    expect(saved(localStorage)?.saved_at).to.be.a('number');
    expect(saved(localStorage)).to.not.have.property('handed_off');
    fixtureCleanup();
    sessionStorage.clear();

    const again = await mount();
    await waitForStep(again, 'push');
    expect(await sandboxOrders()).to.have.length(1);
    await control(`/orders/${id}/approve`, {});
    await waitForStep(again, 'paid');
    expect(heading(again)).to.include('Pago exitoso');
    expect(screenRoot(again).textContent).to.include(String(id));
    // The receipt was shown: no tab resumes it again.
    expect(localStorage.getItem(key)).to.equal(null);
    expect(sessionStorage.getItem(key)).to.equal(null);
  });

  it('two tabs at once follow the same order: both show the receipt', async () => {
    const first = await mount();
    await toPush(first);
    const id = await latestOrderId();
    sessionStorage.clear();
    const second = await mount();
    await waitForStep(second, 'push');
    await control(`/orders/${id}/approve`, {});
    await waitForStep(first, 'paid');
    await waitForStep(second, 'paid');
    expect(await sandboxOrders()).to.have.length(1);
  });

  it('ignores another tab’s copy 30 minutes after the order’s deadline, and drops it', async () => {
    const el = await mount();
    await toPush(el);
    fixtureCleanup();
    sessionStorage.clear();
    const copy = saved(localStorage) ?? {};
    localStorage.setItem(key, JSON.stringify({ ...copy, expires_at: new Date(Date.now() - 31 * 60_000).toISOString() }));

    const again = await mount();
    await waitForStep(again, 'method');
    expect(localStorage.getItem(key)).to.equal(null);
    expect(await sandboxOrders()).to.have.length(1);
  });

  it('ignores another tab’s copy older than 24 hours', async () => {
    const el = await mount();
    await toPush(el);
    fixtureCleanup();
    sessionStorage.clear();
    const copy = saved(localStorage) ?? {};
    localStorage.setItem(key, JSON.stringify({ ...copy, expires_at: null, saved_at: Date.now() - 25 * 3_600_000 }));

    const again = await mount();
    await waitForStep(again, 'method');
    expect(localStorage.getItem(key)).to.equal(null);
  });
});
