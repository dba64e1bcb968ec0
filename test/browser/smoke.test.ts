// Proves the browser pipeline itself: Chromium, esbuild with the repo's tsconfig (Lit decorators),
// node resolution, and the CommonJS bridge for qrcode.
import { expect, fixture, html } from '@open-wc/testing';
import { LitElement } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import QRCode from 'qrcode';

@customElement('smoke-greeting')
class SmokeGreeting extends LitElement {
  @property() name = 'mundo';
  override render() {
    return html`<p part="text">Hola, ${this.name}</p>`;
  }
}

describe('browser test pipeline', () => {
  it('renders a plain element and finds it accessible', async () => {
    const el = await fixture<HTMLButtonElement>(html`<button type="button">Pagar</button>`);
    expect(el.textContent).to.equal('Pagar');
    await expect(el).to.be.accessible();
  });

  it('runs Lit decorators compiled from TypeScript', async () => {
    const el = await fixture<SmokeGreeting>(html`<smoke-greeting name="Ana"></smoke-greeting>`);
    expect(el).to.be.instanceOf(SmokeGreeting);
    expect(el.shadowRoot?.querySelector('p')?.textContent).to.equal('Hola, Ana');
    el.name = 'Luis';
    await el.updateComplete;
    expect(el.shadowRoot?.querySelector('p')?.textContent).to.equal('Hola, Luis');
  });

  it('loads qrcode through the CommonJS plugin', async () => {
    const svg = await QRCode.toString('000201010212', { type: 'svg' });
    expect(svg).to.match(/^<svg[\s>]/);
  });
});
