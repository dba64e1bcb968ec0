/**
 * Two shops that are not Node on one platform: examples/php-platform twice under `php -S` (two processes, two SQLite
 * files), one `pay-checkout serve` in partner mode beside them (Redis, the sandbox as the service, local shops allowed).
 * Each shop owner registers the shop from its settings page and connects it through the sandbox's onboarding page in
 * Chromium; each shop's buyer pays a cart in Chromium; each shop hears only of its own orders, signed with its own
 * secret. Then the two calls the For platforms page gives in PHP, run against the same serve.
 * One sandbox, one serve, one Redis and one browser for every case.
 */
import assert from 'node:assert/strict';
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { signPayCheckout } from '../../src/webhooks/pay-checkout-signature.js';
import { systemBinary } from '../harness/system-packages.mjs';
import { freePort, startRedis, stopChild, type TestRedis } from '../node/redis-harness.js';
import { Buyer, completeOutside, gateways, repoRoot, startWorld, type ControlOrder, type World } from './support/harness.js';
import { keepTail, until, type MarkedPaid } from './support/processes.js';

const cli = path.join(repoRoot, 'src', 'cli.ts');
const shopRoot = path.join(repoRoot, 'examples', 'php-platform', 'public');
const adminPassword = 'the-shop-owners-password';

const answers = (url: string) => () => fetch(url).then((response) => response.status < 500);

interface Order extends MarkedPaid {
  reference: string;
  link_hash: string | null;
}
interface Notice {
  id: string;
  type: string;
  reference: string;
  body: string;
}

/** One PHP shop: its process, its SQLite file, and reads of that file with PHP as the shop reads it. */
interface Shop {
  name: string;
  url: string;
  database: string;
  process: ChildProcess;
  tail: () => string;
  rows<T>(sql: string): Promise<T[]>;
  setting(name: string): Promise<string | undefined>;
}

async function runPhp(code: string, args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(systemBinary('php'), ['-r', code, '--', ...args], { timeout: 30_000 });
  return stdout;
}

