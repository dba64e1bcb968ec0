import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../demo/merchant/event-log.js';
import { detailText, type DemoEventLog } from '../../demo/merchant/event-log.js';
import { applySettings, logEvents, readSettings } from '../../demo/merchant/merchant-page.js';
import '../../demo/start/fixtures-view.js';
import type { DemoFixtures } from '../../demo/start/fixtures-view.js';
import type { PayCheckout } from '../../src/define.js';
import { resetSandbox, text } from './demo-helpers.js';

/** A wait on the sandbox and the element's lazy chunks: @open-wc's default of 1 s ran out in WebKit at load 15. */
const settle = { timeout: 15_000 };

describe('demo merchant page', () => {
  beforeEach(resetSandbox);

  it('logs the events of a real <pay-checkout> against the sandbox, detail as JSON text', async () => {
    const page = await fixture<HTMLElement>(html`<div>
      <pay-checkout link="demo-fixed" api-base="/v1"></pay-checkout>
      <demo-event-log></demo-event-log>
    </div>`);
    const log = page.querySelector('demo-event-log')!;
    // The element may be ready before the log listens: re-render it under a listening parent.
    const checkout = page.querySelector('pay-checkout')!;
    logEvents(page, log);
    checkout.setAttribute('link', 'demo-dynamic');
    await waitUntil(() => log.querySelector('.event-name'), 'no event was logged', settle);
    expect(text(log.querySelector('.event-name'))).to.equal('pay-ready');
    const detail = JSON.parse(log.querySelector('pre')!.textContent ?? '') as { link: { hash: string } };
    expect(detail.link.hash).to.equal('demo-dynamic');
    await expect(log).to.be.accessible();
  });

  it('renders detail as text, never as HTML', async () => {
    const log = await fixture<DemoEventLog>(html`<demo-event-log></demo-event-log>`);
    log.add('pay-error', { message: '<img src=x onerror="window.__pwned=1">' });
    await log.updateComplete;
    expect(log.querySelector('img')).to.equal(null);
    expect(log.querySelector('pre')?.textContent).to.include('<img src=x');
    expect((window as { __pwned?: number }).__pwned).to.equal(undefined);
  });

  it('keeps short parts of a detail on one line, and the text stays the same JSON', async () => {
    const detail = { id_order: 7, gateway: { id: 1, name: 'Nequi', kind: 'push' }, ids: [1, 2, 3], long: 'x'.repeat(80) };
    const shown = detailText(detail);
    expect(JSON.parse(shown)).to.deep.equal(detail);
    expect(shown.split('\n')).to.include('  "gateway": {"id":1,"name":"Nequi","kind":"push"},');
    expect(shown.split('\n').every((line) => line.length <= 60 || line.includes('xxxx'))).to.equal(true);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const log = await fixture<DemoEventLog>(html`<demo-event-log></demo-event-log>`);
    log.add('pay-error', cyclic);
    await log.updateComplete;
    expect(log.querySelector('pre')?.textContent).to.equal('[object Object]');
  });

  it('reads the switches from the address and applies theme, locale and link', async () => {
    expect(readSettings('?link=demo-dynamic&theme=dark&locale=en')).to.deep.equal({ link: 'demo-dynamic', theme: 'dark', locale: 'en' });
    expect(readSettings('?link=evil&theme=neon')).to.deep.equal({ link: 'demo-fixed', theme: 'auto', locale: 'es' });
    const checkout = document.createElement('pay-checkout') as PayCheckout;
    const root = document.createElement('div');
    applySettings(checkout, { link: 'demo-dynamic', theme: 'dark', locale: 'en' }, root);
    expect([checkout.getAttribute('link'), checkout.getAttribute('theme'), checkout.getAttribute('locale')]).to.deep.equal(['demo-dynamic', 'dark', 'en']);
    expect(root.dataset.theme).to.equal('dark');
    applySettings(checkout, { link: 'demo-fixed', theme: 'auto', locale: 'es' }, root);
    expect(root.dataset.theme).to.equal(undefined);
  });
});

describe('demo start page', () => {
  beforeEach(resetSandbox);

  it('lists the sandbox fixtures with the hosted page of each demo link', async () => {
    const el = await fixture<DemoFixtures>(html`<demo-fixtures></demo-fixtures>`);
    await waitUntil(() => el.querySelector('[data-link]'), 'the fixtures never loaded', settle);
    const hosted = [...el.querySelectorAll('a')].map((a) => a.getAttribute('href'));
    expect(hosted).to.include('/checkout/demo-fixed').and.include('/checkout/demo-dynamic');
    expect(text(el)).to.include('mk_test_demo').and.include('whsec_test_demo').and.include('$ 50.000').and.include('Bre-B');
    await expect(el).to.be.accessible();
  });
});
