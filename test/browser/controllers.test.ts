import { expect } from '@open-wc/testing';
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { statusDelay, defaultStatusTimings } from '../../src/element/internal/status-timings.js';
import { Countdown } from '../../src/element/order/countdown.js';
import { StatusChecks } from '../../src/element/order/status-checks.js';

/** The least a controller needs from its host. */
class FakeHost implements ReactiveControllerHost {
  controllers: ReactiveController[] = [];
  updates = 0;
  addController(c: ReactiveController) {
    this.controllers.push(c);
  }
  removeController() {}
  requestUpdate() {
    this.updates += 1;
  }
  get updateComplete() {
    return Promise.resolve(true);
  }
}

describe('status timings', () => {
  it('start at 2 s, grow, and never pass 10 s', () => {
    const mid = () => 0.5;
    expect(statusDelay(defaultStatusTimings, 0, mid)).to.equal(2000);
    expect(statusDelay(defaultStatusTimings, 1, mid)).to.equal(3000);
    expect(statusDelay(defaultStatusTimings, 20, mid)).to.equal(10000);
  });

  it('jitter stays within ±20% and under the cap', () => {
    expect(statusDelay(defaultStatusTimings, 0, () => 0)).to.equal(1600);
    expect(statusDelay(defaultStatusTimings, 0, () => 1)).to.equal(2400);
    expect(statusDelay(defaultStatusTimings, 20, () => 1)).to.equal(10000);
  });
});

describe('Countdown', () => {
  let realNow: () => number;
  beforeEach(() => (realNow = Date.now));
  afterEach(() => (Date.now = realNow));

  it('computes from the wall clock and speaks only at milestones (and only the latest after a gap)', () => {
    let now = 1_000_000;
    Date.now = () => now;
    const host = new FakeHost();
    const spoken: number[] = [];
    let ended = 0;
    const countdown = new Countdown(host, { onMilestone: (s) => spoken.push(s), onEnd: () => (ended += 1) });
    countdown.hostConnected();
    countdown.set(new Date(now + 6 * 60 * 1000).toISOString());
    expect(countdown.remainingMs).to.equal(360_000);
    const tick = (ms: number) => {
      now += ms;
      // Reconnecting ticks at once, as the interval would; a late tick still reads the right time.
      countdown.hostConnected();
    };
    tick(61_000); // 4:59 left: crossed 5 min
    expect(spoken).to.deep.equal([300]);
    tick(250_000); // 0:49 left after a throttled gap: crossed 1 min only, once
    expect(spoken).to.deep.equal([300, 60]);
    tick(20_000); // 0:29
    expect(spoken).to.deep.equal([300, 60, 30]);
    tick(40_000);
    expect(countdown.remainingMs).to.equal(0);
    expect(spoken).to.deep.equal([300, 60, 30, 0]);
    expect(ended).to.equal(1);
    countdown.hostDisconnected();
  });

  it('a device clock that is off is corrected by the measured skew', () => {
    Date.now = () => 0;
    const countdown = new Countdown(new FakeHost());
    // The server is 3 minutes ahead of this phone; its deadline is 5 minutes after its own now.
    const skew = 3 * 60 * 1000;
    countdown.set(new Date(skew + 5 * 60 * 1000).toISOString(), skew);
    expect(countdown.remainingMs).to.equal(5 * 60 * 1000);
    countdown.hostDisconnected();
  });
});

describe('StatusChecks', () => {
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('ends its own checks on disconnect: not running, nothing checked after, and a reconnect does not resume them', async () => {
    let checks = 0;
    const status = new StatusChecks(new FakeHost(), {
      check: () => {
        checks += 1;
        return Promise.resolve({ ok: true, waited: false });
      },
      timings: () => ({ firstDelayMs: 5, growth: 1, maxDelayMs: 5, jitter: 0 }),
    });
    status.hostConnected();
    status.start();
    await pause(60);
    expect(checks).to.be.above(0);
    status.hostDisconnected();
    expect(status.running).to.equal(false);
    const before = checks;
    status.hostConnected();
    await pause(60);
    expect(checks).to.equal(before);
    status.hostDisconnected();
  });
});
