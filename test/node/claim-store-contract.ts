/** The claim store's promises, run against every implementation (memory, Redis) by the files that import this. */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { ClaimStore } from '../../src/server/once/claims.js';

const minute = 60_000;
let serial = 0;
const freshKey = () => `k${process.pid}-${Date.now()}-${(serial += 1)}`;

/** Waits on a condition with a generous limit (loaded machines), never a fixed sleep. */
export async function until<T>(probe: () => T | undefined | Promise<T | undefined>, what: string, limitMs = 20_000): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export function claimStoreContract(store: () => ClaimStore): void {
  it('claims a free key once; the same digest then sees in_flight, another digest mismatch', async () => {
    const key = freshKey();
    const first = await store().claim(key, 'd1', minute);
    assert.equal(first.state, 'claimed');
    assert.deepEqual(await store().claim(key, 'd1', minute), { state: 'in_flight', digest: 'd1' });
    assert.deepEqual(await store().claim(key, 'd2', minute), { state: 'mismatch' });
  });

  it('gives exactly one claim to concurrent callers', async () => {
    const key = freshKey();
    const results = await Promise.all(Array.from({ length: 50 }, () => store().claim(key, 'd', minute)));
    assert.equal(results.filter((r) => r.state === 'claimed').length, 1);
    assert.equal(results.filter((r) => r.state === 'in_flight').length, 49);
  });

  it('completes only with the holding token, then replays the response and keeps the digest', async () => {
    const key = freshKey();
    const claimed = await store().claim(key, 'd', minute);
    assert.ok(claimed.state === 'claimed');
    assert.equal(await store().complete(key, 'not-the-token', 'x', minute), false);
    assert.equal(await store().complete(key, claimed.token, '{"id":1}', minute), true);
    assert.equal(await store().complete(key, claimed.token, '{"id":2}', minute), false, 'a done record is not completed twice');
    assert.deepEqual(await store().claim(key, 'd', minute), { state: 'done', response: '{"id":1}' });
    assert.deepEqual(await store().claim(key, 'other', minute), { state: 'mismatch' });
    assert.deepEqual(await store().inspect(key), { state: 'done', digest: 'd', response: '{"id":1}' });
  });

  it('releases only with the holding token, and the key can be claimed again', async () => {
    const key = freshKey();
    const claimed = await store().claim(key, 'd', minute);
    assert.ok(claimed.state === 'claimed');
    assert.equal(await store().release(key, 'nope'), false);
    assert.deepEqual(await store().inspect(key), { state: 'held', token: claimed.token, digest: 'd' });
    assert.equal(await store().release(key, claimed.token), true);
    assert.deepEqual(await store().inspect(key), { state: 'free' });
    const again = await store().claim(key, 'other-body', minute);
    assert.equal(again.state, 'claimed');
    assert.ok(again.state === 'claimed' && again.token !== claimed.token);
  });

  it('lets a lapsed lease be claimed anew, fencing out the old holder', async () => {
    const key = freshKey();
    const old = await store().claim(key, 'd', 150);
    assert.ok(old.state === 'claimed');
    const next = await until(async () => {
      const r = await store().claim(key, 'd', minute);
      return r.state === 'claimed' ? r : undefined;
    }, 'the lease to lapse');
    assert.equal(await store().complete(key, old.token, 'late', minute), false);
    assert.equal(await store().release(key, old.token), false);
    assert.equal(await store().complete(key, next.token, 'mine', minute), true);
    assert.deepEqual(await store().claim(key, 'd', minute), { state: 'done', response: 'mine' });
  });

  it('forgets a done record after its ttl', async () => {
    const key = freshKey();
    const claimed = await store().claim(key, 'd', minute);
    assert.ok(claimed.state === 'claimed');
    await store().complete(key, claimed.token, 'r', 150);
    await until(async () => (await store().inspect(key)).state === 'free' || undefined, 'the record to expire');
  });

  it('publishes to every subscriber of a channel until it unsubscribes', async () => {
    const channel = `ch-${freshKey()}`;
    const a: string[] = [];
    const b: string[] = [];
    const offA = await store().subscribe(channel, (m) => a.push(m));
    const offB = await store().subscribe(channel, (m) => b.push(m));
    await store().publish(channel, 'one');
    await until(() => a.length === 1 && b.length === 1, 'both listeners');
    await offA();
    await store().publish(channel, 'two');
    await until(() => b.length === 2, 'the remaining listener');
    assert.deepEqual(a, ['one']);
    assert.deepEqual(b, ['one', 'two']);
    await offB();
  });
}
