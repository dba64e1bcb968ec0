import { html } from 'lit';
import { property, state } from 'lit/decorators.js';
import { describeError, sandbox } from '../shared/api.js';
import { announce, ordersChanged } from '../shared/events.js';
import { dateTime } from '../shared/format.js';
import { defineOnce, LightElement } from '../shared/light-element.js';

const minute = 60_000;
const clockSteps = [
  { ms: 5 * minute, label: '+5 min', why: 'vence un push o un código SMS' },
  { ms: 15 * minute, label: '+15 min', why: 'vence una transferencia' },
  { ms: 96 * 60 * minute, label: '+96 h', why: 'cierra la ventana de reembolso' },
] as const;

/** The sandbox's controls: the clock, the webhook forwarder and reset. */
export class DemoSandboxTools extends LightElement {
  @property({ attribute: false }) forwardTargets: readonly string[] = [];
  @state() private forwardUrl = '';
  @state() private clock = '';
  @state() private error = '';

  private async run(task: () => Promise<string>) {
    this.error = '';
    try {
      announce(this, await task());
    } catch (error) {
      this.error = describeError(error);
    } finally {
      ordersChanged(this);
    }
  }

  private advance(ms: number, label: string) {
    return this.run(async () => {
      const { now } = await sandbox.advanceClock(ms);
      this.clock = now;
      return `Reloj del sandbox adelantado ${label}: ahora es ${dateTime(now)}.`;
    });
  }

  private addForward(event: SubmitEvent) {
    event.preventDefault();
    const url = this.forwardUrl.trim();
    return this.run(async () => {
      await sandbox.forward(url);
      this.forwardUrl = '';
      return `Cada webhook se reenviará también a ${url}.`;
    });
  }

  override render() {
    return html`
      <h2>Herramientas del sandbox</h2>
      <p class="error" role="alert">${this.error}</p>

      <h3 id="clock-title">Reloj</h3>
      <div class="actions" role="group" aria-labelledby="clock-title">
        ${clockSteps.map(
          (s) => html`<button type="button" title=${s.why} aria-label=${`Adelantar el reloj ${s.label} (${s.why})`} @click=${() => this.advance(s.ms, s.label)}>
            ${s.label}
          </button>`,
        )}
      </div>
      <p class="muted">${this.clock ? `Hora del sandbox: ${dateTime(this.clock)}` : 'Adelanta el reloj para ver vencimientos y la ventana de 96 h.'}</p>

      <h3>Reenvío de webhooks</h3>
      <form class="forward-form" @submit=${this.addForward}>
        <label for="forward-url">URL de tu receptor local</label>
        <input
          id="forward-url"
          type="url"
          required
          placeholder="http://127.0.0.1:4000/webhooks"
          aria-describedby="forward-hint"
          .value=${this.forwardUrl}
          @input=${(e: Event) => (this.forwardUrl = (e.target as HTMLInputElement).value)}
        />
        <p id="forward-hint" class="muted">Solo 127.0.0.1, ::1 o localhost. Recibe cada webhook firmado, con los mismos reintentos.</p>
        <button type="submit">Reenviar aquí</button>
      </form>
      ${this.forwardTargets.length > 0
        ? html`<ul class="forward-targets">
            ${this.forwardTargets.map(
              (url) => html`<li>
                <code>${url}</code>
                <button type="button" aria-label=${`Quitar el reenvío a ${url}`} @click=${() => this.run(async () => (await sandbox.stopForwarding(url), `Ya no se reenvía a ${url}.`))}>
                  Quitar
                </button>
              </li>`,
            )}
          </ul>`
        : html`<p class="muted">Sin reenvío activo.</p>`}

      <h3>Reiniciar</h3>
      <p class="muted">Vuelve a los datos fijos: borra pedidos, entregas, tiendas nuevas y reenvíos.</p>
      <button type="button" class="danger" @click=${() => this.run(async () => (await sandbox.reset(), (this.clock = ''), 'Sandbox reiniciado.'))}>
        Reiniciar el sandbox
      </button>
    `;
  }
}
defineOnce('demo-sandbox-tools', DemoSandboxTools);

declare global {
  interface HTMLElementTagNameMap {
    'demo-sandbox-tools': DemoSandboxTools;
  }
}
