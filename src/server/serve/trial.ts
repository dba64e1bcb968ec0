/**
 * `pay-checkout serve --check --pay`: before going live, one test order paid through the whole chain, in the
 * development environment or a sandbox only. With serve's own settings, against the running instance
 * (PAY_CHECKOUT_PUBLIC_URL, else HOST:PORT): one Daviplata order for the smallest amount it takes, through serve's
 * buyer API (the shop's link `pay-checkout-check`, else serve's own probe link for it), the test code, the order read
 * back until confirmed, then what the running server saw (trial-desk.ts): the service's webhook for the order arriving
 * and verifying, and the shop taking the signed notice. One line per step; exit 0 when all passed, 1 with a sentence
 * naming the setting to fix, 2 when it refuses (production, a live key, a service that is neither the development
 * environment nor a sandbox) before any call.
 */
import { randomBytes } from 'node:crypto';
import { baseUrls, resolveBaseUrl } from '../../client/send.js';
import { merchantKeyHeader, sandboxHeader, type CheckoutLink, type CheckoutOrderCreated } from '../../contract/index.js';
import { isLoopbackHost } from '../../contract/redirect-url.js';
import { signPayCheckout } from '../../webhooks/pay-checkout-signature.js';
import { checkHash } from './check.js';
import { serveCommandSettings, type ServeCommandSettings } from './settings.js';
import { probeLink, trialHeader, trialSignedText, type TrialView } from './trial-desk.js';

/** The test code the development environment (and the sandbox) confirms a Daviplata order with. */
export const trialOtpCode = '123456';
export const defaultTrialWaitMs = 30_000;

export interface TrialOptions {
  print: (line: string) => void;
  fetch?: typeof globalThis.fetch;
  /** How long the webhook and the notice are each waited for; default 30 s. */
  waitMs?: number;
  /** Between two reads of what the server saw; default 250 ms. */
  pollMs?: number;
}

/** Where the trial may pay: the development environment, a sandbox to ask, or a refusal sentence. */
export function trialTarget(settings: ServeCommandSettings): { kind: 'development' | 'sandbox'; baseUrl: string } | { kind: 'refused'; sentence: string } {
  const nothing = 'Nothing was sent.';
  const refused = (why: string) => ({ kind: 'refused' as const, sentence: `--pay refused: ${why} ${nothing}` });
  const baseUrl = resolveBaseUrl(settings.service);
  if ('environment' in settings.service && settings.service.environment === 'production') {
    return refused(`${serveCommandSettings.environment.env} is production (unset, it means production); the trial pays only in the development environment (${serveCommandSettings.environment.env}=development) or against a sandbox (${serveCommandSettings.baseUrl.env}).`);
  }
  const origin = new URL(baseUrl).origin;
  if (origin === new URL(baseUrls.production).origin) return refused(`${serveCommandSettings.baseUrl.env} is the production service (${baseUrls.production}).`);
  const live = /^mk_live_/.exec(settings.merchantKey);
  if (live) return refused(`${serveCommandSettings.merchantKey.env} is a live key (mk_live_…); the trial pays only with a test key of the development environment or a sandbox.`);
  if (origin === new URL(baseUrls.development).origin) return { kind: 'development', baseUrl };
  if (privateHost(new URL(baseUrl).hostname)) return { kind: 'sandbox', baseUrl };
  return refused(`${serveCommandSettings.baseUrl.env} (${origin}) is neither the development environment (${baseUrls.development}) nor a sandbox on this machine or its private network.`);
}

/** A host a sandbox may run at: loopback, a private address, a name with no dot (a container's), a local name. */
function privateHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (isLoopbackHost(hostname) || isLoopbackHost(host)) return true;
  if (/^(10\.\d+|192\.168|172\.(1[6-9]|2\d|3[01]))\.\d+\.\d+$/.test(host) || /^f[cd][0-9a-f]{2}:/.test(host)) return true;
  return !host.includes('.') || /\.(local|internal|localhost|test)$/.test(host);
}

