/**
 * `npx pay-checkout serve [--check] [--SETTING VALUE …]`: the command over startServeCommand(). A setting missing or malformed
 * stops it before it listens: one sentence on stderr, no stack trace, exit status 2. `--check` prints one line per item
 * and exits 0 or 1; `--check --pay` pays one test order through the running serve (trial.ts): 0, 1, or 2 when it
 * refuses. Serving, SIGTERM or SIGINT drains it (waiting status requests answered at once, requests under way given
 * 10 s) and exits 0.
 */
import { parseArgs } from 'node:util';
import { checkServeCommand, formatCheck, type ServiceProbe } from './check.js';
import { defaultTrialWaitMs, payTrial } from './trial.js';
import { jsonLines, startServeCommand } from './index.js';
import { outboxOf, relayOf } from './outcome-relay.js';
import { parseDeliverySettings, parseServeCommandSettings, rawSettings, serveCommandSettings, SettingError, type ServeCommandSettings } from './settings.js';
import { createRelay, runDeliveries } from './relay/index.js';
import { closeOnSignals } from '../node/server.js';
import { isPartnerMode, parsePartnerServeSettings, type PartnerServeSettings } from './partner/settings.js';
import { checkPartner } from './partner/check.js';
import { runPartnerDeliveries, runStores } from './partner/stores-command.js';

export const serveUsage = `Usage: pay-checkout serve [--check [--pay]] [options]

The checkout beside a shop of any stack: the buyer API (/v1/checkout/...), the webhook intake (/v1/webhooks),
health (/v1/health, /v1/health/ready), the hosted page (/checkout/HASH) and the element's script (/pay-checkout.js).
Configured by environment variables; each may also be given as the flag beside it.

${Object.values(serveCommandSettings)
  .map((s) => `  --${s.flag.padEnd(17)} ${s.env}\n${' '.repeat(22)}${s.expects}`)
  .join('\n')}

  --check              check the settings, the service (a read-only probe), the links URL (asks for the hash
                       pay-checkout-check; a 404 is a fine answer) and the notify URL (a signed test notice);
                       one line each, exit 0 when all pass, 1 otherwise
  --check --pay        in the development environment or a sandbox only: pay one test order through the running
                       server (at PAY_CHECKOUT_PUBLIC_URL, else HOST:PORT) and see the service's webhook reach it and
                       verify, and the shop take the notice; one line per step, exit 0 when all pass, 1 naming the
                       setting to fix, 2 (before any call) in production or against any other service
  --wait-seconds N     with --pay: how long the webhook and the notice are each waited for (default ${defaultTrialWaitMs / 1000})
  --store STORE_ID     partner mode, with --check: send that shop's notify URL a signed test notice
                       (partner mode's --check also checks the keys open the store, the partner pair, and that
                       the running serve takes the service's signed test delivery of the partner webhook)
  -h, --help           this text`;

/**
 * Runs the command; resolves with the exit status for `--check` and for a setting error, never for a server. `probe`:
 * the doctor's, for `--check` (the CLI hands it in; the doctor sits above the server).
 */
