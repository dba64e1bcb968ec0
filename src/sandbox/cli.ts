/** `npm run sandbox -- --port N`: the sandbox on its own (default port 4010), printing its URLs and fixtures. */
import { parseArgs } from 'node:util';
import { sandboxBanner } from './banner.js';
import { startSandbox } from './server.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '4010' },
    host: { type: 'string', default: '127.0.0.1' },
    'public-url': { type: 'string' },
    // Every create makes a new order, as a service that does not deduplicate order_key would.
    'no-order-key-dedupe': { type: 'boolean', default: false },
  },
  allowPositionals: false,
});
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port must be 0..65535, got ${values.port}`);
  process.exit(2);
}

const running = await startSandbox({ port, host: values.host, publicUrl: values['public-url'], orderKeyDedupe: !values['no-order-key-dedupe'] });
if (values['no-order-key-dedupe']) console.log('order_key dedupe is OFF: every POST /v1/orders makes a new order.');
console.log(sandboxBanner(running.sandbox, running.baseUrl.replace(/\/v1$/, '')));

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    if (closing) return;
    closing = true;
    void running.close().finally(() => process.exit(0));
  });
}
