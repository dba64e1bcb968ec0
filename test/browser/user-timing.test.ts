import { expect } from '@open-wc/testing';
import { control, latestOrderId, mount, resetSandbox, toPush, waitForStep } from './support/checkout.js';

/** The checkout's User Timing entries (marks and measures) in the order they were made, as a RUM tool observes them. */
let made: (PerformanceMark | PerformanceMeasure)[] = [];
const observer = new PerformanceObserver((list) => {
  for (const e of list.getEntries()) if (e.name.startsWith('pay-checkout:')) made.push(e as PerformanceMark | PerformanceMeasure);
});
observer.observe({ entryTypes: ['mark', 'measure'] });
/** Entries are handed to observers a moment after they are made. */
const ours = async () => {
  await new Promise((resolve) => setTimeout(resolve, 50));
  return made;
};

describe('<pay-checkout> User Timing marks for real-user monitoring', () => {
  beforeEach(async () => {
    await resetSandbox();
    made = [];
  });

  it('marks the first screen, interactive, the order and the payment in order, and measures the time to pay, with no personal data', async () => {
    const el = await mount();
    await waitForStep(el, 'method');
    const phone = '300 765 4321';
    await toPush(el, phone);
    const id = await latestOrderId();
    await control(`/orders/${id}/approve`, {});
    await waitForStep(el, 'paid');

    const entries = await ours();
    // Marks in the order they were made, and the one measure (a RUM tool's observer lists entries by start time).
    expect(entries.filter((e) => e.entryType === 'mark').map((e) => e.name)).to.deep.equal([
      'pay-checkout:first-screen',
      'pay-checkout:interactive',
      'pay-checkout:order-created',
      'pay-checkout:paid',
    ]);
    expect(entries.filter((e) => e.entryType === 'measure').map((e) => e.name)).to.deep.equal(['pay-checkout:time-to-pay']);
    const at = (name: string) => entries.find((e) => e.name === `pay-checkout:${name}`) as PerformanceEntry;
    const times = ['first-screen', 'interactive', 'order-created', 'paid'].map((name) => at(name).startTime);
    expect([...times].sort((a, b) => a - b), 'marks in time order').to.deep.equal(times);
    const measure = at('time-to-pay');
    expect(measure.startTime).to.equal(at('first-screen').startTime);
    // From the first screen to the receipt: it ends with the paid mark.
    expect(measure.startTime + measure.duration).to.be.closeTo(at('paid').startTime, 0.01);
    expect(measure.duration).to.be.greaterThan(0);

    // The gateway's kind, and nothing of the buyer or the order: no phone, document, order id, amount or token.
    expect((at('order-created') as PerformanceMark).detail).to.deep.equal({ gateway: 'push' });
    expect((at('paid') as PerformanceMark).detail).to.deep.equal({ gateway: 'push' });
    expect((measure as PerformanceMeasure).detail).to.deep.equal({ gateway: 'push' });
    expect((at('first-screen') as PerformanceMark).detail ?? null).to.equal(null);
    const said = JSON.stringify(entries.map((e) => (e as PerformanceMark).detail ?? null));
    for (const secret of ['7654321', '1020304050', String(id), '50000', 'token']) expect(said).not.to.include(secret);
  });

  it('marks nothing more when a paid receipt is shown again on reload', async () => {
    const el = await mount();
    await waitForStep(el, 'method');
    await toPush(el);
    await control(`/orders/${await latestOrderId()}/approve`, {});
    await waitForStep(el, 'paid');
    el.remove();
    await ours();
    made = [];
    const again = await mount();
    await waitForStep(again, 'paid');
    expect((await ours()).map((e) => e.name)).to.deep.equal(['pay-checkout:first-screen', 'pay-checkout:interactive']);
  });
});
