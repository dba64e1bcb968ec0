import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** Seconds left at which the live region speaks; never every second. */
export const countdownMilestones = [300, 60, 30, 0] as const;

export interface CountdownOptions {
  /** Called once per milestone crossed while counting (not for ones already past at start). */
  onMilestone?: (secondsLeft: number) => void;
  /** Called when a new deadline starts counting, with the seconds there are. */
  onStart?: (secondsLeft: number) => void;
  /** Called once when the time is up. */
  onEnd?: () => void;
}

/**
 * Time left until the server's `expires_at`, computed from the wall clock on every
 * tick, so a throttled background tab never drifts. Ticks once a second.
 */
export class Countdown implements ReactiveController {
  private _expiresAt: number | null = null;
  private _timer: ReturnType<typeof setInterval> | undefined;
  private _spoken = new Set<number>();
  private _ended = false;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly options: CountdownOptions = {},
  ) {
    host.addController(this);
  }

  /** Milliseconds left; null when no deadline is set. */
  get remainingMs(): number | null {
    return this._expiresAt === null ? null : Math.max(0, this._expiresAt - Date.now());
  }

  /**
   * Sets the deadline (an ISO timestamp from the server), or clears it with null.
   * `skewMs`: server clock minus this device's, so a phone set a few minutes off still counts right.
   * Same deadline: no restart.
   */
  set(expiresAt: string | null | undefined, skewMs = 0): void {
    const next = expiresAt ? Date.parse(expiresAt) - skewMs : NaN;
    const value = Number.isNaN(next) ? null : next;
    if (value === this._expiresAt) return;
    this._expiresAt = value;
    this._ended = false;
    // Milestones already behind us at start are not announced.
    const left = this._secondsLeft();
    this._spoken = new Set(countdownMilestones.filter((m) => left !== null && m > 0 && left <= m));
    if (left !== null && left > 0) this.options.onStart?.(left);
    this._restart();
  }

  hostConnected(): void {
    this._restart();
  }

  hostDisconnected(): void {
    if (this._timer !== undefined) clearInterval(this._timer);
    this._timer = undefined;
  }

  private _secondsLeft(): number | null {
    const ms = this.remainingMs;
    return ms === null ? null : Math.ceil(ms / 1000);
  }

  private _restart(): void {
    this.hostDisconnected();
    if (this._expiresAt === null) return;
    this._timer = setInterval(() => this._tick(), 1000);
    this._tick();
  }

  private _tick(): void {
    const left = this._secondsLeft();
    if (left === null) return;
    // After a throttled gap several milestones may pass at once: speak only the latest.
    let crossed: number | undefined;
    for (const milestone of countdownMilestones) {
      if (left <= milestone && !this._spoken.has(milestone)) {
        this._spoken.add(milestone);
        crossed = milestone;
      }
    }
    if (crossed !== undefined) this.options.onMilestone?.(crossed);
    if (left === 0 && !this._ended) {
      this._ended = true;
      this.hostDisconnected();
      this.options.onEnd?.();
    }
    this.host.requestUpdate();
  }
}
