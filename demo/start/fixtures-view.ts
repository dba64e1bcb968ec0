import { html, nothing } from 'lit';
import { state } from 'lit/decorators.js';
import type { SandboxFixtures } from '../../src/contract/index.js';
import { describeError, sandbox } from '../shared/api.js';
import { money } from '../shared/format.js';
import { defineOnce, LightElement } from '../shared/light-element.js';

const kindLabels: Record<string, string> = { push: 'notificación push', otp: 'código por SMS', transfer: 'QR o llave', card: 'tarjeta' };

/** The sandbox's fixed data, as `GET /sandbox/fixtures` reports it. */
export class DemoFixtures extends LightElement {
  @state() private fixtures: SandboxFixtures | null = null;
  @state() private error = '';

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  async load(): Promise<void> {
    try {
      this.fixtures = await sandbox.fixtures();
      this.error = '';
    } catch (error) {
      this.error = `No se pudo leer el sandbox: ${describeError(error)}`;
    }
  }

  override render() {
    if (this.error) return html`<p class="error" role="alert">${this.error}</p>`;
    const f = this.fixtures;
    if (!f) return html`<p class="muted" role="status">Cargando…</p>`;
    return html`<div class="fixtures">
      <section class="card">
        <h3>Enlaces de pago</h3>
        <ul>
          ${f.links.map(
            (l) => html`<li data-link=${l.hash}>
              <code>${l.hash}</code>: ${l.description}, ${l.amount === null ? 'valor dinámico' : money(l.amount, 'COP')}
              <span class="block"><a href=${`./merchant.html?link=${l.hash}`}>en la página del comercio</a> ·
              <a href=${`/checkout/${l.hash}`}>página alojada</a></span>
            </li>`,
          )}
        </ul>
      </section>
      <section class="card">
        <h3>Medios de pago</h3>
        <ul>
          ${f.gateways.map(
            (g) => html`<li>
              <strong>${g.name}</strong> (<code>${g.id_payment_gateway}</code>, ${kindLabels[g.kind] ?? g.kind})${g.direct_orders ? nothing : html` · solo enlaces y página alojada`}
            </li>`,
          )}
        </ul>
        <h3>Datos de prueba</h3>
        <ul>
          <li>Nequi: teléfonos que terminan en <code>0002</code> rechazan solos, en <code>0003</code> nunca responden.</li>
          <li>Daviplata: <code>123456</code>, <code>000000</code> y <code>111111</code> confirman.</li>
          <li>Tarjeta: <code>4242 4242 4242 4242</code> paga, <code>4000 0000 0000 0002</code> es rechazada.</li>
          <li>Documentos: ${f.document_types.map((d, i) => html`${i ? ', ' : ''}<code>${d.id_national_document_type}</code> ${d.type}`)}</li>
        </ul>
      </section>
      <section class="card">
        <h3>Credenciales de prueba</h3>
        <dl>
          <dt><code>base_url</code></dt><dd><code>${f.base_url}</code></dd>
          <dt><code>checkout_url</code></dt><dd><code>${f.checkout_url}</code></dd>
          <dt><code>merchant-key</code></dt><dd><code>${f.merchant_key}</code> (solo en servidores)</dd>
          <dt>Socio</dt><dd><code>${f.partner.name}</code>: <code>${f.partner.api_key}</code> / <code>${f.partner.api_secret}</code></dd>
          <dt>Secreto de firma</dt><dd><code>${f.partner.signing_secret}</code></dd>
        </dl>
      </section>
    </div>`;
  }
}
defineOnce('demo-fixtures', DemoFixtures);

declare global {
  interface HTMLElementTagNameMap {
    'demo-fixtures': DemoFixtures;
  }
}
