import { expect } from '@open-wc/testing';
import { chooseMethod, choose, field, heading, mount, resetSandbox, sandboxOrders, screenRoot, shownText, submit, type, waitForStep } from './support/checkout.js';
import type { PayCheckout } from '../../src/index.js';

// What the screen shows (its hidden "Error:" is for screen readers: screen-reader.test.ts).
const errorOf = (el: PayCheckout, id: string) => {
  const error = screenRoot(el).getElementById(`${id}-error`);
  return error ? shownText(error) : null;
};

describe('<pay-checkout> buyer details', () => {
  beforeEach(resetSandbox);

  it('asks push only for document and phone, with the right keyboard and autofill hints', async () => {
    const el = await mount();
    await chooseMethod(el, 'Nequi');
    await expect(el).to.be.accessible();
    expect(heading(el)).to.equal('Tus datos');
    const inputs = [...screenRoot(el).querySelectorAll('input, select')].map((i) => i.id);
    expect(inputs).to.deep.equal(['id_type', 'id_number', 'phone_number']);
    const phone = field(el, 'celular') as HTMLInputElement;
    expect(phone.type).to.equal('tel');
    expect(phone.getAttribute('inputmode')).to.equal('tel');
    expect(phone.getAttribute('autocomplete')).to.equal('tel-national');
  });

  it('asks the SMS-code method for no phone; its id_type offers only CC, CE, TI', async () => {
    const el = await mount();
    await chooseMethod(el, 'Daviplata');
    const ids = [...screenRoot(el).querySelectorAll('input, select')].map((i) => i.id);
    expect(ids).to.deep.equal(['id_type', 'id_number']);
    const options = [...(field(el, 'Tipo de documento') as HTMLSelectElement).options].map((o) => o.value).filter(Boolean);
    expect(options).to.deep.equal(['1', '2', '3']);
  });

  it('shows every message beside its field, a summary with links, and focuses the first field in error', async () => {
    const el = await mount();
    await chooseMethod(el, 'Nequi');
    await submit(el, 'Pagar');
    await waitForStep(el, 'details');
    expect(errorOf(el, 'id_type')).to.equal('Elige el tipo de documento');
    expect(errorOf(el, 'id_number')).to.equal('Escribe tu número de documento');
    expect(errorOf(el, 'phone_number')).to.equal('Escribe tu número de celular');
    for (const id of ['id_type', 'id_number', 'phone_number']) {
      const control = screenRoot(el).getElementById(id);
      expect(control?.getAttribute('aria-invalid'), id).to.equal('true');
      expect(control?.getAttribute('aria-describedby')?.split(' '), id).to.include(`${id}-error`);
    }
    const summary = screenRoot(el).querySelector('[part="error-summary"]');
    expect(summary?.textContent).to.include('Revisa 3 datos');
    const links = [...(summary?.querySelectorAll('a') ?? [])];
    expect(links.map((a) => a.getAttribute('href'))).to.deep.equal(['#id_type', '#id_number', '#phone_number']);
    expect(screenRoot(el).activeElement?.id).to.equal('id_type');
    links[2]?.click();
    expect(screenRoot(el).activeElement?.id).to.equal('phone_number');
    await expect(el).to.be.accessible();
    expect(await sandboxOrders()).to.have.length(0);
  });

  for (const [phone, message] of [
    ['12345', 'Escribe un celular de 10 dígitos que empiece por 3'],
    ['601 234 5678', 'Ese es un teléfono fijo; escribe un número de celular'],
  ] as const) {
    it(`phone "${phone}": "${message}"`, async () => {
      const el = await mount();
      await chooseMethod(el, 'Nequi');
      await choose(el, 'Tipo de documento', 'CC');
      await type(el, 'Número de documento', '1020304050');
      await type(el, 'celular', phone);
      await submit(el, 'Pagar');
      await el.updateComplete;
      expect(errorOf(el, 'phone_number')).to.equal(message);
      expect(errorOf(el, 'id_number')).to.equal(null);
    });
  }

  it('accepts +57, spaces and dashes in the phone', async () => {
    const el = await mount();
    await chooseMethod(el, 'Nequi');
    await choose(el, 'Tipo de documento', 'CC');
    await type(el, 'Número de documento', '1.020.304.050');
    await type(el, 'celular', '+57 300-123-4567');
    await submit(el, 'Pagar');
    await waitForStep(el, 'push');
  });

  for (const [idType, number, message] of [
    ['CC', '10AB20', 'Este tipo de documento lleva solo números'],
    ['CE', 'AB-12*', 'Escribe solo letras y números'],
    ['CE', 'ABCDEFGH123456', 'El número de documento es muy largo'],
    ['CC', '12', 'El número de documento es muy corto'],
  ] as const) {
    it(`id number ${idType} "${number}": "${message}"`, async () => {
      const el = await mount();
      await chooseMethod(el, 'Daviplata');
      await choose(el, 'Tipo de documento', idType);
      await type(el, 'Número de documento', number);
      await submit(el, 'Pagar');
      await el.updateComplete;
      expect(errorOf(el, 'id_number')).to.equal(message);
    });
  }

  it('"change payment method" goes back to the method screen', async () => {
    const el = await mount();
    await chooseMethod(el, 'Nequi');
    const { click } = await import('./support/checkout.js');
    await click(el, 'Cambiar medio de pago');
    await waitForStep(el, 'method');
  });
});
