/**
 * Under the strict Content-Security-Policy sent as a response header (on top of the page's own meta tag),
 * every gateway's whole flow works and the page reports no violation.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { Buyer, completeOutside, gateways, onlyOrder, startWorld, type Gateway, type World } from './support/harness.js';

const strictCsp = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:";

describe('strict Content-Security-Policy header', () => {
  let world: World;
  before(async () => (world = await startWorld()));
  after(() => world.close());
  beforeEach(() => world.reset());

  async function strictBuyer(): Promise<{ buyer: Buyer; documents: string[] }> {
    const buyer = await Buyer.create(world);
    const documents: string[] = [];
    // The hosted page's HTML gets the policy as a header, as a careful deployer would send it.
    await buyer.context.route(`${world.sandbox.checkoutUrl}/**`, async (route) => {
      if (route.request().resourceType() !== 'document') return route.continue();
      const response = await route.fetch();
      documents.push(route.request().url());
      // A server-rendered page's shadow roots carry <style> elements, and the page its entry script, which its own
      // policy allows by hash (never 'unsafe-inline'); the careful deployer's header allows those same hashes, each in
      // its own directive, and nothing more.
      const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]*)"/.exec(await response.text())?.[1] ?? '';
      const hashesOf = (directive: string) => (new RegExp(`${directive} ([^;]*)`).exec(meta)?.[1] ?? '').match(/'sha256-[\w+/=]+'/g) ?? [];
      const policy = strictCsp
        .replace("style-src 'self'", ["style-src 'self'", ...hashesOf('style-src')].join(' '))
        .replace("script-src 'self'", ["script-src 'self'", ...hashesOf('script-src')].join(' '));
      await route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': policy } });
    });
    return { buyer, documents };
  }

  async function assertClean(buyer: Buyer): Promise<void> {
    const { violations, errors } = await buyer.recorded();
    assert.deepEqual(violations, [], 'securitypolicyviolation events');
    assert.deepEqual(errors, [], 'uncaught errors');
    assert.deepEqual(buyer.pageErrors, [], 'page errors');
    assert.deepEqual(buyer.consoleErrors.filter((m) => /Content.Security.Policy|Refused/i.test(m)), [], 'CSP console errors');
  }

  for (const gateway of Object.values(gateways) as Gateway[]) {
    it(`${gateway.name}: the whole flow works and nothing is blocked`, async () => {
      const { buyer, documents } = await strictBuyer();
      try {
        await buyer.open('demo-fixed');
        await buyer.payWith(gateway);
        const order = await onlyOrder(world, 'demo-fixed');
        if (gateway.kind === 'otp') {
          assert.ok(order.otp, 'the sandbox shows the SMS code');
          await buyer.enterOtp(order.otp);
        } else if (gateway.kind === 'card') {
          await buyer.payOnCardPage();
        } else {
          if (gateway.kind === 'transfer') {
            // The QR is drawn in the page (a data: image or canvas), which the policy must allow.
            await buyer.page.waitForFunction(() => {
              const screen = document.querySelector('pay-checkout')?.shadowRoot?.querySelector('[data-step]');
              const img = screen?.shadowRoot?.querySelector('[part~="qr"] img');
              return img instanceof HTMLImageElement && img.complete && img.naturalWidth > 0;
            });
          }
          await completeOutside(world, order);
        }
        await buyer.waitForStep('paid');
        assert.match(await buyer.text(), new RegExp(`¡Pago exitoso!.*${order.id_order}`));
        assert.ok(documents.length >= 1, 'the header was added to the hosted page');
        await assertClean(buyer);
      } finally {
        await buyer.close();
      }
    });
  }
});
