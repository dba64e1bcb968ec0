/**
 * The element pays with Nequi, Daviplata and Bre-B through createCheckoutHandler() in front of the sandbox
 * in its `live` dialect (result wrappers, `{ payment_gateways }`, amount/created_at, every docs-required shopper field
 * enforced, X-Wava-* data-nested webhooks). The merchant's page and the handler share one origin, as on a merchant's
 * server; the buyer's cancel goes through the handler's PUT fallback. Engine-neutral (support/driver.ts), so run.mjs runs it in Chromium, Firefox and WebKit.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { currentEngine, engineLabel } from '../harness/engines.mjs';
import { createCheckoutHandler, toNodeListener, type CheckoutLinkInfo } from '../../src/server/index.js';
import type { DialectReport } from '../../src/client/index.js';
import { listenOnLoopback } from '../node/handler-harness.js';
import { CheckoutPage, type FieldReading } from './support/checkout-page.js';
import { openDriver, stopSharedDrivers, type Driver } from './support/driver.js';
import { completeOutside, distDir, gateways, startSandboxWorld, type ControlOrder, type Gateway, type SandboxWorld } from './support/harness.js';

const engine = currentEngine();
const contact = { first_name: 'Ana', last_name: 'Pérez', email: 'ana@example.co', phone_number: '+573001234567' };
const links: Record<string, CheckoutLinkInfo> = {
  // The store knows its buyer, as the live plugin sends its customer with every link.
  'tienda-live': { amount: 50_000, description: 'Camiseta talla M', storeName: 'Tienda Demo', shopper: contact },
  // The store knows nothing of the buyer: the element asks for the contact fields.
  'sin-datos': { amount: 20_000, description: 'Gorra', storeName: 'Tienda Demo' },
  // The store knows the buyer's name and email, not the phone: the element asks for the phone alone.
  'sin-telefono': { amount: 40_000, description: 'Bufanda', storeName: 'Tienda Demo', shopper: { ...contact, phone_number: null } },
};
/** The details screen's document fields, as a screen reader names them: every method asks for them. */
const documentFields: FieldReading[] = [
  { role: 'combobox', name: 'Tipo de documento', description: '' },
  { role: 'textbox', name: 'Número de documento', description: 'Puedes escribirlo con o sin puntos' },
];
/** The phone asked as the buyer's contact, on a method (Daviplata) that does not pay from it. */
const contactPhone: FieldReading = { role: 'textbox', name: 'Número de celular', description: 'Tu celular de contacto, 10 dígitos' };

/** The merchant's server: the page, the built element and the handler under /v1, on one origin. */
async function merchantServer(world: SandboxWorld, reports: DialectReport[]): Promise<{ url: string; close(): Promise<void> }> {
  const handler = toNodeListener(
    createCheckoutHandler({
      merchantKey: 'mk_test_demo',
      baseUrl: world.sandbox.baseUrl,
      resolveLink: (hash) => links[hash] ?? null,
      webhookSecret: 'whsec_test_demo',
      limits: false,
      onDialect: (report) => reports.push(report),
    }),
  );
  const page = (hash: string) => `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>Tienda</title>
<script type="module" src="/dist/pay-checkout.js"></script></head><body>
<pay-checkout link="${hash}" api-base="/v1"></pay-checkout></body></html>`;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname.startsWith('/v1/')) return void handler(req, res);
    if (url.pathname.startsWith('/pay/')) return void res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(page(url.pathname.slice(5)));
    const file = path.join(distDir, path.normalize(url.pathname.replace(/^\/dist\//, '')));
    if (!url.pathname.startsWith('/dist/') || !file.startsWith(distDir + path.sep)) return void res.writeHead(404).end();
    readFile(file).then(
      (body) => res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8' }).end(body),
      () => res.writeHead(404).end(),
    );
  });
  return listenOnLoopback(server);
}

