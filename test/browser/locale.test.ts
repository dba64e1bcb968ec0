import { expect, fixture, html } from '@open-wc/testing';
import { chooseMethod, heading, mount, resetSandbox, screenRoot, waitForStep } from './support/checkout.js';
import { formatMoney, formatCountdown, resolveLocale } from '../../src/i18n/index.js';
import { es } from '../../src/i18n/es.js';
import { messageKeys } from '../../src/flow/types.js';
import type { PayCheckout } from '../../src/index.js';

describe('<pay-checkout> languages', () => {
  beforeEach(resetSandbox);
  afterEach(() => document.documentElement.removeAttribute('lang'));

  it('speaks English with locale="en"', async () => {
    const el = await mount({ locale: 'en' });
    await waitForStep(el, 'method');
    await el.updateComplete;
    expect(heading(el)).to.equal('Choose how to pay');
    expect(el.shadowRoot?.querySelector('[part="amount"]')?.textContent?.replace(/\s+/g, ' ')).to.include('COP 50,000');
    await chooseMethod(el, 'Nequi');
    expect(heading(el)).to.equal('Your details');
    expect(screenRoot(el).textContent).to.include('Mobile number');
    await expect(el).to.be.accessible();
  });

  it("follows the page's lang when there is no locale attribute", async () => {
    document.documentElement.lang = 'en-US';
    const el = await fixture<PayCheckout>(html`<pay-checkout link="demo-fixed" api-base="/v1"></pay-checkout>`);
    await waitForStep(el, 'method');
    await el.updateComplete;
    expect(heading(el)).to.equal('Choose how to pay');
  });

  it('defaults to Colombian Spanish', async () => {
    document.documentElement.lang = 'fr';
    const el = await fixture<PayCheckout>(html`<pay-checkout link="demo-fixed" api-base="/v1"></pay-checkout>`);
    await waitForStep(el, 'method');
    expect(heading(el)).to.equal('Elige cómo pagar');
    expect(el.shadowRoot?.querySelector('section')?.getAttribute('lang')).to.equal('es-CO');
  });

  it('formats pesos es-CO with no decimals, and countdowns as m:ss', () => {
    expect(formatMoney(50000, 'COP', 'es').replace(/\s/g, ' ')).to.equal('$ 50.000');
    expect(formatMoney(1234567, 'COP', 'es').replace(/\s/g, ' ')).to.equal('$ 1.234.567');
    expect(formatCountdown(299_001)).to.equal('5:00');
    expect(formatCountdown(61_000)).to.equal('1:01');
    expect(formatCountdown(-5)).to.equal('0:00');
    expect(resolveLocale('en-GB')).to.equal('en');
    expect(resolveLocale('pt')).to.equal('es');
  });

  it('translates every flow message key in both catalogs', async () => {
    const { en } = await import('../../src/i18n/en.js');
    for (const key of messageKeys) {
      expect(es.rules[key]({ min: '$ 1', max: '$ 2' }), key).to.be.a('string').and.not.equal('');
      expect(en.rules[key]({ min: '$ 1', max: '$ 2' }), key).to.be.a('string').and.not.equal('');
      expect(en.rules[key]({}), key).to.not.equal(es.rules[key]({}));
    }
  });
});
