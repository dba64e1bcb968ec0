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

/** Objects and arrays that fit on a line of this many characters (the log column is narrow) stay on one line. */
const lineWidth = 60;

/**
 * `detail` as a merchant's `JSON.stringify` sees it: indented, with short objects and arrays kept on one line.
 * `column` is where the value starts on its line.
 */
export function detailText(detail: unknown, indent = '', column = indent.length): string {
  const flat = JSON.stringify(detail);
  if (flat === undefined) return String(detail);
  if (detail === null || typeof detail !== 'object' || column + flat.length <= lineWidth) return flat;
  const inner = `${indent}  `;
  if (Array.isArray(detail)) return `[\n${detail.map((v) => inner + detailText(v ?? null, inner)).join(',\n')}\n${indent}]`;
  const fields = Object.entries(detail).filter(([, v]) => v !== undefined && typeof v !== 'function');
  const field = ([k, v]: [string, unknown]) => {
    const key = `${inner}${JSON.stringify(k)}: `;
    return key + detailText(v, inner, key.length);
  };
  return `{\n${fields.map(field).join(',\n')}\n${indent}}`;
}

/** Long details fold away, so one `pay-ready` does not push every other event off the screen. */
const foldAfterLines = 14;

/** A live log of the element's events, newest first. */
export class DemoEventLog extends LightElement {
  @state() private entries: readonly LoggedEvent[] = [];

  add(name: string, detail: unknown, at = new Date()): void {
    let text: string;
    try {
      text = detailText(detail);
    } catch {
      text = String(detail); // a cyclic detail cannot be JSON
    }
    this.entries = [{ name, at, detail: text }, ...this.entries].slice(0, 200);
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
      <div role="log" aria-labelledby="log-title" aria-live="polite">
        <ol class="event-log">
          ${this.entries.map(
            (e) => html`<li>
              <p><code class="event-name">${e.name}</code> <time datetime=${e.at.toISOString()}>${clockTime(e.at)}</time></p>
              ${e.detail.split('\n').length > foldAfterLines
                ? html`<details>
                    <summary>detail (${e.detail.split('\n').length} líneas)</summary>
                    <pre>${e.detail}</pre>
                  </details>`
                : html`<pre>${e.detail}</pre>`}
            </li>`,
          )}
        </ol>
      </div>
    `;
  }
}
defineOnce('demo-event-log', DemoEventLog);

declare global {
  interface HTMLElementTagNameMap {
    'demo-event-log': DemoEventLog;
  }
}