export async function serveCommand(argv: string[], env: Record<string, string | undefined>, { probe }: { probe: ServiceProbe }): Promise<number | undefined> {
  const options = Object.fromEntries(Object.values(serveCommandSettings).map((s) => [s.flag, { type: 'string' as const }]));
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({ args: argv, options: { ...options, check: { type: 'boolean' }, pay: { type: 'boolean' }, 'wait-seconds': { type: 'string' }, store: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, allowPositionals: false }));
  } catch (error) {
    console.error(`pay-checkout serve: ${(error as Error).message}`);
    return 2;
  }
  if (values.help) {
    console.log(serveUsage);
    return 0;
  }
  if ((values.pay || values['wait-seconds'] !== undefined || values.store !== undefined) && !values.check) {
    console.error('pay-checkout serve: --pay, --wait-seconds and --store go with --check.');
    return 2;
  }
  const waitSeconds = values['wait-seconds'];
  if (typeof waitSeconds === 'string' && !/^\d{1,4}$/.test(waitSeconds)) {
    console.error(`pay-checkout serve: --wait-seconds expects a whole number of seconds, got ${JSON.stringify(waitSeconds)}.`);
    return 2;
  }
  const flags = Object.fromEntries(Object.entries(values).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[0] !== 'wait-seconds' && entry[0] !== 'store'));
  let settings: ServeCommandSettings | PartnerServeSettings;
  try {
    const raw = rawSettings(env, flags);
    settings = isPartnerMode(raw) ? parsePartnerServeSettings(raw) : parseServeCommandSettings(raw);
    await requireStoreDriver(settings.store);
  } catch (error) {
    if (!(error instanceof SettingError)) throw error;
    console.error(`pay-checkout serve: ${error.message}`);
    return 2;
  }
  if (values.pay) {
    if ('partner' in settings) {
      console.error(
        "pay-checkout serve: --pay is for one shop's serve; in partner mode it would pay a real shop's link and send that shop a paid notice for an order it never made. Check the rest with --check --store STORE_ID, then register a test shop with a sandbox merchant key (POST /v1/stores), make a link with its api_key (POST /v1/stores/me/links) and pay it in a browser (docs: For platforms, \"Before going live\").",
      );
      return 2;
    }
    return payTrial(settings, { print: (line) => console.log(line), ...(typeof waitSeconds === 'string' ? { waitMs: Number(waitSeconds) * 1000 } : {}) });
  }
  if (values.check) {
    if ('partner' in settings) {
      const items = await checkPartner(settings, typeof values.store === 'string' ? { store: values.store } : {});
      console.log(formatCheck(items));
      return items.every((item) => item.ok) ? 0 : 1;
    }
    const relay = relayOf(settings, () => {});
    const sendTestEvent = async () => {
      const sent = await relay!.sendTestEvent();
      if (!sent.ok) throw new Error(`a signed test notice was not taken: ${sent.error ?? `answered ${sent.status}`}`);
      return `took a signed test notice (${sent.status})`;
    };
    const items = await checkServeCommand(settings, { probe, ...(relay ? { sendTestEvent } : {}) });
    await relay?.close();
    console.log(formatCheck(items));
    return items.every((item) => item.ok) ? 0 : 1;
  }
  let running;
  try {
    running = await startServeCommand(settings, { onEvent: jsonLines });
  } catch (error) {
    if (error instanceof SettingError) {
      console.error(`pay-checkout serve: ${error.message}`);
      return 2;
    }
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
      console.error(`pay-checkout serve: cannot listen on ${settings.host ?? 'every interface'}:${settings.port} (${code}); set PORT or HOST.`);
      return 1;
    }
    throw error;
  }
  jsonLines({ level: 'info', name: 'listening', message: `listening on ${running.url}`, url: running.url, assets: running.assets });
  closeOnSignals(running);
  return undefined;
}

/**
 * `npx pay-checkout deliveries [--json] [--given-up | --pending] | deliveries redeliver ID`: the outbox in the shared
 * store, read with serve's own settings (the store, the notify URL and app secrets a redelivery is sent with).
 */
export async function deliveriesCommand(argv: string[], env: Record<string, string | undefined>): Promise<number> {
  const raw = rawSettings(env);
  if (isPartnerMode(raw)) return partnerCommand('deliveries', raw, (settings) => runPartnerDeliveries(settings, argv, (line) => console.log(line)));
  let settings;
  try {
    settings = parseDeliverySettings(rawSettings(env));
    await requireStoreDriver(settings.store);
  } catch (error) {
    if (!(error instanceof SettingError)) throw error;
    console.error(`pay-checkout deliveries: ${error.message}`);
    return 2;
  }
  const relay = createRelay({ outbox: outboxOf(settings.store), notifyUrl: settings.notifyUrl, secrets: settings.appSecrets, emit: () => {} });
  try {
    return await runDeliveries({ relay, args: argv, print: (line) => console.log(line) });
  } catch (error) {
    // The store not answering (down, refused, a wrong password): one sentence, as for a setting, not a stack trace.
    console.error(`pay-checkout deliveries: ${(error as Error).message}`);
    return 1;
  } finally {
    await relay.close();
  }
}

/** `npx pay-checkout stores …` (partner mode): the shops, read with serve's partner settings. */
export async function storesCommand(argv: string[], env: Record<string, string | undefined>): Promise<number> {
  return partnerCommand('stores', rawSettings(env), (settings) => runStores(settings, argv, (line) => console.log(line)));
}

/** A partner command with serve's partner settings: a setting wrong is one sentence and exit 2, the store away one sentence and exit 1. */
async function partnerCommand(name: string, raw: ReturnType<typeof rawSettings>, run: (settings: PartnerServeSettings) => Promise<number>): Promise<number> {
  try {
    const settings = parsePartnerServeSettings(raw);
    await requireStoreDriver(settings.store);
    return await run(settings);
  } catch (error) {
    if (error instanceof SettingError) {
      console.error(`pay-checkout ${name}: ${error.message}`);
      return 2;
    }
    console.error(`pay-checkout ${name}: ${(error as Error).message}`);
    return 1;
  }
}

/**
 * The store's client is an optional peer the operator installs beside the package (`npm install redis` or `pg`):
 * without it the server would listen and then fail every claim, so it is said before, as a setting is.
 */
async function requireStoreDriver(store: ServeCommandSettings['store']): Promise<void> {
  if (store.kind === 'memory') return;
  try {
    await (store.kind === 'redis' ? import('redis') : import('pg'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    const [setting, driver] = store.kind === 'redis' ? [serveCommandSettings.redisUrl.env, 'redis'] : [serveCommandSettings.databaseUrl.env, 'pg'];
    throw new SettingError(`${setting} is set, but its client is not installed: run npm install ${driver} where pay-checkout is installed.`);
  }
}