/** The running instance's origin: PAY_CHECKOUT_PUBLIC_URL, else HOST:PORT (every interface: loopback). */
export function serveOrigin(settings: Pick<ServeCommandSettings, 'publicUrl' | 'host' | 'port'>): string {
  if (settings.publicUrl) return settings.publicUrl;
  const host = settings.host === undefined || settings.host === '0.0.0.0' ? '127.0.0.1' : settings.host === '::' ? '::1' : settings.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${settings.port}`;
}

class TrialFailure extends Error {
  constructor(
    readonly step: string,
    readonly line: string,
    readonly fix: string,
  ) {
    super(fix);
  }
}

interface Reply {
  status: number;
  json: { data?: unknown; message?: string; description?: string; api_code?: string } | null;
}

const causeOf = (error: unknown): string => {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
};
const said = (reply: Reply) => `${reply.status}${reply.json?.api_code ? ` ${reply.json.api_code}` : ''}${reply.json?.description ?? reply.json?.message ? `: ${reply.json.description ?? reply.json.message}` : ''}`;
const pesos = (amount: number, currency: string) => `${new Intl.NumberFormat('es-CO', { maximumFractionDigits: 0 }).format(amount)} ${currency}`;

export async function payTrial(settings: ServeCommandSettings, options: TrialOptions): Promise<number> {
  const { print } = options;
  const fetch = options.fetch ?? globalThis.fetch;
  const waitMs = options.waitMs ?? defaultTrialWaitMs;
  const pollMs = options.pollMs ?? 250;
  const target = trialTarget(settings);
  if (target.kind === 'refused') {
    print(target.sentence);
    return 2;
  }
  if (!settings.webhookSecret?.length) {
    print(`✗ settings: ${serveCommandSettings.webhookSecret.env} is not set, so serve refuses every webhook: set it to the development account's webhook secret (Settings > Integrations > API). No order was made.`);
    return 1;
  }
  const origin = serveOrigin(settings);
  const webhookUrl = `${origin}/v1/webhooks`;
  const secrets = [...settings.appSecrets, ...settings.webhookSecret];

  if (target.kind === 'sandbox') {
    // The only call before the refusal, and a read: the sandbox says what it is; anything else is never paid against.
    let answer: Response;
    try {
      answer = await fetch(`${target.baseUrl}/orders/paymentGateways`, { headers: { [merchantKeyHeader]: settings.merchantKey }, signal: AbortSignal.timeout(10_000) });
      await answer.body?.cancel().catch(() => {});
    } catch (error) {
      print(`✗ service: ${target.baseUrl} could not be reached (${causeOf(error)}): start the sandbox, or set ${serveCommandSettings.baseUrl.env} to it. No order was made.`);
      return 1;
    }
    if (!answer.headers.get(sandboxHeader)) {
      print(`--pay refused: ${target.baseUrl} does not say it is a sandbox (its answer has no ${sandboxHeader} header), and it is not the development environment (${baseUrls.development}). No order was made.`);
      return 2;
    }
  }

  const call = async (method: string, path: string, init: { body?: unknown; headers?: Record<string, string>; trial?: boolean } = {}): Promise<Reply> => {
    const pathname = path.split('?')[0] ?? path;
    const headers: Record<string, string> = { accept: 'application/json', ...init.headers };
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    if (init.trial) headers[trialHeader] = signPayCheckout(secrets, trialSignedText(method, pathname));
    const response = await fetch(`${origin}${path}`, { method, headers, ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}), signal: AbortSignal.timeout(15_000) });
    const text = await response.text();
    let json: Reply['json'] = null;
    try {
      json = JSON.parse(text) as Reply['json'];
    } catch {
      json = null;
    }
    return { status: response.status, json };
  };
  const view = async (idOrder?: number): Promise<TrialView | undefined> => {
    const reply = await call('GET', `/v1/trial${idOrder ? `/orders/${idOrder}` : ''}`, { trial: true });
    return reply.status === 200 ? (reply.json?.data as TrialView) : undefined;
  };
  const poll = async <T>(read: () => Promise<T | undefined>): Promise<T | undefined> => {
    const end = Date.now() + waitMs;
    for (;;) {
      const value = await read();
      if (value !== undefined || Date.now() >= end) return value;
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  };

  // The running server, asked first: that it is there, that it takes this trial's signature, which service it uses.
  let first: TrialView | undefined;
  try {
    first = await view();
  } catch (error) {
    print(`✗ server: nothing answers at ${origin} (${causeOf(error)}): start pay-checkout serve with these settings, or set ${serveCommandSettings.publicUrl.env} to where it runs. No order was made.`);
    return 1;
  }
  if (!first) {
    print(`✗ server: ${origin} did not take the trial's signed request: run the trial with the same ${serveCommandSettings.appSecret.env} and ${serveCommandSettings.webhookSecret.env} as the server there. No order was made.`);
    return 1;
  }
  if (first.service !== target.baseUrl) {
    print(`--pay refused: the server at ${origin} talks to ${first.service}, not ${target.baseUrl}; run the trial with the server's own settings. No order was made.`);
    return 2;
  }

  let order: CheckoutOrderCreated | undefined;
  const failures: TrialFailure[] = [];
  const fail = (failure: TrialFailure) => {
    print(`✗ ${failure.step}: ${failure.line}`);
    failures.push(failure);
  };
  try {
    // 1. One order, for the smallest amount Daviplata takes; retried only with its Idempotency-Key, so it stays one.
    const linkPath = `/v1/checkout/links/${checkHash}`;
    const linkReply = await call('GET', linkPath, { trial: true });
    if (linkReply.status !== 200) {
      const app = linkReply.json?.api_code?.startsWith('LINK_SOURCE_') ? ` (serve's links_app_failed event says what your app answered; a 401 there means ${serveCommandSettings.appSecret.env} differs from the shop's)` : '';
      throw new TrialFailure('order', `the link ${checkHash} answered ${said(linkReply)}`, `Serve could not offer the link ${checkHash}${app}: answer it from your app as an active link, or with 404.`);
    }
    const link = linkReply.json?.data as CheckoutLink;
    const whose = link.store_name === probeLink.storeName ? "serve's own probe link, as the shop has none" : "the shop's link";
    if (link.status !== 'active') throw new TrialFailure('order', `the link ${checkHash} is ${link.status}`, `Your app answers the link ${checkHash} as ${link.status}: answer it as an active link, or with 404.`);
    const wallet = link.gateways.find((g) => g.kind === 'otp');
    if (!wallet) throw new TrialFailure('order', `the link ${checkHash} offers no Daviplata`, 'The account offers no Daviplata (the SMS-code wallet), which the trial pays with: enable it for the development account.');
    const amount = link.amount ?? wallet.min_amount;
    const body = {
      ...(link.amount === undefined ? { amount } : {}),
      payment_gateway: { id_payment_gateway: wallet.id_payment_gateway },
      shopper: { id_type: wallet.id_types[0] ?? 1, id_number: '1020304050', first_name: 'Prueba', last_name: 'Pay Checkout', email: 'prueba@example.com', phone_number: '3001234567' },
    };
    const key = `pay-checkout-check-${randomBytes(12).toString('hex')}`;
    // An answer lost, or a create in doubt at serve (409 IDEMPOTENCY_KEY_IN_USE), is asked again with the same key.
    const inDoubt = (reply: Reply | undefined) => !reply || reply.status >= 500 || reply.json?.api_code === 'IDEMPOTENCY_KEY_IN_USE';
    let created: Reply | undefined;
    for (const end = Date.now() + waitMs; ; await new Promise((resolve) => setTimeout(resolve, 1_000))) {
      created = await call('POST', `${linkPath}/orders`, { body, headers: { 'idempotency-key': key }, trial: true }).catch(() => undefined);
      if (!inDoubt(created) || Date.now() >= end) break;
    }
    if (!created || (created.status !== 200 && created.status !== 201)) {
      const what = created ? said(created) : 'no answer';
      throw new TrialFailure(
        'order',
        `the order was refused (${what})`,
        inDoubt(created)
          ? `The service did not confirm the probe order's creation within ${waitMs / 1000} s (${what}): at most one order was made; see serve's log for the service's answer, then run the trial again.`
          : `Serve could not create the probe order (${what}): run plain --check to see which setting fails.`,
      );
    }
    order = created.json?.data as CheckoutOrderCreated;
    const id = order.id_order;
    print(`✓ order: order ${id} created for ${pesos(amount, link.currency)} with ${wallet.name}, through ${whose} (${checkHash})`);
    const token = { 'x-order-token': order.order_token };

    // 2. The test code.
    const code = await call('POST', `/v1/checkout/orders/${id}/otp`, { body: { daviplata_otp: trialOtpCode }, headers: token });
    if (code.status !== 200) throw new TrialFailure('code', `order ${id}: the test code ${trialOtpCode} was refused (${said(code)})`, `The service refused the test code ${trialOtpCode} for order ${id} (${said(code)}): the trial needs the development environment or a sandbox, where it confirms a Daviplata order.`);
    print(`✓ code: order ${id} took the test code ${trialOtpCode}`);

    // 3. Read back until confirmed.
    const confirmed = await poll(async () => {
      const read = await call('GET', `/v1/checkout/orders/${id}`, { headers: token });
      const status = (read.json?.data as { status?: string } | undefined)?.status;
      return status === 'confirmed' ? status : undefined;
    });
    if (!confirmed) throw new TrialFailure('confirmed', `order ${id} is not confirmed after ${waitMs / 1000} s`, `Order ${id} was not confirmed within ${waitMs / 1000} s of its test code: check the service's status page, then run the trial again.`);
    print(`✓ confirmed: order ${id} is confirmed`);

    // 4. The service's webhook for the order, at this server, verified.
    const since = first.now;
    const webhook = await poll(async () => {
      const seen = await view(id);
      if (seen?.webhooks.length) return { ok: true as const };
      const refused = seen?.refused.find((r) => r.at >= since);
      return refused ? { ok: false as const, reason: refused.reason } : undefined;
    });
    if (webhook?.ok) print(`✓ webhook: the service's webhook for order ${id} reached this server and verified`);
    else if (webhook) {
      const secret = serveCommandSettings.webhookSecret.env;
      const fixes: Record<string, string> = {
        invalid_signature: `${secret} is not the account's webhook secret: the webhook for order ${id} failed its signature; copy the secret from the development account's settings (Settings > Integrations > API) and restart serve.`,
        missing_signature: `The account sends its webhooks unsigned, and serve refuses them: turn on their signing in the development account's settings (Settings > Integrations > API) and put its secret in ${secret}.`,
      };
      const fix = fixes[webhook.reason] ?? `The webhook for order ${id} was refused (${webhook.reason}): check this server's clock and ${secret}.`;
      fail(new TrialFailure('webhook', `a webhook reached ${webhookUrl} after order ${id} was paid, and was refused (${webhook.reason})`, fix));
    } else {
      const sandboxHint = target.kind === 'sandbox' ? ` (on the sandbox: POST ${new URL(target.baseUrl).origin}/sandbox/forward with {"url":"${webhookUrl}"})` : '';
      fail(new TrialFailure('webhook', `no webhook for order ${id} reached ${webhookUrl} within ${waitMs / 1000} s`, `No webhook for order ${id} reached this server within ${waitMs / 1000} s: the account's webhook URL for development must be ${webhookUrl}${sandboxHint}.`));
    }

    // 5. The shop's notify URL, taking the signed notice.
    if (!settings.notifyUrl) print(`– notice: no ${serveCommandSettings.notifyUrl.env}, so no notice goes to the shop`);
    else {
      // A failure the shop's retry may mend is waited out; a refused signature will not mend, and is said at once.
      let notice: TrialView['notice'] | undefined;
      await poll(async () => {
        notice = (await view(id))?.notice ?? notice;
        return notice && (notice.state !== 'failed' || notice.status === 401 || notice.status === 403) ? notice : undefined;
      });
      if (notice?.state === 'delivered') print(`✓ notice: ${settings.notifyUrl} took the signed notice for order ${id} (${notice.status ?? 200})`);
      else if (!notice) fail(new TrialFailure('notice', `no notice for order ${id} was sent within ${waitMs / 1000} s`, `No notice for order ${id} was sent to the shop within ${waitMs / 1000} s: see serve's notice_* events for why.`));
      else {
        const what = notice.status ? `answered ${notice.status}` : notice.error ?? 'failed';
        const fix =
          notice.status === 401 || notice.status === 403
            ? `The shop answered ${notice.status} to the signed notice for order ${id}: ${serveCommandSettings.appSecret.env} differs from the secret the shop verifies with.`
            : `The shop's notify URL ${settings.notifyUrl} did not take the notice for order ${id} (${what}): fix ${serveCommandSettings.notifyUrl.env} or the shop's endpoint.`;
        fail(new TrialFailure('notice', `${settings.notifyUrl} ${what} to the signed notice for order ${id}`, fix));
      }
    }
  } catch (error) {
    if (error instanceof TrialFailure) fail(error);
    else fail(new TrialFailure('server', `${origin} stopped answering (${causeOf(error)})`, `The server at ${origin} stopped answering during the trial (${causeOf(error)})${order ? `; order ${order.id_order} was made` : ''}: see its log, then run the trial again.`));
  }
  if (failures.length === 0) {
    print(`Every step passed for order ${order?.id_order}: the account's webhooks reach this server and verify${settings.notifyUrl ? ', and the shop takes its notices' : ''}.`);
    return 0;
  }
  for (const failure of failures) print(failure.fix);
  return 1;
}
