import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** Seconds left at which the live region speaks; never every second. */
export const countdownMilestones = [300, 60, 30, 0] as const;

export interface CountdownControllerOptions {
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
export class CountdownController implements ReactiveController {
  readonly #host: ReactiveControllerHost;
  readonly #options: CountdownControllerOptions;
  #expiresAt: number | null = null;
  #timer: ReturnType<typeof setInterval> | undefined;
  #spoken = new Set<number>();
  #ended = false;

  constructor(host: ReactiveControllerHost, options: CountdownControllerOptions = {}) {
    this.#host = host;
    this.#options = options;
    host.addController(this);
  }

  /** Milliseconds left; null when no deadline is set. */
  get remainingMs(): number | null {
    return this.#expiresAt === null ? null : Math.max(0, this.#expiresAt - Date.now());
  }

  /**
   * Sets the deadline (an ISO timestamp from the server), or clears it with null.
   * `skewMs`: server clock minus this device's, so a phone set a few minutes off still counts right.
   * Same deadline: no restart.
   */
  set(expiresAt: string | null | undefined, skewMs = 0): void {
    const next = expiresAt ? Date.parse(expiresAt) - skewMs : NaN;
    const value = Number.isNaN(next) ? null : next;
    if (value === this.#expiresAt) return;
    this.#expiresAt = value;
    this.#ended = false;
    // Milestones already behind us at start are not announced.
    const left = this.#secondsLeft();
    this.#spoken = new Set(countdownMilestones.filter((m) => left !== null && m > 0 && left <= m));
    if (left !== null && left > 0) this.#options.onStart?.(left);
    this.#restart();
  }

  hostConnected(): void {
    this.#restart();
  }

  hostDisconnected(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #secondsLeft(): number | null {
    const ms = this.remainingMs;
    return ms === null ? null : Math.ceil(ms / 1000);
  }

  #restart(): void {
    this.hostDisconnected();
    if (this.#expiresAt === null) return;
    this.#timer = setInterval(() => this.#tick(), 1000);
    this.#tick();
  }

  #tick(): void {
    const left = this.#secondsLeft();
    if (left === null) return;
    // After a throttled gap several milestones may pass at once: speak only the latest.
    let crossed: number | undefined;
    for (const milestone of countdownMilestones) {
      if (left <= milestone && !this.#spoken.has(milestone)) {
        this.#spoken.add(milestone);
        crossed = milestone;
      }
    }
    if (crossed !== undefined) this.#options.onMilestone?.(crossed);
    if (left === 0 && !this.#ended) {
      this.#ended = true;
      this.hostDisconnected();
      this.#options.onEnd?.();
    }
    this.#host.requestUpdate();
  }
}
