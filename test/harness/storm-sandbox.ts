/**
 * The failover storms' sandbox in a process of its own, as the payment service is in production: in the test's process
 * it shared one thread with the proxy and 1,000 buyers' requests, and on a loaded machine creates reached it 25 s after
 * they were sent (past the handler's service timeout, so they were in doubt). Prints `listening http://…` once it
 * serves; with PAY_STORM_ARRIVALS (a file), writes `order_key at` for each create as it arrives.
 */
import { appendFileSync } from 'node:fs';
import { startSandbox } from '../../src/sandbox/server.js';

const arrivals = process.env.PAY_STORM_ARRIVALS;
// Each storm forwards webhooks to its own handler cluster: more than the one target the sandbox allows by default.
const running = await startSandbox({ port: 0, defaultReceiver: false, orderKeyDedupe: false, guard: { allowedForwards: 'loopback' } });
if (arrivals) {
  const serve = running.sandbox.fetch.bind(running.sandbox);
  running.sandbox.fetch = async (request) => {
    if (request.method === 'POST' && new URL(request.url).pathname === '/v1/orders') {
      const key = ((await request.clone().json().catch(() => ({}))) as { order_key?: string }).order_key;
      if (key) appendFileSync(arrivals, `${key} ${Date.now()}\n`);
    }
    return serve(request);
  };
}
console.log(`listening ${running.url}`);
process.once('SIGTERM', () => void running.close().finally(() => process.exit(0)));
