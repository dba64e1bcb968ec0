// Every screen at 200% text on a 390 px phone, the copy of each method, what a link that
// cannot be paid says, the announced status notice, a whole SMS pasted into the code field, and the small things.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import {
  chooseMethod,
  click,
  control,
  currentScreen,
  fillDetails,
  heading,
  latestOrderId,
  mount,
  pasteText,
  receiptFacts,
  resetSandbox,
  screenRoot,
  submit,
  toPush,
  waitForStep,
  shownText,
} from './support/checkout.js';
import type { PayCheckout } from '../../src/index.js';
import type { FlowStep } from '../../src/flow/types.js';

const text = (el: PayCheckout) => (screenRoot(el).textContent ?? '').replace(/\s+/g, ' ');
const liveRegion = (el: PayCheckout) => el.shadowRoot?.querySelector('[part="live-region"]')?.textContent ?? '';

/** A 390 px wide phone column with the page's text at 200% (the root font size doubled, as browser zoom of text does). */
async function mountOnPhone(link: string, theme: 'light' | 'dark' = 'light', text = '200%', width = 390): Promise<{ el: PayCheckout; frame: HTMLElement }> {
  document.documentElement.style.fontSize = text;
  const frame = await fixture<HTMLElement>(
    html`<div style="width: ${width}px; overflow: auto"><pay-checkout link=${link} api-base="/v1" locale="es" theme=${theme}></pay-checkout></div>`,
  );
  return { el: frame.querySelector('pay-checkout') as PayCheckout, frame };
}

/** The screen fits the phone: nothing wider than the column, inside the element's shadow roots too. */
async function expectNoOverflow(el: PayCheckout, frame: HTMLElement, step: FlowStep): Promise<void> {
  await waitForStep(el, step);
  await new Promise((resolve) => requestAnimationFrame(resolve));
  const screen = currentScreen(el);
  const wide = [...(screen.shadowRoot?.querySelectorAll<HTMLElement>('*') ?? [])]
    .filter((node) => node.getBoundingClientRect().right > frame.getBoundingClientRect().right + 0.5)
    .map((node) => `${node.localName}.${node.className}`);
  expect(wide, `${step}: wider than 390 px: ${wide.join(', ')}`).to.deep.equal([]);
  expect(frame.scrollWidth, `${step}: the column scrolls sideways`).to.be.at.most(frame.clientWidth);
  await expect(el).to.be.accessible();
}

describe('<pay-checkout> on a 390 px phone at 200% text', () => {
  beforeEach(resetSandbox);
  afterEach(() => document.documentElement.style.removeProperty('font-size'));

  for (const theme of ['light', 'dark'] as const) {
    it(`never scrolls sideways, from the method screen to the receipt and "already paid" (${theme})`, async () => {
      const { el, frame } = await mountOnPhone('demo-fixed', theme);
      await expectNoOverflow(el, frame, 'method');
      await chooseMethod(el, 'Nequi');
      await expectNoOverflow(el, frame, 'details');
      await fillDetails(el, { phone: '300 123 4567' });
      await expectNoOverflow(el, frame, 'push');
      await control(`/orders/${await latestOrderId()}/approve`, {});
      await expectNoOverflow(el, frame, 'paid');
      sessionStorage.clear();
      localStorage.clear();
      const again = await mountOnPhone('demo-fixed', theme);
      await expectNoOverflow(again.el, again.frame, 'unavailable');
    });
  }

  for (const text of ['100%', '200%']) {
    it(`the receipt on a 375 px phone at ${text} text: no fact breaks inside itself (was "$ 50.0" / "00")`, async () => {
      const { el, frame } = await mountOnPhone('demo-fixed', 'light', text, 375);
      await chooseMethod(el, 'Nequi');
      await fillDetails(el, { phone: '300 123 4567' });
      await waitForStep(el, 'push');
      await control(`/orders/${await latestOrderId()}/approve`, {});
      await expectNoOverflow(el, frame, 'paid');
      const lines = (node: Element) => {
        const range = document.createRange();
        range.selectNodeContents(node);
        return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
      };
      const values = receiptFacts(el);
      const amount = values.get('Total pagado');
      expect(shownText(amount)).to.equal('$ 50.000');
      // The amount as shown (its spoken copy is a clipped 1 px box).
      expect(lines(amount?.querySelector('[aria-hidden="true"]') ?? (amount as Element)), 'the amount is on one line').to.equal(1);
      // The date may wrap once, between its day and its time, at 200% text (it took four lines before).
      const date = values.get('Fecha y hora (Colombia)') as Element;
      if (text === '100%') expect(lines(date), 'the date on one line at 100%').to.equal(1);
      else expect(lines(date), 'the date in at most two lines at 200%').to.be.at.most(2);
    });
  }

  for (const theme of ['light', 'dark'] as const) {
    it(`fits the amount, SMS code and transfer screens too (${theme})`, async () => {
      const { el, frame } = await mountOnPhone('demo-dynamic', theme);
      await expectNoOverflow(el, frame, 'amount');
      const otp = await mountOnPhone('demo-fixed', theme);
      await chooseMethod(otp.el, 'Daviplata');
      await fillDetails(otp.el, {});
      await expectNoOverflow(otp.el, otp.frame, 'otp');
      await resetSandbox();
      const transfer = await mountOnPhone('demo-fixed', theme);
      await chooseMethod(transfer.el, 'Bre-B');
      await fillDetails(transfer.el, {});
      await expectNoOverflow(transfer.el, transfer.frame, 'transfer');
    });
  }
});

