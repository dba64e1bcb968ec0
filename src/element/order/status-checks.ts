import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { statusDelay } from '../internal/status-timings.js';
import type { StatusTimings } from '../internal/status-timings.js';

export interface StatusCheck {
  ok: boolean;
  /** The server held the request until the status changed or its wait ran out (a long poll). */
  waited?: boolean;
}

export interface StatusChecksOptions {
  /**
   * One status check. Receives a signal aborted when the host disconnects, the controller stops or (for a waiting
   * check) the page hides; `wait` allows a waiting request. Reports its outcome to the host itself (a flow event).
   */
  check: (signal: AbortSignal, mode: { wait: boolean }) => Promise<StatusCheck>;
  /** The timings, read at each wait (the element's test hook, through the order tracker). */
  timings: () => StatusTimings;
}

/**
 * Waits for a payment's outcome (push, transfer, card return): one check in flight at most. Where the server
 * offers waiting requests, each check waits there for the change and the next follows at once; elsewhere checks
 * poll, 2 s growing with jitter to 10 s. Nothing while the page is hidden (a waiting request is aborted), an
 * immediate check when it shows again (`visibilitychange`, `pageshow`, `online`), the request aborted on
 * disconnect, and a longer wait after a failure (no hot loop).
 */
export class StatusChecks implements ReactiveController {
  private _running = false;
  private _connected = false;
  private _attempt = 0;
  private _timer: ReturnType<typeof setTimeout> | undefined;
  private _inFlight: Promise<void> | undefined;
  private _abort: AbortController | undefined;
  /** Whether the check in flight is a waiting one (aborted when the page hides). */
  private _waitingCheck = false;
  /** What the last answer showed: the server waits (true), does not (false), not known yet (undefined). */
  private _serverWaits: boolean | undefined;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly options: StatusChecksOptions,
  ) {
    host.addController(this);
  }

  /** True while a check is on the wire. */
  get checking(): boolean {
    return this._inFlight !== undefined;
  }

  get running(): boolean {
    return this._running;
  }

  hostConnected(): void {
    this._connected = true;
    document.addEventListener('visibilitychange', this._onVisibility);
    window.addEventListener('pageshow', this._onShow);
    window.addEventListener('online', this._onShow);
    window.addEventListener('offline', this._onOffline);
    if (this._running) this._schedule();
  }

  /** Leaving the page ends the checks: no listener, no timer, no request, not running (a reconnect starts anew). */
  hostDisconnected(): void {
    this._connected = false;
    document.removeEventListener('visibilitychange', this._onVisibility);
    window.removeEventListener('pageshow', this._onShow);
    window.removeEventListener('online', this._onShow);
    window.removeEventListener('offline', this._onOffline);
    this.stop();
  }

  /** Starts checking (idempotent): at once where the server may wait, else after `firstDelayMs`. */
  start(): void {
    if (this._running) return;
    this._running = true;
    this._attempt = 0;
    this._schedule(this._serverWaits !== false);
  }

  /** Stops polling and drops any answer still on the way. */
  stop(): void {
    this._running = false;
    this._clearTimer();
    this._abort?.abort();
  }

  /**
   * Checks now, sharing the check already in flight if there is one; never while
   * the page is hidden unless `evenIfHidden` (the host's explicit requests).
   */
  checkNow(evenIfHidden = false): Promise<void> {
    // An explicit check wants the status now: a waiting request on the wire gives way to it (one at a time still).
    if (this._inFlight && evenIfHidden && this._waitingCheck) {
      this._abort?.abort();
      return this._inFlight.then(() => this.checkNow(true));
    }
    if (this._inFlight) return this._inFlight;
    if (!evenIfHidden && document.visibilityState === 'hidden') return Promise.resolve();
    this._clearTimer();
    const abort = new AbortController();
    this._abort = abort;
    // The host's explicit checks (resume, the last one before "expired") want the status now, not a wait.
    const wait = !evenIfHidden && this._serverWaits !== false;
    this._waitingCheck = wait;
    const run = (async () => {
      let answer: StatusCheck = { ok: false };
      try {
        answer = await this.options.check(abort.signal, { wait });
      } catch {
        answer = { ok: false };
      } finally {
        this._inFlight = undefined;
        this._waitingCheck = false;
        if (this._abort === abort) this._abort = undefined;
      }
      if (abort.signal.aborted) return this.host.requestUpdate();
      if (wait && answer.ok) this._serverWaits = answer.waited === true;
      // After a waiting answer the next one follows at once; a poll's success grows the gentle schedule; a failure
      // grows the wait faster either way.
      this._attempt = !answer.ok ? this._attempt + 2 : answer.waited ? 0 : Math.min(this._attempt + 1, 8);
      this._schedule(answer.ok && answer.waited === true);
      this.host.requestUpdate();
    })();
    this._inFlight = run;
    this.host.requestUpdate();
    return run;
  }

  private _schedule(now = false): void {
    this._clearTimer();
    if (!this._running || !this._connected || this._inFlight) return;
    if (document.visibilityState === 'hidden') return;
    const timings = this.options.timings();
    this._timer = setTimeout(() => void this.checkNow(), now ? 0 : statusDelay(timings, this._attempt));
  }

  private _clearTimer(): void {
    if (this._timer !== undefined) clearTimeout(this._timer);
    this._timer = undefined;
  }

  private readonly _onVisibility = (): void => {
    if (!this._running) return;
    if (document.visibilityState !== 'hidden') return void this.checkNow();
    this._clearTimer();
    // A waiting request would hold a connection open for a page nobody sees.
    if (this._waitingCheck) this._abort?.abort();
  };

  /**
   * Offline, a waiting request cannot be trusted to ever answer: drop it and check again, which fails at once, so
   * the buyer sees the notice and the checks back off as with polling; `online` checks again at once.
   */
  private readonly _onOffline = (): void => {
    if (!this._running || !this._waitingCheck) return;
    this._abort?.abort();
    void this._inFlight?.then(() => this.checkNow());
  };

  private readonly _onShow = (): void => {
    if (this._running) void this.checkNow();
  };
}
