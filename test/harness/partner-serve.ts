/**
 * What the partner-mode tests stand on: the real sandbox, a notify endpoint for every shop (each notice kept with
 * whether it verified under that shop's secret), `serve` in partner mode on the store a test file started (Redis or
 * PostgreSQL), the sandbox forwarding its webhooks to it, and the calls a shop, a merchant and a buyer make.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { parsePartnerServeSettings } from '../../src/server/serve/partner/settings.js';
import { startServeCommand, type RunningServeCommand } from '../../src/server/serve/index.js';
import { rawSettings } from '../../src/server/serve/settings.js';
import { verifyPayCheckoutSignature } from '../../src/webhooks/index.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type StartOptions = NonNullable<Parameters<typeof startServeCommand>[1]>;

export interface Notice {
  /** The shop's name, as its notify URL's path says. */
  shop: string;
  id: string;
  type: string;
  data: Record<string, unknown>;
  /** Whether its `Pay-Checkout-Signature` verified under that shop's notify secret. */
  signed: boolean;
}

export interface PartnerServeOptions {
  /** The shops' store, started by the test file. */
  store: { redisUrl: string } | { databaseUrl: string };
  /** More settings for serve, or other values for the harness's own. */
  env?: Record<string, string>;
  /** Whether the sandbox forwards its webhooks to serve's /v1/webhooks; default true. */
  forward?: boolean;
  /** serve started in this process with these options (default), or false: the file runs it, and says where (`at`). */
  serve?: Partial<StartOptions> | false;
  /** Each answer of serve, as `api` got it (a file checks them against a document). */
  onAnswer?: (method: string, route: string, status: number, json: Json) => void;
}

export interface Shop {
  name: string;
  storeId: string;
  apiKey: string;
  notifySecret: string;
  status: string;
}

export interface PartnerServe {
  sandbox: RunningSandbox;
  /** serve in this process, when the harness started it. */
  readonly serve: RunningServeCommand | undefined;
  readonly url: string;
  /** What serve emitted, in order. */
  events: Record<string, unknown>[];
  notices: Notice[];
  /** The notices one shop got. */
  noticesOf(shop: string): Notice[];
  notifyUrl(shop: string): string;
  /** This shop's endpoint takes each notice and never answers. */
  hang(shop: string): void;
  /** serve's settings as environment, the harness's and the file's. */
  env(extra?: Record<string, string>): Record<string, string>;
  settings(extra?: Record<string, string>): ReturnType<typeof parsePartnerServeSettings>;
  /** serve (in this process) closed and started again, on the same store. */
  restart(extra?: Record<string, string>, options?: Partial<StartOptions>): Promise<void>;
  /** Where the file's own serve listens. */
  at(url: string): void;
  /** The sandbox forwards its webhooks to serve again (a reset forgets it). */
  forward(): Promise<void>;
  api(method: string, route: string, options?: { body?: unknown; key?: string; headers?: Record<string, string> }): Promise<{ status: number; headers: Headers; json: Json }>;
  /** The sandbox's control API (`/sandbox…`); a 2xx is asserted. */
  control(method: string, route: string, body?: unknown): Promise<Json>;
  /** A merchant of the demo partner, onboarded through the sandbox's API; `external` as its external_store_id. */
  onboard(storeName: string, external?: string): Promise<{ merchantKey: string; idStore: number }>;
  /** A shop registered (201 asserted), its notify secret kept for checking its notices. */
  register(name: string, extra?: Record<string, unknown>, headers?: Record<string, string>): Promise<Shop & { connectUrl: string }>;
  /** A shop connected with the key of a merchant onboarded for it (its own key: serve knows no id_store of it). */
  connectedShop(name: string, headers?: Record<string, string>): Promise<Shop & { merchantKey: string; idStore: number }>;
  /** A shop registered and connected as a merchant would: its connect_url, the onboarding page, its form. */
  connectThroughOnboarding(name: string): Promise<Shop & { merchantKey: string; idStore: number }>;
  /** A link of the shop's (201 asserted): its hash. */
  makeLink(apiKey: string, reference: string, amount?: number): Promise<string>;
  /** A buyer's create on a link, with a fresh Idempotency-Key and shopper. */
  buy(hash: string, options?: { gateway?: number; headers?: Record<string, string> }): Promise<{ status: number; headers: Headers; json: Json }>;
  /** The sandbox approves an order (its buyer pays). */
  approve(idOrder: number): Promise<void>;
  until<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, limitMs?: number): Promise<T>;
  close(): Promise<void>;
}

