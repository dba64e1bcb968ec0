/** examples/server-redis.ts as a merchant runs it: two processes, one Redis, a sandbox without order_key dedupe. */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { postOrder } from './handler-harness.js';
import { startRedis, type TestRedis } from './redis-harness.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
let redis: TestRedis;
let sandbox: RunningSandbox;
const children: ChildProcess[] = [];

async function startExample(): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'examples/server-redis.ts'], {
    cwd: root,
    env: { ...process.env, MERCHANT_KEY: 'mk_test_demo', REDIS_URL: redis.url, SANDBOX_URL: sandbox.url, PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the example did not start: ${out}`)), 30_000);
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const url = /Buyer API on (http:\/\/\S+)\/v1/.exec(out)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve(url);
      }
    });
  });
}

before(async () => {
  redis = await startRedis();
  sandbox = await startSandbox({ port: 0, defaultReceiver: false, orderKeyDedupe: false });
});
after(async () => {
  await Promise.all(
    children.map(async (child) => {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    }),
  );
  await sandbox.close();
  await redis.stop();
});

describe('examples/server-redis.ts', () => {
  it('two instances answer one key with one order', async () => {
    const [a, b] = await Promise.all([startExample(), startExample()]);
    const replies = await Promise.all([postOrder(a, 'example-key'), postOrder(b, 'example-key'), postOrder(a, 'example-key')]);
    const summary = JSON.stringify(replies.map((r) => r.body));
    assert.ok(replies.every((r) => r.status === 201 || r.status === 200), summary);
    assert.equal(new Set(replies.map((r) => r.body.data.id_order)).size, 1, summary);
    assert.equal(sandbox.sandbox.state.orders.size, 1);
  });
});
