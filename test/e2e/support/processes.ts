/** What the e2e files that run other programs (a PHP shop, `pay-checkout serve`) share: their output, and waits. */
import type { ChildProcess } from 'node:child_process';
import { settleMs } from './harness.js';

/** Output kept from a child for the failure message, its pipes drained so it never blocks. */
export function keepTail(child: ChildProcess): () => string {
  let tail = '';
  const keep = (chunk: Buffer) => (tail = (tail + chunk.toString()).slice(-4_000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return () => tail;
}

/** Polls `check` every 50 ms until it holds, or fails with `what` after `timeoutMs`. */
export async function until<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = settleMs): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`still waiting for ${what} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** How the PHP examples record a payment on a cart or an order row, as their notify.php marks it. */
export interface MarkedPaid {
  amount: number;
  paid_at: string | null;
  paid_by_event: string | null;
  id_order: number | null;
  gateway: string | null;
}
