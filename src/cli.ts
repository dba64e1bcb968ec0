#!/usr/bin/env node
/**
 * The package's `bin`: `npx pay-checkout sandbox [--port N] [--host H] [--public-url URL] [--no-order-key-dedupe]`.
 * A thin command over `pay-checkout/sandbox`; `npm run sandbox` runs this same file through tsx.
 */
import { parseArgs } from 'node:util';
import { sandboxBanner, startSandbox, type StartSandboxOptions } from './sandbox/index.js';

const usage = `Usage: pay-checkout <command> [options]

Commands:
  sandbox              the local payment service: API at /v1, hosted page at /checkout/HASH,
                       control API at /sandbox, onboarding page; prints its URLs and fixtures
  help                 this text

Options of sandbox:
  --port N             port to listen on (default 4010; 0 picks a free one)
  --host H             interface to listen on (default 127.0.0.1)
  --public-url URL     origin the sandbox puts in the links it creates (behind a tunnel or proxy)
  --no-order-key-dedupe
                       do not deduplicate order_key on POST /orders (as the live service may not)
  -h, --help           this text`;

const fail = (message: string): never => {
  console.error(`pay-checkout: ${message}\n\n${usage}`);
  process.exit(2);
};

function parse(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      options: {
        port: { type: 'string', default: '4010' },
        host: { type: 'string', default: '127.0.0.1' },
        'public-url': { type: 'string' },
        'no-order-key-dedupe': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      allowPositionals: true,
    });
  } catch (error) {
    return fail((error as Error).message);
  }
}

async function sandbox(values: ReturnType<typeof parse>['values']) {
  const port = Number(values.port);
  if (!/^\d+$/.test(values.port) || port > 65535) fail(`--port must be 0..65535, got ${values.port}`);
  const options: StartSandboxOptions = {
    port,
    host: values.host,
    publicUrl: values['public-url'],
    orderKeyDedupe: !values['no-order-key-dedupe'],
  };
  const running = await startSandbox(options).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EADDRINUSE' && error.code !== 'EACCES' && error.code !== 'EADDRNOTAVAIL') throw error;
    console.error(`pay-checkout: cannot listen on ${values.host}:${port} (${error.code}); pick another --port (0 for a free one) or --host.`);
    process.exit(1);
  });
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
}

const { values, positionals } = parse(process.argv.slice(2));
const [command, ...extra] = positionals;
if (values.help || command === 'help' || command === undefined) {
  console.log(usage);
  if (command === undefined && !values.help) process.exitCode = 2;
} else if (command !== 'sandbox') fail(`unknown command "${command}"`);
else if (extra.length > 0) fail(`unexpected argument "${extra[0]}"`);
else await sandbox(values);
