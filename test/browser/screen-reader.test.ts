// Each flow as a screen-reader user meets it. After every action: where focus is (role, name, description),
// every live-region message in order (none twice, none left for the next screen), money said as pesos and the phone
// by its last digits. Chromium: its accessibility tree (CDP); Firefox and WebKit: what their DOM exposes
// (support/screen-reader.ts says why).
import { expect, fixtureCleanup, waitUntil } from '@open-wc/testing';
import {
  button,
  choose,
  chooseMethod,
  currentScreen,
  control,
  field,
  latestOrderId,
  mount,
  mountWith,
  navigations,
  pressKey,
  resetSandbox,
  sandboxOrder,
  type SandboxOrder,
  screenRoot,
  settleMs,
  type,
  typeKeys,
  waitForStep,
} from './support/checkout.js';
import { expectFocus, liveNow, recordLive, saidText } from './support/screen-reader.js';
import { PayCheckout } from '../../src/index.js';

/** Presses Enter on a control, as a keyboard user who reached it. */
async function enterOn(target: HTMLElement): Promise<void> {
  target.focus();
  await pressKey('Enter');
}

/** The messages given since the last take, once at least `count` arrived. */
async function said(log: ReturnType<typeof recordLive>, count: number): Promise<string[]> {
  const seen: string[] = [];
  await waitUntil(
    () => {
      seen.push(...log.take());
      return seen.length >= count;
    },
    `expected ${count} live messages, got ${JSON.stringify(seen)}`,
    { timeout: settleMs },
  );
  // Anything more arriving right after is part of the same action.
  await new Promise((r) => setTimeout(r, 300));
  seen.push(...log.take());
  return seen;
}

/** The next request to `path` answers 1.5 s late. */
const slowNext = (path: string, method: string) => control('/faults', { path, method, mode: 'latency', latency_ms: 1500, count: 1 });

/** The screen changed: focus on its heading, nothing left in the live region. */
async function newScreen(el: PayCheckout, headingName: string): Promise<void> {
  await waitUntil(() => screenRoot(el).activeElement?.localName === 'h2', `focus never reached the heading "${headingName}"`, { timeout: settleMs });
  await expectFocus({ role: 'heading', name: headingName });
}

/** Everything the whole checkout says in browse mode. */
const browseText = (el: PayCheckout) => saidText(el.shadowRoot?.querySelector('section') ?? el).replace(/ ([:.,])/g, '$1');

const occurrences = (text: string, part: string) => text.split(part).length - 1;

