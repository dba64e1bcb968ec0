/**
 * Every timing of the status checks, in one place. Tests shorten
 * them through `PayCheckout.statusTimings`; production keeps these.
 */
export interface StatusTimings {
  /** Delay before the first check, and the starting delay after each answer. */
  firstDelayMs: number;
  /** Each further wait is the last one times this. */
  growth: number;
  /** The waits never exceed this. */
  maxDelayMs: number;
  /** ± share of each wait chosen at random, so many buyers don't poll in step. */
  jitter: number;
  /**
   * How long resuming a saved order (a reload, the card page's return) keeps retrying quietly on the loading screen
   * through failures that may pass (5xx, 429, offline) before the error screen shows. 10 s when left out.
   */
  resumePatienceMs?: number;
}

export const defaultStatusTimings: StatusTimings = {
  firstDelayMs: 2_000,
  growth: 1.5,
  maxDelayMs: 10_000,
  jitter: 0.2,
  resumePatienceMs: 10_000,
};

/** The wait before check number `attempt` (0-based), jittered, capped at `maxDelayMs`. */
export function statusDelay(timings: StatusTimings, attempt: number, random: () => number = Math.random): number {
  const base = Math.min(timings.maxDelayMs, timings.firstDelayMs * timings.growth ** attempt);
  const spread = base * timings.jitter * (random() * 2 - 1);
  return Math.max(0, Math.min(timings.maxDelayMs, Math.round(base + spread)));
}
