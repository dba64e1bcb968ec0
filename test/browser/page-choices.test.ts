// What a Colombian checkout knows (prefill), asks (Ley 1581 consent) and shows (methods in order, amount
// presets), driven as a buyer would against the real sandbox; the order the sandbox records is read from its control API.
import { expect, waitUntil } from '@open-wc/testing';
import {
  button,
  click,
  control,
  currentScreen,
  field,
  fillDetails,
  heading,
  latestOrderId,
  mountWith,
  payByTransfer,
  resetSandbox,
  sandboxOrders,
  screenRoot,
  settleMs,
  shownText,
  submit,
  type,
  waitForStep,
} from './support/checkout.js';
import { expectAccessibleInBothThemes, focusName } from './support/a11y.js';
import type { PayCheckout } from '../../src/index.js';

interface RecordedOrder {
  id_order: number;
  total: number;
  status: string;
  shopper: Record<string, unknown>;
}

const recordedOrder = async () => control<RecordedOrder>(`/orders/${await latestOrderId()}`);

/** The method buttons' names, in screen order. */
const methodNames = (el: PayCheckout) => [...screenRoot(el).querySelectorAll('button.method .name > span:first-child')].map((n) => n.textContent?.trim());

/** Waits until focus is on `name` (`button#pay`) inside the current screen. */
const focusReaches = (el: PayCheckout, name: string) => waitUntil(() => focusName(el) === name, `focus on ${focusName(el)}, not ${name}`, { timeout: settleMs });

/** Records console.warn calls until `stop()`. */
function recordWarnings(): { warnings: unknown[][]; stop: () => void } {
  const warnings: unknown[][] = [];
  const original = console.warn;
  console.warn = (...args: unknown[]) => void warnings.push(args);
  return { warnings, stop: () => (console.warn = original) };
}