describe('<pay-checkout> heard with a screen reader', () => {
  beforeEach(resetSandbox);

  it('dynamic amount → Nequi → approval → receipt', async () => {
    const el = await mount({ link: 'demo-dynamic' });
    const log = recordLive(el);
    await waitForStep(el, 'amount');
    // The spoken words come with the whole catalog, a moment after the first screen is painted.
    await waitUntil(() => saidText(currentScreen(el)).includes('1.000 pesos'), 'amounts never said as pesos', { timeout: settleMs });
    const amount = field(el, 'Valor en pesos') as HTMLInputElement;
    amount.focus();
    await expectFocus({ role: 'textbox', name: 'Valor en pesos', description: 'Entre 1.000 pesos y 10.000.000 pesos' });

    await typeKeys('500');
    await pressKey('Enter');
    expect(await said(log, 1)).to.deep.equal(['El valor mínimo es 1.000 pesos']);
    await expectFocus({
      role: 'textbox',
      name: 'Valor en pesos',
      description: 'Error: El valor mínimo es 1.000 pesos Entre 1.000 pesos y 10.000.000 pesos',
    });
    await expect(el).to.be.accessible();

    amount.select();
    await typeKeys('50000');
    await pressKey('Enter');
    await waitForStep(el, 'method');
    await newScreen(el, 'Elige cómo pagar');
    expect(await liveNow(el), 'the amount error left behind').to.equal('');
    expect(browseText(el)).to.include('Total a pagar 50.000 pesos').and.not.include('$');

    const nequi = button(el, 'Nequi');
    nequi.focus();
    await expectFocus({ role: 'button', name: 'Nequi', description: 'Aprueba el pago en la app Nequi' });
    await pressKey('Enter');
    await waitForStep(el, 'details');
    await newScreen(el, 'Tus datos');
    expect(browseText(el)).to.include('Medio de pago: Nequi');

    button(el, 'Pagar').focus();
    await expectFocus({ role: 'button', name: 'Pagar 50.000 pesos' });
    await pressKey('Enter');
    expect(await said(log, 1)).to.deep.equal([
      'Revisa 3 datos: Elige el tipo de documento. Escribe tu número de documento. Escribe tu número de celular',
    ]);
    await expectFocus({ role: 'combobox', name: 'Tipo de documento', description: 'Error: Elige el tipo de documento' });
    // The summary's list is not labelled by its heading: each error once.
    expect(occurrences(saidText(currentScreen(el)), 'Revisa 3 datos')).to.equal(1);
    await expect(el).to.be.accessible();

    await choose(el, 'Tipo de documento', 'CC');
    await type(el, 'Número de documento', '1020304050');
    await type(el, 'celular', '300 123 4567');
    // A slow answer (the sandbox's latency fault), so the wait itself can be heard.
    await slowNext('/v1/checkout/links/*/orders', 'POST');
    await enterOn(button(el, 'Pagar'));
    expect(await said(log, 1)).to.deep.equal(['Creando tu pago…']);
    // Focus stays on the pressed button while the order is made (aria-disabled, never `disabled`).
    await expectFocus({ role: 'button', name: 'Creando tu pago…' });
    await waitForStep(el, 'push');
    await newScreen(el, 'Acepta el pago en la app Nequi');
    expect(await said(log, 1)).to.deep.equal(['Tienes 5 minutos para pagar']);
    const push = browseText(el);
    expect(push).to.include('Enviamos la notificación al celular terminado en 4567').and.not.include('*');
    expect(push).to.match(/Tiempo restante: [45] minutos( y \d+ segundos)?/);
    await expect(el).to.be.accessible();

    await control(`/orders/${await latestOrderId()}/approve`, {});
    await waitForStep(el, 'paid');
    await newScreen(el, '¡Pago exitoso!');
    expect(await liveNow(el), 'a waiting screen\'s message left on the receipt').to.equal('');
    const receipt = browseText(el);
    expect(occurrences(receipt, 'Total pagado'), receipt).to.equal(1);
    expect(receipt).to.include('Total pagado 50.000 pesos').and.not.include('$');
    await expect(el).to.be.accessible();
    expect(log.take(), 'said after the approval').to.deep.equal([]);
  });

  it('Daviplata: a wrong code, a new code, then the right one', async () => {
    const el = await mount();
    const log = recordLive(el);
    await chooseMethod(el, 'Daviplata');
    await choose(el, 'Tipo de documento', 'CC');
    await type(el, 'Número de documento', '1020304050');
    await enterOn(button(el, 'Pagar'));
    await waitForStep(el, 'otp');
    await newScreen(el, 'Ingresa el código');
    expect(await said(log, 2)).to.deep.equal(['Creando tu pago…', 'Tienes 5 minutos para pagar']);

    const code = field(el, 'Código') as HTMLInputElement;
    code.focus();
    await expectFocus({ role: 'textbox', name: 'Código de 6 dígitos', description: 'Llega por SMS al celular registrado en Daviplata Te quedan 3 intentos' });
    await typeKeys('999999');
    await pressKey('Enter');
    expect(await said(log, 1)).to.deep.equal(['El código no es correcto o ya venció. Te quedan 2 intentos']);
    // The error first, then the hint (GOV.UK's order).
    await expectFocus({
      role: 'textbox',
      name: 'Código de 6 dígitos',
      description: 'Error: El código no es correcto o ya venció Llega por SMS al celular registrado en Daviplata Te quedan 2 intentos',
    });
    await expect(el).to.be.accessible();

    const first = await latestOrderId();
    await slowNext('/v1/checkout/orders/*/cancel', 'POST');
    await enterOn(button(el, 'Enviar un código nuevo'));
    // On the pressed button while the old order is cancelled and the new one made.
    await expectFocus({ role: 'button', name: 'Enviar un código nuevo' });
    await waitUntil(async () => (await latestOrderId()) !== first, 'no new order', { timeout: settleMs });
    await newScreen(el, 'Ingresa el código');
    // The new code's own time to pay, and the code on its way.
    expect(await said(log, 2)).to.deep.equal(['Tienes 5 minutos para pagar', 'Te enviamos un código nuevo por SMS']);

    const otp = (await sandboxOrder(await latestOrderId())).otp ?? '123456';
    const again = field(el, 'Código') as HTMLInputElement;
    again.focus();
    await typeKeys(otp);
    await pressKey('Enter');
    await waitForStep(el, 'paid');
    await newScreen(el, '¡Pago exitoso!');
    expect(await liveNow(el)).to.equal('');
    expect(log.take(), 'said after the right code').to.deep.equal([]);
    expect(log.all.filter((m, i) => m !== 'Tienes 5 minutos para pagar' && log.all.indexOf(m) !== i), 'a message heard twice').to.deep.equal([]);
  });

  for (const allowed of [true, false]) {
    it(`Bre-B: copying the key ${allowed ? 'allowed' : 'refused'}`, async () => {
      const el = await mount();
      const log = recordLive(el);
      await chooseMethod(el, 'Bre-B');
      await choose(el, 'Tipo de documento', 'CC');
      await type(el, 'Número de documento', '1020304050');
      await enterOn(button(el, 'Pagar'));
      await waitForStep(el, 'transfer');
      await newScreen(el, 'Paga con Bre-B');
      expect(await said(log, 2)).to.deep.equal(['Creando tu pago…', 'Tienes 15 minutos para pagar']);
      expect(browseText(el)).to.match(/Tiempo restante: 1[45] minutos( y \d+ segundos)?/);

      // The clipboard is the browser's, not the sandbox's: stubbed to answer each way.
      const clipboard = Object.getOwnPropertyDescriptor(Navigator.prototype, 'clipboard');
      const copied: string[] = [];
      Object.defineProperty(navigator, 'clipboard', {
        configurable: true,
        value: { writeText: async (text: string) => (allowed ? void copied.push(text) : Promise.reject(new DOMException('denied', 'NotAllowedError'))) },
      });
      try {
        const copy = button(el, 'Copiar llave');
        await enterOn(copy);
        const result = allowed ? 'Llave copiada' : 'No se pudo copiar. Dejamos la llave seleccionada: cópiala tú';
        expect(await said(log, 1)).to.deep.equal([result]);
        // The button keeps its name; the result describes it.
        await expectFocus({ role: 'button', name: 'Copiar llave', description: result });
        const key = (await sandboxOrder(await latestOrderId())).transfer_key ?? '';
        if (allowed) expect(copied).to.deep.equal([key]);
        else expect(String(getSelection()).trim()).to.equal(key);
        await expect(el).to.be.accessible();
      } finally {
        delete (navigator as { clipboard?: unknown }).clipboard;
        if (clipboard && !('clipboard' in navigator)) Object.defineProperty(Navigator.prototype, 'clipboard', clipboard);
      }
      await control(`/orders/${await latestOrderId()}/pay`, {});
      await waitForStep(el, 'paid');
      await newScreen(el, '¡Pago exitoso!');
      expect(await liveNow(el)).to.equal('');
    });
  }

  for (const paid of [true, false]) {
    it(`card: hand-off and return ${paid ? 'paid' : 'unpaid'}: the outcome said once`, async () => {
      const el = await mount();
      await chooseMethod(el, 'Tarjeta');
      await choose(el, 'Tipo de documento', 'CC');
      await type(el, 'Número de documento', '1020304050');
      await enterOn(button(el, 'Pagar'));
      await waitForStep(el, 'redirect');
      await newScreen(el, 'Paga con tarjeta');
      await enterOn(button(el, 'Ir a pagar con tarjeta'));
      expect(navigations).to.have.length(1);
      if (paid) {
        const url = new URL(navigations[0] ?? '', location.href).pathname;
        await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ card_number: '4242 4242 4242 4242' }), redirect: 'manual' });
      }
      // Back from the provider's page: a new page, a new element.
      fixtureCleanup();
      const back = await mount();
      const log = recordLive(back);
      if (paid) {
        await waitForStep(back, 'paid');
        await newScreen(back, '¡Pago exitoso!');
        await new Promise((r) => setTimeout(r, 500));
        expect(log.all, 'the heading says it; the live region does not repeat it').to.deep.equal([]);
      } else {
        await waitForStep(back, 'redirect');
        await newScreen(back, 'Paga con tarjeta');
        expect(await said(log, 1)).to.deep.equal([
          'Aún no vemos tu pago con tarjeta. Si no lo terminaste, vuelve a la página de la tarjeta, elige otro medio de pago o cancela.',
        ]);
        await new Promise((r) => setTimeout(r, 500));
        expect(log.take(), 'said once').to.deep.equal([]);
        await expect(back).to.be.accessible();
      }
    });
  }

  it('Nequi: "Cambiar número" keeps focus while the order is cancelled, then the phone field', async () => {
    const el = await mount();
    await chooseMethod(el, 'Nequi');
    await choose(el, 'Tipo de documento', 'CC');
    await type(el, 'Número de documento', '1020304050');
    await type(el, 'celular', '3001234567');
    await enterOn(button(el, 'Pagar'));
    await waitForStep(el, 'push');
    await newScreen(el, 'Acepta el pago en la app Nequi');
    await slowNext('/v1/checkout/orders/*/cancel', 'POST');
    await enterOn(button(el, 'Cambiar número'));
    await expectFocus({ role: 'button', name: 'Cambiar número' });
    await waitForStep(el, 'details');
    await waitUntil(() => screenRoot(el).activeElement?.id === 'phone_number', 'focus never reached the phone field', { timeout: settleMs });
    await expectFocus({ role: 'textbox', name: 'Número de celular', description: 'El celular registrado en Nequi, 10 dígitos' });
    expect(await liveNow(el), 'the waiting screen\'s message left behind').to.equal('');
  });

  it('expiry: the end is said once, by the expired screen', async () => {
    const el = await mount();
    const log = recordLive(el);
    await chooseMethod(el, 'Nequi');
    await choose(el, 'Tipo de documento', 'CC');
    await type(el, 'Número de documento', '1020304050');
    await type(el, 'celular', '3001234567');
    await enterOn(button(el, 'Pagar'));
    await waitForStep(el, 'push');
    await newScreen(el, 'Acepta el pago en la app Nequi');
    await said(log, 2);
    const realNow = Date.now;
    Date.now = () => realNow() + 5 * 60 * 1000 + 1000;
    try {
      await waitForStep(el, 'expired', 40_000);
    } finally {
      Date.now = realNow;
    }
    await newScreen(el, 'Se acabó el tiempo');
    expect(log.take(), 'the end said by the live region as well as the heading').to.deep.equal([]);
    expect(await liveNow(el)).to.equal('');
  });

  it('an unknown link and an expired link: the screen\'s words, nothing in the live region', async () => {
    const unknown = await mount({ link: 'no-such-link' });
    await waitForStep(unknown, 'unavailable');
    expect(browseText(unknown)).to.include('No encontramos este enlace de pago');
    expect(await liveNow(unknown)).to.equal('');
    fixtureCleanup();

    const created = await fetch('/v1/links', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'merchant-key': 'mk_test_demo' },
      body: JSON.stringify({ description: 'Vence pronto', amount: 20000, ttl_minutes: 1 }),
    });
    const { data } = (await created.json()) as { data: { hash: string } };
    await control('/clock', { advance_ms: 2 * 60 * 1000 });
    const expired = await mount({ link: data.hash });
    await waitForStep(expired, 'unavailable');
    expect(browseText(expired)).to.include('Este enlace de pago venció');
    expect(await liveNow(expired)).to.equal('');
  });

  it('a message is emptied from the live region once said', async () => {
    const el = await mount({ link: 'demo-dynamic' });
    await waitForStep(el, 'amount');
    await waitUntil(() => saidText(currentScreen(el)).includes('1.000 pesos'), 'amounts never said as pesos', { timeout: settleMs });
    const log = recordLive(el);
    (field(el, 'Valor en pesos') as HTMLInputElement).focus();
    await typeKeys('5');
    await pressKey('Enter');
    expect(await said(log, 1)).to.deep.equal(['El valor mínimo es 1.000 pesos']);
    // 7 s after it was set.
    await waitUntil(async () => (await liveNow(el)) === '', 'the message stayed', { timeout: settleMs, interval: 250 });
  });

  it('English: pesos, the phone ending, minutes and seconds', async () => {
    const el = await mount({ locale: 'en' });
    const log = recordLive(el);
    await waitForStep(el, 'method');
    await waitUntil(() => browseText(el).includes('Total to pay 50,000 Colombian pesos'), `said: ${browseText(el)}`, { timeout: settleMs });
    const nequi = button(el, 'Nequi');
    nequi.focus();
    await expectFocus({ role: 'button', name: 'Nequi', description: 'Approve the payment in the Nequi app' });
    await pressKey('Enter');
    await waitForStep(el, 'details');
    await newScreen(el, 'Your details');
    await enterOn(button(el, 'Pay'));
    await expectFocus({ role: 'combobox', name: 'Document type', description: 'Error: Choose the document type' });
    expect(await said(log, 1)).to.deep.equal(['Check 3 fields: Choose the document type. Enter your document number. Enter your mobile number']);
    await choose(el, 'Document type', 'CC');
    await type(el, 'Document number', '1020304050');
    await type(el, 'Mobile', '3001234567');
    await expectFocus({ role: 'textbox', name: 'Mobile number' });
    await enterOn(button(el, 'Pay'));
    await waitForStep(el, 'push');
    await newScreen(el, 'Approve the payment in the Nequi app');
    expect(await said(log, 2)).to.deep.equal(['Creating your payment…', 'You have 5 minutes to pay']);
    expect(browseText(el)).to.include('We sent the notification to the phone ending in 4567').and.match(/Time left: [45] minutes( and \d+ seconds)?/);
  });
  // What the page prefilled, the personal-data consent, and the amount presets.
  it('prefilled details: focus on pay, each field read with its value; the consent box and its error', async () => {
    const el = await mountWith({
      'id-type': 'CC',
      'id-number': '1020304050',
      phone: '3001234567',
      'privacy-url': 'https://tienda.example/privacidad',
      consent: 'required',
    });
    const log = recordLive(el);
    await waitForStep(el, 'method');
    await waitUntil(() => browseText(el).includes('50.000 pesos'), 'amounts never said as pesos', { timeout: settleMs });
    await enterOn(button(el, 'Nequi'));
    await waitForStep(el, 'details');
    // Everything the method needs is there: the one thing left to do is the consent box.
    await waitUntil(() => screenRoot(el).activeElement?.id === 'consent', 'focus never reached the consent box', { timeout: settleMs });
    const consentName = 'Autorizo a Tienda Demo a tratar mis datos personales según su política de tratamiento de datos , se abre en una pestaña nueva';
    await expectFocus({ role: 'checkbox', name: consentName, description: '', value: 'false' });
    (field(el, 'Tipo de documento') as HTMLSelectElement).focus();
    await expectFocus({ role: 'combobox', name: 'Tipo de documento', value: 'Cédula de Ciudadanía (CC)' });
    (field(el, 'Número de documento') as HTMLInputElement).focus();
    await expectFocus({ role: 'textbox', name: 'Número de documento', value: '1020304050', description: 'Puedes escribirlo con o sin puntos' });
    (field(el, 'celular') as HTMLInputElement).focus();
    await expectFocus({ role: 'textbox', name: 'Número de celular', value: '3001234567', description: 'El celular registrado en Nequi, 10 dígitos' });

    await enterOn(button(el, 'Pagar'));
    expect(await said(log, 1)).to.deep.equal(['Revisa 1 dato: Para pagar, autoriza el tratamiento de tus datos personales']);
    await expectFocus({ role: 'checkbox', name: consentName, description: 'Error: Para pagar, autoriza el tratamiento de tus datos personales', value: 'false' });
    expect(occurrences(saidText(currentScreen(el)), 'Revisa 1 dato')).to.equal(1);
    await expect(el).to.be.accessible();
    await pressKey(' ');
    await waitUntil(() => (screenRoot(el).getElementById('consent') as HTMLInputElement).checked, 'the box never checked', { timeout: settleMs });
    await expectFocus({ role: 'checkbox', name: consentName, description: '', value: 'true' });
    await enterOn(button(el, 'Pagar'));
    await waitForStep(el, 'push');
    await newScreen(el, 'Acepta el pago en la app Nequi');
    expect(log.all.filter((m) => m.startsWith('Revisa')), 'the consent error said more than once').to.have.length(1);
  });

  it('a link that asks only the phone as contact (the handler\'s answer when its record knows the rest): that one field, read as contact', async () => {
    // The link answer as createCheckoutHandler() gives it for a record that knows the name and email (handed to the
    // element as a server-rendered page would); the handler-served path itself is test/e2e/live-dialect.e2e.ts.
    const answer = (await (await fetch('/v1/checkout/links/demo-fixed', { cache: 'no-store' })).json()) as { data: Record<string, unknown> };
    const el = await mountWith({}, { linkData: { data: { ...answer.data, collect_shopper_data: true, collect_shopper_fields: ['phone_number'] } } });
    const log = recordLive(el);
    await chooseMethod(el, 'Daviplata');
    const labels = [...screenRoot(el).querySelectorAll('label')].map((l) => saidText(l));
    expect(labels).to.deep.equal(['Tipo de documento', 'Número de documento', 'Número de celular']);
    await choose(el, 'Tipo de documento', 'CC');
    await type(el, 'Número de documento', '1020304050');
    await enterOn(button(el, 'Pagar'));
    expect(await said(log, 1)).to.deep.equal(['Revisa 1 dato: Escribe tu número de celular']);
    // Daviplata does not pay from the phone: the hint says it is the buyer's contact, not "registrado en Daviplata".
    await expectFocus({ role: 'textbox', name: 'Número de celular', value: '', description: 'Error: Escribe tu número de celular Tu celular de contacto, 10 dígitos' });
    await expect(el).to.be.accessible();
    await typeKeys('310 987 6543');
    await enterOn(button(el, 'Pagar'));
    await waitForStep(el, 'otp');
    const order = (await sandboxOrder(await latestOrderId())) as SandboxOrder & { shopper: Record<string, unknown> };
    expect(order.shopper.phone_number).to.equal('3109876543');
  });

  it('amount presets: a radio group, each said in pesos; choosing one fills the amount', async () => {
    const el = await mountWith({ link: 'demo-dynamic', amounts: '20000 50000' });
    await waitForStep(el, 'amount');
    await waitUntil(() => saidText(currentScreen(el)).includes('20.000 pesos'), 'presets never said as pesos', { timeout: settleMs });
    const [first] = screenRoot(el).querySelectorAll<HTMLInputElement>('input[type="radio"]');
    first?.focus();
    await expectFocus({ role: 'radio', name: '20.000 pesos', group: 'Valores sugeridos', value: 'false' });
    await pressKey('ArrowRight');
    await waitUntil(() => (field(el, 'Valor en pesos') as HTMLInputElement).value === '50.000', 'the preset never filled the amount', { timeout: settleMs });
    await expectFocus({ role: 'radio', name: '50.000 pesos', group: 'Valores sugeridos', value: 'true' });
    await expect(el).to.be.accessible();
  });
});
