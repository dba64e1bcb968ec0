import { expect, waitUntil } from '@open-wc/testing';
import {
  chooseMethod,
  click,
  control,
  fillDetails,
  heading,
  latestOrderId,
  mount,
  recordEvents,
  resetSandbox,
  sandboxOrder,
  screenRoot,
  waitForStep,
} from './support/checkout.js';
import type { PayCheckout } from '../../src/index.js';

async function toTransfer(el: PayCheckout): Promise<void> {
  await chooseMethod(el, 'Bre-B');
  await fillDetails(el, {});
  await waitForStep(el, 'transfer');
}

describe('<pay-checkout> transfer (Bre-B)', () => {
  beforeEach(resetSandbox);

  it('shows the key as text, a locally drawn QR with a text alternative, and pays', async () => {
    const el = await mount();
    const events = recordEvents(el, ['pay-paid']);
    await toTransfer(el);
    expect(heading(el)).to.equal('Paga con Bre-B');
    const key = (await sandboxOrder(await latestOrderId())).transfer_key ?? '';
    expect(key).to.not.equal('');
    expect(screenRoot(el).querySelector('.key .value')?.textContent?.trim()).to.equal(key);
    await waitUntil(() => screenRoot(el).querySelector('.qr img'), 'QR not drawn', { timeout: 4000 });
    const img = screenRoot(el).querySelector<HTMLImageElement>('.qr img');
    expect(img?.src.startsWith('data:image/png;base64,')).to.equal(true);
    expect(img?.alt).to.equal('Código QR para pagar con Bre-B');
    await expect(el).to.be.accessible();
    await control(`/orders/${await latestOrderId()}/pay`, {});
    await waitForStep(el, 'paid');
    expect(events).to.have.length(1);
    expect(screenRoot(el).textContent).to.include('Bre-B');
  });

  it('copies the key and confirms "Llave copiada" beside the button and in the live region', async () => {
    const el = await mount();
    await toTransfer(el);
    const writes: string[] = [];
    const original = Object.getOwnPropertyDescriptor(Navigator.prototype, 'clipboard');
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: { writeText: async (text: string) => void writes.push(text) },
    });
    try {
      await click(el, 'Copiar llave');
      await waitUntil(() => screenRoot(el).getElementById('copy-result')?.textContent?.includes('Llave copiada'), 'no "Llave copiada"');
      expect(writes).to.deep.equal([screenRoot(el).querySelector('.key .value')?.textContent?.trim()]);
      const live = el.shadowRoot?.querySelector('[aria-live="polite"]');
      await waitUntil(() => live?.textContent?.includes('Llave copiada'), 'live region silent');
      expect(el.shadowRoot?.querySelectorAll('[aria-live]')).to.have.length(1);
    } finally {
      delete (navigator as unknown as Record<string, unknown>).clipboard;
      if (original) Object.defineProperty(Navigator.prototype, 'clipboard', original);
    }
  });

  it('expires after 15 minutes on the sandbox clock', async () => {
    const el = await mount();
    await toTransfer(el);
    await control('/clock', { advance_ms: 15 * 60 * 1000 + 1000 });
    await waitForStep(el, 'expired');
    await expect(el).to.be.accessible();
  });

  it('cancels when the buyer presses cancel', async () => {
    const el = await mount();
    await toTransfer(el);
    await click(el, 'Cancelar pago');
    await waitForStep(el, 'cancelled');
  });

  it('is declined through the control API', async () => {
    const el = await mount();
    await toTransfer(el);
    await control(`/orders/${await latestOrderId()}/decline`, {});
    await waitForStep(el, 'declined');
  });
});