describe('<pay-checkout> copy: each method, wallet and field named as the buyer knows them', () => {
  beforeEach(resetSandbox);

  it('describes each method from its kind, with the gateway’s name, in Spanish and English', async () => {
    const el = await mount();
    await waitForStep(el, 'method');
    expect(text(el)).to.include('Aprueba el pago en la app Nequi');
    expect(text(el)).to.include('Transferencia inmediata desde cualquier banco con Bre-B');
    expect(text(el)).to.include('Crédito o débito');
    expect(text(el)).to.include('Daviplata te envía por SMS');
    const en = await mount({ locale: 'en' });
    await waitForStep(en, 'method');
    expect(text(en)).to.include('Approve the payment in the Nequi app');
    expect(text(en)).to.include('Instant transfer from any bank with Bre-B');
    expect(text(en)).to.include('Credit or debit');
  });

  it('hints that the ID may carry dots, and names the wallet and its "celular" on the push screen', async () => {
    const el = await mount();
    await chooseMethod(el, 'Nequi');
    const hint = screenRoot(el).getElementById('id_number-hint')?.textContent ?? '';
    expect(hint).to.not.include('Sin puntos');
    expect(hint).to.include('con o sin puntos');
    expect(screenRoot(el).getElementById('phone_number-hint')?.textContent).to.include('Nequi');
    await fillDetails(el, { phone: '300 123 4567' });
    await waitForStep(el, 'push');
    expect(heading(el)).to.include('Nequi');
    expect(text(el)).to.include('celular');
    expect(text(el)).to.not.include('teléfono');
  });

  it('names Daviplata on the SMS code screen', async () => {
    const el = await mount();
    await chooseMethod(el, 'Daviplata');
    await fillDetails(el, {});
    await waitForStep(el, 'otp');
    expect(screenRoot(el).getElementById('code-hint')?.textContent).to.include('Daviplata');
    expect(text(el)).to.include('Daviplata te envía por SMS');
  });
});

