/** Store names and link descriptions carrying HTML and script payloads render as text, and never run. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Buyer, completeOutside, gateways, onlyOrder, startWorld, type World } from './support/harness.js';

const storeName = `<img src=x onerror=alert(1)>Tienda "Q" & <b>Co</b>`;
const description = '<img src=x onerror=alert(1)><script>alert(2)</script>';

describe('HTML and script payloads from the merchant', () => {
  let world: World;
  let hash = '';
  before(async () => {
    world = await startWorld();
    // A store whose name is a payload, onboarded as any partner's merchant would be, and its link.
    const store = await world.control<{ merchant_key: string }>('POST', '/onboarding', { platform: 'demo-partner', store_name: storeName });
    const response = await fetch(`${world.sandbox.baseUrl}/links`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'merchant-key': store.merchant_key },
      body: JSON.stringify({ description, amount: 50_000 }),
    });
    assert.equal(response.status, 200, await response.clone().text());
    hash = ((await response.json()) as { data: { hash: string } }).data.hash;
  });
  after(() => world.close());

  it('shows them literally on every screen, with no element made from them and no dialog', async () => {
    const buyer = await Buyer.create(world);
    try {
      await buyer.open(hash);
      await buyer.waitForStep('method');
      const injected = () =>
        // A loop, not an inner function: tsx's keepNames would wrap one in a helper the page lacks.
        buyer.page.evaluate(() => {
          let found = 0;
          const roots: (Document | ShadowRoot)[] = [document];
          for (let root = roots.pop(); root; root = roots.pop()) {
            // The server-rendered page's link answer is an inert JSON script: counted only if a `<` got into it raw. Its
            // entry script, at the end of the body (only the next screens' preloads after it) and allowed by its hash, is the
            // page's own, outside where text is drawn: one such script is expected, a second would be counted. So is the
            // small classic script before it that keeps an early tap (its text is the page's, named by its hash too).
            found += root.querySelectorAll('img[src="x"], b, script:not([src]):not([type="application/json"])').length;
            if (root === document) found -= Math.min(1, document.querySelectorAll('body > script[type="module"]:not([src])').length);
            if (root === document) found -= Math.min(1, [...document.querySelectorAll('body > script:not([src]):not([type])')].filter((s) => s.textContent?.startsWith('addEventListener("click",')).length);
            for (const data of root.querySelectorAll('script[type="application/json"]')) if (data.textContent?.includes('<')) found += 1;
            for (const el of root.querySelectorAll('*')) if (el.shadowRoot) roots.push(el.shadowRoot);
          }
          return found;
        });
      const check = async () => {
        const text = await buyer.text();
        assert.ok(text.includes(storeName), `store name shown literally: ${text}`);
        assert.ok(text.includes(description), `description shown literally: ${text}`);
        assert.equal(await injected(), 0, 'no element parsed from the payloads');
      };
      await check();
      assert.equal(await buyer.page.title(), `${storeName} · Pago`, 'the tab title is the literal name');
      await buyer.payWith(gateways.push);
      await check();
      await completeOutside(world, await onlyOrder(world, hash));
      await buyer.waitForStep('paid');
      await check();
      assert.equal(buyer.dialogs, 0, 'no alert() ran');
      assert.deepEqual((await buyer.recorded()).violations, [], 'nothing even tried to run against the CSP');
    } finally {
      await buyer.close();
    }
  });
});
