import { expect } from '@open-wc/testing';
import { AbortedError, CheckoutClient, TimeoutError } from '../../src/client/index.js';
import { control, resetSandbox } from './support/checkout.js';

/** Removes `name` from `owner` until the returned function runs, as an older Safari would lack it. */
function without(owner: object, name: string): () => void {
  const original = Object.getOwnPropertyDescriptor(owner, name);
  Object.defineProperty(owner, name, { value: undefined, configurable: true, writable: true });
  return () => original && Object.defineProperty(owner, name, original);
}

/** The client in this engine without AbortSignal.timeout (Safari < 16) and AbortSignal.any (Safari < 17.4). */
describe('client fallbacks for older engines, in this engine', () => {
  let restore: (() => void)[] = [];
  beforeEach(async () => {
    await resetSandbox();
    // The sandbox answers the link slowly: slower than the client's timeout, never slower than the test's limit.
    await control('POST /faults', { path: '/v1/checkout/links/demo-fixed', method: 'GET', count: 1, mode: 'latency', latency_ms: 3_000 });
    restore = [without(AbortSignal, 'timeout'), without(AbortSignal, 'any')];
  });
  afterEach(async () => {
    for (const undo of restore) undo();
    await fetch('/sandbox/faults', { method: 'DELETE' });
  });

  it('a slow answer past timeoutMs is a TimeoutError', async () => {
    const client = new CheckoutClient({ baseUrl: '/v1', timeoutMs: 300 });
    const error = await client.getLink('demo-fixed').then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(TimeoutError);
    expect((error as TimeoutError).timeoutMs).to.equal(300);
  });

  it("the caller's signal aborts first with an AbortedError", async () => {
    const client = new CheckoutClient({ baseUrl: '/v1', timeoutMs: 10_000 });
    const controller = new AbortController();
    const pending = client.getLink('demo-fixed', { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const error = await pending.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(AbortedError);
  });
});
