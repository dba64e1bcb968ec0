// The element leaves the page (removed, or moved: a move reconnects and starts again) in the middle of its waits: the
// later steps' chunk asked for a moment after the details step's, the live region's emptying, the countdown's tick and
// the status checks. None of their callbacks may run after it left: they would speak, tick or fetch for a checkout no
// longer on the page. Every timer the element's code made (or the client made for it) is watched, named by the first
// file of src/element/ on the stack that made it.
import { expect, waitUntil } from '@open-wc/testing';
import { mount, resetSandbox, toPush } from './support/checkout.js';

interface Watched {
  /** The element's timers not yet run nor cleared, by id: the file that made each. */
  pending: Map<number, string>;
  /** Element callbacks that ran after `left` was set. */
  late: string[];
  left: boolean;
  restore(): void;
}

/** Which file of src/element/ made a timer (the first such frame of its stack), if one did. */
function elementFile(stack = ''): string | undefined {
  return /\/src\/element\/([^?:)\s]+)/.exec(stack)?.[1];
}

function watchTimers(): Watched {
  const real = { setTimeout: window.setTimeout, setInterval: window.setInterval, clearTimeout: window.clearTimeout, clearInterval: window.clearInterval };
  const watched: Watched = { pending: new Map(), late: [], left: false, restore: () => Object.assign(window, real) };
  const wrap = (make: typeof setTimeout, repeats: boolean) =>
    ((callback: TimerHandler, ms?: number, ...args: unknown[]) => {
      const file = elementFile(new Error().stack);
      if (!file || typeof callback !== 'function') return make(callback, ms, ...args);
      const id = make(() => {
        if (!repeats) watched.pending.delete(id);
        if (watched.left) watched.late.push(file);
        (callback as (...a: unknown[]) => void)(...args);
      }, ms) as unknown as number;
      watched.pending.set(id, file);
      return id;
    }) as typeof setTimeout;
  const unwatch = (clear: (id?: number) => void) => (id?: number) => {
    if (id !== undefined) watched.pending.delete(id);
    clear(id);
  };
  Object.assign(window, {
    setTimeout: wrap(real.setTimeout, false),
    setInterval: wrap(real.setInterval as typeof setTimeout, true),
    clearTimeout: unwatch(real.clearTimeout),
    clearInterval: unwatch(real.clearInterval),
  });
  return watched;
}

const pendingFiles = (w: Watched) => [...new Set(w.pending.values())].sort();

describe('<pay-checkout> leaving the page mid-wait', () => {
  let watched: Watched;
  beforeEach(async () => {
    await resetSandbox();
    watched = watchTimers();
  });
  afterEach(() => watched.restore());

  it('removed while the later steps are waited for: that wait ends with it', async () => {
    const el = await mount();
    await waitUntil(() => pendingFiles(watched).includes('controllers/step-chunks.ts'), 'the later steps are asked for a moment after the details step', { interval: 10, timeout: 5000 });
    el.remove();
    watched.left = true;
    // The later steps would be asked for 600 ms after the details step.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(watched.late, 'no callback after it left').to.deep.equal([]);
    expect(pendingFiles(watched), 'every timer of the element cleared').to.deep.equal([]);
  });

  it('removed while a countdown ticks, the live region speaks and the status is checked: none goes on', async () => {
    const el = await mount();
    await toPush(el);
    await waitUntil(
      () => ['order/countdown.ts', 'controllers/live-region.ts'].every((file) => pendingFiles(watched).includes(file)),
      'a countdown and a live-region message on the push screen',
      { timeout: 5000 },
    );
    el.remove();
    watched.left = true;
    // The countdown ticks each second: two ticks would have passed. The live region's 7 s and a waiting status
    // request's client timeout (cleared once its aborted fetch settles) would still be pending.
    await new Promise((resolve) => setTimeout(resolve, 2200));
    expect(watched.late, 'no callback after it left').to.deep.equal([]);
    expect(pendingFiles(watched), 'every timer of the element cleared').to.deep.equal([]);
  });
});