describe(`the element through the handler, against the live dialect, in ${engineLabel[engine]}`, () => {
  let world: SandboxWorld;
  let merchant: { url: string; close(): Promise<void> };
  let driver: Driver | undefined;
  let page: CheckoutPage;
  const reports: DialectReport[] = [];

  before(async () => {
    world = await startSandboxWorld({ dialect: 'live' });
    merchant = await merchantServer(world, reports);
  });
  after(async () => {
    await stopSharedDrivers();
    await merchant.close();
    await world.close();
  });
  beforeEach(async () => {
    await world.reset();
    await world.control('POST', '/forward', { url: `${merchant.url}/v1/webhooks` });
    driver = await openDriver(engine);
    page = new CheckoutPage(driver);
  });
  afterEach(async () => {
    await driver?.close();
    driver = undefined;
  });

  /** The one order the handler created (orders made through the merchant API belong to no sandbox link). */
  async function theOrder(): Promise<ControlOrder> {
    const found = await world.orders();
    assert.equal(found.length, 1, 'one order');
    return found[0] as ControlOrder;
  }

  async function payWith(hash: string, gateway: Gateway): Promise<ControlOrder> {
    await page.open(`${merchant.url}/pay/${hash}`);
    await page.payWith(gateway);
    return theOrder();
  }

  /** Opens the link, chooses the method and answers what its details screen shows, field by field. */
  async function detailsOf(hash: string, gateway: Gateway): Promise<FieldReading[]> {
    await page.open(`${merchant.url}/pay/${hash}`);
    await page.waitForStep('method');
    await page.clickButton(gateway.name);
    await page.waitForStep('details');
    return page.fields();
  }

  /** The document as the buyer types it: a cédula. */
  async function typeDocument(): Promise<void> {
    await page.choose('Tipo de documento', 'Cédula de Ciudadanía (CC)');
    await page.typeInto('Número de documento', '1020304050');
  }

  /** From Daviplata's details, filled: Pagar, then the SMS code the sandbox sent; answers the order. */
  async function payWithCode(): Promise<ControlOrder> {
    await page.clickButton('Pagar');
    await page.waitForStep('otp');
    const order = await theOrder();
    assert.ok(order.otp);
    await page.typeInto('Código de 6 dígitos', order.otp);
    await page.clickButton('Confirmar pago');
    return order;
  }

  async function assertPaid(order: ControlOrder): Promise<void> {
    await page.waitForStep('paid');
    assert.match(await page.text(), new RegExp(`Número de orden ${order.id_order}\\b`));
    const shopper = world.sandbox.sandbox.state.orders.get(order.id_order)?.shopper;
    assert.deepEqual({ ...shopper, phone_number: undefined }, { id_number: '1020304050', id_type: 1, ...contact, phone_number: undefined, country: 'CO' });
  }

  it('Nequi: approved on the phone, the receipt shows', async () => {
    const order = await payWith('tienda-live', gateways.push);
    await completeOutside(world, order);
    await assertPaid(order);
    assert.ok(reports.some((r) => r.variant === 'result_envelope'), 'the handler said which dialect the service speaks');
  });

  it('Daviplata: the record knows the whole contact, so the details ask only the document; the SMS code pays the order', async () => {
    assert.deepEqual(await detailsOf('tienda-live', gateways.otp), documentFields);
    await typeDocument();
    await assertPaid(await payWithCode());
  });

  it('Bre-B: the transfer key on screen, paid from the bank', async () => {
    const order = await payWith('tienda-live', gateways.transfer);
    assert.ok(order.transfer_key);
    await page.waitForText(order.transfer_key);
    await completeOutside(world, order);
    await assertPaid(order);
  });

  it('the buyer cancels from the element: the handler reaches the live dialect\'s PUT route, the order is cancelled', async () => {
    const order = await payWith('tienda-live', gateways.push);
    await page.clickButton('Cancelar pago');
    await page.waitForStep('cancelled');
    assert.match(await page.text(), /Pago cancelado/);
    assert.equal(world.sandbox.sandbox.state.orders.get(order.id_order)?.status, 'cancelled');
    assert.ok(reports.some((r) => r.variant === 'cancel_put_route'), 'the handler said it uses PUT /orders/{id}/cancel');
  });

  it('a link whose record lacks the contact: the element asks for it, and the order carries what the buyer typed', async () => {
    assert.deepEqual(await detailsOf('sin-datos', gateways.otp), [
      ...documentFields,
      contactPhone,
      { role: 'textbox', name: 'Nombre', description: '' },
      { role: 'textbox', name: 'Apellido', description: '' },
      { role: 'textbox', name: 'Correo electrónico', description: '' },
    ]);
    await typeDocument();
    await page.typeInto('Número de celular', '310 987 6543');
    await page.typeInto('Nombre', 'Beatriz');
    await page.typeInto('Apellido', 'Gómez');
    await page.typeInto('Correo electrónico', 'bea@example.co');
    await page.clickButton('Pagar');
    await page.waitForStep('otp');
    const order = await theOrder();
    const shopper = world.sandbox.sandbox.state.orders.get(order.id_order)?.shopper;
    assert.equal(shopper?.first_name, 'Beatriz');
    assert.equal(shopper?.email, 'bea@example.co');
    assert.equal(shopper?.country, 'CO');
  });

  it('a link whose record lacks only the phone: the element asks for the phone alone, and the paid order carries every field', async () => {
    assert.deepEqual(await detailsOf('sin-telefono', gateways.otp), [...documentFields, contactPhone]);
    await typeDocument();
    // Pay without the phone: the element refuses before any order, naming the one field it asked for.
    await page.clickButton('Pagar');
    await page.waitForText('Revisa 1 dato');
    assert.deepEqual(await page.fields(), [...documentFields, { ...contactPhone, description: `Error: Escribe tu número de celular ${contactPhone.description}` }]);
    assert.equal((await world.orders()).length, 0, 'no order without the phone');
    await page.typeInto('Número de celular', '310 987 6543');
    const order = await payWithCode();
    await page.waitForStep('paid');
    // The name and email from the store's record, the phone from the buyer, the country from the handler.
    const shopper = world.sandbox.sandbox.state.orders.get(order.id_order)?.shopper;
    assert.deepEqual(shopper, { id_number: '1020304050', id_type: 1, ...contact, phone_number: '3109876543', country: 'CO' });
  });
});
