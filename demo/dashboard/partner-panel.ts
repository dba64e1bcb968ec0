import { html } from 'lit';
import { property } from 'lit/decorators.js';
import type { Store } from '../../src/contract/index.js';
import { demoPartnerKeys } from '../shared/demo-keys.js';
import { defineOnce, LightElement } from '../shared/light-element.js';

/** The partner onboarding flow: the onboarding page, then the partner's connected stores (`GET /partners/stores`). */
export class DemoPartnerPanel extends LightElement {
  @property({ attribute: false }) stores: readonly Store[] = [];

  override render() {
    const link = `/onboarding?platform=${encodeURIComponent(demoPartnerKeys.name)}`;
    return html`
      <h2 id="partner-title">Socio: onboarding de comercios</h2>
      <ol class="steps">
        <li>Abre el <a href=${link} target="_blank" rel="noopener">enlace de onboarding de <code>${demoPartnerKeys.name}</code></a> (pestaña nueva) y completa el formulario como lo haría el comercio.</li>
        <li>La tienda nueva aparece aquí abajo (<code>GET /v1/partners/stores</code>).</li>
        <li>El socio recibe <code>store_onboarded</code> con la llave del comercio: lo ves en «Webhooks enviados» si el reenvío está activo.</li>
      </ol>
      <h3 id="stores-title">Tiendas conectadas</h3>
      <ul class="stores" aria-labelledby="stores-title">
        ${this.stores.map(
          (s) => html`<li data-store=${s.id_store}>
            <strong>${s.store_name}</strong>
            <span class="muted">id_store ${s.id_store}${s.external_store_id ? ` · ${s.external_store_id}` : ''}</span>
          </li>`,
        )}
      </ul>
    `;
  }
}
defineOnce('demo-partner-panel', DemoPartnerPanel);

declare global {
  interface HTMLElementTagNameMap {
    'demo-partner-panel': DemoPartnerPanel;
  }
}
