/**
 * The live checkout in Firefox or WebKit ($ENGINE), over the e2e suite's driver: the built site from a plain static
 * server, its Service Worker sandbox starting in this engine, Nequi paid through the phone simulator beside it.
 * Run by test/docs/run.mjs after its Chromium checks; prints one line per engine, `ok` or the reason.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CheckoutPage } from '../e2e/support/checkout-page.js';
import { openDriver, stopSharedDrivers, waitFor } from '../e2e/support/driver.js';
import { currentEngine } from '../harness/engines.mjs';
import { serveStatic } from './static-server.mjs';

const site = await serveStatic(path.join(fileURLToPath(new URL('../../', import.meta.url)), 'dist-docs'), '/');
const driver = await openDriver(currentEngine());
try {
  const page = new CheckoutPage(driver);
  await page.open(`${site.origin}/sandbox/live.html`);
  await waitFor(driver, `document.getElementById('live-status')?.textContent.includes('running')`, 'the sandbox in the worker', 60_000);
  await page.waitForStep('method');
  await page.clickButton('Nequi');
  await page.waitForStep('details');
  // The checkout speaks the browser's language: Spanish in Chromium here, English in Firefox's default profile.
  const en = (await page.text()).includes('Document type');
  await page.choose(en ? 'Document type' : 'Tipo de documento', 'Cédula de Ciudadanía (CC)');
  await page.typeInto(en ? 'Document number' : 'Número de documento', '1020304050');
  await page.typeInto(en ? 'Mobile number' : 'Número de celular', '300 123 4567');
  await page.clickButton(en ? 'Pay' : 'Pagar');
  await page.waitForStep('push');
  await waitFor(driver, `[...document.querySelectorAll('.live-phone button')].some((b) => b.textContent.trim() === 'Aprobar')`, 'the push on the phone', 30_000);
  await page.clickButton('Aprobar');
  await page.waitForStep('paid');
  if (!/¡Pago exitoso!|Payment successful/.test(await page.text())) throw new Error('no receipt');
  console.log('ok');
} finally {
  await driver.close().catch(() => undefined);
  await stopSharedDrivers();
  await site.close();
}
