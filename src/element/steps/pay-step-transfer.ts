import { html, nothing } from 'lit';
import type { PropertyValues } from 'lit';
import type { TransferState } from '../../flow/types.js';
import { chunkHooks } from '../internal/new-build.js';
import { WaitingStep, countdownTemplate, noticeTemplate } from './waiting-parts.js';
import { sharedStyles } from './shared.styles.js';
import { laterStyles } from './later.styles.js';
import { stepTransferStyles } from './pay-step-transfer.styles.js';

/** The QR image as a `data:` URL (allowed by `img-src 'self' data:`), drawn here from the payload. */
async function qrDataUrl(payload: string): Promise<string> {
  // Loaded only when this screen opens: qrcode stays out of the first bundle. Gone with an upgrade: the page reloads
  // and the saved order resumes under the new script (internal/new-build.ts).
  const { toDataURL } = await import('qrcode').catch((error: unknown) => {
    chunkHooks.failed?.();
    throw error;
  });
  return toDataURL(payload, { errorCorrectionLevel: 'M', margin: 1, width: 208 });
}

/**
 * @internal Transfer: the key as selectable text with a copy button, the QR drawn
 * locally from `qr_data` (or the service's PNG), and a countdown.
 */
export class PayStepTransfer extends WaitingStep<TransferState> {
  static override styles = [sharedStyles, laterStyles, stepTransferStyles];

  static override properties = {
    remainingMs: { attribute: false },
    qrSrc: { state: true },
    qrFailed: { state: true },
    copied: { state: true },
  };

  /** Milliseconds left, from the host's countdown. */
  remainingMs: number | null = null;

  private qrSrc: string | null = null;
  private qrFailed = false;
  private copied: 'yes' | 'failed' | null = null;

  #qrFor: string | null = null;
  #copiedTimer: ReturnType<typeof setTimeout> | undefined;

  override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('state')) this.#loadQr();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.#copiedTimer);
  }

  override render() {
    const m = this.messages;
    const s = this.state;
    return html`
      <h2 tabindex="-1" part="heading">${m.transfer.title(s.order.gateway.name)}</h2>
      <p>${m.transfer.instructions}</p>
      <div class="layout">
        <div class="key" part="transfer-key">
          <span class="hint">${m.transfer.keyLabel}</span>
          <span class="value">${s.action.key}</span>
          <button
            type="button"
            class="secondary"
            part="button-secondary copy-button"
            aria-describedby=${this.copied ? 'copy-result' : nothing}
            @click=${this.#copy}
          >
            ${m.transfer.copy}
          </button>
          ${this.copied
            ? html`<p id="copy-result" class=${this.copied === 'yes' ? 'hint' : 'error'}>${this.copied === 'yes' ? m.transfer.copied : m.transfer.copyFailed}</p>`
            : nothing}
        </div>
        <div class="qr" part="qr">
          ${this.qrSrc
            ? html`<img src=${this.qrSrc} alt=${m.transfer.qrAlt(s.order.gateway.name)} width="208" height="208" />`
            : this.qrFailed
              ? html`<p class="hint">${m.transfer.qrUnavailable}</p>`
              : html`<p class="hint">${m.transfer.qrLoading}</p>`}
        </div>
      </div>
      ${countdownTemplate(m, this.remainingMs)} ${noticeTemplate(m, s.notice, () => this.send({ type: 'retry' }))}
      <div class="actions">
        ${this.waitingActions()}
      </div>
    `;
  }

  #loadQr(): void {
    const { qr_data, qr_png } = this.state.action;
    const source = qr_data ?? qr_png ?? null;
    if (source === this.#qrFor) return;
    this.#qrFor = source;
    this.qrSrc = null;
    this.qrFailed = false;
    if (qr_data) {
      qrDataUrl(qr_data).then(
        (url) => {
          if (this.#qrFor === qr_data) this.qrSrc = url;
        },
        () => {
          // Without our QR, the service's PNG (if any) still works; the key always does.
          if (this.#qrFor !== qr_data) return;
          if (qr_png) this.qrSrc = pngDataUrl(qr_png);
          else this.qrFailed = true;
        },
      );
    } else if (qr_png) {
      this.qrSrc = pngDataUrl(qr_png);
    } else {
      this.qrFailed = true;
    }
  }

  // The button keeps its name; the result shows beside it, is said once, and describes the button while it shows.
  #copy = async () => {
    clearTimeout(this.#copiedTimer);
    const m = this.messages.transfer;
    try {
      await navigator.clipboard.writeText(this.state.action.key);
      this.copied = 'yes';
      this.announce(m.copied);
      this.#copiedTimer = setTimeout(() => (this.copied = null), 4000);
    } catch {
      // The key is selected so the buyer can copy it by hand; the message stays until they try again.
      this.copied = 'failed';
      this.announce(m.copyFailed);
      const value = this.renderRoot.querySelector('.key .value');
      if (value) getSelection()?.selectAllChildren(value);
    }
  };
}

/** The live service's `qr_code` is base64 PNG without the `data:` prefix; accept either. */
function pngDataUrl(png: string): string {
  return png.startsWith('data:') ? png : `data:image/png;base64,${png}`;
}

declare global {
  interface HTMLElementTagNameMap {
    'pay-step-transfer': PayStepTransfer;
  }
}
