import { html } from 'lit';
import { state } from 'lit/decorators.js';
import { clockTime } from '../shared/format.js';
import { defineOnce, LightElement } from '../shared/light-element.js';

export interface LoggedEvent {
  name: string;
  at: Date;
  /** `detail` as JSON text: rendered as text, never as HTML. */
  detail: string;
}

/** What would `detail` look like to a merchant's `addEventListener`: JSON text, or a note when it cannot be. */
export function detailText(detail: unknown): string {
  if (detail === undefined || detail === null) return String(detail);
  try {
    return JSON.stringify(detail, null, 2);
  } catch {
    return String(detail);
  }
}

/** A live log of the element's events, newest first. */
export class DemoEventLog extends LightElement {
  @state() private entries: readonly LoggedEvent[] = [];

  add(name: string, detail: unknown, at = new Date()): void {
    this.entries = [{ name, at, detail: detailText(detail) }, ...this.entries].slice(0, 200);
  }

  clear(): void {
    this.entries = [];
  }

  override render() {
    return html`
      <div class="log-head">
        <h2 id="log-title">Eventos</h2>
        <button type="button" @click=${() => this.clear()} ?disabled=${this.entries.length === 0}>Limpiar</button>
      </div>
      <p class="muted">Lo que recibe <code>addEventListener('pay-…')</code> en la página del comercio.</p>
      ${this.entries.length === 0 ? html`<p class="empty">Ningún evento todavía.</p>` : ''}
      <ol class="event-log" role="log" aria-labelledby="log-title" aria-live="polite">
        ${this.entries.map(
          (e) => html`<li>
            <p><code class="event-name">${e.name}</code> <time datetime=${e.at.toISOString()}>${clockTime(e.at)}</time></p>
            <pre>${e.detail}</pre>
          </li>`,
        )}
      </ol>
    `;
  }
}
defineOnce('demo-event-log', DemoEventLog);

declare global {
  interface HTMLElementTagNameMap {
    'demo-event-log': DemoEventLog;
  }
}
