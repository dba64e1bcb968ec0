// A 429 from the merchant's handler (its abuse limits) as the buyer meets it. The sandbox has no limits,
// so the 429 is injected with a fetch stub, in the handler's exact words (LIMIT_REACHED, Retry-After).
import { expect, waitUntil } from '@open-wc/testing';
import type { PayCheckout } from '../../src/index.js';
import { chooseMethod, control, fillDetails, latestOrderId, mount, resetSandbox, sandboxOrders, screenRoot, settleMs, toPush, waitForStep } from './support/checkout.js';

const limitReached = (retryAfterS: number) =>
  new Response(JSON.stringify({ code: 3017, api_code: 'LIMIT_REACHED', message: 'Too many attempts; wait before trying again.', error: true }), {
    status: 429,
    headers: { 'content-type': 'application/json', 'retry-after': String(retryAfterS) },
  });

/** Answers requests matching `pattern` with a 429 while `active()`; the rest go to the real sandbox. */
function stubLimit(pattern: RegExp, method: string, retryAfterS: number, active: () => boolean = () => true): { hits: () => number; restore: () => void } {
  const realFetch = window.fetch;
  let hits = 0;
  window.fetch = (input, init) => {
    const request = input instanceof Request ? input : new Request(String(input), init);
    if (active() && request.method === method && pattern.test(request.url)) {
      hits++;
      return Promise.resolve(limitReached(retryAfterS));
    }
    return realFetch(input, init);
  };
  return { hits: () => hits, restore: () => (window.fetch = realFetch) };
}

const liveRegion = (el: PayCheckout) => el.shadowRoot?.querySelector('[aria-live="polite"]');

/** Every text the live region says from now on, in order. */
function recordAnnouncements(el: PayCheckout): string[] {
  const said: string[] = [];
  const region = liveRegion(el);
  if (!region) throw new Error('no live region');
  new MutationObserver(() => {
    const text = region.textContent?.trim() ?? '';
    if (text) said.push(text);
  }).observe(region, { childList: true, characterData: true, subtree: true });
  return said;
}

/** The focused element, through shadow roots. */
function deepActive(): Element | null {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}

describe('<pay-checkout> when the handler limits the buyer (429)', () => {
  beforeEach(resetSandbox);

  for (const [locale, retryAfterS, sentence] of [
    ['es', 600, 'Hubo demasiados intentos. Inténtalo de nuevo en unos minutos.'],
    ['es', 30, 'Hubo demasiados intentos. Inténtalo de nuevo en un minuto.'],
    ['es', 6 * 3600, 'Hubo demasiados intentos con estos datos. Inténtalo de nuevo en unas horas o usa otro medio de pago.'],
  ] as const) {
    it(`a refused order says when to try again (${locale}, Retry-After ${retryAfterS}), once, focus kept, no order`, async () => {
      const el = await mount({ locale });
      const stub = stubLimit(/\/checkout\/links\/[^/]+\/orders$/, 'POST', retryAfterS);
      try {
        await chooseMethod(el, 'Daviplata');
        const said = recordAnnouncements(el);
        await fillDetails(el, {});
        const focused = deepActive();
        await waitUntil(() => (el.shadowRoot?.textContent ?? '').includes(sentence) || deepText(el).includes(sentence), `no "${sentence}"`, { timeout: settleMs });
        expect(stub.hits()).to.equal(1);
        // Said on the next frame; then nothing more.
        await waitUntil(() => said.includes(sentence), `never said: ${JSON.stringify(said)}`, { timeout: settleMs });
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect(said.filter((text) => text === sentence), JSON.stringify(said)).to.have.length(1);
        expect(deepActive(), 'focus stays where the buyer was').to.equal(focused);
        expect(await sandboxOrders()).to.have.length(0);
      } finally {
        stub.restore();
      }
    });
  }

  it('a waiting screen keeps its order while status checks are refused, and goes on checking', async () => {
    const el = await mount();
    let refusing = true;
    // From the start: a waiting request already on the wire would hold the next check back for its whole wait.
    const stub = stubLimit(/\/checkout\/orders\/\d+(\?|$)/, 'GET', 5, () => refusing);
    try {
      await toPush(el);
      const id = await latestOrderId();
      await waitUntil(() => stub.hits() >= 2, 'status checks were refused', { timeout: settleMs });
      expect(el.step).to.equal('push');
      await waitUntil(() => (screenRoot(el).textContent ?? '').includes('seguimos intentando'), 'the screen says it keeps checking', { timeout: settleMs });
      await control(`/orders/${id}/approve`, {});
      refusing = false;
      await waitForStep(el, 'paid');
      expect(screenRoot(el).textContent).to.include(String(id));
      expect(await sandboxOrders()).to.have.length(1);
    } finally {
      stub.restore();
    }
  });
});

/** The text of the element and its step, through shadow roots. */
function deepText(el: PayCheckout): string {
  try {
    return `${el.shadowRoot?.textContent ?? ''} ${screenRoot(el).textContent ?? ''}`;
  } catch {
    return el.shadowRoot?.textContent ?? '';
  }
}

