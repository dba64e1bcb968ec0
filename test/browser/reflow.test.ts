// 200% text on a 390 px and a 320 px phone (WCAG 1.4.10), in the hosted page's own layout (its
// centring grid, which let the method list's widest word widen the page to 431 px): no screen scrolls sideways.
import { expect, fixture, html } from '@open-wc/testing';
import { chooseMethod, control, currentScreen, fillDetails, latestOrderId, resetSandbox, waitForStep } from './support/checkout.js';
import { pageCss } from '../../hosted/page-styles.js';
import type { PayCheckout } from '../../src/index.js';
import type { FlowStep } from '../../src/flow/types.js';

// The page's body rule on a phone-wide box instead of the test page's body.
const pageSheet = new CSSStyleSheet();
pageSheet.replaceSync(pageCss.replace(/\bbody\{/, '.phone{').replace(/min-height:100vh;?/, ''));

async function onPhone(link: string, width: number): Promise<{ el: PayCheckout; phone: HTMLElement }> {
  document.documentElement.style.fontSize = '200%';
  const phone = await fixture<HTMLElement>(
    html`<div class="phone" style="width: ${width}px; overflow: auto">
      <main><pay-checkout link=${link} api-base="/v1" locale="es"></pay-checkout></main>
    </div>`,
  );
  return { el: phone.querySelector('pay-checkout') as PayCheckout, phone };
}

/** Nothing reaches past the phone's right edge, in the page or inside the element's shadow roots. */
async function expectReflow(el: PayCheckout, phone: HTMLElement, step: FlowStep, width: number): Promise<void> {
  await waitForStep(el, step);
  await new Promise((resolve) => requestAnimationFrame(resolve));
  const right = phone.getBoundingClientRect().right + 0.5;
  const screen = currentScreen(el);
  const wide = [el, ...(screen.shadowRoot?.querySelectorAll<HTMLElement>('*') ?? [])]
    .filter((node) => node.getBoundingClientRect().right > right)
    .map((node) => `${node.localName}.${typeof node.className === 'string' ? node.className : ''} (${Math.round(node.getBoundingClientRect().width)} px)`);
  expect(wide, `${step} at ${width} px: wider than the phone: ${wide.join(', ')}`).to.deep.equal([]);
  expect(phone.scrollWidth, `${step} at ${width} px: the page scrolls sideways`).to.be.at.most(phone.clientWidth);
}

describe('the hosted page at 200% text', () => {
  before(() => {
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, pageSheet];
  });
  after(() => {
    document.adoptedStyleSheets = document.adoptedStyleSheets.filter((sheet) => sheet !== pageSheet);
  });
  beforeEach(resetSandbox);
  afterEach(() => document.documentElement.style.removeProperty('font-size'));

  for (const width of [390, 320]) {
    it(`reflows every screen at ${width} px: amount, methods, details, push, paid, already paid`, async () => {
      const dynamic = await onPhone('demo-dynamic', width);
      await expectReflow(dynamic.el, dynamic.phone, 'amount', width);
      const { el, phone } = await onPhone('demo-fixed', width);
      await expectReflow(el, phone, 'method', width);
      await chooseMethod(el, 'Nequi');
      await expectReflow(el, phone, 'details', width);
      await fillDetails(el, { phone: '300 123 4567' });
      await expectReflow(el, phone, 'push', width);
      await control(`/orders/${await latestOrderId()}/approve`, {});
      await expectReflow(el, phone, 'paid', width);
      sessionStorage.clear();
      localStorage.clear();
      const again = await onPhone('demo-fixed', width);
      await expectReflow(again.el, again.phone, 'unavailable', width);
    });

    it(`reflows the SMS code, transfer, declined and expired screens at ${width} px`, async () => {
      const otp = await onPhone('demo-fixed', width);
      await chooseMethod(otp.el, 'Daviplata');
      await fillDetails(otp.el, {});
      await expectReflow(otp.el, otp.phone, 'otp', width);
      await resetSandbox();
      const push = await onPhone('demo-fixed', width);
      await chooseMethod(push.el, 'Nequi');
      await fillDetails(push.el, { phone: '300 123 4567' });
      await waitForStep(push.el, 'push');
      await control(`/orders/${await latestOrderId()}/expire`, {});
      await expectReflow(push.el, push.phone, 'expired', width);
      await resetSandbox();
      const transfer = await onPhone('demo-fixed', width);
      await chooseMethod(transfer.el, 'Bre-B');
      await fillDetails(transfer.el, {});
      await expectReflow(transfer.el, transfer.phone, 'transfer', width);
      await control(`/orders/${await latestOrderId()}/decline`, {});
      await expectReflow(transfer.el, transfer.phone, 'declined', width);
    });
  }
});