describe('two PHP shops on one pay-checkout serve in partner mode', () => {
  let world: World;
  let redis: TestRedis;
  let scratch: string;
  let serveChild: ChildProcess;
  let serveTail: () => string;
  let serveUrl: string;
  const shops: Shop[] = [];

  async function startShop(name: string, file: string): Promise<Shop> {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const database = path.join(scratch, file);
    const child = spawn(systemBinary('php'), ['-S', `127.0.0.1:${port}`, '-t', shopRoot], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        SHOP_NAME: name,
        SHOP_DATABASE: database,
        SHOP_PUBLIC_URL: url,
        SHOP_ADMIN_PASSWORD: adminPassword,
        PAY_CHECKOUT_SERVE_URL: serveUrl,
        // The same service as serve's: the shop's CSP allows the origin the gateways' icons come from.
        PAY_CHECKOUT_BASE_URL: world.sandbox.baseUrl,
      },
    });
    const tail = keepTail(child);
    await until(`the PHP shop ${name} to answer`, answers(`${url}/index.php`));
    const rows = async <T>(sql: string): Promise<T[]> => {
      const read = 'echo json_encode((new PDO("sqlite:" . $argv[1]))->query($argv[2])->fetchAll(PDO::FETCH_ASSOC));';
      return JSON.parse(await runPhp(read, [database, sql])) as T[];
    };
    const setting = async (key: string) => (await rows<{ value: string }>(`SELECT value FROM settings WHERE name = '${key.replace(/\W/g, '')}'`))[0]?.value;
    return { name, url, database, process: child, tail, rows, setting };
  }

  before(async () => {
    scratch = mkdtempSync(path.join(tmpdir(), 'pay-checkout-php-platform-'));
    world = await startWorld();
    redis = await startRedis();
    const servePort = await freePort();
    serveUrl = `http://127.0.0.1:${servePort}`;
    serveChild = spawn(process.execPath, ['--import', 'tsx', cli, 'serve'], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
      // The platform's settings, the environment alone: the partner pair and its webhook secret (the sandbox's demo
      // partner), one key at rest, the shops in Redis, and shops on loopback allowed (tests only).
      env: {
        ...process.env,
        PAY_CHECKOUT_PARTNER_KEY: 'pk_test_demo',
        PAY_CHECKOUT_PARTNER_SECRET: 'sk_test_demo',
        PAY_CHECKOUT_PARTNER_WEBHOOK_SECRET: 'whsec_test_demo',
        PAY_CHECKOUT_KEYS: randomBytes(32).toString('base64'),
        PAY_CHECKOUT_REDIS_URL: redis.url,
        PAY_CHECKOUT_BASE_URL: world.sandbox.baseUrl,
        PAY_CHECKOUT_SECRET: 'order-tokens-signing-secret-for-this-test',
        PAY_CHECKOUT_ALLOW_LOCAL_SHOPS: '1',
        PAY_CHECKOUT_NOTIFY_RETRY_MS: '500',
        PORT: String(servePort),
        HOST: '127.0.0.1',
      },
    });
    serveTail = keepTail(serveChild);
    try {
      await until('serve to be ready', () => fetch(`${serveUrl}/v1/health/ready`).then((r) => r.ok));
    } catch (error) {
      throw new Error(`${(error as Error).message}; serve said:\n${serveTail()}`);
    }
    // The partner account's webhooks (store_onboarded, order_payment…) go to serve's one webhook URL.
    await world.control('POST', '/forward', { url: `${serveUrl}/v1/webhooks` });
    shops.push(await startShop('Café La Montaña', 'montana.sqlite'), await startShop('Panadería El Trigal', 'trigal.sqlite'));
  });

  after(async () => {
    if (serveChild) await stopChild(serveChild);
    for (const shop of shops) await stopChild(shop.process);
    await redis?.stop();
    await world?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it("each shop's owner registers it from its settings page and connects it through the service's onboarding page", async () => {
    for (const shop of shops) {
      const context = await world.browser.newContext({ httpCredentials: { username: 'owner', password: adminPassword } });
      try {
        const page = await context.newPage();
        await page.goto(`${shop.url}/settings.php`);
        await page.getByRole('button', { name: 'Registrar la tienda' }).click();
        await page.waitForURL(/\/settings\.php$/);
        assert.equal(await page.locator('#store-status').getAttribute('data-status'), 'pending', await page.content());
        const storeId = await shop.setting('store_id');
        assert.ok(storeId, 'the shop kept its store_id');
        assert.equal(await page.locator('#store-id').textContent(), storeId);
        // What registration answered once lives in the shop's SQLite, never on its page.
        const apiKey = await shop.setting('api_key');
        const notifySecret = await shop.setting('notify_secret');
        assert.ok(apiKey && notifySecret, 'the api key and notify secret are kept');
        const html = await page.content();
        for (const secret of [apiKey, notifySecret]) assert.ok(!html.includes(secret), 'no secret on the settings page');

        // "Conectar" opens connect_url: serve sends the owner on to the service's onboarding for this partner.
        await page.getByRole('link', { name: 'Conectar' }).click();
        await page.waitForURL((url) => url.origin === new URL(world.sandbox.url).origin && url.pathname === '/onboarding');
        await page.getByLabel('Nombre de la tienda').fill(shop.name);
        await page.getByRole('button', { name: 'Completar onboarding' }).click();
        await page.getByRole('heading', { name: '¡Listo!' }).waitFor();

        // store_onboarded reaches serve, which connects the shop whose store_id the onboarding carried.
        await until(`${shop.name} to be connected`, async () => {
          await page.goto(`${shop.url}/settings.php`);
          return (await page.locator('#store-status').getAttribute('data-status')) === 'connected';
        });
        assert.equal(await page.getByRole('link', { name: 'Conectar' }).count(), 0, 'no Connect once connected');
        // In English too.
        await page.goto(`${shop.url}/settings.php?lang=en`);
        assert.match((await page.locator('#store-status').textContent()) ?? '', /^Connected/);
      } catch (error) {
        throw new Error(`${(error as Error).message}\nshop said:\n${shop.tail()}\nserve said:\n${serveTail()}`, { cause: error });
      } finally {
        await context.close();
      }
    }
    const [first, second] = await Promise.all(shops.map((shop) => shop.setting('store_id')));
    assert.notEqual(first, second, 'two shops, two store ids');
  });

  /** The one order the sandbox got since `known` was read. */
  async function newOrder(known: Set<number>): Promise<ControlOrder> {
    const added = (await world.orders()).filter((order) => !known.has(order.id_order));
    assert.equal(added.length, 1, 'one new order at the service');
    return added[0] as ControlOrder;
  }

  const paid: { shop: Shop; reference: string; order: ControlOrder }[] = [];

  it("each shop's buyer pays a cart in Chromium, through the link the shop made by API, and the shop marks it paid once", async () => {
    for (const [shop, coffee, panela] of [
      [shops[0]!, 1, 0],
      [shops[1]!, 0, 2],
    ] as const) {
      const buyer = await Buyer.create(world);
      try {
        await buyer.page.goto(`${shop.url}/`);
        await buyer.page.getByLabel(/Café de Huila/).fill(String(coffee));
        await buyer.page.getByLabel(/Panela/).fill(String(panela));
        await buyer.page.getByRole('button', { name: 'Ir a pagar' }).click();
        await buyer.page.waitForURL(/\/cart\.php\?order=ord_[0-9a-f]+$/);
        const reference = new URL(buyer.page.url()).searchParams.get('order') ?? '';
        const [row] = await shop.rows<Order>(`SELECT * FROM orders WHERE reference = '${reference}'`);
        assert.ok(row?.link_hash, 'the shop got a link for the order');
        assert.equal(await buyer.page.locator('pay-checkout').getAttribute('link'), row.link_hash);

        const known = new Set((await world.orders()).map((order) => order.id_order));
        await buyer.chooseMethod(gateways.push.name);
        await buyer.fillDetails({ phone: '300 123 4567' });
        // An anonymous cart: the shop knows nothing of the buyer, so the details screen asks for the contact too.
        await buyer.page.getByLabel('Nombre').fill('Ana');
        await buyer.page.getByLabel('Apellido').fill('Gómez');
        await buyer.page.getByLabel('Correo electrónico').fill('ana@example.com');
        await buyer.payButton().click();
        await buyer.waitForStep(gateways.push.waitingStep);
        const order = await newOrder(known);
        assert.equal(order.total, coffee * 38_000 + panela * 9_500, "the order is for the shop's cart");
        await completeOutside(world, order);
        await buyer.waitForStep('paid');

        const marked = await until(`${shop.name} to mark the order paid`, async () => {
          const [current] = await shop.rows<Order>(`SELECT * FROM orders WHERE reference = '${reference}'`);
          return current?.paid_at ? current : undefined;
        });
        assert.equal(marked.id_order, order.id_order);
        assert.equal(marked.gateway, 'push');
        paid.push({ shop, reference, order });

        const { violations, errors } = await buyer.recorded();
        assert.deepEqual(violations, [], "the shop's strict CSP held");
        assert.deepEqual([...errors, ...buyer.pageErrors], []);
        assert.deepEqual(buyer.serverErrors, []);
        await buyer.page.reload();
        assert.equal(await buyer.page.locator('#cart-status').getAttribute('data-paid'), 'true');
        const html = await buyer.page.content();
        for (const key of ['api_key', 'notify_secret']) {
          const secret = await shop.setting(key);
          assert.ok(secret && !html.includes(secret), `no ${key} on the cart page`);
        }
      } catch (error) {
        throw new Error(`${(error as Error).message}\nshop said:\n${shop.tail()}\nserve said:\n${serveTail()}`, { cause: error });
      } finally {
        await buyer.close();
      }
    }
  });

  it('each shop heard only of its own order, once, signed with its own secret', async () => {
    assert.equal(paid.length, 2, 'both shops were paid');
    for (const shop of shops) {
      const storeId = await shop.setting('store_id');
      const own = paid.find((p) => p.shop === shop)!;
      const notices = await shop.rows<Notice>('SELECT id, type, reference, body FROM notices ORDER BY received_at');
      // Every notice the shop took names this shop; of orders, only its own one, once.
      const named = notices.map((n) => (JSON.parse(n.body) as { data: { store_id?: string } }).data.store_id);
      assert.deepEqual([...new Set(named)], [storeId], `${shop.name}: every notice names its own store: ${JSON.stringify(notices)}`);
      const orderNotices = notices.filter((n) => n.type.startsWith('order.'));
      assert.deepEqual(
        orderNotices.map((n) => [n.type, n.reference]),
        [['order.paid', own.reference]],
        `${shop.name}: one order notice, for its own order: ${JSON.stringify(notices)}`,
      );
      const data = (JSON.parse(orderNotices[0]!.body) as { data: { id_order: number } }).data;
      assert.equal(data.id_order, own.order.id_order);
      const [order] = await shop.rows<Order>(`SELECT * FROM orders WHERE reference = '${own.reference}'`);
      assert.equal(order?.paid_by_event, orderNotices[0]!.id);
    }
    // A notice signed with the other shop's secret is refused: each shop trusts only its own.
    const [montana, trigal] = shops as [Shop, Shop];
    const body = JSON.stringify({ id: 'evt_crossed', type: 'order.paid', created_at: new Date().toISOString(), data: { store_id: await trigal.setting('store_id'), reference: paid[1]!.reference } });
    const crossed = await fetch(`${montana.url}/notify.php`, { method: 'POST', body, headers: { 'Pay-Checkout-Signature': signPayCheckout([(await trigal.setting('notify_secret'))!], body) } });
    assert.equal(crossed.status, 401);
    assert.deepEqual(await montana.rows("SELECT id FROM notices WHERE id = 'evt_crossed'"), []);
  });

  it("a shop's key reads its own order and not the other shop's", async () => {
    const [montana, trigal] = paid as [(typeof paid)[0], (typeof paid)[0]];
    const read = async (shop: Shop, idOrder: number) =>
      fetch(`${serveUrl}/v1/stores/me/orders/${idOrder}`, { headers: { Authorization: `Bearer ${await shop.setting('api_key')}` } });
    assert.equal((await read(montana.shop, montana.order.id_order)).status, 200);
    const other = await read(montana.shop, trigal.order.id_order);
    assert.equal(other.status, 404);
    assert.equal(((await other.json()) as { error?: boolean }).error, true, 'an ErrorResponse');
  });

  it('a shop that disconnects itself hears store.disconnected once and stops selling; the other shop still sells', async () => {
    const [montana, trigal] = shops as [Shop, Shop];
    const apiKey = (await trigal.setting('api_key'))!;
    const gone = await fetch(`${serveUrl}/v1/stores/me`, { method: 'DELETE', headers: { Authorization: `Bearer ${apiKey}` } });
    assert.equal(gone.status, 200, await gone.clone().text());
    await until('the shop to hear it is disconnected', async () => (await trigal.setting('status')) === 'disconnected');
    const disconnected = await trigal.rows<Notice>("SELECT id FROM notices WHERE type = 'store.disconnected'");
    assert.equal(disconnected.length, 1, 'one store.disconnected');
    // Its revoked key is 401; a new cart on its page shows no checkout and says the shop does not sell.
    assert.equal((await fetch(`${serveUrl}/v1/stores/me`, { headers: { Authorization: `Bearer ${apiKey}` } })).status, 401);
    const cartOf = async (shop: Shop) => {
      const made = await fetch(`${shop.url}/index.php`, { method: 'POST', body: new URLSearchParams({ 'quantity[cafe]': '1' }), redirect: 'manual' });
      return fetch(new URL(made.headers.get('location') ?? '', shop.url));
    };
    const refused = await cartOf(trigal);
    assert.equal(refused.status, 409);
    const refusedHtml = await refused.text();
    assert.match(refusedHtml, /La tienda todavía no recibe pagos/);
    assert.doesNotMatch(refusedHtml, /<pay-checkout/);
    const selling = await cartOf(montana);
    assert.equal(selling.status, 200);
    assert.match(await selling.text(), /<pay-checkout link="\w+">/);
  });

  it('the PHP calls of the For platforms page register a shop and make a link for a connected one', async () => {
    const page = readFileSync(path.join(repoRoot, 'docs/site/plugin-authors/platforms.md'), 'utf8');
    const block = [...page.matchAll(/^```php\n([\s\S]*?)^```$/gm)].map((m) => m[1] ?? '').find((text) => text.includes('function pay_checkout_link'));
    assert.ok(block, 'the page gives the two calls in PHP');
    const docsCall = (call: string, args: string[]) => runPhp(`${block.replace(/^<\?php/, '')}\n${call}`, args);
    const registered = JSON.parse(
      await docsCall('echo json_encode(pay_checkout_register($argv[1], "Tienda del ejemplo", $argv[2]));', [serveUrl, shops[0]!.url]),
    ) as { store_id: string; api_key: string; notify_secret: string; connect_url: string; status: string };
    assert.equal(registered.status, 'pending');
    assert.ok(registered.api_key && registered.notify_secret && registered.connect_url, JSON.stringify(Object.keys(registered)));
    const apiKey = (await shops[0]!.setting('api_key'))!;
    const hash = await docsCall('echo pay_checkout_link($argv[1], $argv[2], "ord_docs_1", "1 × Café de Huila, 500 g", 38000);', [serveUrl, apiKey]);
    assert.match(hash, /^\w+$/, 'a link hash');
    // The same order again is the same link (its Idempotency-Key), never a second one.
    assert.equal(await docsCall('echo pay_checkout_link($argv[1], $argv[2], "ord_docs_1", "1 × Café de Huila, 500 g", 38000);', [serveUrl, apiKey]), hash);
  });
});
