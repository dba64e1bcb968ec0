import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { defaultStatusTimings, statusDelay } from './status-timings.js';
import type { StatusTimings } from './status-timings.js';

export interface StatusControllerOptions {
  /**
   * One status check. Receives a signal aborted when the host disconnects or the
   * controller stops; reports its outcome to the host itself (a flow event).
   */
  check: (signal: AbortSignal) => Promise<{ ok: boolean }>;
  timings?: () => StatusTimings;
}

/**
 * Waits for a payment's outcome (push, transfer, card return): one check in flight
 * at most, 2 s growing with jitter to 10 s, nothing while the page is hidden, an
 * immediate check when it shows again (`visibilitychange`, `pageshow`, `online`),
 * the request aborted on disconnect, and a longer wait after a failure (no hot loop).
 */
export class StatusController implements ReactiveController {
  readonly #host: ReactiveControllerHost;
  readonly #options: StatusControllerOptions;
  #running = false;
  #connected = false;
  #attempt = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #inFlight: Promise<void> | undefined;
  #abort: AbortController | undefined;

  constructor(host: ReactiveControllerHost, options: StatusControllerOptions) {
    this.#host = host;
    this.#options = options;
    host.addController(this);
  }

  /** True while a check is on the wire. */
  get checking(): boolean {
    return this.#inFlight !== undefined;
  }

  get running(): boolean {
    return this.#running;
  }

  hostConnected(): void {
    this.#connected = true;
    document.addEventListener('visibilitychange', this.#onVisibility);
    window.addEventListener('pageshow', this.#onShow);
    window.addEventListener('online', this.#onShow);
    if (this.#running) this.#schedule();
  }

  hostDisconnected(): void {
    this.#connected = false;
    document.removeEventListener('visibilitychange', this.#onVisibility);
    window.removeEventListener('pageshow', this.#onShow);
    window.removeEventListener('online', this.#onShow);
    this.#clearTimer();
    this.#abort?.abort();
  }

  /** Starts polling (idempotent): the first check after `firstDelayMs`. */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#attempt = 0;
    this.#schedule();
  }

  /** Stops polling and drops any answer still on the way. */
  stop(): void {
    this.#running = false;
    this.#clearTimer();
    this.#abort?.abort();
  }

  /**
   * Checks now, sharing the check already in flight if there is one; never while
   * the page is hidden unless `evenIfHidden` (the host's explicit requests).
   */
  checkNow(evenIfHidden = false): Promise<void> {
    if (this.#inFlight) return this.#inFlight;
    if (!evenIfHidden && document.visibilityState === 'hidden') return Promise.resolve();
    this.#clearTimer();
    const abort = new AbortController();
    this.#abort = abort;
    const run = (async () => {
      let ok = false;
      try {
        ok = (await this.#options.check(abort.signal)).ok;
      } catch {
        ok = false;
      } finally {
        this.#inFlight = undefined;
        if (this.#abort === abort) this.#abort = undefined;
      }
      // A success restarts the gentle schedule; a failure keeps growing the wait.
      this.#attempt = ok ? Math.min(this.#attempt + 1, 8) : this.#attempt + 2;
      if (!abort.signal.aborted) this.#schedule();
      this.#host.requestUpdate();
    })();
    this.#inFlight = run;
    this.#host.requestUpdate();
    return run;
  }

  #schedule(): void {
    this.#clearTimer();
    if (!this.#running || !this.#connected || this.#inFlight) return;
    if (document.visibilityState === 'hidden') return;
    const timings = this.#options.timings?.() ?? defaultStatusTimings;
    this.#timer = setTimeout(() => void this.checkNow(), statusDelay(timings, this.#attempt));
  }

  #clearTimer(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  readonly #onVisibility = (): void => {
    if (!this.#running) return;
    if (document.visibilityState === 'hidden') this.#clearTimer();
    else void this.checkNow();
  };

  readonly #onShow = (): void => {
    if (this.#running) void this.checkNow();
  };
}
