import { html, isServer, nothing } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import type { MethodState } from '../../flow/types.js';
import type { FirstMessages } from '../../i18n/messages.js';
import { spoken, withMoney } from '../internal/spoken.js';
import { StepElement } from './step-element.js';
import { sharedStyles, hideBrokenImage } from './shared.styles.js';
import { stepMethodStyles } from './pay-step-method.styles.js';

/** @internal The link's payment methods: icon and name, unavailable ones disabled with the reason. */
export class PayStepMethod extends StepElement<MethodState, FirstMessages> {
  static override styles = [sharedStyles, stepMethodStyles];

  /** The bundled first screens' strings are enough here. */
  declare messages: FirstMessages;

  /**
   * The tap shows at once: the button is busy until the next screen replaces this one (at once when the later steps are
   * here; a quick buyer may be a moment ahead of them on a slow network). Not a `#` method: the first script's
   * targets lower those to a WeakSet and helpers (bytes).
   */
  private _choose(e: Event): void {
    const button = e.currentTarget as HTMLButtonElement;
    button.setAttribute('aria-busy', 'true');
    this.send({ type: 'method_chosen', id_payment_gateway: Number(button.dataset.gateway) });
  }

  override render() {
    const m = this.messages;
    const s = this.state;
    const said = (text: (money: (amount: number) => string) => string) => spoken(withMoney(text, s.link.currency, m));
    const dynamic = s.link.amount === undefined || s.link.amount === null;
    // Methods, but none takes this amount: say so, rather than a list of disabled buttons.
    const noneTakes = s.choices.length > 0 && s.choices.every((c) => !c.available);
    return html`
      <h2 tabindex="-1" part="heading">${m.method.title}</h2>
      ${noneTakes ? html`<p class="error" part="error">${said((money) => m.method.noneForAmount(money(s.amount)))}</p>` : nothing}
      <ul aria-label=${m.method.legend}>
        ${s.choices.map(({ gateway, available, reason }) => {
          const kind = m.method.kinds[gateway.kind](gateway.name);
          const why = reason ? withMoney((money) => m.rules[reason]({ min: money(gateway.min_amount), max: money(gateway.max_amount) }), s.link.currency, m) : null;
          // Named by the method alone: what it is and why it is off are its description (said from the hidden copy
          // beside it), not a run-on name.
          const id = `method-${gateway.id_payment_gateway}`;
          return html`<li>
            <button
              type="button"
              class="method"
              part="method"
              data-gateway=${gateway.id_payment_gateway}
              aria-describedby=${id}
              ?disabled=${!available}
              @click=${this._choose}
            >
              ${gateway.icon
                ? // Drawn on a server, the logo's tile comes empty: an SVG logo is a document of its own for the phone to
                  // build (25-40 ms of main thread each at 4x CPU), which held the first interactive screen back by
                  // about 100 ms. The element's own render fills it a moment later.
                  html`<img src=${ifDefined(isServer ? undefined : gateway.icon)} alt="" width="32" height="32" @error=${hideBrokenImage} />`
                : nothing}
              <span class="name"
                ><span>${gateway.name}</span><span class="why" aria-hidden="true">${kind}</span>${why
                  ? html`<span class="why" aria-hidden="true">${why[0]}</span>`
                  : nothing}</span
              >
            </button>
            <span class="sr-only" id=${id}>${why ? `${kind}. ${why[1]}` : kind}</span>
          </li>`;
        })}
      </ul>
      ${s.error ? html`<p class="error" part="error">${m.rules[s.error]({})}</p>` : nothing}
      ${dynamic
        ? html`<div class="actions">
            <button type="button" class="secondary" part="button-secondary" @click=${() => this.send({ type: 'back' })}>
              ${m.back}
            </button>
          </div>`
        : nothing}
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pay-step-method': PayStepMethod;
  }
}
