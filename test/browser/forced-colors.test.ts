// In forced colors (Windows High Contrast) the theme's colours give way to the system's, so what told states
// apart by colour alone must tell them apart another way. Chromium only: its emulation of `forced-colors: active`
// (Playwright's emulateMedia) applies the system palette; Firefox's and WebKit's drivers here cannot turn it on.
import { expect } from '@open-wc/testing';
import { emulateMedia } from '@web/test-runner-commands';
import { button, chooseMethod, field, mount, pressKey, resetSandbox, screenRoot, submit, waitForStep } from './support/checkout.js';

const style = (e: Element | null) => getComputedStyle(e as Element);

describe('<pay-checkout> in forced colors', () => {
  before(async function () {
    try {
      await emulateMedia({ forcedColors: 'active' });
    } catch {
      this.skip();
    }
    if (!matchMedia('(forced-colors: active)').matches) this.skip();
  });
  after(async () => {
    if (matchMedia('(forced-colors: active)').matches) await emulateMedia({ forcedColors: 'none' });
  });
  beforeEach(resetSandbox);

  it('errors, the field in error, focus, and primary against secondary buttons stay distinguishable', async () => {
    const el = await mount();
    await chooseMethod(el, 'Nequi');
    await submit(el, 'Pagar');
    const root = screenRoot(el);
    const error = root.getElementById('id_number-error');
    const label = root.querySelector('label[for="id_number"]');
    // An error has a bar a label lacks (both are bold text in the one system colour).
    expect(style(error).borderInlineStartWidth).to.equal('4px');
    expect(style(error).borderInlineStartStyle).to.equal('solid');
    expect(style(label).borderInlineStartStyle).to.equal('none');
    // A field in error keeps its thicker border (1 px otherwise).
    expect(style(field(el, 'Número de documento')).borderTopWidth).to.equal('2px');
    // The primary button is filled; the secondary one is not.
    const primary = style(button(el, 'Pagar'));
    const secondary = style(button(el, 'Cambiar medio de pago'));
    expect(primary.backgroundColor).to.not.equal(secondary.backgroundColor);
    expect(primary.color).to.not.equal(secondary.color);
    // Focus is drawn by an outline (its colour forced to a system one, never dropped).
    const pay = button(el, 'Pagar');
    pay.focus();
    expect(style(pay).outlineStyle).to.not.equal('none');
    await expect(el).to.be.accessible();
  });

  it('the method in focus is marked, and the chosen one is named on the next screen', async () => {
    const el = await mount();
    await waitForStep(el, 'method');
    const nequi = button(el, 'Nequi');
    const next = button(el, 'Daviplata');
    nequi.focus();
    // By keyboard, as a buyer would move between methods (:focus-visible).
    await pressKey('Tab');
    expect(screenRoot(el).activeElement).to.equal(next);
    expect(style(next).outlineStyle).to.not.equal('none');
    expect(style(nequi).outlineStyle).to.equal('none');
    await pressKey('Enter');
    await waitForStep(el, 'details');
    expect(screenRoot(el).querySelector('.chosen')?.textContent?.replace(/\s+/g, ' ')).to.include('Daviplata');
    await expect(el).to.be.accessible();
  });
});
