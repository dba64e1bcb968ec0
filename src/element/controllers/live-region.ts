import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { PayAnnounceEvent } from '../events/pay-announce.js';

/**
 * The element's one polite live region: what it says, and for how long. Emptied 7 s after it is set (screen readers
 * have it by then), so browse mode never meets an old message; the same words again are emptied a moment first, so
 * they speak again. Leaving the page empties it at once: nothing said on one page is left to speak on the next.
 */
export class LiveRegion implements ReactiveController {
  /** The words in the region now. */
  message = '';
  private _timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly host: ReactiveControllerHost) {
    host.addController(this);
  }

  hostDisconnected(): void {
    clearTimeout(this._timer);
    this._say('');
  }

  announce(message: string): void {
    clearTimeout(this._timer);
    const again = message !== '' && message === this.message;
    this._say(again ? '' : message);
    this._timer = setTimeout(() => (again ? this.announce(message) : this._say('')), again ? 100 : 7000);
  }

  /** A step asks for words in the region (`pay-announce`). */
  readonly onAnnounce = (e: PayAnnounceEvent) => {
    e.stopPropagation();
    this.announce(e.detail.message);
  };

  private _say(message: string): void {
    // The same words are no update.
    if (message === this.message) return;
    this.message = message;
    this.host.requestUpdate();
  }
}