describe('<pay-checkout> prefill, methods, consent and presets', () => {
  beforeEach(resetSandbox);

  it('shows only the listed methods in order; Nequi opens filled, focus on pay; the order carries the prefill', async () => {
    const el = await mountWith({ 'id-type': 'CC', 'id-number': '1020304050', phone: '3001234567', methods: 'nequi breb' });
    await waitForStep(el, 'method');
    expect(methodNames(el)).to.deep.equal(['Nequi', 'Bre-B']);
    await click(el, 'Nequi');
    await waitForStep(el, 'details');
    expect(heading(el)).to.equal('Tus datos');
    expect((field(el, 'Tipo de documento') as HTMLSelectElement).value).to.equal('1');
    expect(field(el, 'Número de documento').value).to.equal('1020304050');
    expect(field(el, 'celular').value).to.equal('3001234567');
    // Editable like typed values, and nothing is flagged.
    expect((field(el, 'celular') as HTMLInputElement).readOnly).to.equal(false);
    expect(screenRoot(el).querySelector('[aria-invalid="true"]')).to.equal(null);
    await focusReaches(el, 'button#pay');
    await expectAccessibleInBothThemes(el);
    await submit(el, 'Pagar');
    await waitForStep(el, 'push');
    const order = await recordedOrder();
    expect(order.shopper).to.include({ id_type: 1, id_number: '1020304050', phone_number: '3001234567' });
    // Nothing of the prefill is kept on the device.
    expect(JSON.stringify({ ...sessionStorage }) + JSON.stringify({ ...localStorage })).not.to.include('1020304050');
  });

  it('the shopper property prefills too, and known contact details reach the order', async () => {
    const el = await mountWith({ methods: 'transfer' });
    el.shopper = { id_type: 'ce', id_number: 'ab-12.345', phone_number: '+57 300 765 4321', email: 'ana@example.com', first_name: 'Ana', last_name: 'Gómez' };
    // One method listed: its details open at once, the loading screen's focus left to the page.
    await waitForStep(el, 'details');
    expect((field(el, 'Tipo de documento') as HTMLSelectElement).value).to.equal('2');
    expect(field(el, 'Número de documento').value).to.equal('ab-12.345');
    await submit(el, 'Pagar');
    await waitForStep(el, 'transfer');
    const order = await recordedOrder();
    expect(order.shopper).to.include({ id_type: 2, id_number: 'AB12345', phone_number: '3007654321', email: 'ana@example.com', first_name: 'Ana', last_name: 'Gómez' });
  });

  it('a prefilled value the method cannot take is shown with its error, and focus goes to it', async () => {
    const el = await mountWith({ 'id-type': 'PP', 'id-number': '12', phone: '6012345678' });
    await waitForStep(el, 'method');
    await click(el, 'Nequi');
    await waitForStep(el, 'details');
    const errorOf = (id: string) => shownText(screenRoot(el).getElementById(`${id}-error`));
    expect(errorOf('id_type')).to.equal('Este medio de pago no acepta ese tipo de documento');
    expect(errorOf('phone_number')).to.equal('Ese es un teléfono fijo; escribe un número de celular');
    expect((field(el, 'Tipo de documento') as HTMLSelectElement).value).to.equal('');
    await focusReaches(el, 'select#id_type');
    await expectAccessibleInBothThemes(el);
    expect(await sandboxOrders()).to.have.length(0);
  });

  it('methods: an unknown word is ignored with one warning; a list that leaves none shows every method', async () => {
    const { warnings, stop } = recordWarnings();
    try {
      const el = await mountWith({ methods: 'paypal card otp' });
      await waitForStep(el, 'method');
      expect(methodNames(el)).to.deep.equal(['Tarjeta', 'Daviplata']);
      const none = await mountWith({ methods: 'efecty' });
      await waitForStep(none, 'method');
      expect(methodNames(none)).to.have.length(4);
      const ours = warnings.filter((w) => String(w[0]).startsWith('<pay-checkout> methods'));
      expect(ours.map((w) => w.slice(1))).to.deep.equal([['paypal'], ['efecty']]);
    } finally {
      stop();
    }
  });

  it('privacy-url and consent="required": unchecked, no order and the reason; checked, it pays', async () => {
    const el = await mountWith({ 'privacy-url': 'https://tienda.example/privacidad', consent: 'required' });
    await waitForStep(el, 'method');
    await click(el, 'Nequi');
    await waitForStep(el, 'details');
    const box = screenRoot(el).getElementById('consent') as HTMLInputElement;
    expect(box.type).to.equal('checkbox');
    expect(box.checked).to.equal(false);
    const label = screenRoot(el).querySelector('label[for="consent"]');
    expect(shownText(label)).to.equal('Autorizo a Tienda Demo a tratar mis datos personales según su política de tratamiento de datos');
    const policy = label?.querySelector('a');
    expect(policy?.getAttribute('href')).to.equal('https://tienda.example/privacidad');
    expect(policy?.target).to.equal('_blank');
    expect(policy?.rel).to.include('noopener');
    await fillDetails(el, { phone: '3001234567' });
    await waitForStep(el, 'details');
    await focusReaches(el, 'input#consent');
    expect(shownText(screenRoot(el).getElementById('consent-error'))).to.equal('Para pagar, autoriza el tratamiento de tus datos personales');
    expect(box.getAttribute('aria-invalid')).to.equal('true');
    expect(shownText(screenRoot(el).querySelector('[part="error-summary"]'))).to.include('Revisa 1 dato');
    await expectAccessibleInBothThemes(el);
    expect(await sandboxOrders()).to.have.length(0);
    box.click();
    await el.updateComplete;
    expect(screenRoot(el).getElementById('consent-error')).to.equal(null);
    await submit(el, 'Pagar');
    await waitForStep(el, 'push');
    expect(await sandboxOrders()).to.have.length(1);
  });

  it('privacy-url alone: a notice above the pay button; an http: URL off this machine is not linked', async () => {
    const el = await mountWith({ locale: 'en', 'privacy-url': 'https://shop.example/privacy' });
    await waitForStep(el, 'method');
    await click(el, 'Nequi');
    await waitForStep(el, 'details');
    const notice = screenRoot(el).querySelector('[part="data-notice"]');
    expect(shownText(notice)).to.equal('Tienda Demo will process your personal data under its data-processing policy.');
    expect(notice?.querySelector('a')?.textContent).to.include('opens in a new tab');
    // Above the pay button, and no checkbox without consent="required".
    expect((notice?.compareDocumentPosition(button(el, 'Pay')) ?? 0) & Node.DOCUMENT_POSITION_FOLLOWING).to.not.equal(0);
    expect(screenRoot(el).getElementById('consent')).to.equal(null);
    await expectAccessibleInBothThemes(el);

    const { warnings, stop } = recordWarnings();
    try {
      const plain = await mountWith({ locale: 'en', 'privacy-url': 'http://shop.example/privacy' });
      await waitForStep(plain, 'method');
      await click(plain, 'Nequi');
      await waitForStep(plain, 'details');
      expect(screenRoot(plain).querySelector('[part="data-notice"]')).to.equal(null);
      expect(warnings.some((w) => String(w[0]).includes('privacy-url'))).to.equal(true);
    } finally {
      stop();
    }
  });

  it('a link record\'s privacy_url is linked too (the hosted page\'s way); the page\'s privacy-url wins', async () => {
    const answer = (await (await fetch('/v1/checkout/links/demo-fixed')).json()) as { data: Record<string, unknown> };
    const data = { ...answer.data, privacy_url: 'https://tienda.example/datos' };
    const el = await mountWith({}, { linkData: data });
    await waitForStep(el, 'method');
    await click(el, 'Nequi');
    await waitForStep(el, 'details');
    expect(screenRoot(el).querySelector('[part="data-notice"] a')?.getAttribute('href')).to.equal('https://tienda.example/datos');
    const page = await mountWith({ 'privacy-url': 'https://tienda.example/propia' }, { linkData: data });
    await waitForStep(page, 'method');
    await click(page, 'Nequi');
    await waitForStep(page, 'details');
    expect(screenRoot(page).querySelector('[part="data-notice"] a')?.getAttribute('href')).to.equal('https://tienda.example/propia');
  });

  it('a dynamic link with amounts pays a preset; presets no method takes are not shown', async () => {
    const el = await mountWith({ link: 'demo-dynamic', amounts: '20000 50.000 500 99000000' });
    await waitForStep(el, 'amount');
    const group = screenRoot(el).querySelector('[role="radiogroup"]');
    expect(group?.querySelector('legend')?.textContent?.trim()).to.equal('Valores sugeridos');
    const radios = [...(group?.querySelectorAll<HTMLInputElement>('input[type="radio"]') ?? [])];
    expect(radios.map((r) => shownText(r.closest('label')))).to.deep.equal(['$ 20.000', '$ 50.000']);
    await expectAccessibleInBothThemes(el);
    radios[1]?.click();
    await el.updateComplete;
    await (currentScreen(el) as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete;
    expect(field(el, 'Valor en pesos').value).to.equal('50.000');
    expect(radios[1]?.checked).to.equal(true);
    // Typing another amount leaves no preset chosen.
    await type(el, 'Valor en pesos', '20000');
    expect(radios.map((r) => r.checked)).to.deep.equal([true, false]);
    radios[1]?.click();
    await el.updateComplete;
    await submit(el, 'Continuar');
    await waitForStep(el, 'method');
    await payByTransfer(el);
    expect((await recordedOrder()).total).to.equal(50000);
  });
});
