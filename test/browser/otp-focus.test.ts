// A wrong SMS code is announced, and after "Confirmar pago" focus stays in the checkout, never falling to <body>.
import { expect, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { button, chooseMethod, currentScreen, field, fillDetails, mount, resetSandbox, type, waitForStep } from './support/checkout.js';
import { expectAccessibleInBothThemes, focusName, liveRegionText } from './support/a11y.js';
import type { PayCheckout } from '../../src/index.js';

async function toOtp(el: PayCheckout): Promise<void> {
  await chooseMethod(el, 'Daviplata');
  await fillDetails(el, {});
  await waitForStep(el, 'otp');
}

const settled = async (el: PayCheckout) => {
  await el.updateComplete;
  await (currentScreen(el) as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete;
};

describe('<pay-checkout> SMS code: announced, focus kept', () => {
  beforeEach(resetSandbox);

  it('"Confirmar pago" with a wrong code: focus never on <body>, back in the field, the error and attempts announced', async () => {
    const el = await mount();
    await toOtp(el);
    await type(el, 'Código', '999999');
    const confirm = button(el, 'Confirmar pago') as HTMLButtonElement;
    confirm.focus();
    confirm.click();
    await settled(el);
    // The button is disabled while the code is checked: focus must not drop out of the checkout.
    expect(focusName(el)).to.equal('input#code');
    await waitUntil(() => liveRegionText(el).includes('El código no es correcto o ya venció'), `announced: "${liveRegionText(el)}"`, { timeout: 8000 });
    expect(liveRegionText(el)).to.include('Te quedan 2 intentos');
    await settled(el);
    expect(focusName(el)).to.equal('input#code');
    await expectAccessibleInBothThemes(el);
  });

  it('Enter in the field with a wrong code: announced, focus stays in the field', async () => {
    const el = await mount();
    await toOtp(el);
    await type(el, 'Código', '111222');
    (field(el, 'Código') as HTMLInputElement).focus();
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => liveRegionText(el).includes('Te quedan 2 intentos'), `announced: "${liveRegionText(el)}"`, { timeout: 8000 });
    await settled(el);
    expect(focusName(el)).to.equal('input#code');
  });
});
