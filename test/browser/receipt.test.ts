// The receipt survives a reload on this device and is no dead end: a reference, a way back to the store, a print.
import { expect, fixture, fixtureCleanup, html } from '@open-wc/testing';
import { emulateMedia, sendKeys } from '@web/test-runner-commands';
import {
  button,
  chooseMethod,
  click,
  control,
  fillDetails,
  heading,
  latestOrderId,
  mount,
  receiptFacts,
  recordEvents,
  resetSandbox,
  sandboxOrder,
  screenRoot,
  submit,
  type,
  waitForStep,
  shownText,
} from './support/checkout.js';
import { expectAccessibleInBothThemes, focusName } from './support/a11y.js';
import type { PayCheckout } from '../../src/index.js';

/** The receipt's facts, term → value. */
function facts(el: PayCheckout): Record<string, string> {
  return Object.fromEntries([...receiptFacts(el)].map(([term, dd]) => [term, shownText(dd)]));
}
const header = (el: PayCheckout) => el.shadowRoot?.querySelector('[part="header"]')?.textContent?.replace(/\s+/g, ' ') ?? '';

/** Pays `link` by transfer (the sandbox's bank pays it) and waits for the receipt. */
async function payByTransfer(el: PayCheckout, amount?: string): Promise<number> {
  if (amount !== undefined) {
    await waitForStep(el, 'amount');
    await type(el, 'Valor en pesos', amount);
    await submit(el, 'Continuar');
  }
  await chooseMethod(el, 'Bre-B');
  await fillDetails(el, {});
  await waitForStep(el, 'transfer');
  const id = await latestOrderId();
  await control(`/orders/${id}/pay`, {});
  await waitForStep(el, 'paid', 8000);
  return id;
}

/** What a receipt must say: amount paid, method, order id, the bank's reference, date and time. */
async function expectReceipt(el: PayCheckout, id: number, amount: string): Promise<void> {
  expect(heading(el)).to.equal('¡Pago exitoso!');
  const shown = facts(el);
  expect(shown).to.deep.include({
    'Total pagado': amount,
    'Medio de pago': 'Bre-B',
    'Número de orden': String(id),
    'Referencia del pago': (await sandboxOrder(id)).transfer_key ?? 'no key',
  });
  expect(shown['Fecha y hora (Colombia)']).to.match(/^\d{1,2}\/\d{1,2}\/\d{4}, \d{1,2}:\d{2}\s[ap]\.\s?m\.$/);
  expect(header(el)).to.include('Total pagado');
  expect(header(el)).not.to.include('Total a pagar');
}

describe('<pay-checkout> receipt kept on this device', () => {
  beforeEach(resetSandbox);

  it('dynamic link: after a reload the receipt comes back, not an empty amount form, and pay-paid is not sent twice', async () => {
    const el = await mount({ link: 'demo-dynamic' });
    const id = await payByTransfer(el, '75000');
    await expectReceipt(el, id, '$ 75.000');
    fixtureCleanup();
    const again = await mount({ link: 'demo-dynamic' });
    const events = recordEvents(again, ['pay-paid', 'pay-status-change', 'pay-ready']);
    await waitForStep(again, 'paid', 8000);
    await expectReceipt(again, id, '$ 75.000');
    expect(events.map((e) => e.type)).to.deep.equal(['pay-ready']);
    await expectAccessibleInBothThemes(again);
  });

  it('standard link, in a new tab (a discarded tab has no sessionStorage either): the receipt, not a bare "ya fue pagado"', async () => {
    const el = await mount();
    const id = await payByTransfer(el);
    fixtureCleanup();
    sessionStorage.clear();
    const again = await mount();
    await waitForStep(again, 'paid', 8000);
    await expectReceipt(again, id, '$ 50.000');
    // The token went with the order: only what the receipt shows is kept.
    expect(JSON.stringify({ ...localStorage })).not.to.match(/order_token|tok_/);
    expect(JSON.stringify({ ...sessionStorage })).not.to.match(/order_token/);
  });

  it('a dynamic link is paid again only on the buyer\'s word: "Hacer otro pago"', async () => {
    const el = await mount({ link: 'demo-dynamic' });
    await payByTransfer(el, '2000');
    await click(el, 'Hacer otro pago');
    await waitForStep(el, 'amount');
    fixtureCleanup();
    const again = await mount({ link: 'demo-dynamic' });
    await waitForStep(again, 'amount', 8000);
  });

  it('a kept receipt that is unreadable, not paid or older than 7 days is forgotten: the link as usual', async () => {
    const key = 'pay-checkout:receipt:demo-dynamic';
    const order = { id_order: 9, status: 'confirmed', amount: 5000, currency: 'COP', gateway: { id_payment_gateway: 9, name: 'Bre-B', kind: 'transfer' }, created_at: '2026-01-01T00:00:00Z', next_action: null };
    for (const kept of ['{not json', JSON.stringify({ saved_at: Date.now(), order: { ...order, status: 'pending' } }), JSON.stringify({ saved_at: Date.now() - 8 * 24 * 3600 * 1000, order })]) {
      localStorage.setItem(key, kept);
      const el = await mount({ link: 'demo-dynamic' });
      await waitForStep(el, 'amount', 8000);
      expect(localStorage.getItem(key)).to.equal(null);
      fixtureCleanup();
    }
  });
});

