import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { defaultStatusTimings, statusDelay } from '../internal/status-timings.js';
import type { StatusTimings } from '../internal/status-timings.js';

export interface StatusCheck {
  ok: boolean;
  /** The server held the request until the status changed or its wait ran out (a long poll). */
  waited?: boolean;
}

export interface StatusControllerOptions {
  /**
   * One status check. Receives a signal aborted when the host disconnects, the controller stops or (for a waiting
   * check) the page hides; `wait` allows a waiting request. Reports its outcome to the host itself (a flow event).
   */
  check: (signal: AbortSignal, mode: { wait: boolean }) => Promise<StatusCheck>;
  timings?: () => StatusTimings | undefined;
}

/**
 * Waits for a payment's outcome (push, transfer, card return): one check in flight at most. Where the server
 * offers waiting requests, each check waits there for the change and the next follows at once; elsewhere checks
 * poll, 2 s growing with jitter to 10 s. Nothing while the page is hidden (a waiting request is aborted), an
 * immediate check when it shows again (`visibilitychange`, `pageshow`, `online`), the request aborted on
 * disconnect, and a longer wait after a failure (no hot loop).
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
  /** Whether the check in flight is a waiting one (aborted when the page hides). */
  #waitingCheck = false;
  /** What the last answer showed: the server waits (true), does not (false), not known yet (undefined). */
  #serverWaits: boolean | undefined;

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
    window.addEventListener('offline', this.#onOffline);
    if (this.#running) this.#schedule();
  }

  hostDisconnected(): void {
    this.#connected = false;
    document.removeEventListener('visibilitychange', this.#onVisibility);
    window.removeEventListener('pageshow', this.#onShow);
    window.removeEventListener('online', this.#onShow);
    window.removeEventListener('offline', this.#onOffline);
    this.#clearTimer();
    this.#abort?.abort();
  }

  /** Starts checking (idempotent): at once where the server may wait, else after `firstDelayMs`. */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#attempt = 0;
    this.#schedule(this.#serverWaits !== false);
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
    // An explicit check wants the status now: a waiting request on the wire gives way to it (one at a time still).
    if (this.#inFlight && evenIfHidden && this.#waitingCheck) {
      this.#abort?.abort();
      return this.#inFlight.then(() => this.checkNow(true));
    }
    if (this.#inFlight) return this.#inFlight;
    if (!evenIfHidden && document.visibilityState === 'hidden') return Promise.resolve();
    this.#clearTimer();
    const abort = new AbortController();
    this.#abort = abort;
    // The host's explicit checks (resume, the last one before "expired") want the status now, not a wait.
    const wait = !evenIfHidden && this.#serverWaits !== false;
    this.#waitingCheck = wait;
    const run = (async () => {
      let answer: StatusCheck = { ok: false };
      try {
        answer = await this.#options.check(abort.signal, { wait });
      } catch {
        answer = { ok: false };
      } finally {
        this.#inFlight = undefined;
        this.#waitingCheck = false;
        if (this.#abort === abort) this.#abort = undefined;
      }
      if (abort.signal.aborted) return this.#host.requestUpdate();
      if (wait && answer.ok) this.#serverWaits = answer.waited === true;
      // After a waiting answer the next one follows at once; a poll's success grows the gentle schedule; a failure
      // grows the wait faster either way.
      this.#attempt = !answer.ok ? this.#attempt + 2 : answer.waited ? 0 : Math.min(this.#attempt + 1, 8);
      this.#schedule(answer.ok && answer.waited === true);
      this.#host.requestUpdate();
    })();
    this.#inFlight = run;
    this.#host.requestUpdate();
    return run;
  }

  #schedule(now = false): void {
    this.#clearTimer();
    if (!this.#running || !this.#connected || this.#inFlight) return;
    if (document.visibilityState === 'hidden') return;
    const timings = this.#options.timings?.() ?? defaultStatusTimings;
    this.#timer = setTimeout(() => void this.checkNow(), now ? 0 : statusDelay(timings, this.#attempt));
  }

  #clearTimer(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  readonly #onVisibility = (): void => {
    if (!this.#running) return;
    if (document.visibilityState !== 'hidden') return void this.checkNow();
    this.#clearTimer();
    // A waiting request would hold a connection open for a page nobody sees.
    if (this.#waitingCheck) this.#abort?.abort();
  };

  /**
   * Offline, a waiting request cannot be trusted to ever answer: drop it and check again, which fails at once, so
   * the buyer sees the notice and the checks back off as with polling; `online` checks again at once.
   */
  readonly #onOffline = (): void => {
    if (!this.#running || !this.#waitingCheck) return;
    this.#abort?.abort();
    void this.#inFlight?.then(() => this.checkNow());
  };

  readonly #onShow = (): void => {
    if (this.#running) void this.checkNow();
  };
}
