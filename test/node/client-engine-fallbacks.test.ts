/**
 * The transport on engines that lack newer statics (Safari before 16 has no `AbortSignal.timeout`, before 17.4 no
 * `AbortSignal.any`; `crypto.randomUUID` needs a secure context): with them removed, timeouts and aborts still map to
 * the same errors, over a real socket that never answers.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { AbortedError, CheckoutClient, TimeoutError } from '../../src/client/index.js';
import { newIdempotencyKey } from '../../src/element/internal/idempotency-key.js';
import { FakeService } from './client-server.js';

/** Removes `name` from `owner` until `restore()`, as an older engine would lack it. */
function without(owner: object, name: string): { restore: () => void } {
  const original = Object.getOwnPropertyDescriptor(owner, name);
  Object.defineProperty(owner, name, { value: undefined, configurable: true, writable: true });
  return { restore: () => original && Object.defineProperty(owner, name, original) };
}

describe('engine fallbacks (real HTTP server that never answers)', () => {
  const service = new FakeService();
  let removed: { restore: () => void }[] = [];
  before(() => service.start());
  afterEach(() => {
    for (const r of removed) r.restore();
    removed = [];
  });
  after(() => service.stop());

  const client = (timeoutMs: number) => new CheckoutClient({ baseUrl: service.baseUrl, timeoutMs });

  it('without AbortSignal.timeout and AbortSignal.any, no answer within timeoutMs is still a TimeoutError', async () => {
    service.on('GET /v1/checkout/links/slow', { hang: true });
    removed = [without(AbortSignal, 'timeout'), without(AbortSignal, 'any')];
    const started = Date.now();
    await assert.rejects(client(200).getLink('slow'), (error) => error instanceof TimeoutError && error.timeoutMs === 200);
    assert.ok(Date.now() - started < 1_500, 'gave up near the timeout');
  });

  it("without them, the caller's signal still aborts with an AbortedError before the timeout", async () => {
    service.on('GET /v1/checkout/links/slow', { hang: true });
    removed = [without(AbortSignal, 'timeout'), without(AbortSignal, 'any')];
    const controller = new AbortController();
    const pending = client(5_000).getLink('slow', { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await assert.rejects(pending, AbortedError);
  });

  it('without crypto.randomUUID, idempotency keys are still 128 random bits, never repeated', () => {
    removed = [without(crypto, 'randomUUID')];
    const keys = new Set(Array.from({ length: 100 }, () => newIdempotencyKey()));
    assert.equal(keys.size, 100);
    for (const key of keys) assert.match(key, /^[0-9a-f]{32}$/);
  });
});
