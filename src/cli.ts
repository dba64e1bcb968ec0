#!/usr/bin/env node
/**
 * The package's `bin`: `npx pay-checkout sandbox [--port N] [--host H] [--public-url URL] [--dialect contract|live] [--no-order-key-dedupe] [--allow-host|origin|forward …]`.
 * `npx pay-checkout doctor --base-url URL --merchant-key KEY [--api-key K --api-secret S]`: a read-only probe of an account.
 * `npx pay-checkout serve [--check [--pay]]`: the checkout beside a shop of any stack, from PAY_CHECKOUT_* settings (server/serve/).
 * A thin command over `pay-checkout/sandbox`; `npm run sandbox` runs this same file through tsx.
 */
import { parseArgs } from 'node:util';
import { formatDoctor, runDoctor } from './doctor/doctor.js';
import { sandboxBanner, sandboxDialects, startSandbox, type StartSandboxOptions } from './sandbox/index.js';
import { closeOnSignals } from './server/node/server.js';

const usage = `Usage: pay-checkout <command> [options]

Commands:
  sandbox              the local payment service: API at /v1, hosted page at /checkout/HASH,
                       control API at /sandbox, onboarding page; prints its URLs and fixtures
  serve                the checkout beside a shop of any stack, configured by PAY_CHECKOUT_* variables:
                       buyer API, webhook intake, hosted page and the element's script on one origin
                       (pay-checkout serve --help lists the settings; --check tries them; --check --pay
                       pays one test order through it in the development environment or a sandbox)
  deliveries           the notices to your app still pending or given up, from the shared store
                       (deliveries redeliver ID sends one again with the same id)
  doctor               a read-only probe of your account before the first live call: which shape the
                       service answers in, which gateways the handler could drive, and what is wrong;
                       exits 0 only when the handler can work with that account
  help                 this text

Options of doctor:
  --base-url URL       the service's {base_url}, ending in /v1 (e.g. https://api.wava.co/v1)
  --merchant-key KEY   the store's merchant key (also read from PAY_CHECKOUT_MERCHANT_KEY)
  --api-key K, --api-secret S
                       partner keys (optional): also reads the partner's webhook configuration
  --country CC         country of the document types (default CO)

Options of sandbox:
  --port N             port to listen on (default 4010; 0 picks a free one)
  --host H             interface to listen on (default 127.0.0.1)
  --public-url URL     origin the sandbox puts in the links it creates (behind a tunnel or proxy)
  --dialect NAME       contract (default): the contract's shapes; live: the merchant API and webhooks as
                       the live service answers (result wrappers, X-Wava-* webhooks, PUT cancel, ...)
  --no-order-key-dedupe
                       do not deduplicate order_key on POST /orders (as the live service may not)
  --allow-host NAME    also answer the control API and pages at this Host name (repeatable; "any": no check)
  --allow-origin URL   a page origin of yours: it may call the control API, and the card page
                       returns to it (repeatable; loopback origins always may; "any": no check)
  --allow-forward URL  a webhook receiver POST /sandbox/forward may name (repeatable; "loopback": any
                       loopback URL); without it, the first one named is the only one
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
        dialect: { type: 'string', default: 'contract' },
        'no-order-key-dedupe': { type: 'boolean', default: false },
        'allow-host': { type: 'string', multiple: true },
        'allow-origin': { type: 'string', multiple: true },
        'allow-forward': { type: 'string', multiple: true },
        'base-url': { type: 'string' },
        'merchant-key': { type: 'string' },
        'api-key': { type: 'string' },
        'api-secret': { type: 'string' },
        country: { type: 'string', default: 'CO' },
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
  const dialect = sandboxDialects.find((d) => d === values.dialect) ?? fail(`--dialect must be ${sandboxDialects.join(' or ')}, got ${values.dialect}`);
  const options: StartSandboxOptions = {
    port,
    dialect,
    host: values.host,
    publicUrl: values['public-url'],
    orderKeyDedupe: !values['no-order-key-dedupe'],
    guard: guardOptions(values),
  };
  const running = await startSandbox(options).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EADDRINUSE' && error.code !== 'EACCES' && error.code !== 'EADDRNOTAVAIL') throw error;
    console.error(`pay-checkout: cannot listen on ${values.host}:${port} (${error.code}); pick another --port (0 for a free one) or --host.`);
    process.exit(1);
  });
  if (dialect === 'live') {
    console.log('dialect: live (the merchant API and webhooks answer as the live service does, with its development environment\'s conventions:');
    console.log('  the SMS codes 123456, 000000 and 111111 confirm a Daviplata order; webhooks go signed, under X-Wava-*, to the forward targets).');
  }
  if (values['no-order-key-dedupe']) console.log('order_key dedupe is OFF: every POST /v1/orders makes a new order.');
  console.log(sandboxBanner(running.sandbox, running.baseUrl.replace(/\/v1$/, '')));
  closeOnSignals(running);
}

async function doctor(values: ReturnType<typeof parse>['values']) {
  const baseUrl = values['base-url'] ?? fail('doctor needs --base-url URL (ending in /v1)');
  const merchantKey = values['merchant-key'] ?? process.env.PAY_CHECKOUT_MERCHANT_KEY ?? fail('doctor needs --merchant-key KEY');
  const apiKey = values['api-key'];
  const apiSecret = values['api-secret'];
  if ((apiKey === undefined) !== (apiSecret === undefined)) fail('--api-key and --api-secret go together');
  const report = await runDoctor({ baseUrl, merchantKey, countryCode: values.country, ...(apiKey && apiSecret ? { partner: { apiKey, apiSecret } } : {}) });
  console.log(formatDoctor(report));
  process.exitCode = report.ready ? 0 : 1;
}

/** The guard's lists from the repeatable flags; one "any" (or "loopback" for forwards) opens the check. */
function guardOptions(values: ReturnType<typeof parse>['values']): NonNullable<StartSandboxOptions['guard']> {
  const hosts = values['allow-host'];
  const origins = values['allow-origin'];
  const forwards = values['allow-forward'];
  for (const url of [...(origins ?? []), ...(forwards ?? [])]) {
    if (url !== 'any' && url !== 'loopback' && !URL.canParse(url)) fail(`not a URL: ${url}`);
  }
  return {
    ...(hosts && { allowedHosts: hosts.includes('any') ? 'any' : hosts }),
    ...(origins && { allowedOrigins: origins.includes('any') ? 'any' : origins }),
    ...(forwards && { allowedForwards: forwards.includes('loopback') ? 'loopback' : forwards }),
  };
}

// `serve` and `deliveries` have options of their own (serve's settings), parsed by their commands; a server keeps the process alive.
if (process.argv[2] === 'serve') {
  const { serveCommand } = await import('./server/serve/command.js');
  const status = await serveCommand(process.argv.slice(3), process.env, { probe: runDoctor });
  if (status !== undefined) process.exitCode = status;
} else if (process.argv[2] === 'deliveries') {
  const { deliveriesCommand } = await import('./server/serve/command.js');
  process.exitCode = await deliveriesCommand(process.argv.slice(3), process.env);
} else {
  const { values, positionals } = parse(process.argv.slice(2));
  const [command, ...extra] = positionals;
  if (values.help || command === 'help' || command === undefined) {
    console.log(usage);
    if (command === undefined && !values.help) process.exitCode = 2;
  } else if (command !== 'sandbox' && command !== 'doctor') fail(`unknown command "${command}"`);
  else if (extra.length > 0) fail(`unexpected argument "${extra[0]}"`);
  else if (command === 'doctor') await doctor(values);
  else await sandbox(values);
}