describe('<pay-checkout> when it cannot go on', () => {
  beforeEach(resetSandbox);

  it('says so when no method takes the link’s amount', async () => {
    const created = await fetch('/v1/links', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'merchant-key': 'mk_test_demo' },
      body: JSON.stringify({ description: 'Moto', amount: 20_000_000 }),
    });
    const { data } = (await created.json()) as { data: { hash: string } };
    const el = await mount({ link: data.hash });
    await waitForStep(el, 'method');
    expect(text(el)).to.include('Ningún medio de pago de este enlace acepta $ 20.000.000');
    await expect(el).to.be.accessible();
  });

  it('shows the store and the amount of a paid link, and the way back to the store', async () => {
    const first = await mount();
    await toPush(first);
    await control(`/orders/${await latestOrderId()}/approve`, {});
    await waitForStep(first, 'paid');
    sessionStorage.clear();
    localStorage.clear();
    const el = await fixture<PayCheckout>(
      html`<pay-checkout link="demo-fixed" api-base="/v1" locale="es" store-url="https://tienda.example/carrito"></pay-checkout>`,
    );
    await waitForStep(el, 'unavailable');
    expect(text(el)).to.include('$ 50.000');
    const back = screenRoot(el).querySelector<HTMLAnchorElement>('a[part~="store-link"]');
    expect(back?.href).to.equal('https://tienda.example/carrito');
    expect(back?.textContent).to.match(/Volver a \S/);
    await expect(el).to.be.accessible();
  });

  it('offers the way back on an unknown link, and never a javascript: address', async () => {
    const el = await fixture<PayCheckout>(html`<pay-checkout link="no-such-link" api-base="/v1" store-url="https://tienda.example/"></pay-checkout>`);
    await waitForStep(el, 'unavailable');
    expect(screenRoot(el).querySelector<HTMLAnchorElement>('a[part~="store-link"]')?.textContent?.trim()).to.equal('Volver a la tienda');
    const hostile = await fixture<PayCheckout>(html`<pay-checkout link="no-such-link" api-base="/v1" store-url="javascript:alert(1)"></pay-checkout>`);
    await waitForStep(hostile, 'unavailable');
    expect(screenRoot(hostile).querySelector('a[part~="store-link"]') === null, 'a javascript: link was offered').to.equal(true);
  });

  it('announces "No pudimos consultar el estado…" on the push screen', async () => {
    const el = await mount();
    const realFetch = window.fetch;
    // The status checks, waiting (`?wait=`) or not, fail (the sandbox cannot drop a connection on demand); everything
    // else goes through. Set before the push screen, since a waiting request already open would not meet it.
    window.fetch = (input, init) =>
      /\/v1\/checkout\/orders\/\d+(\?|$)/.test(String(input instanceof Request ? input.url : input)) ? Promise.reject(new TypeError('Failed to fetch')) : realFetch(input, init);
    try {
      await toPush(el);
      await waitUntil(() => liveRegion(el).includes('No pudimos consultar el estado'), 'the notice was not announced', { timeout: 10_000 });
    } finally {
      window.fetch = realFetch;
    }
  });

  it('fills the code from a whole pasted SMS, and pays', async () => {
    const el = await mount();
    await chooseMethod(el, 'Daviplata');
    await fillDetails(el, {});
    await waitForStep(el, 'otp');
    const input = screenRoot(el).getElementById('code') as HTMLInputElement;
    pasteText(input, 'Daviplata: tu código para pagar en Tienda Demo es 123456. No lo compartas con nadie.');
    await waitForStep(el, 'paid', 10_000);
  });
});

