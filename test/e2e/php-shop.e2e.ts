/**
 * A shop that is not Node: examples/php under `php -S`, with `pay-checkout serve` beside it against the sandbox.
 * Each cart the PHP page makes is a link (serve asks the shop's links.php for it, signed), the buyer pays it in
 * Chromium through serve, and serve relays the outcome to the shop's notify.php, which marks the cart paid once per
 * notice id in SQLite. Then the notices the shop loses: it answers 500 three times while serve is killed with SIGKILL
 * and restarted between the tries, and the outbox in Redis still brings the notice, once.
 * One sandbox, one shop, one serve (restarted in place) and one Redis for every case.
 */
import assert from 'node:assert/strict';
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { systemBinary } from '../harness/system-packages.mjs';
import { freePort, startRedis, stopChild, type TestRedis } from '../node/redis-harness.js';
import { Buyer, completeOutside, gateways, repoRoot, settleMs, startWorld, type ControlOrder, type Gateway, type World } from './support/harness.js';

const appSecret = 'shop-and-serve-share-this-secret';
const cli = path.join(repoRoot, 'src', 'cli.ts');
const shopRoot = path.join(repoRoot, 'examples', 'php', 'public');

/** Output kept from a child for the failure message, its pipes drained so it never blocks. */
function keepTail(child: ChildProcess): () => string {
  let tail = '';
  const keep = (chunk: Buffer) => (tail = (tail + chunk.toString()).slice(-4_000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return () => tail;
}

/** Polls `check` every 50 ms until it holds, or fails with `what` after `timeoutMs`. */
async function until<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = settleMs): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`still waiting for ${what} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Every `<img>` under the element, through its shadow roots, once each has loaded or failed: its src and natural width
 * (0 when the shop's CSP blocked it; the element then hides it, so nothing else on screen says so). A string, not a
 * function: tsx's keepNames would wrap the inner function in a `__name` helper that does not exist in the page.
 */
const elementImagesScript = `(async () => {
  const images = [];
  const walk = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (el instanceof HTMLImageElement) images.push(el);
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  walk(document.querySelector('pay-checkout').shadowRoot);
  await Promise.all(images.map((img) => img.complete ? undefined : new Promise((done) => { img.addEventListener('load', done, { once: true }); img.addEventListener('error', done, { once: true }); })));
  return images.map((img) => ({ src: img.currentSrc || img.src, width: img.naturalWidth }));
})()`;

const answers = (url: string) => () => fetch(url).then((response) => response.ok);

interface Cart {
  hash: string;
  amount: number;
  paid_at: string | null;
  paid_by_event: string | null;
  id_order: number | null;
  gateway: string | null;
}
interface Notice {
  id: string;
  type: string;
  link: string;
}
interface ServeEvent {
  name: string;
  id?: string;
  attempt?: number;
  status?: number;
}
interface Delivery {
  event_id: string;
  answered: number;
}

describe('a PHP shop beside pay-checkout serve', () => {
  let world: World;
  let redis: TestRedis;
  let scratch: string;
  let database: string;
  let failuresFile: string;
  let shop: ChildProcess;
  let shopUrl: string;
  let serveChild: ChildProcess;
  let serveTail: () => string;
  /** The events of the serve process running now. */
  let serveEvents: ServeEvent[] = [];
  let serveUrl: string;
  let servePort: number;

  /** Rows from the shop's own SQLite, read with PHP as the shop reads it. */
  async function shopRows<T>(sql: string): Promise<T[]> {
    const read = 'echo json_encode((new PDO("sqlite:" . $argv[1]))->query($argv[2])->fetchAll(PDO::FETCH_ASSOC));';
    const { stdout } = await promisify(execFile)(systemBinary('php'), ['-r', read, '--', database, sql]);
    return JSON.parse(stdout) as T[];
  }
  const cartOf = async (hash: string) => (await shopRows<Cart>(`SELECT * FROM carts WHERE hash = '${hash.replace(/[^0-9a-f]/g, '')}'`))[0];
  const noticesOf = (hash: string) => shopRows<Notice>(`SELECT id, type, link FROM notices WHERE link = '${hash.replace(/[^0-9a-f]/g, '')}'`);

  /** serve's settings, the environment alone, as an operator's unit file gives them. */
  const serveEnv = () => ({
    ...process.env,
    PAY_CHECKOUT_MERCHANT_KEY: 'mk_test_demo',
    PAY_CHECKOUT_BASE_URL: world.sandbox.baseUrl,
    PAY_CHECKOUT_LINKS_URL: `${shopUrl}/links.php?hash={hash}`,
    PAY_CHECKOUT_APP_SECRET: appSecret,
    PAY_CHECKOUT_NOTIFY_URL: `${shopUrl}/notify.php`,
    // Room for the test to kill serve between two tries even on a loaded machine, and still seconds in all.
    PAY_CHECKOUT_NOTIFY_RETRY_MS: '1000',
    PAY_CHECKOUT_WEBHOOK_SECRET: 'whsec_test_demo',
    PAY_CHECKOUT_REDIS_URL: redis.url,
    PAY_CHECKOUT_SECRET: 'order-tokens-signing-secret-for-this-test',
    PAY_CHECKOUT_ALLOWED_ORIGINS: shopUrl,
    PORT: String(servePort),
    HOST: '127.0.0.1',
  });

  async function startServeCommand(): Promise<void> {
    serveChild = spawn(process.execPath, ['--import', 'tsx', cli, 'serve'], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], env: serveEnv() });
    serveTail = keepTail(serveChild);
    // Its events, one JSON line each (info on stdout, the rest on stderr): the relay's say when an attempt is settled.
    const events: ServeEvent[] = (serveEvents = []);
    let partial = '';
    const read = (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        try {
          events.push(JSON.parse(line) as ServeEvent);
        } catch {
          // not an event line
        }
      }
    };
    serveChild.stdout?.on('data', read);
    serveChild.stderr?.on('data', read);
    try {
      await until('serve to be ready', answers(`${serveUrl}/v1/health/ready`));
    } catch (error) {
      throw new Error(`${(error as Error).message}; serve said:\n${serveTail()}`);
    }
  }

  before(async () => {
    scratch = mkdtempSync(path.join(tmpdir(), 'pay-checkout-php-shop-'));
    database = path.join(scratch, 'shop.sqlite');
    failuresFile = path.join(scratch, 'notify-failures');
    world = await startWorld();
    redis = await startRedis();
    const shopPort = await freePort();
    servePort = await freePort();
    shopUrl = `http://127.0.0.1:${shopPort}`;
    serveUrl = `http://127.0.0.1:${servePort}`;
    shop = spawn(systemBinary('php'), ['-S', `127.0.0.1:${shopPort}`, '-t', shopRoot], {
      stdio: ['ignore', 'pipe', 'pipe'],
      // The same service as serve's: the shop's CSP allows the origin the gateways' icons come from.
      env: { ...process.env, PAY_CHECKOUT_APP_SECRET: appSecret, PAY_CHECKOUT_SERVE_URL: serveUrl, PAY_CHECKOUT_BASE_URL: world.sandbox.baseUrl, SHOP_DATABASE: database, SHOP_NOTIFY_FAILURES: failuresFile },
    });
    keepTail(shop);
    await until('the PHP shop to answer', answers(`${shopUrl}/index.php`));
    await startServeCommand();
    // The service's webhooks go to serve too: an outcome reaches it from them and from the buyer's status checks,
    // and the shop must still hear of it once.
    await world.control('POST', '/forward', { url: `${serveUrl}/v1/webhooks` });
  });

  after(async () => {
    if (serveChild) await stopChild(serveChild);
    if (shop) await stopChild(shop);
    await redis?.stop();
    await world?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  /** From the product page to a cart page showing the checkout; the cart's hash. */
  async function fillCart(buyer: Buyer, coffee: number, panela: number): Promise<string> {
    await buyer.page.goto(`${shopUrl}/`);
    await buyer.page.getByLabel(/Café de Huila/).fill(String(coffee));
    await buyer.page.getByLabel(/Panela/).fill(String(panela));
    await buyer.page.getByRole('button', { name: 'Ir a pagar' }).click();
    await buyer.page.waitForURL(/\/cart\.php\?hash=[0-9a-f]+$/);
    return new URL(buyer.page.url()).searchParams.get('hash') ?? '';
  }

  /** The one order the sandbox got since `before` (serve's orders belong to no sandbox link). */
  async function newOrder(before: Set<number>): Promise<ControlOrder> {
    const added = (await world.orders()).filter((order) => !before.has(order.id_order));
    assert.equal(added.length, 1, 'one new order at the service');
    return added[0] as ControlOrder;
  }

  /** A buyer fills a cart on the PHP page and pays it with `gateway` in Chromium; the cart's hash and the order. */
  async function payCart(gateway: Gateway, coffee: number, panela: number): Promise<{ hash: string; order: ControlOrder; buyer: Buyer }> {
    const buyer = await Buyer.create(world);
    const hash = await fillCart(buyer, coffee, panela);
    const known = new Set((await world.orders()).map((order) => order.id_order));
    // The gateways' icons come from the service: the shop's CSP must allow its origin, or they are blocked and hidden.
    await buyer.waitForStep('method');
    const icons = (await buyer.page.evaluate(elementImagesScript)) as { src: string; width: number }[];
    assert.ok(icons.length >= 3, `one icon per gateway: ${JSON.stringify(icons)}`);
    assert.deepEqual(icons.filter((icon) => icon.width === 0), [], "every gateway's icon loaded under the shop's CSP");
    // An anonymous cart: the shop knows nothing of the buyer, so the details screen asks for the contact too.
    await buyer.chooseMethod(gateway.name);
    await buyer.fillDetails({ phone: '300 123 4567' });
    await buyer.page.getByLabel('Nombre').fill('Ana');
    await buyer.page.getByLabel('Apellido').fill('Gómez');
    await buyer.page.getByLabel('Correo electrónico').fill('ana@example.com');
    await buyer.payButton().click();
    await buyer.waitForStep(gateway.waitingStep);
    const order = await newOrder(known);
    assert.equal(order.total, coffee * 38_000 + panela * 9_500, 'the order is for the cart the PHP shop answered');
    if (gateway.kind === 'otp') {
      assert.ok(order.otp, 'the sandbox shows the SMS code');
      await buyer.enterOtp(order.otp);
    } else {
      await completeOutside(world, order);
    }
    await buyer.waitForStep('paid');
    return { hash, order, buyer };
  }

  for (const [gateway, coffee, panela] of [
    [gateways.push, 1, 0],
    [gateways.otp, 2, 1],
    [gateways.transfer, 0, 3],
  ] as const) {
    it(`${gateway.name}: the buyer pays a PHP cart through serve, and the shop marks it paid once`, async () => {
      const { hash, order, buyer } = await payCart(gateway, coffee, panela);
      try {
        const cart = await until('the shop to mark the cart paid', async () => {
          const row = await cartOf(hash);
          return row?.paid_at ? row : undefined;
        });
        assert.equal(cart.id_order, order.id_order);
        assert.equal(cart.gateway, gateway.kind);
        const notices = await noticesOf(hash);
        assert.deepEqual(notices.map((n) => n.type), ['order.paid'], 'one notice for the cart');
        assert.equal(cart.paid_by_event, notices[0]?.id);
        // Read before the reload below, which starts the page's record afresh.
        const { violations, errors } = await buyer.recorded();
        assert.deepEqual(violations, [], "the shop's strict CSP held");
        assert.deepEqual([...errors, ...buyer.pageErrors], []);
        // The shop's own page says so, and never carried a secret.
        await buyer.page.reload();
        assert.equal(await buyer.page.locator('#cart-status').getAttribute('data-paid'), 'true');
        const html = await (await fetch(`${shopUrl}/cart.php?hash=${hash}`)).text();
        for (const secret of [appSecret, 'mk_test_demo']) assert.ok(!html.includes(secret), `no ${secret} on the page`);
        const after = await buyer.recorded();
        assert.deepEqual(after.violations, [], "the shop's strict CSP held on the paid cart's page too");
        assert.deepEqual([...after.errors, ...buyer.pageErrors], []);
        assert.deepEqual(buyer.serverErrors, []);
      } finally {
        await buyer.close();
      }
    });
  }

  it('the shop refuses a links request or a notice without a valid signature', async () => {
    const hash = (await shopRows<Cart>('SELECT hash FROM carts LIMIT 1'))[0]?.hash ?? '';
    assert.equal((await fetch(`${shopUrl}/links.php?hash=${hash}`)).status, 401);
    const forged = `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}`;
    assert.equal((await fetch(`${shopUrl}/links.php?hash=${hash}`, { headers: { 'Pay-Checkout-Signature': forged } })).status, 401);
    const notice = JSON.stringify({ id: 'evt_forged', type: 'order.paid', created_at: new Date().toISOString(), data: { link: hash } });
    const response = await fetch(`${shopUrl}/notify.php`, { method: 'POST', body: notice, headers: { 'Pay-Checkout-Signature': forged } });
    assert.equal(response.status, 401);
    assert.deepEqual(await shopRows('SELECT id FROM notices WHERE id = \'evt_forged\''), []);
  });

  it('serve --check passes against the PHP shop: its links endpoint and its notify endpoint both answer as signed', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', cli, 'serve', '--check'], { cwd: repoRoot, env: { ...serveEnv(), PORT: '0' }, timeout: 30_000 });
    assert.match(stdout, new RegExp(`${shopUrl}/links\\.php`), stdout);
    assert.match(stdout, new RegExp(`${shopUrl}/notify\\.php`), stdout);
    const test = await shopRows<Notice>("SELECT id, type, link FROM notices WHERE type = 'test'");
    assert.equal(test.length, 1, 'the signed test notice reached the shop');
  });

  it('lost notices: three 500s from the shop and serve killed with SIGKILL between the tries, the cart is still marked paid once', async () => {
    writeFileSync(failuresFile, '3');
    const { hash, buyer } = await payCart(gateways.push, 1, 1);
    await buyer.close();
    const deliveriesFor = () => shopRows<Delivery>(`SELECT event_id, answered FROM deliveries WHERE link = '${hash}' ORDER BY seq`);
    // Killed once the relay has settled the first refused try, and again after the second: what is due next lives in
    // Redis, not in serve. The attempt numbers go on across the restarts: the same outbox entry, not a new one.
    const settledAttempts: number[] = [];
    for (const refused of [1, 2]) {
      const failed = await until(`serve to settle refused try ${refused}`, async () => serveEvents.find((e) => e.name === 'notice_delivery_failed' && e.status === 500));
      settledAttempts.push(failed.attempt ?? 0);
      const killed = once(serveChild, 'exit');
      serveChild.kill('SIGKILL');
      await killed;
      await startServeCommand();
    }
    assert.deepEqual(settledAttempts, [1, 2]);
    const cart = await until('the shop to mark the cart paid', async () => {
      const row = await cartOf(hash);
      return row?.paid_at ? row : undefined;
    });
    const deliveries = await deliveriesFor();
    assert.deepEqual(
      deliveries.map((d) => d.answered).slice(0, 4),
      [500, 500, 500, 200],
      `three refused tries, then the one taken: ${JSON.stringify(deliveries)}`,
    );
    assert.equal(new Set(deliveries.map((d) => d.event_id)).size, 1, 'every try carried the same notice id');
    const notices = await noticesOf(hash);
    assert.deepEqual(notices.map((n) => n.type), ['order.paid']);
    assert.equal(cart.paid_by_event, notices[0]?.id);
    assert.equal(deliveries[0]?.event_id, notices[0]?.id);
  });

  it('a notice sent again with the same id (pay-checkout deliveries redeliver) is answered 200 and marks nothing twice', async () => {
    const [cart] = await shopRows<Cart>('SELECT * FROM carts WHERE paid_at IS NOT NULL ORDER BY paid_at LIMIT 1');
    assert.ok(cart?.paid_by_event);
    const takenBefore = await shopRows<Delivery>(`SELECT event_id, answered FROM deliveries WHERE event_id = '${cart.paid_by_event}' AND answered = 200`);
    assert.equal(takenBefore.length, 1);
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', cli, 'deliveries', 'redeliver', cart.paid_by_event], { cwd: repoRoot, env: serveEnv(), timeout: 30_000 });
    assert.match(stdout, new RegExp(cart.paid_by_event), stdout);
    await until('the shop to take the notice again', async () => (await shopRows<Delivery>(`SELECT answered FROM deliveries WHERE event_id = '${cart.paid_by_event}' AND answered = 200`)).length === 2);
    assert.deepEqual(await cartOf(cart.hash), cart, 'the cart is as it was: paid once, by the first delivery');
    assert.equal((await noticesOf(cart.hash)).length, 1);
  });

  it('no cart heard of its payment twice: one paid notice per cart, whatever the webhooks and restarts did', async () => {
    const perCart = await shopRows<{ link: string; paid: number }>("SELECT link, count(*) AS paid FROM notices WHERE type = 'order.paid' GROUP BY link");
    assert.equal(perCart.length, 4, `four paid carts: ${JSON.stringify(perCart)}`);
    assert.deepEqual(perCart.filter((row) => row.paid !== 1), []);
    const paidCarts = await shopRows<Cart>('SELECT hash FROM carts WHERE paid_at IS NOT NULL');
    assert.equal(paidCarts.length, 4);
  });
});
