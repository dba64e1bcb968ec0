/** The sandbox's notion of "now": real time shifted by however far tests or the control API advanced it. */
export interface SandboxClock {
  now(): number;
  /** Moves the clock forward; expiry is evaluated against it lazily, so nothing ever sleeps. */
  advance(ms: number): void;
}

export function createClock(start?: number): SandboxClock {
  // A fixed start is frozen (deterministic tests); without one the clock follows real time plus the offset.
  let offset = 0;
  const base = start;
  return {
    now: () => (base === undefined ? Date.now() : base) + offset,
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError('advance_ms must be a non-negative number');
      offset += ms;
    },
  };
}