describe('<pay-checkout> target sizes, contrast, widths and where hints sit', () => {
  beforeEach(resetSandbox);

  it('error-summary links are at least 24 px tall', async () => {
    const el = await mount();
    await chooseMethod(el, 'Nequi');
    await submit(el, 'Pagar');
    await waitUntil(() => screenRoot(el).querySelector('[part="error-summary"] a'), 'no error summary');
    for (const a of screenRoot(el).querySelectorAll<HTMLElement>('[part="error-summary"] a')) {
      expect(a.getBoundingClientRect().height).to.be.at.least(24);
    }
  });

  it('the code input is as wide as the other controls', async () => {
    const el = await mount();
    await chooseMethod(el, 'Daviplata');
    await fillDetails(el, {});
    await waitForStep(el, 'otp');
    const input = screenRoot(el).getElementById('code') as HTMLElement;
    const submitButton = [...screenRoot(el).querySelectorAll('button')].find((b) => b.textContent?.includes('Confirmar')) as HTMLElement;
    expect(input.getBoundingClientRect().width).to.be.at.least(submitButton.getBoundingClientRect().width - 1);
  });

  it('the transfer key is not a live region, and the QR text does not repeat it', async () => {
    const el = await mount();
    await chooseMethod(el, 'Bre-B');
    await fillDetails(el, {});
    await waitForStep(el, 'transfer');
    const root = screenRoot(el);
    // Booleans: chai would walk a whole DOM node to print it.
    expect(root.querySelector('output') === null, 'the key is an <output> (a live region)').to.equal(true);
    const key = (await control<{ transfer_key: string }>(`/orders/${await latestOrderId()}`)).transfer_key;
    await waitUntil(() => root.querySelector('img[part~="qr"], [part~="qr"] img'), 'no QR', { timeout: 10_000 });
    const qr = root.querySelector<HTMLImageElement>('img[part~="qr"], [part~="qr"] img');
    expect(qr?.alt).to.not.include(key);
    await expect(el).to.be.accessible();
  });

  it('secondary buttons have a border of at least 3:1 against the background, light and dark', async () => {
    for (const theme of ['light', 'dark'] as const) {
      const el = await fixture<PayCheckout>(html`<pay-checkout link="demo-dynamic" api-base="/v1" locale="es" theme=${theme}></pay-checkout>`);
      await waitForStep(el, 'amount');
      await click(el, 'Continuar'); // an error keeps the amount screen; the method screen has "Volver"
      const amount = screenRoot(el).querySelector('input') as HTMLInputElement;
      amount.value = '50000';
      amount.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
      await click(el, 'Continuar');
      await waitForStep(el, 'method');
      const back = [...screenRoot(el).querySelectorAll<HTMLElement>('button.secondary')][0] as HTMLElement;
      const base = el.shadowRoot?.querySelector('.base') as HTMLElement;
      expect(contrast(getComputedStyle(back).borderTopColor, getComputedStyle(base).backgroundColor), theme).to.be.at.least(3);
    }
  });

  it('method icons sit on a light backdrop in dark mode, so a dark brand tile (Nequi) stays visible', async () => {
    const el = await fixture<PayCheckout>(html`<pay-checkout link="demo-fixed" api-base="/v1" locale="es" theme="dark"></pay-checkout>`);
    await waitForStep(el, 'method');
    const icon = screenRoot(el).querySelector('[data-gateway="1"] img') as HTMLElement;
    const base = el.shadowRoot?.querySelector('.base') as HTMLElement;
    expect(contrast(getComputedStyle(icon).backgroundColor, 'rgb(32, 0, 32)')).to.be.at.least(3); // the sandbox's Nequi tile
    expect(contrast(getComputedStyle(icon).backgroundColor, getComputedStyle(base).backgroundColor)).to.be.at.least(3);
  });

  it('hints sit below their input on every screen', async () => {
    const el = await mount();
    await chooseMethod(el, 'Nequi');
    for (const id of ['id_number', 'phone_number']) {
      const input = screenRoot(el).getElementById(id) as HTMLElement;
      const hint = screenRoot(el).getElementById(`${id}-hint`) as HTMLElement;
      expect(hint.getBoundingClientRect().top, id).to.be.greaterThan(input.getBoundingClientRect().top);
    }
    await fillDetails(el, {});
    await resetSandbox();
    const otp = await mount();
    await chooseMethod(otp, 'Daviplata');
    await fillDetails(otp, {});
    await waitForStep(otp, 'otp');
    const code = screenRoot(otp).getElementById('code') as HTMLElement;
    expect(screenRoot(otp).getElementById('code-hint')?.getBoundingClientRect().top).to.be.greaterThan(code.getBoundingClientRect().top);
  });
});

/** WCAG contrast ratio of two computed `rgb(…)` colours. */
function contrast(a: string, b: string): number {
  const luminance = (color: string) => {
    const [r = 0, g = 0, bl = 0] = (color.match(/[\d.]+/g) ?? []).map(Number).map((v) => v / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}
