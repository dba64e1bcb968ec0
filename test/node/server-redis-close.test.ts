/**
 * createRedisStore()'s close() ends every connection it opened, whatever Redis and the store's callers are doing:
 * each scenario (redis-close-process.ts) runs in a process of its own, which must end by itself once close() resolved.
 * A client left behind keeps reconnecting to the stopped Redis, and its process never ends.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

interface Ended {
  /** How long close() took, as the process measured it; undefined when it never resolved. */
  closeMs?: number;
  code: number | null;
  output: string;
}

/** Runs one scenario; kills it if it has not ended 15 s after close() resolved (or 30 s in all). */
async function runScenario(name: string): Promise<Ended> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/node/redis-close-process.ts', name], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let closeMs: number | undefined;
  let limit = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const read = (chunk: Buffer) => {
    output += chunk.toString();
    const closed = /^closed (\{.*\})$/m.exec(output);
    if (closed && closeMs === undefined) {
      closeMs = (JSON.parse(closed[1]!) as { ms: number }).ms;
      clearTimeout(limit);
      limit = setTimeout(() => child.kill('SIGKILL'), 15_000);
    }
  };
  child.stdout.on('data', read);
  child.stderr.on('data', read);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
  clearTimeout(limit);
  return { closeMs, code, output };
}

async function assertEndsByItself(name: string) {
  const ended = await runScenario(name);
  assert.notEqual(ended.closeMs, undefined, `close() did not resolve within 30 s:\n${ended.output}`);
  assert.ok(ended.closeMs! < 5_000, `close() took ${ended.closeMs} ms`);
  assert.equal(ended.code, 0, `exit code ${ended.code} (null: killed, still running 15 s after close()):\n${ended.output}`);
}

describe('closing a Redis store lets go of every connection', () => {
  it('a status request waiting on Redis, Redis gone, then a graceful stop: the server and the store close, nothing reconnects', async () => {
    await assertEndsByItself('handler-wait-redis-gone');
  });

  it('an unsubscribe that arrives after close() opens no new pub/sub connection', async () => {
    await assertEndsByItself('unsubscribe-after-close');
  });

  it('a pub/sub connection still connecting to a Redis that went away is ended, not awaited', async () => {
    await assertEndsByItself('subscribe-while-redis-gone');
  });

  it('the first connection, still trying to reach a Redis that was never there, is ended', async () => {
    await assertEndsByItself('redis-never-up');
  });
});