export async function startPartnerServe(options: PartnerServeOptions): Promise<PartnerServe> {
  const notices: Notice[] = [];
  const secrets = new Map<string, string>();
  const hanging = new Set<string>();
  const receiver = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const shop = (request.url ?? '/').slice(1);
      const notice = JSON.parse(body) as Omit<Notice, 'shop' | 'signed'>;
      const secret = secrets.get(shop);
      const signed = secret !== undefined && verifyPayCheckoutSignature({ header: request.headers['pay-checkout-signature'] as string, signedText: body, secrets: [secret] });
      notices.push({ ...notice, shop, signed });
      if (!hanging.has(shop)) response.writeHead(200).end();
    });
  });
  receiver.listen(0, '127.0.0.1');
  const [sandbox] = await Promise.all([startSandbox({ port: 0, defaultReceiver: false }), once(receiver, 'listening')]);
  const keys = randomBytes(32).toString('base64');
  const events: Record<string, unknown>[] = [];
  let serve: RunningServeCommand | undefined;
  let url = '';

  const env = (extra: Record<string, string> = {}) => ({
    PAY_CHECKOUT_PARTNER_KEY: 'pk_test_demo',
    PAY_CHECKOUT_PARTNER_SECRET: 'sk_test_demo',
    PAY_CHECKOUT_PARTNER_WEBHOOK_SECRET: 'whsec_test_demo',
    PAY_CHECKOUT_KEYS: keys,
    ...('redisUrl' in options.store ? { PAY_CHECKOUT_REDIS_URL: options.store.redisUrl } : { PAY_CHECKOUT_DATABASE_URL: options.store.databaseUrl }),
    PAY_CHECKOUT_BASE_URL: sandbox.baseUrl,
    PAY_CHECKOUT_ALLOW_LOCAL_SHOPS: '1',
    PORT: '0',
    HOST: '127.0.0.1',
    ...options.env,
    ...extra,
  });
  const settings = (extra?: Record<string, string>) => parsePartnerServeSettings(rawSettings(env(extra)));
  const start = async (extra?: Record<string, string>, startOptions: Partial<StartOptions> = {}) => {
    serve = await startServeCommand(settings(extra), {
      onEvent: (event) => void events.push(event as Record<string, unknown>),
      ...(options.serve || {}),
      ...startOptions,
      partner: { noticeTimings: { firstRetryMs: 100, pollMs: 50 }, ...(options.serve || {}).partner, ...startOptions.partner },
    });
    url = serve.url;
  };

  const until: PartnerServe['until'] = async (what, check, limitMs = 10_000) => {
    const end = Date.now() + limitMs;
    for (;;) {
      const value = await check();
      if (value) return value;
      if (Date.now() > end) throw new Error(`still waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  const api: PartnerServe['api'] = async (method, route, { body, key, headers = {} } = {}) => {
    const response = await fetch(`${url}${route}`, {
      method,
      redirect: 'manual',
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await response.text();
    const json = (text ? JSON.parse(text) : {}) as Json;
    options.onAnswer?.(method, route, response.status, json);
    return { status: response.status, headers: response.headers, json };
  };

  const control: PartnerServe['control'] = async (method, route, body) => {
    const response = await fetch(`${sandbox.url}/sandbox${route}`, { method, ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }) });
    const json = (await response.json()) as Json;
    assert.ok(response.ok, `${method} ${route}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };

  const notifyUrl = (shop: string) => `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/${shop}`;

  const register: PartnerServe['register'] = async (name, extra = {}, headers = {}) => {
    const made = await api('POST', '/v1/stores', { body: { name, notify_url: notifyUrl(name), ...extra }, headers });
    assert.equal(made.status, 201, JSON.stringify(made.json));
    const data = made.json.data;
    secrets.set(name, data.notify_secret);
    return { name, storeId: data.store_id, apiKey: data.api_key, notifySecret: data.notify_secret, status: data.status, connectUrl: data.connect_url };
  };

  const onboard: PartnerServe['onboard'] = async (storeName, external) => {
    const { data } = await control('POST', '/onboarding', { platform: 'demo-partner', store_name: storeName, ...(external ? { external_store_id: external } : {}) });
    return { merchantKey: data.merchant_key, idStore: data.id_store };
  };

  let buyers = 0;
  const harness: PartnerServe = {
    sandbox,
    get serve() {
      return serve;
    },
    get url() {
      return url;
    },
    events,
    notices,
    noticesOf: (shop) => notices.filter((notice) => notice.shop === shop),
    notifyUrl,
    hang: (shop) => void hanging.add(shop),
    env,
    settings,
    async restart(extra, startOptions) {
      await serve?.close();
      await start(extra, startOptions);
    },
    at: (where) => void (url = where),
    async forward() {
      await control('POST', '/forward', { url: `${url}/v1/webhooks` });
    },
    api,
    control,
    onboard,
    register,
    async connectedShop(name, headers = {}) {
      const merchant = await onboard(`Tienda ${name}`);
      const shop = await register(name, { merchant_key: merchant.merchantKey }, headers);
      assert.equal(shop.status, 'connected');
      return { ...shop, ...merchant };
    },
    async connectThroughOnboarding(name) {
      const shop = await register(name);
      assert.equal(shop.status, 'pending');
      const redirect = await fetch(shop.connectUrl, { redirect: 'manual' });
      assert.equal(redirect.status, 302);
      const onboarding = new URL(redirect.headers.get('location') ?? '');
      // The shop's id and a token only serve makes (a bare store_id, which anyone may know, connects nothing).
      const external = onboarding.searchParams.get('external_store_id') ?? '';
      assert.match(external, new RegExp(`^${shop.storeId}\\.[0-9a-z]+\\.[A-Za-z0-9_-]{43}$`));
      const page = await (await fetch(onboarding)).text();
      assert.ok(page.includes(`value="${external}"`), 'the onboarding page carries the value through');
      const form = new URLSearchParams({ store_name: `Tienda ${name}`, external_store_id: external });
      const done = await fetch(`${sandbox.url}/onboarding?platform=demo-partner`, { method: 'POST', body: form, headers: { 'content-type': 'application/x-www-form-urlencoded', origin: sandbox.url } });
      const html = await done.text();
      assert.equal(done.status, 200, html);
      const merchantKey = /<code>(mk_test_[0-9a-f]+)<\/code>/.exec(html)?.[1] ?? '';
      await until(`${name} connected`, async () => (await api('GET', '/v1/stores/me', { key: shop.apiKey })).json.data?.status === 'connected', 20_000);
      const me = await api('GET', '/v1/stores/me', { key: shop.apiKey });
      return { ...shop, status: 'connected', merchantKey, idStore: me.json.data.id_store };
    },
    async makeLink(apiKey, reference, amount = 30_000) {
      const made = await api('POST', '/v1/stores/me/links', { key: apiKey, body: { description: `Pedido ${reference}`, reference, amount } });
      assert.equal(made.status, 201, JSON.stringify(made.json));
      return made.json.data.hash as string;
    },
    buy(hash, { gateway = 1, headers = {} } = {}) {
      buyers += 1;
      return api('POST', `/v1/checkout/links/${encodeURIComponent(hash)}/orders`, {
        headers: { 'idempotency-key': `partner-buyer-${process.pid}-${buyers}`, ...headers },
        body: { payment_gateway: { id_payment_gateway: gateway }, shopper: { id_number: `${3_000_000 + buyers}`, id_type: 1, phone_number: `300555${String(1000 + buyers).slice(-4)}` } },
      });
    },
    async approve(idOrder) {
      await control('POST', `/orders/${idOrder}/approve`);
    },
    until,
    async close() {
      await serve?.close();
      receiver.closeAllConnections();
      await new Promise((r) => receiver.close(r));
      await sandbox.close();
    },
  };

  if (options.serve !== false) {
    await start();
    if (options.forward !== false) await harness.forward();
  }
  return harness;
}