describe('<pay-checkout> receipt actions', () => {
  beforeEach(resetSandbox);

  it('back to the store (store-url), print, and Tab from the heading reaches them', async () => {
    const el = await fixture<PayCheckout>(html`<pay-checkout link="demo-fixed" api-base="/v1" locale="es" store-url="https://tienda.example/gracias"></pay-checkout>`);
    await payByTransfer(el);
    const back = button(el, 'Volver a Tienda Demo') as HTMLAnchorElement;
    expect(back.href).to.equal('https://tienda.example/gracias');
    const printed: number[] = [];
    // The receipt step's print hook (window.print would open a dialog the test cannot close).
    const Receipt = customElements.get('pay-step-receipt') as unknown as { print: () => void };
    const print = Receipt.print;
    Receipt.print = () => printed.push(1);
    try {
      await click(el, 'Imprimir o guardar en PDF');
    } finally {
      Receipt.print = print;
    }
    expect(printed).to.have.length(1);
    // On paper: the facts, not the buttons (constructed styles, so the strict CSP allows them).
    const actions = screenRoot(el).querySelector('.actions') as HTMLElement;
    if (navigator.userAgent.includes('Chrome/')) {
      await emulateMedia({ media: 'print' });
      try {
        expect(getComputedStyle(actions).display).to.equal('none');
        expect(getComputedStyle(screenRoot(el).querySelector('dl') as HTMLElement).display).to.equal('grid');
      } finally {
        await emulateMedia({ media: 'screen' });
      }
    } else {
      // Firefox's and WebKit's drivers cannot switch to print media: read the print rules the actions match.
      const printRules = [...screenRoot(el).adoptedStyleSheets]
        .flatMap((sheet) => [...sheet.cssRules])
        .filter((rule): rule is CSSMediaRule => rule instanceof CSSMediaRule && rule.media.mediaText.includes('print'))
        .flatMap((media) => [...media.cssRules] as CSSStyleRule[]);
      expect(printRules.some((rule) => actions.matches(rule.selectorText) && rule.style.display === 'none')).to.equal(true);
    }
    expect(getComputedStyle(actions).display).to.equal('flex');
    // Focus lands on the heading after payment; Tab goes on to the actions, not to <body>.
    expect(focusName(el)).to.equal('h2#');
    await sendKeys({ press: 'Tab' });
    expect(focusName(el)).to.equal('a#');
    await sendKeys({ press: 'Tab' });
    expect(focusName(el)).to.equal('button#');
    await expectAccessibleInBothThemes(el);
  });

  it('without store-url, the way back is the link\'s redirect_link; a javascript: URL is never a link', async () => {
    const created = await fetch('/v1/links', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'merchant-key': 'mk_test_demo' },
      body: JSON.stringify({ description: 'Gorra', amount: 30000, redirect_link: 'https://tienda.example/pedido/7' }),
    });
    const { data } = (await created.json()) as { data: { hash: string } };
    const el = await mount({ link: data.hash });
    await payByTransfer(el);
    expect((button(el, 'Volver a Tienda Demo') as HTMLAnchorElement).href).to.equal('https://tienda.example/pedido/7');
    el.storeUrl = 'javascript:alert(1)';
    await el.updateComplete;
    await waitForStep(el, 'paid');
    expect(screenRoot(el).querySelector('a')).to.equal(null);
  });

  it('in English: the same receipt, its own words', async () => {
    const el = await mount();
    const id = await payByTransfer(el);
    fixtureCleanup();
    const en = await mount({ locale: 'en' });
    await waitForStep(en, 'paid', 8000);
    expect(heading(en)).to.equal('Payment successful!');
    const shown = facts(en);
    expect(shown).to.deep.include({ 'Total paid': 'COP 50,000', 'Payment method': 'Bre-B', 'Order number': String(id) });
    expect(Object.keys(shown)).to.include.members(['Payment reference', 'Date and time (Colombia)']);
    expect(button(en, 'Print or save as PDF').localName).to.equal('button');
    expect(header(en)).to.include('Total paid');
    await expectAccessibleInBothThemes(en);
  });
});
