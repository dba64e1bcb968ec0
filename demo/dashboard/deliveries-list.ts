import { html, nothing } from 'lit';
import { property, state } from 'lit/decorators.js';
import { repeat } from 'lit/directives/repeat.js';
import type { DeliveryAttempt, DeliveryRecord } from '../../src/contract/index.js';
import { demoSigningSecret } from '../shared/demo-keys.js';
import { clockTime } from '../shared/format.js';
import { defineOnce, LightElement } from '../shared/light-element.js';
import { checkSignature, type SignatureVerdict } from './signature-check.js';

const stateLabels: Record<DeliveryRecord['state'], string> = { pending: 'en curso', delivered: 'entregado', failed: 'fallido' };
const verdictText: Record<SignatureVerdict, string> = {
  valid: `Firma válida con ${demoSigningSecret}`,
  invalid: `La firma no coincide con ${demoSigningSecret}`,
  unsigned: 'Sin firma (la cuenta no firma sus entregas)',
};

/** The webhook log: every delivery, each attempt (status, body, timing, error), and whether its signature verifies. */
export class DemoDeliveriesList extends LightElement {
  @property({ attribute: false }) deliveries: readonly DeliveryRecord[] = [];
  @state() private verdicts = new Map<string, SignatureVerdict>();

  protected override willUpdate(changed: Map<PropertyKey, unknown>): void {
    if (changed.has('deliveries')) void this.verifyNew();
  }

  // Verified once per delivery id and signature: WebCrypto is async, so results land in a later render.
  private async verifyNew() {
    const pending = this.deliveries.filter((d) => !this.verdicts.has(verdictKey(d)));
    if (pending.length === 0) return;
    const results = await Promise.all(pending.map(async (d) => [verdictKey(d), await checkSignature(d, demoSigningSecret)] as const));
    this.verdicts = new Map([...this.verdicts, ...results]);
  }

  override render() {
    const newestFirst = [...this.deliveries].reverse();
    return html`
      <h2 id="deliveries-title">Webhooks enviados</h2>
      <p class="muted">
        Cada entrega del sandbox con sus intentos. La firma se comprueba aquí, en el navegador, con <code>verify()</code> de
        <code>pay-checkout/webhooks</code> sobre el cuerpo exacto enviado.
      </p>
      ${newestFirst.length === 0
        ? html`<p class="empty">
            Ninguna entrega todavía. El sandbox reenvía cada webhook a su propio receptor (y a los que agregues abajo): paga un
            pedido o completa un onboarding para ver la primera.
          </p>`
        : html`<ol class="deliveries" aria-labelledby="deliveries-title">
            ${repeat(newestFirst, (d) => d.id, (d) => this.delivery(d))}
          </ol>`}
    `;
  }

  private delivery(d: DeliveryRecord) {
    const verdict = this.verdicts.get(verdictKey(d));
    return html`<li class="delivery state-${d.state}" data-delivery=${d.id} data-event=${d.event}>
      <h3><code>${d.event}</code> <span class="badge">${stateLabels[d.state]}</span></h3>
      <p class="muted">
        ${d.id} · ${clockTime(d.created_at)} · ${d.label ?? 'sin etiqueta'} → <code>${d.url}</code>
      </p>
      <p class="signature ${verdict ?? 'checking'}" data-verdict=${verdict ?? 'checking'}>
        ${verdict ? verdictText[verdict] : 'Comprobando la firma…'}
      </p>
      <table class="attempts">
        <caption class="sr-only">Intentos de ${d.id}</caption>
        <thead>
          <tr><th scope="col">#</th><th scope="col">HTTP</th><th scope="col">Resultado</th><th scope="col" class="num">Tiempo</th></tr>
        </thead>
        <tbody>
          ${d.attempts.map((a) => this.attempt(a))}
        </tbody>
      </table>
      ${d.attempts.length === 0 ? html`<p class="muted">Primer intento en curso…</p>` : nothing}
      <details>
        <summary>Cuerpo enviado y respuestas</summary>
        <pre tabindex="0">${d.body}</pre>
        ${d.attempts.map((a) => html`<p class="muted">Respuesta al intento ${a.attempt}:</p><pre tabindex="0">${a.response_body ?? '(sin respuesta)'}</pre>`)}
      </details>
    </li>`;
  }

  private attempt(a: DeliveryAttempt) {
    return html`<tr class="outcome-${a.outcome}">
      <td>${a.attempt}</td>
      <td>${a.status ?? '—'}</td>
      <td>${a.outcome}${a.error ? html`<span class="block muted">${a.error}</span>` : nothing}</td>
      <td class="num">${a.duration_ms} ms</td>
    </tr>`;
  }
}

const verdictKey = (d: DeliveryRecord) => `${d.id}:${d.signature ?? ''}`;

defineOnce('demo-deliveries-list', DemoDeliveriesList);

declare global {
  interface HTMLElementTagNameMap {
    'demo-deliveries-list': DemoDeliveriesList;
  }
}
